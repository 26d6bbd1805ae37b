/**
 * The scale-out backend: several stateless server processes share one PostgreSQL database.
 *
 * Every write first updates its organization's row (which locks it), so writes within one
 * organization are serialized across processes: merges lose no key and the per-organization
 * limits hold. Reads take no lock.
 */
import postgres from "postgres";
import type { SetType } from "../../secrets/schemas.ts";
import { notFound, organizationGone } from "../errors.ts";
import {
  apiKeyCreatedEvent,
  apiKeyRevokedEvent,
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
import { BOOTSTRAPPED, pendingMigrations, POSTGRES_MIGRATIONS } from "./migrations.ts";
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

type Sql = postgres.Sql | postgres.TransactionSql;

/** Connections each server process keeps open to PostgreSQL, at most. */
export const POOL_SIZE = 10;
/** Opening a connection gives up after this many seconds. */
export const CONNECT_TIMEOUT_SECONDS = 10;
/** Closing waits this many seconds at most for the queries in flight. */
export const CLOSE_TIMEOUT_SECONDS = 5;

/** Any number, so that two voicebot processes starting at once migrate one after the other. */
const MIGRATION_LOCK = 7_415_002;

const SET_WITH_VALUES = setWithValuesSql("postgres");

export class PostgresStorage implements Storage {
  readonly kind = "postgres";
  /** Writes waiting for the next group (see writeTransaction). */
  private writeQueue: QueuedWrite<(tx: postgres.TransactionSql) => Promise<unknown>>[] = [];
  /** A group is committing: writes that arrive wait for the next. */
  private committing = false;

  private constructor(private readonly sql: postgres.Sql) {}

  /**
   * `url` may carry `?search_path=schema`, sent as a connection parameter. With `create: false`,
   * undefined (and nothing made) when the schema holds no voicebot database yet.
   */
  static async open(
    url: string,
    { create = true }: { create?: boolean } = {},
  ): Promise<PostgresStorage | undefined> {
    const sql = postgres(url, {
      max: POOL_SIZE,
      onnotice: () => {},
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
    });
    const storage = new PostgresStorage(sql);
    try {
      if (await storage.migrate(create)) return storage;
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    await sql.end({ timeout: 1 });
    return undefined;
  }

  /** False when there is no database to migrate and `create` is false. */
  private async migrate(create: boolean): Promise<boolean> {
    return await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      if (!create) {
        const [{ found }] = await tx`SELECT to_regclass('schema_migrations') IS NOT NULL AS found`;
        if (!found) return false;
      }
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`;
      const [{ v }] = await tx`SELECT max(version) AS v FROM schema_migrations`;
      for (const migration of pendingMigrations(POSTGRES_MIGRATIONS, Number(v ?? 0))) {
        await tx.unsafe(migration.sql);
        await tx`INSERT INTO schema_migrations (version, applied_at) VALUES (${migration.version}, ${Date.now()})`;
      }
      return true;
    });
  }

  async getMeta(key: string): Promise<Uint8Array | undefined> {
    const [row] = await this.sql`SELECT value FROM meta WHERE key = ${key}`;
    return row?.value;
  }

  async putMetaIfAbsent(key: string, value: Uint8Array): Promise<Uint8Array> {
    await this
      .sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
    return (await this.getMeta(key))!;
  }

  async replaceMeta(key: string, expected: Uint8Array, value: Uint8Array): Promise<boolean> {
    const changed = await this
      .sql`UPDATE meta SET value = ${value} WHERE key = ${key} AND value = ${expected}`;
    return changed.count > 0;
  }

  async countSealedByHead(): Promise<Map<string, number>> {
    return toHeadCounts(
      await this.sql.unsafe(
        countSealedSql("postgres"),
      ),
    );
  }

  async resealBatch(
    cursor: ResealCursor | undefined,
    limit: number,
    current: Uint8Array,
    reseal: Reseal,
  ): Promise<{ resealed: number; next: ResealCursor | undefined }> {
    const position = cursor ?? FIRST_RESEAL;
    const { from, column, key } = RESEAL_TABLES[position.table];
    const keys = key.join(", ");
    const after = cursorValues(position);
    return await this.sql.begin(async (tx) => {
      const rows = await tx.unsafe(
        `SELECT ${keys}, ${column} AS sealed FROM ${from}
         WHERE (${keys}) > (${after.map((_, i) => `$${i + 1}`).join(", ")})
           AND ${column} IS NOT NULL
           AND substring(${column} from 1 for ${current.length}) <> $${after.length + 1}
         ORDER BY ${keys} LIMIT $${after.length + 2}`,
        [...after, current, limit],
      );
      // Organization rows first and in one order, as writers take them: no deadlock with a
      // write to the same set while the batch holds its rows.
      for (const orgId of [...new Set(rows.map((row) => row.org_id as string))].sort()) {
        await tx`SELECT 1 FROM organizations WHERE id = ${orgId} FOR UPDATE`;
      }
      const updates = rows.flatMap((row) => {
        const sealed = reseal(placeOf(row), row.sealed);
        return sealed ? [[...key.map((name) => row[name]), row.sealed, sealed]] : [];
      });
      if (updates.length === 0) {
        return { resealed: 0, next: nextReseal(position.table, rows, limit) };
      }
      // One statement for the batch: each row replaced only if it still holds what was read.
      const width = key.length + 2;
      const tuples = updates.map((_, r) =>
        `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(", ")})`
      );
      const match = key.map((name) =>
        `t.${name} = u.${name}${name === "version" ? "::integer" : ""}`
      ).join(" AND ");
      const changed = await tx.unsafe(
        `UPDATE ${from} AS t SET ${column} = u.sealed::bytea
         FROM (VALUES ${tuples.join(", ")}) AS u (${keys}, old, sealed)
         WHERE ${match} AND t.${column} = u.old::bytea`,
        updates.flat(),
      );
      return { resealed: changed.count, next: nextReseal(position.table, rows, limit) };
    });
  }

  async addApiKey(
    organization: string,
    key: NewApiKeyRecord,
    options: { onlyIfNew?: boolean } = {},
  ): Promise<boolean> {
    return await this.sql.begin(async (tx) => {
      // Two servers starting on one new database: only the first bootstraps.
      await tx`LOCK TABLE organizations IN SHARE ROW EXCLUSIVE MODE`;
      const hadOrganizations =
        (await tx`SELECT 1 FROM meta WHERE key = ${BOOTSTRAPPED}`).length > 0 ||
        (await tx`SELECT 1 FROM organizations LIMIT 1`).length > 0;
      await tx`INSERT INTO meta (key, value) VALUES (${BOOTSTRAPPED}, ${new Uint8Array([0x31])})
        ON CONFLICT (key) DO NOTHING`;
      if (options.onlyIfNew && hadOrganizations) return false;
      await tx`INSERT INTO organizations (id, name, created_at)
        VALUES (${newOrganizationId()}, ${organization}, ${key.now}) ON CONFLICT (name) DO NOTHING`;
      const [org] = await tx`SELECT id FROM organizations WHERE name = ${organization}`;
      await insertKey(tx, org.id, key, "private");
      return true;
    });
  }

  async addRuntimeKey(
    organization: string,
    key: NewApiKeyRecord,
    sets: string[],
  ): Promise<RuntimeKeyRefusal | undefined> {
    return await this.sql.begin(async (tx) => {
      // The organization's row locked, as writers lock it: no set is deleted while it binds.
      const [org] = await tx`SELECT id FROM organizations WHERE name = ${organization} FOR UPDATE`;
      if (!org) return { reason: "no-organization" } as const;
      const types = new Map<string, string | undefined>();
      for (const name of sets) types.set(name, (await existingSet(tx, org.id, name))?.type);
      const refusal = runtimeKeyRefusal(types);
      if (refusal) return refusal;
      await insertKey(tx, org.id, key, "runtime", [...types.keys()]);
      const rows = [...types.keys()].map((name) => ({
        key_id: key.id,
        org_id: org.id,
        set_name: name,
      }));
      await tx`INSERT INTO runtime_key_sets ${tx(rows)}`;
      return undefined;
    }) as RuntimeKeyRefusal | undefined;
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.sql`SELECT k.org_id, k.hash, k.kind, k.expires_at, o.name
      FROM api_keys k JOIN organizations o ON o.id = k.org_id WHERE k.id = ${id}`;
    return row && toApiKeyRecord(row);
  }

  async listApiKeys(organization: string): Promise<ApiKeyInfo[] | undefined> {
    const [org] = await this.sql`SELECT id FROM organizations WHERE name = ${organization}`;
    if (!org) return undefined;
    const keys = await this.sql`SELECT id, kind, created_at, last_used_at, expires_at
      FROM api_keys WHERE org_id = ${org.id} ORDER BY created_at, id COLLATE "C"`;
    const bindings = await this
      .sql`SELECT key_id, set_name FROM runtime_key_sets WHERE org_id = ${org.id}`;
    return toApiKeyInfos(keys, bindings);
  }

  async revokeApiKey(id: string): Promise<boolean> {
    return await this.sql.begin(async (tx) => {
      const [key] = await tx`DELETE FROM api_keys WHERE id = ${id} RETURNING org_id`;
      if (!key) return false;
      await audit(tx, apiKeyRevokedEvent(key.org_id, id));
      return true;
    });
  }

  async recordAudit(event: NewAuditEvent): Promise<void> {
    // A runtime read's event, one a read: committed with the group under way.
    await this.writeTransaction(undefined, (tx) => audit(tx, event));
  }

  async listAudit(orgId: string, limit: number, before?: number): Promise<AuditEvent[]> {
    const rows = await this.sql`SELECT id, org_id, at, actor, action, set_name, keys, request_id,
        detail FROM audit_events
      WHERE (org_id = ${orgId} OR org_id IS NULL) AND id < ${before ?? Number.MAX_SAFE_INTEGER}
      ORDER BY id DESC LIMIT ${limit}`;
    return rows.map(toAuditEvent);
  }

  async pruneAudit(before: number): Promise<number> {
    return (await this.sql`DELETE FROM audit_events WHERE at < ${before}`).count;
  }

  async touchApiKey(id: string, now: number): Promise<void> {
    await this.sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${id}`;
  }

  async setsVersion(orgId: string): Promise<number> {
    const [row] = await this.sql`SELECT sets_version FROM organizations WHERE id = ${orgId}`;
    return Number(row?.sets_version ?? 0);
  }

  async listSets(orgId: string): Promise<StoredSet[]> {
    const rows = await this.sql<SetRow[]>`SELECT name, type, region, status, error_message
      FROM secret_sets WHERE org_id = ${orgId} ORDER BY name COLLATE "C"`;
    return rows.map(toStoredSet);
  }

  async getSet(orgId: string, name: string): Promise<StoredSetDetail | undefined> {
    const [row] = await this.sql<(SetRow & { host: string | null })[]>`
      SELECT name, type, region, status, error_message, host
      FROM secret_sets WHERE org_id = ${orgId} AND name = ${name}`;
    if (!row) return undefined;
    const values = (await this.sql`SELECT key, written_at, value FROM secret_values
      WHERE org_id = ${orgId} AND set_name = ${name} ORDER BY key COLLATE "C"`).map(toStoredValue);
    const detail: StoredSetDetail = {
      ...toStoredSet(row),
      keys: values.map((value) => value.key),
      values,
    };
    if (row.host !== null) detail.host = row.host;
    return detail;
  }

  async getBoundSet(keyId: string, name: string): Promise<StoredSetDetail | undefined> {
    // One statement: the status and the values are of one moment.
    return toBoundSet(
      await this.sql.unsafe(
        `SELECT ${BOUND_SET_COLUMNS} FROM runtime_key_sets b
         JOIN secret_sets s ON s.org_id = b.org_id AND s.name = b.set_name
         LEFT JOIN secret_values v ON v.org_id = s.org_id AND v.set_name = s.name
         WHERE b.key_id = $1 AND b.set_name = $2 ORDER BY v.key COLLATE "C"`,
        [keyId, name],
      ),
    );
  }

  /**
   * Runs `fn` in a transaction holding the organization's write lock (`undefined`: none, for an
   * audit event of no change). Writes are committed in groups, as on SQLite: those that arrive
   * while a group commits make the next one, so that one disk sync acknowledges many. A group
   * locks its organizations' rows first, in one order as every writer here does (no deadlock
   * with another process); then its writes run, and one that fails leaves no trace and takes none
   * down (see GroupNeedsSavepoints); last, the organizations a write changed have their list
   * versions moved on.
   */
  private writeTransaction<T>(
    orgId: string | undefined,
    fn: (tx: postgres.TransactionSql) => Promise<T>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = fn as (tx: postgres.TransactionSql) => Promise<unknown>;
      this.writeQueue.push({ orgId, run, resolve: resolve as (value: unknown) => void, reject });
      if (!this.committing) void this.commitQueued();
    });
  }

  private async commitQueued() {
    this.committing = true;
    try {
      while (this.writeQueue.length) {
        const batch = this.writeQueue;
        this.writeQueue = [];
        let results: WriteResult[];
        try {
          try {
            results = await this.runGroup(batch, false);
          } catch (error) {
            if (!(error instanceof GroupNeedsSavepoints)) throw error;
            results = await this.runGroup(batch, true);
          }
        } catch (error) {
          // The COMMIT (or the connection) failed: no write of the group stands.
          for (const { reject } of batch) reject(error);
          continue;
        }
        settleGroup(batch, results);
      }
    } finally {
      this.committing = false;
    }
  }

  /**
   * One transaction for the group: its organizations locked in one order (so that two processes'
   * groups never wait on each other in a cycle), its writes in arrival order, each in a savepoint
   * of its own when `savepoints` (see GroupNeedsSavepoints), and the list versions moved on.
   */
  private runGroup(
    batch: QueuedWrite<(tx: postgres.TransactionSql) => Promise<unknown>>[],
    savepoints: boolean,
  ): Promise<WriteResult[]> {
    return this.sql.begin(async (tx) => {
      const orgIds = new Set(batch.flatMap(({ orgId }) => orgId ?? []));
      const live = new Set<string>();
      for (const orgId of [...orgIds].sort()) {
        const [row] = await tx`SELECT id FROM organizations WHERE id = ${orgId} FOR UPDATE`;
        if (row) live.add(orgId);
      }
      const results: WriteResult[] = [];
      const changed = new Set<string>();
      for (const { orgId, run } of batch) {
        try {
          if (orgId !== undefined && !live.has(orgId)) throw organizationGone();
          const value = savepoints
            ? await tx.savepoint((savepoint) => run(savepoint))
            : await run(tx);
          results.push({ ok: true, value });
          if (orgId !== undefined) changed.add(orgId);
        } catch (error) {
          if (!savepoints) throw new GroupNeedsSavepoints();
          results.push({ ok: false, error });
        }
      }
      // The list versions of the organizations a write that stands changed, once a group.
      if (changed.size) {
        await tx`UPDATE organizations SET sets_version = sets_version + 1
          WHERE id IN ${tx([...changed])}`;
      }
      return results;
    });
  }

  putSecrets(orgId: string, write: SecretsWrite, rules: WriteRules): Promise<WriteOutcome> {
    return this.writeTransaction(orgId, async (tx) => {
      const { existing, stored } = toSetWithValues(
        await tx.unsafe(SET_WITH_VALUES, [orgId, write.name], { prepare: true }),
      );
      const region = await placeSet(tx, orgId, write, "secret", rules, existing);
      const { removed, ...keys } = planKeys(write, stored, rules);
      const unchanged = unchangedSet(existing, { removed, ...keys });
      if (unchanged) {
        const version = await currentVersion(tx, orgId, write.name);
        return { set: unchanged, setCreated: false, ...keys, removed, version };
      }
      const set = { type: "secret", region, host: null, credentials: null };
      await writeSet(tx, orgId, write.name, set, existing !== undefined, rules.now);
      if (removed.length) {
        await tx`DELETE FROM secret_values
          WHERE org_id = ${orgId} AND set_name = ${write.name} AND key IN ${tx(removed)}`;
      }
      const rows = valuesToWrite(write, keys).map(([key, value]) => ({
        org_id: orgId,
        set_name: write.name,
        key,
        value,
        written_at: rules.now,
      }));
      if (rows.length) {
        await tx`INSERT INTO secret_values ${tx(rows)}
          ON CONFLICT (org_id, set_name, key)
          DO UPDATE SET value = excluded.value, written_at = excluded.written_at`;
      }
      const changes = { ...keys, removed };
      const version = await recordVersion(
        tx,
        orgId,
        write.name,
        rules.now,
        changes,
        write,
        (version) => secretsWriteEvent(orgId, write, rules.now, changes, version),
      );
      return {
        set: pendingSummary(write.name, set.type, region),
        setCreated: !existing,
        ...changes,
        version,
      };
    });
  }

  async listVersions(orgId: string, name: string): Promise<VersionInfo[] | undefined> {
    if (!(await existingSet(this.sql, orgId, name))) return undefined;
    const rows = await this.sql`SELECT * FROM secret_versions
      WHERE org_id = ${orgId} AND set_name = ${name} ORDER BY version DESC`;
    return rows.map(toVersionInfo);
  }

  async getVersion(
    orgId: string,
    name: string,
    version: number,
  ): Promise<StoredVersion | undefined> {
    // One snapshot for the version and its values: a purge in between cannot split them.
    return await this.sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
      const [row] = await tx`SELECT * FROM secret_versions
        WHERE org_id = ${orgId} AND set_name = ${name} AND version = ${version}`;
      if (!row) return undefined;
      const values = await tx`SELECT key, value FROM secret_version_values
        WHERE org_id = ${orgId} AND set_name = ${name} AND version = ${version} ORDER BY key`;
      return {
        ...toVersionInfo(row),
        values: values.map((value) => ({ key: value.key, sealed: value.value })),
      };
    }) as StoredVersion | undefined;
  }

  purgeVersions(orgId: string, name: string, author = OPERATOR): Promise<number | undefined> {
    return this.writeTransaction(orgId, async (tx) => {
      if (!(await existingSet(tx, orgId, name))) return undefined;
      const current = (await currentVersion(tx, orgId, name)) ?? 0;
      const purged = (await tx`DELETE FROM secret_versions
        WHERE org_id = ${orgId} AND set_name = ${name} AND version < ${current}`).count;
      await audit(tx, versionsPurgedEvent(orgId, name, author, purged, current));
      return purged;
    });
  }

  putImagePullSecret(
    orgId: string,
    write: ImagePullSecretWrite,
    rules: WriteRules,
  ): Promise<WriteOutcome> {
    return this.writeTransaction(orgId, async (tx) => {
      const existing = await existingSet(tx, orgId, write.name);
      const region = await placeSet(tx, orgId, write, "imagePullSecret", rules, existing);
      const set = {
        type: "imagePullSecret",
        region,
        host: write.host,
        credentials: write.credentials,
      };
      await writeSet(tx, orgId, write.name, set, existing !== undefined, rules.now);
      await audit(tx, imagePullSecretEvent(orgId, write, rules.now));
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
    return this.writeTransaction(orgId, async (tx) => {
      const existing = await existingSet(tx, orgId, name);
      if (!existing) throw notFound(`No set named "${name}".`);
      const deleted = await tx`DELETE FROM secret_values
        WHERE org_id = ${orgId} AND set_name = ${name} AND key = ${key}`;
      if (deleted.count === 0) throw notFound(`Set "${name}" has no key "${key}".`);
      await writeSet(tx, orgId, name, { ...existing, host: null, credentials: null }, true, now);
      const removal = { created: [], updated: [], removed: [key] };
      await recordVersion(
        tx,
        orgId,
        name,
        now,
        removal,
        { author },
        (version) => keyDeletedEvent(orgId, name, key, now, author, version),
      );
      return pendingSummary(name, existing.type, existing.region);
    });
  }

  deleteSet(orgId: string, name: string, author = OPERATOR): Promise<boolean> {
    return this.writeTransaction(orgId, async (tx) => {
      await tx`DELETE FROM secret_values WHERE org_id = ${orgId} AND set_name = ${name}`;
      const deleted = await tx`DELETE FROM secret_sets WHERE org_id = ${orgId} AND name = ${name}`;
      if (deleted.count > 0) {
        await audit(tx, { orgId, at: Date.now(), author, action: "set.delete", setName: name });
      }
      return deleted.count > 0;
    });
  }

  async pendingSets(writtenBefore: number, limit: number): Promise<PendingSet[]> {
    const rows = await this
      .sql`SELECT org_id, name, type, generation, host, credentials FROM secret_sets
      WHERE status = 'pending' AND updated_at <= ${writtenBefore} ORDER BY updated_at LIMIT ${limit}`;
    return rows.map(toPendingSet);
  }

  async finishProvisioning(outcomes: ProvisionOutcome[]): Promise<number> {
    if (outcomes.length === 0) return 0;
    return await this.sql.begin(async (tx) => {
      // Organization rows first and in one order, as writers take them: no deadlock.
      for (const orgId of [...new Set(outcomes.map(({ set }) => set.orgId))].sort()) {
        await tx`UPDATE organizations SET sets_version = sets_version + 1 WHERE id = ${orgId}`;
      }
      let recorded = 0;
      for (const { set, result } of outcomes) {
        const errorMessage = result.status === "failed" ? result.errorMessage : null;
        const changed =
          await tx`UPDATE secret_sets SET status = ${result.status}, error_message = ${errorMessage}
          WHERE org_id = ${set.orgId} AND name = ${set.name} AND generation = ${set.generation}
            AND status = 'pending'`;
        recorded += changed.count;
      }
      return recorded;
    });
  }

  async ping(): Promise<void> {
    await this.sql`SELECT 1`;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: CLOSE_TIMEOUT_SECONDS });
  }
}

