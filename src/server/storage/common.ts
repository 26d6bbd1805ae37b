/**
 * What both backends share: the rules a write must pass (decided inside its transaction, on the
 * state the transaction sees) and the mapping from a row to the API's shape.
 */
import type { SetStatus, SetType } from "../../secrets/schemas.ts";
import { SEALED_FORMAT, SEALED_HEAD_BYTES } from "../crypto.ts";
import { badRequest, validationError } from "../errors.ts";
import {
  type ApiKeyInfo,
  type ApiKeyKind,
  type ApiKeyRecord,
  type AuditAction,
  type AuditEvent,
  type Author,
  type ImagePullSecretWrite,
  type NewApiKeyRecord,
  type NewAuditEvent,
  OPERATOR,
  type PendingSet,
  type ResealCursor,
  type RuntimeKeyRefusal,
  type SealedPlace,
  type SecretsWrite,
  type StoredSet,
  type StoredSetDetail,
  type StoredValue,
  type VersionInfo,
  type WriteRules,
} from "./types.ts";

type Row = Record<string, unknown>;

export interface SetRow {
  name: string;
  type: string;
  region: string;
  status: string;
  error_message: string | null;
}

export const SET_COLUMNS = "name, type, region, status, error_message";

export function toStoredSet(row: SetRow): StoredSet {
  const set: StoredSet = {
    name: row.name,
    type: row.type as SetType,
    region: row.region,
    status: row.status as SetStatus,
  };
  if (row.status === "failed") set.errorMessage = row.error_message ?? "Provisioning failed.";
  return set;
}

/** What every write leaves behind: the set pending, no error. */
export function pendingSummary(name: string, type: string, region: string): StoredSet {
  return { name, type: type as SetType, region, status: "pending" };
}

export function newOrganizationId(): string {
  return "org_" + crypto.getRandomValues(new Uint8Array(8)).toHex();
}

/** The set as it stands before a write. */
export type Existing = SetRow;

/** Decides the region of a write and refuses one that changes a set's type or region. */
export function checkSetWrite(
  name: string,
  type: SetType,
  requestedRegion: string | undefined,
  existing: Existing | undefined,
  setCount: () => number,
  rules: WriteRules,
): string {
  if (existing) {
    if (existing.type !== type) {
      const other = existing.type === "secret" ? "a secret set" : "an image pull secret";
      throw badRequest(
        `"${name}" already exists as ${other}; its type cannot change: choose another name, ` +
          "or delete it first.",
      );
    }
    if (requestedRegion !== undefined && requestedRegion !== existing.region) {
      throw badRequest(
        `"${name}" already exists in region ${existing.region}; it cannot move to ` +
          `${requestedRegion}: a set cannot move between regions.`,
      );
    }
    return existing.region;
  }
  if (setCount() >= rules.maxSetsPerOrganization) {
    throw validationError("Too many sets.", [{
      field: "name",
      message:
        `the organization already has ${rules.maxSetsPerOrganization} sets, the limit; delete one first`,
    }]);
  }
  return requestedRegion ?? rules.defaultRegion;
}

/** What a write of secrets does to each key. */
export interface KeysPlan {
  created: string[];
  updated: string[];
  unchanged: string[];
  /** With `replace`: the stored keys not written. */
  removed: string[];
}

/**
 * Splits the written keys into created, updated and unchanged (see SecretsWrite.holds), lists
 * the keys `replace` removes, and enforces the keys-per-set limit. `existing` is each stored
 * key's sealed value, as the write's transaction reads it.
 */
