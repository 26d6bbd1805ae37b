/**
 * The one storage interface, implemented by SQLite (embedded default) and PostgreSQL.
 * Values and credentials reach it already sealed (see crypto.ts): storage never sees plaintext.
 */
import type { AuditAction } from "../../secrets/audit_actions.ts";
import type { SecretSetSummary, SetStatus, SetType } from "../../secrets/schemas.ts";

export type { AuditAction };

/** A set as the API shows it: `errorMessage` present exactly when `status` is failed. */
export type StoredSet = Required<Omit<SecretSetSummary, "errorMessage">> & {
  errorMessage?: string;
};

export interface StoredSetDetail extends StoredSet {
  /** Sorted; empty for an image pull secret. */
  keys: string[];
  host?: string;
  /** One per key, in the order of `keys`: read in the same query, so the two always agree. */
  values: StoredValue[];
}

/** A key's sealed value and when it was last written (milliseconds since the epoch). */
export interface StoredValue {
  key: string;
  writtenAt: number;
  sealed: Uint8Array;
}

export interface SecretsWrite {
  name: string;
  /** Undefined: the default region for a new set, the set's own region for an existing one. */
  region: string | undefined;
  /** Key and sealed value. */
  values: [string, Uint8Array][];
  /** True: the set's keys become exactly `values`; false: they are merged in. */
  replace: boolean;
  /**
   * Whether a key's stored sealed value holds the value this write gives it: asked inside the
   * write's transaction, of the bytes it reads there. Such a key is left as it is (its row and
   * when it was written) and reported unchanged.
   */
  holds?: (key: string, sealed: Uint8Array) => boolean;
  /** Who writes; the operator when not given. */
  author?: Author;
  /** The version a rollback restores (recorded with the version it makes). */
  rollbackOf?: number;
}

/** Who made a change, for versions and the audit trail: an API key's id, and its request. */
export interface Author {
  /** An API key's public id, or `operator` for the server's own commands. */
  actor: string;
  requestId?: string;
}

/** The server's own commands (create-key, revoke-key, rotate-master-key). */
export const OPERATOR: Author = { actor: "operator" };

/** An event to record: names and counts only, never a value, a credential or a key. */
export interface NewAuditEvent {
  /** Undefined for what concerns the whole server (a master-key rotation). */
  orgId?: string;
  /** Milliseconds since the epoch. */
  at: number;
  author: Author;
  action: AuditAction;
  setName?: string;
  keys?: string[];
  /** A few facts more: a version, a count, a host. */
  detail?: Record<string, unknown>;
}

export interface AuditEvent extends Omit<NewAuditEvent, "author"> {
  /** Grows with every event: the order, and the cursor of GET /audit. */
  id: number;
  actor: string;
  requestId?: string;
  keys: string[];
}

export interface ImagePullSecretWrite {
  name: string;
  region: string | undefined;
  host: string;
  /** Sealed. */
  credentials: Uint8Array;
  author?: Author;
}

/** What a write may do; checked inside the write's transaction. */
export interface WriteRules {
  defaultRegion: string;
  maxKeysPerSet: number;
  maxSetsPerOrganization: number;
  /** Milliseconds since the epoch, from the app's clock. */
  now: number;
}

export interface WriteOutcome {
  set: StoredSet;
  /** True when the write created the set. */
  setCreated: boolean;
  created: string[];
  updated: string[];
  /** Keys written with the value they held: left as they were. */
  unchanged: string[];
  /** Keys a replacing write removed. */
  removed: string[];
  /** A secret set's version after the write: a new one when it changed the set. */
  version?: number;
}

/** One kept version of a secret set (see migration 6). Milliseconds since the epoch. */
export interface VersionInfo {
  version: number;
  createdAt: number;
  actor: string;
  created: string[];
  updated: string[];
  removed: string[];
  rollbackOf?: number;
}

/** A version with its values, sealed as the live ones are (sorted by key). */
export interface StoredVersion extends VersionInfo {
  values: { key: string; sealed: Uint8Array }[];
}

/** A set waiting for the provisioner. `generation` changes with every write to the set. */
export interface PendingSet {
  orgId: string;
  name: string;
  type: SetType;
  generation: number;
  host?: string;
  credentials?: Uint8Array;
}

export type ProvisionResult =
  | { status: Extract<SetStatus, "ready"> }
  | { status: Extract<SetStatus, "failed">; errorMessage: string };

export interface ProvisionOutcome {
  set: PendingSet;
  result: ProvisionResult;
}

/**
 * `private`: the management key of the SPEC, which never sees a value. `runtime`: reads the values
 * of the sets it is bound to (GET /runtime/secrets/{setName}) and does nothing else.
 */
export type ApiKeyKind = "private" | "runtime";

/** A key to add: its public id, the hash of the whole key, and when it stops working (if ever). */
export interface NewApiKeyRecord {
  id: string;
  hash: Uint8Array;
  /** Milliseconds since the epoch. */
  now: number;
  expiresAt?: number;
}

export interface ApiKeyRecord {
  orgId: string;
  /** The organization's name. */
  organization: string;
  hash: Uint8Array;
  kind: ApiKeyKind;
  /** Milliseconds since the epoch; null: never. */
  expiresAt: number | null;
}

/** What `serve list-keys` shows of a key: never its hash. Milliseconds since the epoch. */
export interface ApiKeyInfo {
  id: string;
  kind: ApiKeyKind;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  /** A runtime key's sets that still exist, sorted; empty for a private key. */
  sets: string[];
}

/** Why a runtime key was not added (nothing was): no such organization, or sets it cannot read. */
export type RuntimeKeyRefusal =
  | { reason: "no-organization" }
  | { reason: "sets"; missing: string[]; imagePullSecrets: string[] };

