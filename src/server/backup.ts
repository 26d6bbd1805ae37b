/**
 * `voicebot cloud serve backup`: a consistent copy of a live SQLite database, taken while servers
 * write, that holds no key (the values in it stay sealed; the keyring is kept apart). PostgreSQL
 * has its own tools for this, which voicebot does not stand in for.
 */
import { dirname } from "pathe";
import { ConflictError, UsageError } from "../errors.ts";
import { isPostgresUrl } from "./database_url.ts";
import { exists, openStorage } from "./serve.ts";
import type { SqliteStorage } from "./storage/sqlite.ts";

/**
 * Copies the database to `to`, mode 0600 from its first byte. Written beside `to` under another
 * name and linked into place at the end, so that `to` is either the whole copy or absent, and an
 * existing file is never replaced. Returns the copy's size in bytes.
 */
export async function backupDatabase(database: string, to: string): Promise<number> {
  if (isPostgresUrl(database)) {
    throw new UsageError("a PostgreSQL database is backed up with pg_dump, not with voicebot.", {
      hint:
        '`pg_dump --format=custom --file=voicebot.dump "$VOICEBOT_DATABASE_URL"` (add `--schema=NAME` for a search_path, which pg_dump takes that way), and `pg_restore` to restore; docs/API.md, "Backups and restore", has the steps.',
    });
  }
  if (await exists(to)) {
    throw new ConflictError(`${to} exists; a backup never replaces a file.`, {
      hint: "choose another --to, or move that file away first.",
    });
  }
  // The database first: a mistyped one is refused before anything is made beside `to`.
  const storage = await openStorage(database, { create: false }) as SqliteStorage;
  const partial = `${to}.partial-${crypto.getRandomValues(new Uint8Array(4)).toHex()}`;
  try {
    await Deno.mkdir(dirname(to), { recursive: true, mode: 0o700 });
    (await Deno.open(partial, { write: true, createNew: true, mode: 0o600 })).close();
    await storage.backupTo(partial);
    const file = await Deno.open(partial, { read: true, write: true });
    try {
      await file.sync();
    } finally {
      file.close();
    }
    // A link fails if `to` appeared meanwhile, where a rename would replace it.
    await Deno.link(partial, to).catch((error) => {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw new ConflictError(
          `${to} appeared while the backup was written; it was left as it is.`,
        );
      }
      throw error;
    });
    return (await Deno.stat(to)).size;
  } finally {
    await storage.close();
    await Deno.remove(partial).catch(() => {});
  }
}