export function planKeys(
  write: SecretsWrite,
  existing: ReadonlyMap<string, Uint8Array>,
  rules: WriteRules,
): KeysPlan {
  const writtenKeys = write.values.map(([key]) => key);
  // `holds` opens a sealed value: asked once per stored key written.
  const same = new Set(writtenKeys.filter((key) => {
    const stored = existing.get(key);
    return stored !== undefined && (write.holds?.(key, stored) ?? false);
  }));
  const created = writtenKeys.filter((key) => !existing.has(key)).sort();
  const updated = writtenKeys.filter((key) => existing.has(key) && !same.has(key)).sort();
  const unchanged = [...same].sort();
  const written = new Set(writtenKeys);
  const removed = write.replace ? [...existing.keys()].filter((key) => !written.has(key)) : [];
  const total = write.replace ? writtenKeys.length : existing.size + created.length;
  if (total > rules.maxKeysPerSet) {
    throw validationError("Too many keys.", [{
      field: "secrets",
      message: `the set would hold ${total} keys; at most ${rules.maxKeysPerSet} are allowed`,
    }]);
  }
  return { created, updated, unchanged, removed: removed.sort() };
}

/**
 * The set a write of secrets leaves when it changes no key of an existing set (every key written
 * unchanged, none removed): the set as it stands, not provisioned again. Undefined when the write
 * changes something, or when the set failed (writing it again is how a user retries).
 */
export function unchangedSet(
  existing: Existing | undefined,
  keys: KeysPlan,
): StoredSet | undefined {
  const changes = keys.created.length + keys.updated.length + keys.removed.length;
  if (!existing || changes > 0 || existing.status === "failed") return undefined;
  return toStoredSet(existing);
}

/** The values a write stores: those it creates or updates (an unchanged one keeps its row). */
export function valuesToWrite(
  write: SecretsWrite,
  keys: Pick<KeysPlan, "unchanged">,
): [string, Uint8Array][] {
  const unchanged = new Set(keys.unchanged);
  return write.values.filter(([key]) => !unchanged.has(key));
}

/** A pending set from a row of either backend (bytes, and numbers that may come as strings). */
export function toPendingSet(row: Record<string, unknown>): PendingSet {
  const set: PendingSet = {
    orgId: row.org_id as string,
    name: row.name as string,
    type: row.type as PendingSet["type"],
    generation: Number(row.generation),
  };
  if (row.host != null) set.host = row.host as string;
  if (row.credentials != null) set.credentials = row.credentials as Uint8Array;
  return set;
}

/** A key's row of either backend (PostgreSQL's BIGINT may come as a string). */
export function toStoredValue(row: Record<string, unknown>): StoredValue {
  return {
    key: row.key as string,
    writtenAt: Number(row.written_at),
    sealed: row.value as Uint8Array,
  };
}

/** Milliseconds from a column of either backend (PostgreSQL's BIGINT may come as a string). */
const millis = (value: unknown): number | null => value == null ? null : Number(value);

/** A key's row of either backend, with its organization's `name`. */
export function toApiKeyRecord(row: Row): ApiKeyRecord {
  return {
    orgId: row.org_id as string,
    organization: row.name as string,
    hash: row.hash as Uint8Array,
    kind: row.kind as ApiKeyKind,
    expiresAt: millis(row.expires_at),
  };
}

/** An organization's key rows, and its runtime keys' `bindings` (key_id, set_name), as listed. */
export function toApiKeyInfos(keys: Row[], bindings: Row[]): ApiKeyInfo[] {
  return keys.map((row) => ({
    id: row.id as string,
    kind: row.kind as ApiKeyKind,
    createdAt: Number(row.created_at),
    lastUsedAt: millis(row.last_used_at),
    expiresAt: millis(row.expires_at),
    sets: bindings.filter((binding) => binding.key_id === row.id)
      .map((binding) => binding.set_name as string).sort(),
  }));
}

/** The sets a runtime key is to be bound to, by name, and their type where one exists. */
export function runtimeKeyRefusal(
  types: Map<string, string | undefined>,
): RuntimeKeyRefusal | undefined {
  const named = (test: (type: string | undefined) => boolean) =>
    [...types].filter(([, type]) => test(type)).map(([name]) => name).sort();
  const missing = named((type) => type === undefined);
  const imagePullSecrets = named((type) => type === "imagePullSecret");
  return missing.length || imagePullSecrets.length
    ? { reason: "sets", missing, imagePullSecrets }
    : undefined;
}

