/**
 * The embedded backend: one SQLite file through `node:sqlite`, in WAL mode.
 *
 * Every transaction runs synchronously from BEGIN IMMEDIATE to COMMIT, so no other request of
 * this process can interleave with it on the shared connection, and other processes wait on the
 * busy timeout. `synchronous=FULL`: a write is on disk before it is acknowledged; concurrent
 * writes share a commit (see `write`), which keeps that affordable.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { SetType } from "../../secrets/schemas.ts";
import { notFound, organizationGone } from "../errors.ts";
import {
  apiKeyCreatedEvent,
  apiKeyRevokedEvent,
  AUDIT_COLUMNS,
  auditRow,
  BOUND_SET_COLUMNS,
  checkSetWrite,
  countSealedSql,
  cursorValues,
  type Existing,
  FIRST_RESEAL,
  GroupNeedsSavepoints,
  imagePullSecretEvent,
  keyDeletedEvent,
  newOrganizationId,
  nextReseal,
  pendingSummary,
  placeOf,
  planKeys,
  type QueuedWrite,
  RESEAL_TABLES,
  runtimeKeyRefusal,
  secretsWriteEvent,
  SET_COLUMNS,
  type SetRow,
  settleGroup,
  setWithValuesSql,
  toApiKeyInfos,
  toApiKeyRecord,
  toAuditEvent,
  toBoundSet,
  toHeadCounts,
  toPendingSet,
  toSetWithValues,
  toStoredSet,
  toStoredValue,
  toVersionInfo,
  unchangedSet,
  valuesToWrite,
  versionRow,
  VERSIONS_KEPT,
  versionsPurgedEvent,
  type WriteResult,
} from "./common.ts";
import { BOOTSTRAPPED, pendingMigrations, SQLITE_MIGRATIONS } from "./migrations.ts";
import {
  type ApiKeyInfo,
  type ApiKeyRecord,
  type AuditEvent,
  type Author,
  type ImagePullSecretWrite,
  type NewApiKeyRecord,
  type NewAuditEvent,
  OPERATOR,
  type PendingSet,
  type ProvisionOutcome,
  type Reseal,
  type ResealCursor,
  type RuntimeKeyRefusal,
  type SecretsWrite,
  type Storage,
  type StoredSet,
  type StoredSetDetail,
  type StoredVersion,
  type VersionInfo,
  type WriteOutcome,
  type WriteRules,
} from "./types.ts";

export const BUSY_TIMEOUT_MS = 5_000;
const SET_WITH_VALUES = setWithValuesSql("sqlite");

type Row = Record<string, unknown>;

interface RecordedVersion {
  orgId: string;
  name: string;
  version: number;
}

export class SqliteStorage implements Storage {
  readonly kind = "sqlite";
  private readonly statements = new Map<string, StatementSync>();
  private writeQueue: QueuedWrite<() => unknown>[] = [];
  /** The version the write under way recorded (`recordVersion`), for its group to prune after. */
  private recorded: RecordedVersion | undefined;

  private constructor(private readonly db: DatabaseSync) {}

  static open(path: string): SqliteStorage {
    const db = new DatabaseSync(path);
    db.exec(`
      PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = FULL;
      PRAGMA foreign_keys = ON;
      PRAGMA secure_delete = ON;
    `);
    const storage = new SqliteStorage(db);
    storage.migrate();
    return storage;
  }

  private migrate() {
    this.transaction(() => {
      this.db.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
      );
      const current = this.db.prepare("SELECT max(version) AS v FROM schema_migrations")
        .get() as Row;
      for (const migration of pendingMigrations(SQLITE_MIGRATIONS, Number(current.v ?? 0))) {
        this.db.exec(migration.sql);
        this.db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)")
          .run(migration.version, Date.now());
      }
    });
  }

  /** Prepared once, reused: the hot path builds no statement. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Writes are committed in groups: all that arrived meanwhile run in arrival order and share one
   * COMMIT, so one disk sync acknowledges many; a failing one is undone alone (see
   * GroupNeedsSavepoints). No write is acknowledged before its COMMIT. A write to an
   * organization's sets moves its list version on (once a group: the group commits whole), and
   * fails when the organization is gone.
   */
  private write<T>(orgId: string | undefined, fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const resolveAny = resolve as (value: unknown) => void;
      this.writeQueue.push({ orgId, run: fn, resolve: resolveAny, reject });
      // A turn of the event loop lets the requests that are already in gather here.
      if (this.writeQueue.length === 1) setTimeout(() => this.commitQueued(), 0);
    });
  }

  private commitQueued() {
    const batch = this.writeQueue;
    this.writeQueue = [];
    if (batch.length === 0) return;
    let results: WriteResult[];
    try {
      try {
        results = this.transaction(() => this.runGroup(batch, false));
      } catch (error) {
        if (!(error instanceof GroupNeedsSavepoints)) throw error;
        results = this.transaction(() => this.runGroup(batch, true));
      }
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    settleGroup(batch, results);
  }

  /** The group's writes in arrival order; each in a savepoint of its own when `savepoints`. */
  private runGroup(batch: QueuedWrite<() => unknown>[], savepoints: boolean): WriteResult[] {
    const results: WriteResult[] = [];
    // Organizations whose list version this group moved on, by a write that stands.
    const moved = new Set<string>();
    // Each set's newest version recorded by a write that stands.
    const newest = new Map<string, RecordedVersion>();
    for (const { orgId, run } of batch) {
      if (savepoints) this.sql("SAVEPOINT write").run();
      this.recorded = undefined;
      try {
        if (orgId !== undefined && !moved.has(orgId) && !this.bumpSetsVersion(orgId)) {
          throw organizationGone();
        }
        results.push({ ok: true, value: run() });
        if (orgId !== undefined) moved.add(orgId);
        const recorded = this.recorded as RecordedVersion | undefined;
        if (recorded) newest.set(`${recorded.orgId}/${recorded.name}`, recorded);
      } catch (error) {
        if (!savepoints) throw new GroupNeedsSavepoints();
        this.sql("ROLLBACK TO write").run();
        results.push({ ok: false, error });
      }
      if (savepoints) this.sql("RELEASE write").run();
    }
    this.pruneVersions(newest.values());
    return results;
  }

  /** False when the organization is gone. */
  private bumpSetsVersion(orgId: string): boolean {
    return this.sql("UPDATE organizations SET sets_version = sets_version + 1 WHERE id = ?")
      .run(orgId).changes > 0;
  }

  /** `fn` must be synchronous: an await inside would let other requests into the transaction. */
  private transaction<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  getMeta(key: string): Promise<Uint8Array | undefined> {
    return settle(() => {
      const row = this.sql("SELECT value FROM meta WHERE key = ?").get(key) as Row | undefined;
      return row?.value as Uint8Array | undefined;
    });
  }

  putMetaIfAbsent(key: string, value: Uint8Array): Promise<Uint8Array> {
    return settle(() =>
      this.transaction(() => {
        this.sql("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(
          key,
          value,
        );
        return (this.sql("SELECT value FROM meta WHERE key = ?").get(key) as Row)
          .value as Uint8Array;
      })
    );
  }

  replaceMeta(key: string, expected: Uint8Array, value: Uint8Array): Promise<boolean> {
    return this.write(
      undefined,
      () =>
        this.sql("UPDATE meta SET value = ? WHERE key = ? AND value = ?").run(value, key, expected)
          .changes > 0,
    );
  }

  countSealedByHead(): Promise<Map<string, number>> {
    return settle(() =>
      toHeadCounts(
        this.sql(
          countSealedSql("sqlite"),
        ).all(),
      )
    );
  }

  resealBatch(
    cursor: ResealCursor | undefined,
    limit: number,
    current: Uint8Array,
    reseal: Reseal,
  ): Promise<{ resealed: number; next: ResealCursor | undefined }> {
    const position = cursor ?? FIRST_RESEAL;
    const { from, column, key } = RESEAL_TABLES[position.table];
    const keys = key.join(", ");
    return this.write(undefined, () => {
      const rows = this.sql(
        `SELECT ${keys}, ${column} AS sealed FROM ${from}
         WHERE (${keys}) > (${key.map(() => "?").join(", ")}) AND ${column} IS NOT NULL
           AND substr(${column}, 1, ?) <> ?
         ORDER BY ${keys} LIMIT ?`,
      ).all(...cursorValues(position), current.length, current, limit);
      // Replaced only if the row still holds what was read (a write made meanwhile stays).
      const update = this.sql(
        `UPDATE ${from} SET ${column} = ?
         WHERE ${key.map((name) => `${name} = ?`).join(" AND ")} AND ${column} = ?`,
      );
      let resealed = 0;
      for (const row of rows) {
        const sealed = reseal(placeOf(row), row.sealed as Uint8Array);
        if (!sealed) continue;
        const where = key.map((name) => row[name] as string | number);
        resealed += Number(update.run(sealed, ...where, row.sealed as Uint8Array).changes);
      }
      return { resealed, next: nextReseal(position.table, rows, limit) };
    });
  }

  addApiKey(
    organization: string,
    key: NewApiKeyRecord,
    options: { onlyIfNew?: boolean } = {},
  ): Promise<boolean> {
    return settle(() =>
      this.transaction(() => {
        const hadOrganizations = this.sql("SELECT 1 FROM meta WHERE key = ?").get(BOOTSTRAPPED) ||
          this.sql("SELECT 1 FROM organizations LIMIT 1").get();
        this.sql("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING")
          .run(BOOTSTRAPPED, new Uint8Array([0x31]));
        if (options.onlyIfNew && hadOrganizations) return false;
        this.sql(
          "INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
        ).run(newOrganizationId(), organization, key.now);
        const org = this.sql("SELECT id FROM organizations WHERE name = ?").get(
          organization,
        ) as Row;
        this.insertKey(org.id as string, key, "private");
        return true;
      })
    );
  }

  private insertKey(
    orgId: string,
    key: NewApiKeyRecord,
    kind: ApiKeyRecord["kind"],
    sets?: string[],
  ) {
    this.sql(
      `INSERT INTO api_keys (id, org_id, hash, created_at, kind, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(key.id, orgId, key.hash, key.now, kind, key.expiresAt ?? null);
    this.audit(apiKeyCreatedEvent(orgId, key, kind, sets));
  }

  /** Records an event in the transaction under way: it exists exactly when its change does. */
  private audit(event: NewAuditEvent) {
    this.sql(`INSERT INTO audit_events (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(...Object.values(auditRow(event)));
  }

  recordAudit(event: NewAuditEvent): Promise<void> {
    return this.write(undefined, () => this.audit(event));
  }

  listAudit(orgId: string, limit: number, before?: number): Promise<AuditEvent[]> {
    return settle(() =>
      this.sql(
        `SELECT id, ${AUDIT_COLUMNS} FROM audit_events
         WHERE (org_id = ? OR org_id IS NULL) AND id < ? ORDER BY id DESC LIMIT ?`,
      ).all(orgId, before ?? Number.MAX_SAFE_INTEGER, limit).map(toAuditEvent)
    );
  }

  pruneAudit(before: number): Promise<number> {
    return this.write(
      undefined,
      () => Number(this.sql("DELETE FROM audit_events WHERE at < ?").run(before).changes),
    );
  }

  addRuntimeKey(
    organization: string,
    key: NewApiKeyRecord,
    sets: string[],
  ): Promise<RuntimeKeyRefusal | undefined> {
    return settle(() =>
      this.transaction(() => {
        const org = this.sql("SELECT id FROM organizations WHERE name = ?").get(organization) as
          | Row
          | undefined;
        if (!org) return { reason: "no-organization" } as const;
        const orgId = org.id as string;
        const types = new Map(sets.map((name) => [name, this.existing(orgId, name)?.type]));
        const refusal = runtimeKeyRefusal(types);
        if (refusal) return refusal;
        this.insertKey(orgId, key, "runtime", [...types.keys()]);
        const bind = this.sql(
          "INSERT INTO runtime_key_sets (key_id, org_id, set_name) VALUES (?, ?, ?)",
        );
        for (const name of types.keys()) bind.run(key.id, orgId, name);
        return undefined;
      })
    );
  }

  findApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    return settle(() => {
      const row = this.sql(
        `SELECT k.org_id, k.hash, k.kind, k.expires_at, o.name
         FROM api_keys k JOIN organizations o ON o.id = k.org_id WHERE k.id = ?`,
      ).get(id) as Row | undefined;
      return row && toApiKeyRecord(row);
    });
  }

  listApiKeys(organization: string): Promise<ApiKeyInfo[] | undefined> {
    return settle(() => {
      const org = this.sql("SELECT id FROM organizations WHERE name = ?").get(organization) as
        | Row
        | undefined;
      if (!org) return undefined;
      const keys = this.sql(
        `SELECT id, kind, created_at, last_used_at, expires_at FROM api_keys WHERE org_id = ?
         ORDER BY created_at, id`,
      ).all(org.id as string);
      const bindings = this.sql("SELECT key_id, set_name FROM runtime_key_sets WHERE org_id = ?")
        .all(org.id as string);
      return toApiKeyInfos(keys, bindings);
    });
  }

  revokeApiKey(id: string): Promise<boolean> {
    return this.write(undefined, () => {
      const key = this.sql("SELECT org_id FROM api_keys WHERE id = ?").get(id) as Row | undefined;
      if (!key) return false;
      this.sql("DELETE FROM api_keys WHERE id = ?").run(id);
      this.audit(apiKeyRevokedEvent(key.org_id as string, id));
      return true;
    });
  }

  touchApiKey(id: string, now: number): Promise<void> {
    return this.write(undefined, () => {
      this.sql("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(now, id);
    });
  }

  setsVersion(orgId: string): Promise<number> {
    return settle(() =>
      Number(
        (this.sql("SELECT sets_version FROM organizations WHERE id = ?").get(orgId) as
          | Row
          | undefined)?.sets_version ?? 0,
      )
    );
  }

  listSets(orgId: string): Promise<StoredSet[]> {
    return settle(() => {
      const rows = this.sql(`SELECT ${SET_COLUMNS} FROM secret_sets WHERE org_id = ? ORDER BY name`)
        .all(orgId) as unknown as SetRow[];
      return rows.map(toStoredSet);
    });
  }

  getSet(orgId: string, name: string): Promise<StoredSetDetail | undefined> {
    return settle(() => {
      const row = this.sql(
        `SELECT ${SET_COLUMNS}, host FROM secret_sets WHERE org_id = ? AND name = ?`,
      )
        .get(orgId, name) as (SetRow & { host: string | null }) | undefined;
      if (!row) return undefined;
      const values = this.sql(
        `SELECT key, written_at, value FROM secret_values WHERE org_id = ? AND set_name = ?
         ORDER BY key`,
      ).all(orgId, name).map(toStoredValue);
      const detail: StoredSetDetail = {
        ...toStoredSet(row),
        keys: values.map((value) => value.key),
        values,
      };
      if (row.host !== null) detail.host = row.host;
      return detail;
    });
  }

  getBoundSet(keyId: string, name: string): Promise<StoredSetDetail | undefined> {
    return settle(() =>
      toBoundSet(
        this.sql(
          `SELECT ${BOUND_SET_COLUMNS} FROM runtime_key_sets b
           JOIN secret_sets s ON s.org_id = b.org_id AND s.name = b.set_name
           LEFT JOIN secret_values v ON v.org_id = s.org_id AND v.set_name = s.name
           WHERE b.key_id = ? AND b.set_name = ? ORDER BY v.key`,
        ).all(keyId, name),
      )
    );
  }

  private existing(orgId: string, name: string): Existing | undefined {
    return this.sql(`SELECT ${SET_COLUMNS} FROM secret_sets WHERE org_id = ? AND name = ?`)
      .get(orgId, name) as Existing | undefined;
  }

  /** The region the write puts the set (`existing`) in; throws when the write may not. */
  private placeSet(
    orgId: string,
    write: { name: string; region: string | undefined },
    type: SetType,
    rules: WriteRules,
    existing: Existing | undefined,
  ): string {
    return checkSetWrite(
      write.name,
      type,
      write.region,
      existing,
      () => this.countSets(orgId),
      rules,
    );
  }

  private countSets(orgId: string): number {
    return Number(
      (this.sql("SELECT count(*) AS n FROM secret_sets WHERE org_id = ?").get(orgId) as Row).n,
    );
  }

  /** Creates the set, or marks it written: pending again, a new generation, no error. */
  private writeSet(
    orgId: string,
    name: string,
    set: { type: string; region: string; host: string | null; credentials: Uint8Array | null },
    existed: boolean,
    now: number,
  ) {
    if (existed) {
      this.sql(
        `UPDATE secret_sets SET status = 'pending', error_message = NULL, generation = generation + 1,
           host = ?, credentials = ?, updated_at = ? WHERE org_id = ? AND name = ?`,
      ).run(set.host, set.credentials, now, orgId, name);
    } else {
      this.sql(
        `INSERT INTO secret_sets (org_id, name, type, region, status, error_message, generation,
           host, credentials, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'pending', NULL, 1, ?, ?, ?, ?)`,
      ).run(orgId, name, set.type, set.region, set.host, set.credentials, now, now);
    }
  }

  putSecrets(orgId: string, write: SecretsWrite, rules: WriteRules): Promise<WriteOutcome> {
    return this.write(orgId, () => {
      const { existing, stored } = toSetWithValues(
        this.sql(SET_WITH_VALUES).all(orgId, write.name),
      );
      const region = this.placeSet(orgId, write, "secret", rules, existing);
      const { removed, ...keys } = planKeys(write, stored, rules);
      const unchanged = unchangedSet(existing, { removed, ...keys });
      if (unchanged) {
        const version = this.currentVersion(orgId, write.name);
        return { set: unchanged, setCreated: false, ...keys, removed, version };
      }
      const set = { type: "secret", region, host: null, credentials: null };
      this.writeSet(orgId, write.name, set, existing !== undefined, rules.now);
      const remove = this.sql(
        "DELETE FROM secret_values WHERE org_id = ? AND set_name = ? AND key = ?",
      );
      for (const key of removed) remove.run(orgId, write.name, key);
      const upsert = this.sql(
        `INSERT INTO secret_values (org_id, set_name, key, value, written_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (org_id, set_name, key)
         DO UPDATE SET value = excluded.value, written_at = excluded.written_at`,
      );
      for (const [key, value] of valuesToWrite(write, keys)) {
        upsert.run(orgId, write.name, key, value, rules.now);
      }
      const changes = { ...keys, removed };
      const version = this.recordVersion(orgId, write.name, rules.now, changes, write);
      this.audit(secretsWriteEvent(orgId, write, rules.now, changes, version));
      return {
        set: pendingSummary(write.name, set.type, region),
        setCreated: !existing,
        ...keys,
        removed,
        version,
      };
    });
  }

  private currentVersion(orgId: string, name: string): number | undefined {
    const row = this.sql(
      "SELECT max(version) AS v FROM secret_versions WHERE org_id = ? AND set_name = ?",
    ).get(orgId, name) as Row;
    return row.v == null ? undefined : Number(row.v);
  }

  /**
   * Records the set as this write leaves it as its next version, inside the write's transaction:
   * a version exists exactly when its write does. The versions beyond the last VERSIONS_KEPT
   * are dropped at the end of the group (`pruneVersions`), once a set however often it wrote it.
   */
  private recordVersion(
    orgId: string,
    name: string,
    now: number,
    changes: { created: string[]; updated: string[]; removed: string[] },
    write: { author?: Author; rollbackOf?: number },
  ): number {
    // The write holds the database until it commits, so the newest version read here is still
    // the newest when the next goes in. The read and the insert cost about half as much as one
    // INSERT ... SELECT from the table it inserts into, whose row SQLite sets aside first.
    const version = (this.currentVersion(orgId, name) ?? 0) + 1;
    this.sql(
      `INSERT INTO secret_versions (org_id, set_name, version, created_at, actor, created, updated,
         removed, rollback_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...Object.values(versionRow(orgId, name, version, now, changes, write)));
    this.sql(
      `INSERT INTO secret_version_values (org_id, set_name, version, key, value)
       SELECT org_id, set_name, ?, key, value FROM secret_values WHERE org_id = ? AND set_name = ?`,
    ).run(version, orgId, name);
    this.recorded = { orgId, name, version };
    return version;
  }

  /** Each set's versions beyond the last VERSIONS_KEPT, after its newest recorded. */
  private pruneVersions(newest: Iterable<RecordedVersion>) {
    const prune = this.sql(
      "DELETE FROM secret_versions WHERE org_id = ? AND set_name = ? AND version <= ?",
    );
    for (const { orgId, name, version } of newest) {
      prune.run(orgId, name, version - VERSIONS_KEPT);
    }
  }

  listVersions(orgId: string, name: string): Promise<VersionInfo[] | undefined> {
    return settle(() => {
      if (!this.existing(orgId, name)) return undefined;
      return this.sql(
        `SELECT * FROM secret_versions WHERE org_id = ? AND set_name = ? ORDER BY version DESC`,
      ).all(orgId, name).map(toVersionInfo);
    });
  }

  getVersion(orgId: string, name: string, version: number): Promise<StoredVersion | undefined> {
    return settle(() => {
      const row = this.sql(
        "SELECT * FROM secret_versions WHERE org_id = ? AND set_name = ? AND version = ?",
      ).get(orgId, name, version) as Row | undefined;
      if (!row) return undefined;
      const values = this.sql(
        `SELECT key, value FROM secret_version_values
         WHERE org_id = ? AND set_name = ? AND version = ? ORDER BY key`,
      ).all(orgId, name, version).map((value) => ({
        key: value.key as string,
        sealed: value.value as Uint8Array,
      }));
      return { ...toVersionInfo(row), values };
    });
  }

  async purgeVersions(orgId: string, name: string, author = OPERATOR): Promise<number | undefined> {
    const purged = await this.write(undefined, () => {
      if (!this.existing(orgId, name)) return undefined;
      const current = this.currentVersion(orgId, name) ?? 0;
      const purged = Number(
        this.sql("DELETE FROM secret_versions WHERE org_id = ? AND set_name = ? AND version < ?")
          .run(orgId, name, current).changes,
      );
      this.audit(versionsPurgedEvent(orgId, name, author, purged, current));
      return purged;
    });
    if (purged) this.overwriteOnDisk();
    return purged;
  }

  /**
   * secure_delete overwrites a deleted row in the page's new image, which WAL mode writes to the
   * `-wal`: the old image stays in the database file, and older frames in the `-wal`, until a
   * checkpoint. After a purge or a set's deletion, which are how a leaked value is got rid of,
   * the `-wal` is copied in and emptied at once. It waits (busy_timeout) for a reader of another
   * process; one still reading then leaves it to SQLite's next checkpoint. The write stands
   * either way: it is committed.
   */
  private overwriteOnDisk() {
    try {
      this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // Committed already; SQLite's automatic checkpoint does it later.
    }
  }

  putImagePullSecret(
    orgId: string,
    write: ImagePullSecretWrite,
    rules: WriteRules,
  ): Promise<WriteOutcome> {
    return this.write(orgId, () => {
      const existing = this.existing(orgId, write.name);
      const region = this.placeSet(orgId, write, "imagePullSecret", rules, existing);
      const set = {
        type: "imagePullSecret",
        region,
        host: write.host,
        credentials: write.credentials,
      };
      this.writeSet(orgId, write.name, set, existing !== undefined, rules.now);
      this.audit(imagePullSecretEvent(orgId, write, rules.now));
      const summary = pendingSummary(write.name, set.type, region);
      return {
        set: summary,
        setCreated: !existing,
        created: [],
        updated: [],
        unchanged: [],
        removed: [],
      };
    });
  }

  deleteKey(
    orgId: string,
    name: string,
    key: string,
    now: number,
    author: Author = OPERATOR,
  ): Promise<StoredSet> {
    return this.write(orgId, () => {
      const existing = this.existing(orgId, name);
      if (!existing) throw notFound(`No set named "${name}".`);
      const deleted = this.sql(
        "DELETE FROM secret_values WHERE org_id = ? AND set_name = ? AND key = ?",
      )
        .run(orgId, name, key);
      if (deleted.changes === 0) throw notFound(`Set "${name}" has no key "${key}".`);
      this.writeSet(orgId, name, { ...existing, host: null, credentials: null }, true, now);
      const removal = { created: [], updated: [], removed: [key] };
      const version = this.recordVersion(orgId, name, now, removal, { author });
      this.audit(keyDeletedEvent(orgId, name, key, now, author, version));
      return pendingSummary(name, existing.type, existing.region);
    });
  }

  async deleteSet(orgId: string, name: string, author = OPERATOR): Promise<boolean> {
    const deleted = await this.write(orgId, () => {
      this.sql("DELETE FROM secret_values WHERE org_id = ? AND set_name = ?").run(orgId, name);
      const deleted = this.sql("DELETE FROM secret_sets WHERE org_id = ? AND name = ?")
        .run(orgId, name).changes > 0;
      if (deleted) {
        this.audit({ orgId, at: Date.now(), author, action: "set.delete", setName: name });
      }
      return deleted;
    });
    if (deleted) this.overwriteOnDisk();
    return deleted;
  }

  pendingSets(writtenBefore: number, limit: number): Promise<PendingSet[]> {
    return settle(() =>
      this.sql(
        `SELECT org_id, name, type, generation, host, credentials FROM secret_sets
         WHERE status = 'pending' AND updated_at <= ? ORDER BY updated_at LIMIT ?`,
      ).all(writtenBefore, limit).map(toPendingSet)
    );
  }

  finishProvisioning(outcomes: ProvisionOutcome[]): Promise<number> {
    return this.write(undefined, () => {
      let recorded = 0;
      for (const { set, result } of outcomes) {
        const errorMessage = result.status === "failed" ? result.errorMessage : null;
        recorded += this.sql(
          `UPDATE secret_sets SET status = ?, error_message = ?
           WHERE org_id = ? AND name = ? AND generation = ? AND status = 'pending'`,
        ).run(result.status, errorMessage, set.orgId, set.name, set.generation).changes as number;
      }
      for (const orgId of new Set(outcomes.map(({ set }) => set.orgId))) {
        this.bumpSetsVersion(orgId);
      }
      return recorded;
    });
  }

  /**
   * A consistent copy of the database at one moment into `path` (an empty file, or none), taken
   * in one read transaction while writers go on (SQLite's VACUUM INTO): compact, standalone, with
   * no `-wal` beside it.
   */
  backupTo(path: string): Promise<void> {
    return settle(() => void this.db.prepare("VACUUM INTO ?").run(path));
  }

  ping(): Promise<void> {
    return settle(() => void this.sql("SELECT 1").get());
  }

  close(): Promise<void> {
    return settle(() => {
      this.commitQueued();
      this.statements.clear();
      if (this.db.isOpen) this.db.close();
    });
  }
}

/** Runs `fn` now and hands back its result, or its throw, as a promise, as Storage promises. */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}
