/**
 * Opens the database a server or an operator command works on: SQLite (a file, made private from
 * its first byte) or PostgreSQL (a URL), or says why it cannot, naming it without its password.
 */
import { dirname } from "pathe";
import { NotFoundError, VoicebotError } from "../../errors.ts";
import { describeDatabase, isPostgresUrl, parsePostgresUrl } from "../database_url.ts";
import type { Storage } from "./types.ts";

export interface OpenOptions {
  /**
   * False: the database must exist already (a SQLite file, a PostgreSQL schema voicebot has
   * migrated), else NotFoundError naming it. The operator commands open so: a mistyped
   * `--database` must not become a new, empty database that they then report on.
   */
  create?: boolean;
}

export async function openStorage(
  database: string,
  { create = true }: OpenOptions = {},
): Promise<Storage> {
  try {
    if (isPostgresUrl(database)) {
      if (!parsePostgresUrl(database)) {
        throw new Error("it is not a URL of the form postgres://user@host:port/database");
      }
      const { PostgresStorage } = await import("./postgres.ts");
      const storage = await PostgresStorage.open(database, { create });
      if (!storage) throw noDatabase(database, "holds no voicebot database");
      return storage;
    }
    const { SqliteStorage } = await import("./sqlite.ts");
    if (create) await createPrivately(database);
    else if (!(await exists(database))) throw noDatabase(database, "does not exist");
    return SqliteStorage.open(database);
  } catch (error) {
    if (error instanceof VoicebotError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new VoicebotError(`cannot open the database ${describeDatabase(database)}: ${reason}`, {
      hint:
        "check the database: a SQLite file path (--database), or VOICEBOT_DATABASE_URL=postgres://user:password@host:port/database.",
    });
  }
}

function noDatabase(database: string, what: string): NotFoundError {
  return new NotFoundError(
    `the database ${describeDatabase(database)} ${what}; nothing was done.`,
    {
      hint:
        "check --database and VOICEBOT_DATABASE_URL; a new database is made by starting the server on it (`voicebot cloud serve`), or by create-key with --create.",
    },
  );
}

/** Whether something is at `path` (following a symbolic link). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Creates a new database file empty, mode 0600, before SQLite opens it (its directories 0700):
 * SQLite gives the `-wal` and `-shm` files it makes the database's own mode, so every file is
 * private from its first byte whatever the umask. An existing file is left as it is.
 */
async function createPrivately(database: string) {
  await Deno.mkdir(dirname(database), { recursive: true, mode: 0o700 });
  try {
    const file = await Deno.open(database, { write: true, createNew: true, mode: 0o600 });
    file.close();
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}
