/**
 * Writes a project all or nothing, and so that a kill at any moment leaves it old or new: see
 * `writeAll`. `survey` sorts what init plans against what is there; `cannotWrite` and
 * `cannotRead` say what the file system refused in the user's words.
 */
import { dirname, join, relative } from "../paths.ts";
import { VoicebotError } from "../errors.ts";
import { VERSION } from "../version.ts";
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

/** What `writeAll` puts at a path: text (written as UTF-8) or bytes, written as they are. */
export interface FileToWrite {
  /** Relative to the root, with `/` separators. */
  readonly path: string;
  readonly content: string | Uint8Array;
}

/** The file-system calls the writer makes; tests swap in one that fails part-way. */
export interface WriterFs {
  mkdir(path: string): Promise<void>;
  /** Creates the file; `mode`, when given, is set exactly (not filtered by the umask). */
  writeFile(path: string, content: string | Uint8Array, mode?: number): Promise<void>;
  /** A second name for the file at `from` (a hard link; a copy where links are not supported). */
  save(from: string, to: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** What is at `path`, not following a symbolic link; null when nothing is. */
  lstat(path: string): Promise<Deno.FileInfo | null>;
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
  writeFile: promised((path, content, mode) => {
    if (typeof content === "string") Deno.writeTextFileSync(path, content, { createNew: true });
    else Deno.writeFileSync(path, content, { createNew: true });
    if (mode !== undefined && Deno.build.os !== "windows") Deno.chmodSync(path, mode);
  }),
  save: promised((from, to) => {
    try {
      Deno.linkSync(from, to);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw error;
      Deno.copyFileSync(from, to); // a file system without hard links: a copy, mode and all
    }
  }),
  rename: promised((from, to) => Deno.renameSync(from, to)),
  remove: promised((path, options) => Deno.removeSync(path, options)),
  lstat: promised((path) => statOrNull(path)),
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

/** The folder a write stages its files in, inside the root: this prefix and 8 hex digits. */
export const STAGING_PREFIX = ".voicebot-staging-";
/** Staging folders of voicebot before 0.2 (no journal): removed when found. */
const OLD_STAGING = /^\.voicebot-init-[0-9a-f]{8}$/;
const STAGING = /^\.voicebot-staging-[0-9a-f]{8}$/;
const JOURNAL = "journal.json";

/**
 * The intent record of a write, kept in its staging folder from just before the first file is put
 * in place until the last is: enough for the next run to undo the change if this one is killed.
 */
interface Journal {
  readonly voicebot: string;
  /** Directories the write makes, relative to the root, in the order made. */
  readonly dirs: string[];
  /**
   * Each path it changes, in order: `staged` names the new file in the staging folder (null: the
   * path is removed); `saved` names a hard link there to the file it replaces (null: none was).
   */
  readonly files: { path: string; staged: string | null; saved: string | null }[];
}

/**
 * Writes every file under `root`, replacing any that exist, and removes the files at the `remove`
 * paths (relative to `root`), or leaves `root` as it was. A file replaced keeps its mode. A file
 * system that refuses (no permission, read-only, full) is reported by `cannotWrite`.
 *
 * How: each new file is written in a staging folder inside `root` (same file system, so renames
 * are atomic), each file to be replaced or removed gets a second name there (a hard link: the same
 * bytes and mode), then a journal of the whole change is written, and only then are files renamed
 * into place. Should the process be killed from there on, `undoInterrupted` (which every later
 * init and update runs first) reads the journal and puts every path back as it was. The journal
 * goes once all is in place, then the staging folder; a kill between the two leaves only a folder
 * that the next run removes.
 */
export async function writeAll(
  root: string,
  files: readonly FileToWrite[],
  fs: WriterFs = denoFs,
  remove: readonly string[] = [],
): Promise<void> {
  const staging = join(root, `${STAGING_PREFIX}${crypto.randomUUID().slice(0, 8)}`);
  const journal: Journal = { voicebot: VERSION, dirs: [], files: [] };
  // Where the writer is at, in the user's words: the directory it writes in (never the staging
  // folder, which is the writer's own business), and the one it is making there, if any.
  let place: Place = { dir: root };
  let lock: Deno.FsFile | undefined;
  let done = false;
  const stopAt = stopAtStep();
  const step = (n: number) => {
    if (n === stopAt) Deno.kill(Deno.pid, "SIGKILL");
  };
  try {
    for (const dir of await missingDirs(fs, root)) {
      place = { dir: dirname(dir), making: dir };
      await fs.mkdir(dir);
      journal.dirs.push(relative(root, dir) || ".");
    }
    place = { dir: root };
    await fs.mkdir(staging);
    lock = lockFolder(staging);
    for (const [index, file] of files.entries()) {
      const target = join(root, file.path);
      const there = await fs.lstat(target);
      const staged = `new-${index}`;
      await fs.writeFile(
        join(staging, staged),
        file.content,
        there?.isFile ? modeOf(there) : undefined,
      );
      journal.files.push({
        path: file.path,
        staged,
        saved: there ? await save(fs, target, staging, index) : null,
      });
    }
    for (const [index, path] of remove.entries()) {
      const target = join(root, path);
      place = { dir: dirname(target) };
      journal.files.push({
        path,
        staged: null,
        saved: await save(fs, target, staging, `removed-${index}`),
      });
    }
    // The directories the files go in that are not there yet, made after the journal names them.
    const dirs: string[] = [];
    for (const file of files) {
      for (const dir of await missingDirs(fs, dirname(join(root, file.path)))) {
        const name = relative(root, dir);
        if (!dirs.includes(name)) dirs.push(name);
      }
    }
    journal.dirs.push(...dirs);
    place = { dir: root };
    await fs.writeFile(join(staging, `${JOURNAL}.tmp`), JSON.stringify(journal));
    await fs.rename(join(staging, `${JOURNAL}.tmp`), join(staging, JOURNAL));
    step(0);
    for (const dir of dirs) {
      place = { dir: dirname(join(root, dir)), making: join(root, dir) };
      await fs.mkdir(join(root, dir));
    }
    for (const [index, entry] of journal.files.entries()) {
      const target = join(root, entry.path);
      place = { dir: dirname(target) };
      if (entry.staged === null) await fs.remove(target);
      else await fs.rename(join(staging, entry.staged), target);
      step(index + 1);
    }
    for (const path of remove) await removeEmptyParents(fs, root, path);
    place = { dir: root };
    await fs.remove(join(staging, JOURNAL));
    done = true;
  } catch (error) {
    const { left } = await undo(fs, root, staging, journal);
    throw cannotWrite(error, root, place, left);
  } finally {
    lock?.close();
  }
  // All is in place: a folder left here (the file system refused) is removed by the next run.
  if (done) await fs.remove(staging, { recursive: true }).catch(() => {});
}

/** A second name for the file at `target` in the staging folder, to put it back by. */
async function save(fs: WriterFs, target: string, staging: string, index: number | string) {
  const saved = `old-${index}`;
  await fs.save(target, join(staging, saved));
  return saved;
}

/** The directories from `dir` up that are not there, outermost first. */
async function missingDirs(fs: WriterFs, dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; (await fs.lstat(d)) === null; d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  return missing;
}

/** A file's permission bits, as chmod takes them. */
function modeOf(info: Deno.FileInfo): number | undefined {
  return info.mode === null ? undefined : info.mode & 0o7777;
}

/**
 * Holds the staging folder for this process (an advisory lock, released when the process ends,
 * however it ends), so that another voicebot that finds it while this one writes leaves it alone.
 */
function lockFolder(path: string): Deno.FsFile | undefined {
  try {
    const folder = Deno.openSync(path, { read: true });
    folder.lockSync(true);
    return folder;
  } catch {
    return undefined; // a system that cannot open a folder as a file: no lock, as before
  }
}

/** Set by the tests only: the step of a write at which the writer kills itself (see `stopAtStep`). */
const STOP_AT_STEP = "VOICEBOT_TEST_KILL_AFTER_STEP";

/**
 * The step at which tests have the writer stop dead, as `kill -9` would: after the journal is
 * written (0), or after the N-th path is changed. Undefined outside the tests (and without leave to
 * read the environment, which is never asked for).
 */
function stopAtStep(): number | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: STOP_AT_STEP }).state !== "granted") {
    return undefined;
  }
  const step = Deno.env.get(STOP_AT_STEP);
  return step === undefined ? undefined : Number(step);
}

