/**
 * Writes a project all or nothing. Files are staged in a hidden directory inside the target (same
 * file system, so renames are atomic), then renamed into place; if anything fails, every file put
 * in place is removed or restored and every directory created is removed again.
 */
import { dirname, join, relative } from "../paths.ts";
import { VoicebotError } from "../errors.ts";
import { shellQuote } from "../words.ts";

export interface PlannedFile {
  /** Relative to the project root, with `/` separators. */
  readonly path: string;
  readonly content: string;
}

/**
 * A planned file whose content is made on first use: a dry run, which lists the paths only,
 * renders nothing.
 */
export function plannedFile(path: string, make: () => string): PlannedFile {
  let content: string | undefined;
  return {
    path,
    get content() {
      return content ??= make();
    },
  };
}

/** The file-system calls the writer makes; tests swap in one that fails part-way. */
export interface WriterFs {
  mkdir(path: string): Promise<void>;
  writeTextFile(path: string, content: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  readTextFile(path: string): Promise<string>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  exists(path: string): Promise<boolean>;
}

/**
 * Deno's synchronous calls behind the asynchronous interface: a project is a few dozen small files,
 * and each asynchronous call costs a round trip through Deno's blocking thread pool, which made up
 * half of a quickstart scaffold's own time on a busy machine.
 */
function promised<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(call(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

export const denoFs: WriterFs = {
  mkdir: promised((path) => Deno.mkdirSync(path)),
  writeTextFile: promised((path, content) => Deno.writeTextFileSync(path, content)),
  rename: promised((from, to) => Deno.renameSync(from, to)),
  readTextFile: promised((path) => Deno.readTextFileSync(path)),
  remove: promised((path, options) => Deno.removeSync(path, options)),
  exists: promised((path) => pathExists(path)),
};

/**
 * Sorts the planned `files` against what is under `root`: those to write; those already there with
 * the same bytes (`unchanged`), which are left alone; and the paths in the way (`conflicts`), a file
 * there with other content or a parent on the way that is a file. Paths are relative to `root`.
 */
export function survey(
  root: string,
  files: readonly PlannedFile[],
): { write: PlannedFile[]; unchanged: string[]; conflicts: string[] } {
  // A directory that is not there yet holds nothing in the way (and one stat beats one per file).
  if (!pathExists(root)) return { write: [...files], unchanged: [], conflicts: [] };
  const write: PlannedFile[] = [];
  const unchanged: string[] = [];
  const conflicts: string[] = [];
  for (const file of files) {
    const target = join(root, file.path);
    const info = statOrNull(target);
    if (info?.isFile && sameBytes(target, file.content)) {
      unchanged.push(file.path);
      continue;
    }
    write.push(file);
    if (info) {
      conflicts.push(file.path);
      continue;
    }
    for (let dir = dirname(target); dir.length > root.length; dir = dirname(dir)) {
      const parent = statOrNull(dir);
      if (parent && !parent.isDirectory) {
        conflicts.push(`${file.path} (${relative(root, dir)} is a file)`);
        break;
      }
    }
  }
  return { write, unchanged: unchanged.sort(), conflicts: conflicts.sort() };
}

function sameBytes(path: string, content: string): boolean {
  const bytes = Deno.readFileSync(path);
  const expected = new TextEncoder().encode(content);
  return bytes.length === expected.length && bytes.every((byte, i) => byte === expected[i]);
}

/**
 * Writes every file under `root`, replacing any that exist, and removes the files at the `remove`
 * paths (relative to `root`), or leaves `root` as it was. A file system that refuses (no
 * permission, read-only, full) is reported by `cannotWrite`. Directories that a removal leaves
 * empty are removed after the rest has succeeded.
 */
export async function writeAll(
  root: string,
  files: readonly PlannedFile[],
  fs: WriterFs = denoFs,
  remove: readonly string[] = [],
): Promise<void> {
  const createdDirs: string[] = [];
  const placed: { target: string; previous: string | null }[] = [];
  const staging = join(root, `.voicebot-init-${crypto.randomUUID().slice(0, 8)}`);
  // Where the writer is at, in the user's words: the directory it writes in (never the staging
  // folder, which is the writer's own business), and the one it is making there, if any.
  let place: Place = { dir: root };

  const ensureDir = async (dir: string) => {
    const missing: string[] = [];
    for (let d = dir; !(await fs.exists(d)); d = dirname(d)) {
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
    for (const d of missing) {
      place = { dir: dirname(d), making: d };
      await fs.mkdir(d);
      createdDirs.push(d);
    }
  };

  try {
    await ensureDir(root);
    place = { dir: root };
    await fs.mkdir(staging);
    for (const [index, file] of files.entries()) {
      await fs.writeTextFile(join(staging, String(index)), file.content);
    }
    for (const [index, file] of files.entries()) {
      const target = join(root, file.path);
      await ensureDir(dirname(target));
      place = { dir: dirname(target) };
      const previous = (await fs.exists(target)) ? await fs.readTextFile(target) : null;
      await fs.rename(join(staging, String(index)), target);
      placed.push({ target, previous });
    }
    // A removed file goes into the staging folder, which goes at the end: until then it can be
    // put back like any file replaced.
    for (const [index, path] of remove.entries()) {
      const target = join(root, path);
      place = { dir: dirname(target) };
      const previous = await fs.readTextFile(target);
      await fs.rename(target, join(staging, `removed-${index}`));
      placed.push({ target, previous });
    }
    place = { dir: root };
    await fs.remove(staging, { recursive: true });
  } catch (error) {
    const left = await rollBack(fs, staging, placed, createdDirs);
    throw cannotWrite(error, root, place, left);
  }
  for (const path of remove) removeEmptyParents(root, path);
}

/** Removes the directories above `path` (up to `root`, not included) that are left empty. */
function removeEmptyParents(root: string, path: string): void {
  for (let dir = dirname(join(root, path)); dir.length > root.length; dir = dirname(dir)) {
    try {
      Deno.removeSync(dir); // fails on a directory that holds anything: then so do those above
    } catch {
      return;
    }
  }
}

/** The directory a write happens in, and the directory being made there, if any. */
interface Place {
  readonly dir: string;
  readonly making?: string;
}

/**
 * What the user sees when the file system refuses a write: the directory they asked for (and,
 * when it is another, the one that refused), the system's reason in its own words, and a way on.
 * An error that is not the file system's (a bug) is returned as it is, to be reported as
 * unexpected.
 */
function cannotWrite(
  error: unknown,
  root: string,
  place: Place,
  left: readonly string[],
): unknown {
  // Making the project's directory, or one above it: the directory it would go in refused.
  const making = place.making !== undefined &&
    (place.making === root || root.startsWith(`${place.making}/`));
  return refused(error, making ? `cannot create ${root}` : `cannot write in ${place.dir}`, {
    at: making ? place.dir : undefined,
    check: place.dir,
    left,
  });
}

/**
 * The same for the look at `root` before writing (the guides and files already there): said of
 * `root` when it can be seen, else of the nearest directory above it that can, which refused.
 */
export function cannotRead(error: unknown, root: string): unknown {
  let seen = root;
  while (!canSee(seen) && dirname(seen) !== seen) seen = dirname(seen);
  return seen === root
    ? refused(error, `cannot read in ${root}`, { check: root })
    : refused(error, `cannot read ${root}`, { at: seen, check: seen });
}

function canSee(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A VoicebotError (exit 1) for an error of the file system, `what: <the system's reason> [in
 * at]`, with what could not be put back (`left`) and a hint on the directory to `check`; any
 * other error as it is.
 */
function refused(
  error: unknown,
  what: string,
  options: { at?: string; check: string; left?: readonly string[] },
): unknown {
  const code = (error as { code?: unknown })?.code;
  if (!(error instanceof Error) || typeof code !== "string" || !/^E[A-Z]+$/.test(code)) {
    return error;
  }
  // "Permission denied (os error 13): mkdir '/x/.voicebot-init-1a2b'": the words before the
  // number, without the paths (which may name the staging folder).
  const words = error.message.replace(/\s*\(os error \d+\)[^]*$/, "") || code;
  const reason = words[0].toLowerCase() + words.slice(1);
  const message = `${what}: ${reason}${options.at ? ` in ${options.at}` : ""}`;
  const left = options.left ?? [];
  return new VoicebotError(
    left.length === 0
      ? `${message}; nothing was written.`
      : `${message}; what was written could not all be removed again:`,
    { problems: left, hint: wayOn(code, options.check), cause: error },
  );
}

/** What to do about a directory the file system would not write in, by the system's error code. */
function wayOn(code: string, dir: string): string {
  switch (code) {
    case "EACCES":
    case "EPERM":
      return `check the permissions of ${dir} (\`ls -ld ${
        shellQuote(dir)
      }\`), or choose another directory.`;
    case "EROFS":
      return "choose a directory on a file system that can be written.";
    case "ENOSPC":
    case "EDQUOT":
      return "free some space, or choose a directory on another disk.";
    default:
      return "choose another directory.";
  }
}

/** Undoes a failed write; returns the paths it could not restore or remove. */
async function rollBack(
  fs: WriterFs,
  staging: string,
  placed: readonly { target: string; previous: string | null }[],
  createdDirs: readonly string[],
): Promise<string[]> {
  // Best effort: each step is tried even when an earlier one fails.
  const left: string[] = [];
  const attempt = async (path: string, step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      // Nothing more can be done about this path; go on restoring the others. (One never made,
      // such as a staging folder the file system refused, is not left behind.)
      if (!(error instanceof Deno.errors.NotFound)) left.push(path);
    }
  };
  for (const { target, previous } of [...placed].reverse()) {
    await attempt(
      target,
      () => previous === null ? fs.remove(target) : fs.writeTextFile(target, previous),
    );
  }
  await attempt(staging, () => fs.remove(staging, { recursive: true }));
  for (const dir of [...createdDirs].reverse()) await attempt(dir, () => fs.remove(dir));
  return left;
}

/** The file's text, or null when there is none. */
export function readIfExists(path: string): string | null {
  try {
    return Deno.readTextFileSync(path); // sync: an async call costs a trip through Deno's thread pool
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

function pathExists(path: string): boolean {
  return statOrNull(path) !== null;
}