async function insertKey(
  sql: Sql,
  orgId: string,
  key: NewApiKeyRecord,
  kind: ApiKeyRecord["kind"],
  sets?: string[],
) {
  await sql`INSERT INTO api_keys (id, org_id, hash, created_at, kind, expires_at)
    VALUES (${key.id}, ${orgId}, ${key.hash}, ${key.now}, ${kind}, ${key.expiresAt ?? null})`;
  await audit(sql, apiKeyCreatedEvent(orgId, key, kind, sets));
}

/** Records an event with `sql`: in a transaction, it exists exactly when its change does. */
async function audit(sql: Sql, event: NewAuditEvent) {
  await sql`INSERT INTO audit_events ${sql(auditRow(event))}`;
}

async function existingSet(sql: Sql, orgId: string, name: string): Promise<Existing | undefined> {
  const [row] = await sql<Existing[]>`SELECT name, type, region, status, error_message
    FROM secret_sets WHERE org_id = ${orgId} AND name = ${name}`;
  return row;
}

/** The region the write puts the set (`existing`) in; throws when the write may not. */
async function placeSet(
  tx: Sql,
  orgId: string,
  write: { name: string; region: string | undefined },
  type: SetType,
  rules: WriteRules,
  existing: Existing | undefined,
): Promise<string> {
  const count = existing ? 0 : await countSets(tx, orgId);
  return checkSetWrite(write.name, type, write.region, existing, () => count, rules);
}