/** Where a sealed item lives, which its additional data names: a value, or (no `key`) credentials. */
export interface SealedPlace {
  orgId: string;
  setName: string;
  key?: string;
}

/** Where a re-sealing pass goes on from: the table, and the last primary key it looked at. */
export interface ResealCursor {
  table: "credentials" | "values" | "versions";
  after: string[];
}

/**
 * Re-seals one item: the new sealed bytes, or undefined to leave it (it cannot be opened).
 * Synchronous: it runs inside the batch's transaction.
 */
export type Reseal = (place: SealedPlace, sealed: Uint8Array) => Uint8Array | undefined;

export interface Storage {
  readonly kind: "sqlite" | "postgres";

  /** A small named value (the master-key check, the fingerprint root). */
  getMeta(key: string): Promise<Uint8Array | undefined>;
  /** Stores it unless one is there already; returns what is stored afterwards. */
  putMetaIfAbsent(key: string, value: Uint8Array): Promise<Uint8Array>;
  /** Replaces it only if it still holds `expected`; false when it did not. */
  replaceMeta(key: string, expected: Uint8Array, value: Uint8Array): Promise<boolean>;

  /**
   * Every sealed value and credential, counted by its head (crypto.ts `sealedHead`, as hex): what
   * names the key that sealed it.
   */
  countSealedByHead(): Promise<Map<string, number>>;
  /**
   * One batch of a re-sealing pass, in one transaction: up to `limit` items after `cursor` (from
   * the start when undefined) whose head is not `current`, each replaced by what `reseal` gives
   * unless it changed since it was read. `next` is undefined once the pass has seen everything.
   */
  resealBatch(
    cursor: ResealCursor | undefined,
    limit: number,
    current: Uint8Array,
    reseal: Reseal,
  ): Promise<{ resealed: number; next: ResealCursor | undefined }>;

  /**
   * Creates the organization if it is new and adds an API key to it. With `onlyIfNew`, does
   * nothing and returns false unless the database never had an organization (the bootstrap,
   * race-free: a marker in meta records that it had one).
   */
  addApiKey(
    organization: string,
    key: NewApiKeyRecord,
    options?: { onlyIfNew?: boolean },
  ): Promise<boolean>;
  /**
   * Adds a runtime key bound to these secret sets of an existing organization: to the sets as
   * they are now, so that deleting one ends its binding and a set made again under its name is not
   * bound. Undefined when added; else why not, with nothing added.
   */
  addRuntimeKey(
    organization: string,
    key: NewApiKeyRecord,
    sets: string[],
  ): Promise<RuntimeKeyRefusal | undefined>;
  /** Undefined for an unknown id, and for a key whose organization is gone. */
  findApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** The organization's keys, oldest first; undefined when there is no such organization. */
  listApiKeys(organization: string): Promise<ApiKeyInfo[] | undefined>;
  /** Deletes the key; false when there was none with this id. */
  revokeApiKey(id: string): Promise<boolean>;
  /** Records that the key was used at `now`. */
  touchApiKey(id: string, now: number): Promise<void>;

  /** Changes whenever the organization's list would: a write, a deletion, a provisioning result. */
  setsVersion(orgId: string): Promise<number>;
  /** Sorted by name. */
  listSets(orgId: string): Promise<StoredSet[]>;
  getSet(orgId: string, name: string): Promise<StoredSetDetail | undefined>;
  /**
   * The set of this name that the runtime key is bound to, with its values, read at one moment;
   * undefined when the key is bound to no set of that name, whether or not one exists.
   */
  getBoundSet(keyId: string, name: string): Promise<StoredSetDetail | undefined>;
  /** Throws ApiError: 409 for a name of the other type or region, 400 over a limit. */
  putSecrets(orgId: string, write: SecretsWrite, rules: WriteRules): Promise<WriteOutcome>;
  putImagePullSecret(
    orgId: string,
    write: ImagePullSecretWrite,
    rules: WriteRules,
  ): Promise<WriteOutcome>;
  /** Throws ApiError 404 when the set or the key does not exist. Makes a version. */
  deleteKey(
    orgId: string,
    name: string,
    key: string,
    now: number,
    author?: Author,
  ): Promise<StoredSet>;
  /** A secret set's kept versions, newest first; undefined when there is no such set. */
  listVersions(orgId: string, name: string): Promise<VersionInfo[] | undefined>;
  /** One kept version with its values; undefined when the set or that version is not there. */
  getVersion(orgId: string, name: string, version: number): Promise<StoredVersion | undefined>;
  /** Drops every version but the current one: how many; undefined when there is no such set. */
  purgeVersions(orgId: string, name: string, author?: Author): Promise<number | undefined>;

  /** Records an event outside a write of its own (a runtime read, a rotation's run). */
  recordAudit(event: NewAuditEvent): Promise<void>;
  /**
   * The organization's events and the server's own (no organization), newest first: at most
   * `limit`, with an id below `before` when given.
   */
  listAudit(orgId: string, limit: number, before?: number): Promise<AuditEvent[]>;
  /** Deletes events recorded before `before` (milliseconds); how many. */
  pruneAudit(before: number): Promise<number>;
  /** False when there was no such set. */
  deleteSet(orgId: string, name: string, author?: Author): Promise<boolean>;

  /** Pending sets last written at or before `writtenBefore`, oldest first. */
  pendingSets(writtenBefore: number, limit: number): Promise<PendingSet[]>;
  /**
   * Records each result, in one transaction, unless its set was written (or deleted) since it
   * was read. Returns how many were recorded.
   */
  finishProvisioning(outcomes: ProvisionOutcome[]): Promise<number>;

  /** Resolves when the database answers a trivial query: for the server's readiness. */
  ping(): Promise<void>;

  close(): Promise<void>;
}
