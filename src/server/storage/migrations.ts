/**
 * Versioned schema migrations, applied in order at start inside one transaction. A database
 * whose version is newer than the newest known here is refused rather than guessed at.
 * Both backends share one list, written once for both dialects. Append new versions; never
 * edit one that has shipped.
 */

/** The meta key present once a database has had an organization: it is never bootstrapped again. */
export const BOOTSTRAPPED = "bootstrapped";

export interface Migration {
  version: number;
  sql: string;
}

/** The two dialects differ only in the names of two column types. */
interface Dialect {
  bytes: "BLOB" | "BYTEA";
  /** Milliseconds since the epoch, and counters. */
  bigint: "INTEGER" | "BIGINT";
  /** A primary key that numbers rows as they are inserted. */
  serial: "INTEGER PRIMARY KEY AUTOINCREMENT" | "BIGSERIAL PRIMARY KEY";
}

function migrations({ bytes, bigint, serial }: Dialect): Migration[] {
  return [{
    version: 1,
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value ${bytes} NOT NULL);
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at ${bigint} NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES organizations (id),
        hash ${bytes} NOT NULL,
        created_at ${bigint} NOT NULL
      );
      CREATE TABLE secret_sets (
        org_id TEXT NOT NULL REFERENCES organizations (id),
        name TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('secret', 'imagePullSecret')),
        region TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
        error_message TEXT,
        generation INTEGER NOT NULL,
        host TEXT,
        credentials ${bytes},
        created_at ${bigint} NOT NULL,
        updated_at ${bigint} NOT NULL,
        PRIMARY KEY (org_id, name)
      );
      CREATE INDEX secret_sets_pending ON secret_sets (updated_at) WHERE status = 'pending';
      CREATE TABLE secret_values (
        org_id TEXT NOT NULL,
        set_name TEXT NOT NULL,
        key TEXT NOT NULL,
        value ${bytes} NOT NULL,
        PRIMARY KEY (org_id, set_name, key),
        FOREIGN KEY (org_id, set_name) REFERENCES secret_sets (org_id, name) ON DELETE CASCADE
      );
    `,
  }, {
    // Bumped by every write to an organization's sets, so that a cached list can be reused
    // until it changes, by any server process.
    version: 2,
    sql: `ALTER TABLE organizations ADD COLUMN sets_version ${bigint} NOT NULL DEFAULT 0;`,
  }, {
    // When a key was last used (to the minute), for `serve list-keys`. And the bootstrap
    // marker: a database that ever had an organization is not new, even once it has none.
    version: 3,
    sql: `
      ALTER TABLE api_keys ADD COLUMN last_used_at ${bigint};
      INSERT INTO meta (key, value)
        SELECT '${BOOTSTRAPPED}', CAST('1' AS ${bytes}) WHERE EXISTS (SELECT 1 FROM organizations);
    `,
  }, {
    // When each key was last written, for GET /secrets/{name}. Keys written before this version
    // take their set's last write.
    version: 4,
    sql: `
      ALTER TABLE secret_values ADD COLUMN written_at ${bigint} NOT NULL DEFAULT 0;
      UPDATE secret_values SET written_at = (
        SELECT s.updated_at FROM secret_sets s
        WHERE s.org_id = secret_values.org_id AND s.name = secret_values.set_name
      );
    `,
  }, {
    // Runtime keys, and when a key expires. A runtime key's binding names the set's row: deleting
    // the set (or revoking the key) deletes the binding, so a set made again is not bound.
    version: 5,
    sql: `
      ALTER TABLE api_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'private'
        CHECK (kind IN ('private', 'runtime'));
      ALTER TABLE api_keys ADD COLUMN expires_at ${bigint};
      CREATE TABLE runtime_key_sets (
        key_id TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        org_id TEXT NOT NULL,
        set_name TEXT NOT NULL,
        PRIMARY KEY (key_id, set_name),
        FOREIGN KEY (org_id, set_name) REFERENCES secret_sets (org_id, name) ON DELETE CASCADE
      );
      CREATE INDEX runtime_key_sets_by_set ON runtime_key_sets (org_id, set_name);
    `,
  }, {
    // Versions of secret sets: each write that changes a set records the whole set as it leaves
    // it (values sealed as the live ones, in the same places), the last VERSIONS_KEPT of them.
    // Deleting the set deletes them. Each set starts from version 1, the set as it stands now.
    version: 6,
    sql: `
      CREATE TABLE secret_versions (
        org_id TEXT NOT NULL,
        set_name TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at ${bigint} NOT NULL,
        actor TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        removed TEXT NOT NULL,
        rollback_of INTEGER,
        PRIMARY KEY (org_id, set_name, version),
        FOREIGN KEY (org_id, set_name) REFERENCES secret_sets (org_id, name) ON DELETE CASCADE
      );
      CREATE TABLE secret_version_values (
        org_id TEXT NOT NULL,
        set_name TEXT NOT NULL,
        version INTEGER NOT NULL,
        key TEXT NOT NULL,
        value ${bytes} NOT NULL,
        PRIMARY KEY (org_id, set_name, version, key),
        FOREIGN KEY (org_id, set_name, version)
          REFERENCES secret_versions (org_id, set_name, version) ON DELETE CASCADE
      );
      INSERT INTO secret_versions
        (org_id, set_name, version, created_at, actor, created, updated, removed)
        SELECT org_id, name, 1, updated_at, 'migration', '[]', '[]', '[]' FROM secret_sets
        WHERE type = 'secret';
      INSERT INTO secret_version_values (org_id, set_name, version, key, value)
        SELECT v.org_id, v.set_name, 1, v.key, v.value FROM secret_values v
        JOIN secret_sets s ON s.org_id = v.org_id AND s.name = v.set_name
        WHERE s.type = 'secret';
    `,
  }, {
    // The audit trail: every change, by whom, in the change's own transaction. Names and counts
    // only (key names as JSON text, a few facts in detail), never a value or a key.
    version: 7,
    sql: `
      CREATE TABLE audit_events (
        id ${serial},
        org_id TEXT,
        at ${bigint} NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        set_name TEXT,
        keys TEXT NOT NULL,
        request_id TEXT,
        detail TEXT
      );
      CREATE INDEX audit_events_by_org ON audit_events (org_id, id);
      CREATE INDEX audit_events_by_time ON audit_events (at);
    `,
  }];
}

export const SQLITE_MIGRATIONS: Migration[] = migrations({
  bytes: "BLOB",
  bigint: "INTEGER",
  serial: "INTEGER PRIMARY KEY AUTOINCREMENT",
});
export const POSTGRES_MIGRATIONS: Migration[] = migrations({
  bytes: "BYTEA",
  bigint: "BIGINT",
  serial: "BIGSERIAL PRIMARY KEY",
});

/** The migrations still to apply on top of `current`; throws for a database from a newer voicebot. */
export function pendingMigrations(all: Migration[], current: number): Migration[] {
  const newest = all.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(
      `the database schema is at version ${current}, newer than this voicebot knows (${newest}); upgrade voicebot`,
    );
  }
  return all.filter((migration) => migration.version > current);
}