async function countSets(sql: Sql, orgId: string): Promise<number> {
  const [{ n }] = await sql`SELECT count(*)::int AS n FROM secret_sets WHERE org_id = ${orgId}`;
  return n;
}

async function currentVersion(sql: Sql, orgId: string, name: string): Promise<number | undefined> {
  const [{ v }] = await sql`SELECT max(version) AS v FROM secret_versions
    WHERE org_id = ${orgId} AND set_name = ${name}`;
  return v == null ? undefined : Number(v);
}

/**
 * Records the set as the write leaves it as its next version, drops versions beyond the last
 * VERSIONS_KEPT, and records the write's audit event, in the write's transaction (which holds the
 * organization's row lock): one statement after the version's number, so that the lock is held
 * two round trips longer, not five.
 */
async function recordVersion(
  tx: postgres.TransactionSql,
  orgId: string,
  name: string,
  now: number,
  changes: { created: string[]; updated: string[]; removed: string[] },
  write: { author?: Author; rollbackOf?: number },
  eventOf: (version: number) => NewAuditEvent,
): Promise<number> {
  const version = ((await currentVersion(tx, orgId, name)) ?? 0) + 1;
  const row = versionRow(orgId, name, version, now, changes, write);
  // The sub-statements share one snapshot; the foreign keys are checked when all are done.
  await tx`WITH made AS (
      INSERT INTO secret_versions ${tx(row)}
    ), copied AS (
      INSERT INTO secret_version_values (org_id, set_name, version, key, value)
      SELECT org_id, set_name, ${version}, key, value FROM secret_values
      WHERE org_id = ${orgId} AND set_name = ${name}
    ), pruned AS (
      DELETE FROM secret_versions
      WHERE org_id = ${orgId} AND set_name = ${name} AND version <= ${version - VERSIONS_KEPT}
    )
    INSERT INTO audit_events ${tx(auditRow(eventOf(version)))}`;
  return version;
}

async function writeSet(
  sql: Sql,
  orgId: string,
  name: string,
  set: { type: string; region: string; host: string | null; credentials: Uint8Array | null },
  existed: boolean,
  now: number,
) {
  if (existed) {
    await sql`UPDATE secret_sets SET status = 'pending', error_message = NULL, generation = generation + 1,
      host = ${set.host}, credentials = ${set.credentials}, updated_at = ${now}
      WHERE org_id = ${orgId} AND name = ${name}`;
  } else {
    await sql`INSERT INTO secret_sets (org_id, name, type, region, status, error_message, generation,
        host, credentials, created_at, updated_at)
      VALUES (${orgId}, ${name}, ${set.type}, ${set.region}, 'pending', NULL, 1,
        ${set.host}, ${set.credentials}, ${now}, ${now})`;
  }
}