/** Removes the directories above `path` (up to `root`, not included) that are left empty. */
async function removeEmptyParents(fs: WriterFs, root: string, path: string): Promise<void> {
  for (let dir = dirname(join(root, path)); dir.length > root.length; dir = dirname(dir)) {
    try {
      await fs.remove(dir); // fails on a directory that holds anything: then so do those above
    } catch {
      return;
    }
  }
}

/** An earlier write that was stopped before it ended, found in `root` and settled. */
export interface Interrupted {
  /** The staging folder it left, relative to the root. */
  readonly folder: string;
  /** How many paths it had changed, now put back as they were (0: it had changed none). */
  readonly undone: number;
  /** Paths that could not be put back. */
  readonly left: readonly string[];
}

/**
 * Settles every write in `root` that a killed voicebot left unfinished: a journal is undone (every
 * path it changed put back as it was, the directories it made removed), a staging folder without
 * one (the kill came before any file was put in place, or after all were) is removed. A folder a
 * running voicebot holds is left to it. Each settled write is returned, for the caller to say so.
 */
export async function undoInterrupted(root: string, fs: WriterFs = denoFs): Promise<Interrupted[]> {
  let names: string[];
  try {
    names = [...Deno.readDirSync(root)].filter((entry) =>
      entry.isDirectory && (STAGING.test(entry.name) || OLD_STAGING.test(entry.name))
    ).map((entry) => entry.name).sort();
  } catch {
    return []; // no root yet (or none that can be read: the run's own reading says so)
  }
  const settled: Interrupted[] = [];
  for (const name of names) {
    const staging = join(root, name);
    const lock = tryLockFolder(staging);
    if (lock === null) continue; // another voicebot is writing here now
    try {
      const journal = readJournal(join(staging, JOURNAL));
      const { undone, left } = journal
        ? await undo(fs, root, staging, journal)
        : { undone: 0, left: await removeStaging(fs, staging) };
      settled.push({ folder: name, undone, left });
    } finally {
      lock?.close();
    }
  }
  return settled;
}