/** The columns `toBoundSet` reads: the set's, and one of its values per row (none: nulls). */
export const BOUND_SET_COLUMNS =
  "s.name, s.type, s.region, s.status, s.error_message, s.host, v.key, v.written_at, v.value";

/** The rows of a bound set joined with its values (LEFT JOIN, ordered by key) as its detail. */
export function toBoundSet(rows: Row[]): StoredSetDetail | undefined {
  if (rows.length === 0) return undefined;
  const values = rows.filter((row) => row.key != null).map(toStoredValue);
  const detail: StoredSetDetail = {
    ...toStoredSet(rows[0] as unknown as SetRow),
    keys: values.map((value) => value.key),
    values,
  };
  if (rows[0].host != null) detail.host = rows[0].host as string;
  return detail;
}

/**
 * The query of `countSealedByHead`: every sealed column of RESEAL_TABLES (the tables a rotation
 * goes through, so that what it re-seals and what is counted cannot part), counted by head.
 */
export function countSealedSql(dialect: "sqlite" | "postgres"): string {
  return Object.values(RESEAL_TABLES).map(({ from, column }) =>
    `SELECT ${sealedHeadSql(column, dialect)} AS head, count(*) AS n FROM ${from}
     WHERE ${column} IS NOT NULL GROUP BY head`
  ).join(" UNION ALL ");
}

/**
 * SQL for the head of a sealed column (crypto.ts `sealedHead`) as lower-case hex: its version and
 * key id, or a legacy value's version byte alone.
 */
function sealedHeadSql(column: string, dialect: "sqlite" | "postgres"): string {
  const format = SEALED_FORMAT.toString(16).padStart(2, "0");
  return dialect === "sqlite"
    ? `lower(hex(CASE WHEN substr(${column}, 1, 1) = x'${format}' THEN substr(${column}, 1, ${SEALED_HEAD_BYTES}) ELSE substr(${column}, 1, 1) END))`
    : `encode(CASE WHEN substring(${column} from 1 for 1) = '\\x${format}'::bytea THEN substring(${column} from 1 for ${SEALED_HEAD_BYTES}) ELSE substring(${column} from 1 for 1) END, 'hex')`;
}

/** The counts of heads from the rows of `countSealedByHead`'s query, summed per head. */
export function toHeadCounts(rows: Row[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const head = row.head as string;
    counts.set(head, (counts.get(head) ?? 0) + Number(row.n));
  }
  return counts;
}

/** Where a re-sealing pass starts: the credentials, from the first set. */
export const FIRST_RESEAL: ResealCursor = { table: "credentials", after: ["", ""] };

/**
 * The cursor after a batch that read `rows` of at most `limit` (each with its primary key): on in
 * the same table, or the next table from its start (credentials, values, versions' values).
 * A version number goes in the cursor as text, and back as a number (`afterVersion`).
 */
export function nextReseal(
  table: ResealCursor["table"],
  rows: Row[],
  limit: number,
): ResealCursor | undefined {
  if (rows.length === limit) {
    const last = rows.at(-1)!;
    const after = table === "credentials"
      ? [last.org_id as string, last.name as string]
      : table === "values"
      ? [last.org_id as string, last.set_name as string, last.key as string]
      : [last.org_id as string, last.set_name as string, String(last.version), last.key as string];
    return { table, after };
  }
  if (table === "credentials") return { table: "values", after: ["", "", ""] };
  return table === "values" ? { table: "versions", after: ["", "", "0", ""] } : undefined;
}

/** Where each table a re-sealing pass goes through keeps its sealed column, and its primary key. */
export const RESEAL_TABLES = {
  credentials: { from: "secret_sets", column: "credentials", key: ["org_id", "name"] },
  values: { from: "secret_values", column: "value", key: ["org_id", "set_name", "key"] },
  versions: {
    from: "secret_version_values",
    column: "value",
    key: ["org_id", "set_name", "version", "key"],
  },
} as const;

