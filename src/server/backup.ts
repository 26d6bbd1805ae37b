/**
 * `voicebot cloud serve backup`: a consistent copy of a live SQLite database, taken while servers
 * write, that holds no key (the values in it stay sealed; the keyring is kept apart). PostgreSQL
 * has its own tools for this, which voicebot does not stand in for.
 */
import { basename, dirname, join } from "pathe";
import { ConflictError, UsageError } from "../errors.ts";
import { isPostgresUrl } from "./database_url.ts";
import { exists, openStorage } from "./storage/open.ts";
import type { SqliteStorage } from "./storage/sqlite.ts";

/**
 * Copies the database to `to`, mode 0600 from its first byte. Written beside `to` under another
 * name and linked into place at the end, so that `to` is either the whole copy or absent, and an
 * existing file is never replaced. What an earlier backup to `to` left there when it was killed
 * is removed first, and its names given to `cleared`. Returns the copy's size in bytes.
 */
export async function backupDatabase(
  database: string,
  to: string,
  cleared: (files: string[]) => void = () => {},
): Promise<number> {
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
  const random = crypto.getRandomValues(new Uint8Array(4)).toHex();
  const partial = `${to}${PARTIAL}${Deno.pid}-${random}`;
  try {
    const leftovers = await removeLeftovers(to);
    if (leftovers.length) cleared(leftovers);
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

/**
 * Beside `to` until it is whole: `TO.partial-PID-RANDOM`, and the `-journal` SQLite keeps of it.
 * A backup killed during the copy (Ctrl-C, SIGTERM, SIGKILL) leaves them.
 */
const PARTIAL = ".partial-";
const LEFTOVER = /^\.partial-(?:(\d+)-)?[0-9a-f]+(?:-journal)?$/;

/**
 * Removes what killed backups to `to` left, and returns the paths removed. A file whose process
 * still runs is another backup's, under way, and is left alone; where there is no /proc to ask
 * (macOS), every such file counts as left over.
 */
async function removeLeftovers(to: string): Promise<string[]> {
  const directory = dirname(to);
  const name = basename(to);
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(directory));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return removed;
    throw error;
  }
  for (const entry of entries) {
    const match = entry.isFile && entry.name.startsWith(name)
      ? LEFTOVER.exec(entry.name.slice(name.length))
      : null;
    if (!match || (match[1] !== undefined && await isRunning(Number(match[1])))) continue;
    const path = join(directory, entry.name);
    await Deno.remove(path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    removed.push(path);
  }
  return removed.sort();
}

async function isRunning(pid: number): Promise<boolean> {
  if (!await exists("/proc/self")) return false;
  return await exists(`/proc/${pid}`);
}