/** The folder locked for this process; null when another holds it; undefined when locks fail. */
function tryLockFolder(path: string): Deno.FsFile | null | undefined {
  let folder: Deno.FsFile;
  try {
    folder = Deno.openSync(path, { read: true });
  } catch {
    return undefined;
  }
  if (folder.tryLockSync(true)) return folder;
  folder.close();
  return null;
}

function readJournal(path: string): Journal | undefined {
  try {
    const journal = JSON.parse(Deno.readTextFileSync(path));
    return Array.isArray(journal?.files) && Array.isArray(journal?.dirs) ? journal : undefined;
  } catch {
    return undefined; // none: nothing was put in place yet (or all was)
  }
}

/** Whether the journal's entry was carried out: its new file put in place, or its path removed. */
async function applied(
  fs: WriterFs,
  root: string,
  staging: string,
  entry: Journal["files"][number],
): Promise<boolean> {
  if (entry.staged !== null) return (await fs.lstat(join(staging, entry.staged))) === null;
  return (await fs.lstat(join(root, entry.path))) === null;
}

/**
 * Puts back every path the journal's write changed (a new file removed, a replaced or removed one
 * renamed back from its saved name), removes the directories it made, then the staging folder.
 * Safe to run again after it was itself stopped part-way: each step checks what is there. Returns
 * how many paths the write had changed, and those it could not put back or remove.
 */
async function undo(
  fs: WriterFs,
  root: string,
  staging: string,
  journal: Journal,
): Promise<{ undone: number; left: string[] }> {
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
  let undone = 0;
  for (const entry of [...journal.files].reverse()) {
    if (!(await applied(fs, root, staging, entry))) continue;
    undone++;
    const target = join(root, entry.path);
    if (entry.saved === null) {
      await attempt(target, () => fs.remove(target));
      continue;
    }
    const saved = join(staging, entry.saved);
    if ((await fs.lstat(saved)) === null) continue; // put back by an earlier undo
    await attempt(target, async () => {
      for (const dir of await missingDirs(fs, dirname(target))) await fs.mkdir(dir);
      await fs.rename(saved, target);
    });
  }
  left.push(...await removeStaging(fs, staging));
  for (const dir of [...journal.dirs].reverse()) {
    const path = join(root, dir);
    await attempt(path, () => fs.remove(path));
  }
  return { undone, left };
}

async function removeStaging(fs: WriterFs, staging: string): Promise<string[]> {
  try {
    await fs.remove(staging, { recursive: true });
    return [];
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? [] : [staging];
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

/** Whether anything is at `path`, a dangling link included. */
export function canSee(path: string): boolean {
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
  // "Permission denied (os error 13): mkdir '/x/.voicebot-staging-1a2b'": the words before the
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

/** The file's text, or null when there is none. */
export function readIfExists(path: string): string | null {
  try {
    return Deno.readTextFileSync(path); // sync: an async call costs a trip through Deno's thread pool
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** What is at `path`, not following a link; null when nothing is (or a parent is a file). */
export function statOrNull(path: string): Deno.FileInfo | null {
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