/** The cursor's primary key as the table's columns hold it (a version is a number). */
export function cursorValues(cursor: ResealCursor): (string | number)[] {
  const { key } = RESEAL_TABLES[cursor.table];
  return cursor.after.map((value, i) => key[i] === "version" ? Number(value) : value);
}

/** Where a row of a re-sealing table lives: what its sealed column's additional data names. */
export function placeOf(row: Row): SealedPlace {
  const place: SealedPlace = {
    orgId: row.org_id as string,
    setName: (row.set_name ?? row.name) as string,
  };
  if (row.key != null) place.key = row.key as string;
  return place;
}

/**
 * A write waiting for its group's commit: both backends commit the writes that arrive meanwhile
 * together (see GroupNeedsSavepoints). `run` is the write, as the backend runs it.
 */
export interface QueuedWrite<Run> {
  /** Whose list version the write moves on (undefined: an audit event of no change). */
  orgId: string | undefined;
  run: Run;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What one write of a group came to. */
export type WriteResult = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * A group first runs its writes one after another in its transaction, without a savepoint each
 * (two statements a write, which most groups never need). When one of them fails, this is thrown
 * to roll the transaction back, and the group runs again with a savepoint each, so that the
 * failing write alone is undone and the others stand.
 */
export class GroupNeedsSavepoints extends Error {
  constructor() {
    super("a write of the group failed: it runs again, each write in its own savepoint");
  }
}

/**
 * A set and its values in one read (LEFT JOIN: a set with no values is one row, a missing set
 * none), by organization and name; `toSetWithValues` reads the rows.
 */
export function setWithValuesSql(dialect: "sqlite" | "postgres"): string {
  const [orgId, name] = dialect === "sqlite" ? ["?", "?"] : ["$1", "$2"];
  return `SELECT s.name, s.type, s.region, s.status, s.error_message, v.key, v.value
    FROM secret_sets s
    LEFT JOIN secret_values v ON v.org_id = s.org_id AND v.set_name = s.name
    WHERE s.org_id = ${orgId} AND s.name = ${name}`;
}

export function toSetWithValues(
  rows: Row[],
): { existing: Existing | undefined; stored: Map<string, Uint8Array> } {
  const stored = new Map<string, Uint8Array>();
  for (const row of rows) {
    if (row.key != null) stored.set(row.key as string, row.value as Uint8Array);
  }
  return { existing: rows[0] as unknown as Existing | undefined, stored };
}

/** Answers each write of a committed group with its own result. */
export function settleGroup(batch: QueuedWrite<unknown>[], results: WriteResult[]): void {
  batch.forEach(({ resolve, reject }, i) => {
    const result = results[i];
    if (result.ok) resolve(result.value);
    else reject(result.error);
  });
}

/** Versions kept of each secret set, the current one included (docs/API.md, "Versions"). */
export const VERSIONS_KEPT = 10;

/** A version's row of either backend (key lists stored as JSON text). */
export function toVersionInfo(row: Row): VersionInfo {
  const info: VersionInfo = {
    version: Number(row.version),
    createdAt: Number(row.created_at),
    actor: row.actor as string,
    created: JSON.parse(row.created as string),
    updated: JSON.parse(row.updated as string),
    removed: JSON.parse(row.removed as string),
  };
  if (row.rollback_of != null) info.rollbackOf = Number(row.rollback_of);
  return info;
}

/** The columns a version's row is written with, from what the write did. */
export function versionRow(
  orgId: string,
  name: string,
  version: number,
  now: number,
  changes: { created: string[]; updated: string[]; removed: string[] },
  write: { author?: Author; rollbackOf?: number },
) {
  return {
    org_id: orgId,
    set_name: name,
    version,
    created_at: now,
    actor: (write.author ?? OPERATOR).actor,
    created: JSON.stringify(changes.created),
    updated: JSON.stringify(changes.updated),
    removed: JSON.stringify(changes.removed),
    rollback_of: write.rollbackOf ?? null,
  };
}

/** Days the audit trail keeps an event (docs/API.md, "Audit trail"). */
export const AUDIT_RETENTION_DAYS = 400;

/** An event's columns, in the order the INSERTs name them. */
export function auditRow(event: NewAuditEvent) {
  return {
    org_id: event.orgId ?? null,
    at: event.at,
    actor: event.author.actor,
    action: event.action,
    set_name: event.setName ?? null,
    keys: JSON.stringify(event.keys ?? []),
    request_id: event.author.requestId ?? null,
    detail: event.detail === undefined ? null : JSON.stringify(event.detail),
  };
}

export const AUDIT_COLUMNS = "org_id, at, actor, action, set_name, keys, request_id, detail";

/** An event's row of either backend. */
export function toAuditEvent(row: Row): AuditEvent {
  const event: AuditEvent = {
    id: Number(row.id),
    at: Number(row.at),
    actor: row.actor as string,
    action: row.action as AuditAction,
    keys: JSON.parse(row.keys as string),
  };
  if (row.org_id != null) event.orgId = row.org_id as string;
  if (row.set_name != null) event.setName = row.set_name as string;
  if (row.request_id != null) event.requestId = row.request_id as string;
  if (row.detail != null) event.detail = JSON.parse(row.detail as string);
  return event;
}

/** The audit event of a write of secrets that changed the set. */
export function secretsWriteEvent(
  orgId: string,
  write: SecretsWrite,
  now: number,
  changes: { created: string[]; updated: string[]; removed: string[] },
  version: number,
): NewAuditEvent {
  return {
    orgId,
    at: now,
    author: write.author ?? OPERATOR,
    action: write.rollbackOf === undefined ? "set.write" : "set.rollback",
    setName: write.name,
    keys: [...changes.created, ...changes.updated, ...changes.removed].sort(),
    detail: {
      created: changes.created,
      updated: changes.updated,
      removed: changes.removed,
      version,
      ...(write.rollbackOf === undefined ? {} : { rollbackOf: write.rollbackOf }),
    },
  };
}

/** A key made by `serve create-key` (or the bootstrap): the operator's doing. */
export function apiKeyCreatedEvent(
  orgId: string,
  key: NewApiKeyRecord,
  kind: ApiKeyKind,
  sets?: string[],
): NewAuditEvent {
  return {
    orgId,
    at: key.now,
    author: OPERATOR,
    action: "api-key.create",
    detail: { keyId: key.id, kind, ...(sets ? { sets } : {}) },
  };
}

export function apiKeyRevokedEvent(orgId: string, keyId: string): NewAuditEvent {
  return { orgId, at: Date.now(), author: OPERATOR, action: "api-key.revoke", detail: { keyId } };
}

export function imagePullSecretEvent(
  orgId: string,
  write: ImagePullSecretWrite,
  now: number,
): NewAuditEvent {
  return {
    orgId,
    at: now,
    author: write.author ?? OPERATOR,
    action: "image-pull-secret.write",
    setName: write.name,
    detail: { host: write.host },
  };
}

/** A key's DELETE, which made `version`. */
export function keyDeletedEvent(
  orgId: string,
  name: string,
  key: string,
  now: number,
  author: Author,
  version: number,
): NewAuditEvent {
  return {
    orgId,
    at: now,
    author,
    action: "key.delete",
    setName: name,
    keys: [key],
    detail: { version },
  };
}

/** A purge of a set's versions: how many went, and the one kept. */
export function versionsPurgedEvent(
  orgId: string,
  name: string,
  author: Author,
  purged: number,
  kept: number,
): NewAuditEvent {
  return {
    orgId,
    at: Date.now(),
    author,
    action: "versions.purge",
    setName: name,
    detail: { purged, kept },
  };
}
