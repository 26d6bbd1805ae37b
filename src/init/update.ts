/**
 * `voicebot update`, the core: the project as this voicebot makes it from the answers its record
 * holds (with any the user changes), merged file by file with the user's edits against what the
 * project was made as (BASE), then written all or nothing, as `init` writes.
 */
import { basename, join, resolve } from "../paths.ts";
import { ConflictError, NotFoundError, VoicebotError } from "../errors.ts";
import { VERSION } from "../version.ts";
import {
  CONFIG_KEYS,
  type ConfigKey,
  type Problem,
  resolveConfig,
  type ScaffoldConfig,
  type ScaffoldInput,
} from "./config.ts";
import { compareVersions, type KeptGuide, sortGuides } from "./guides.ts";
import { hasConflictMarkers, mergeThreeWay, mergeTwoWay } from "./merge.ts";
import { inForm, PLAIN, readForm, shown, toBytes } from "./file_form.ts";
import { projectAround, reading, resolveOrThrow } from "./mod.ts";
import {
  BASE,
  type Base,
  baseText,
  loadTemplates,
  parseBase,
  planProject,
  planProjectGuides,
  RECORD,
} from "./project.ts";
import type { ManualItem, PythonMigration } from "../migrate/mod.ts";
import { projectFiles } from "../migrate/files.ts";
import {
  type FileToWrite,
  type Interrupted,
  readIfExists,
  statOrNull,
  undoInterrupted,
  writeAll,
} from "./writer.ts";

export interface UpdateRequest {
  readonly cwd: string;
  /** The project's directory or one inside it, as given; the current directory if absent. */
  readonly dir?: string;
  /** Answers to change, as scaffold flags give them; keys not given are absent. */
  readonly flags: ScaffoldInput;
  /** False for `--dry-run` and `--check`: plan, write nothing. */
  readonly write: boolean;
  readonly overwriteGuide: boolean;
  /** What the command line got wrong, reported with every other problem of the run. */
  readonly problems?: readonly Problem[];
}

/** What the update does to one file the user did not leave as voicebot would make it now. */
export type Outcome =
  /** New in this render, and not there: written. */
  | "added"
  /** Untouched by the user since voicebot made it: voicebot's new version. */
  | "updated"
  /** Changed by the user and by voicebot, in different lines: both changes. */
  | "merged"
  /** Changed by both in the same lines: written with both versions between conflict markers. */
  | "conflict"
  /** Not in this render any more, and never edited: removed. */
  | "removed"
  /** Not in this render any more, but edited by the user: kept as it is. */
  | "kept-edited"
  /** Deleted by the user, and changed by voicebot since: stays deleted. */
  | "kept-deleted"
  /**
   * voicebot renders the path, where the user has a file of their own (there before voicebot's
   * first render of it): theirs is kept, not touched, at this and every later update, until they
   * remove it.
   */
  | "kept-yours"
  /** The user's own Python (or theirs merged as it was), carried across Pipecat's API changes. */
  | "migrated"
  /**
   * A symbolic link the update does not write through (it leads outside the project or nowhere, to
   * a file voicebot writes itself, or its file would be removed): left as it is, and named.
   */
  | "linked";

export interface FileChange {
  /** Relative to the project, with `/` separators. */
  readonly path: string;
  readonly outcome: Outcome;
  /** The file on disk before the update, as a person reads it; null when there is none. */
  readonly before: string | null;
  /** The file after it, the same way; null when there is none. Equal to `before` for the kept ones. */
  readonly after: string | null;
  /** The bytes written, for the outcomes that write: the user's line endings, mark and bytes kept. */
  readonly data?: Uint8Array;
  /** For "conflict": how many places conflict. */
  readonly conflicts?: number;
  /**
   * For a path that is a symbolic link: where it leads (as the link says), and, when voicebot
   * followed it, the file inside the project it leads to, merged and written in the link's place.
   */
  readonly link?: Link;
  /** For a "linked" path: what the update would have done to a file there. */
  readonly would?: Outcome;
  /**
   * For a conflict in a file that is not text: the path beside it where voicebot's version is
   * written, the user's file untouched.
   */
  readonly aside?: string;
}

/** One answer the update changes. */
export interface AnswerChange {
  readonly key: ConfigKey;
  readonly from: unknown;
  readonly to: unknown;
}

export interface UpdateResult {
  readonly root: string;
  /** The answers the project is made with now. */
  readonly config: ScaffoldConfig;
  /** The voicebot that made the project (null: its record predates the version) and its Pipecat. */
  readonly from: { readonly version: string | null; readonly pipecat: string | null };
  readonly to: { readonly version: string; readonly pipecat: string | null };
  readonly answers: readonly AnswerChange[];
  /** Recorded answers that the ones given made invalid, so they gave way (re-inferred or unset). */
  readonly dropped: readonly ConfigKey[];
  /**
   * Where the merge base came from: the project's BASE; rendered from the record (made by this very
   * version, BASE missing); or unknown (a project made before BASE existed: two-way merges).
   */
  readonly base: "kept" | "rendered" | "unknown";
  /** Every file the update writes, removes or names, by path, the record too; BASE apart. */
  readonly changes: readonly FileChange[];
  /** Whether the kept base changes (rewritten, or written for the first time). */
  readonly baseChanged: boolean;
  /** Guides there that are kept (as init keeps them: unless `overwriteGuide`). */
  readonly kept: readonly KeptGuide[];
  /** Whether files were written (false for a plan, or when there was nothing to do). */
  readonly written: boolean;
  /** Earlier writes in the project that were stopped part-way, undone before this update. */
  readonly interrupted: readonly Interrupted[];
  /**
   * When Pipecat moves (from.pipecat before to.pipecat): the places in the project's Python, as the
   * update leaves it, that use what changed in a way that is the user's to change.
   */
  readonly manual: readonly ManualPlace[];
}

/** A place in a Python file left to the user by a migration, with the file's path. */
export type ManualPlace = ManualItem & { readonly path: string };

/** The outcomes that write a file; "removed" removes one; the rest leave the file as it is. */
const WRITES: ReadonlySet<Outcome> = new Set([
  "added",
  "updated",
  "merged",
  "conflict",
  "migrated",
]);

/** Whether a result changes anything on disk. */
export function changesSomething(result: UpdateResult): boolean {
  return result.baseChanged ||
    result.changes.some((change) => WRITES.has(change.outcome) || change.outcome === "removed");
}

export async function updateProject(request: UpdateRequest): Promise<UpdateResult> {
  const start = resolve(request.cwd, request.dir ?? ".");
  const root = projectAround(start);
  if (root === undefined) {
    throw new NotFoundError(
      `no ${RECORD} in ${start} or a directory above it: update works on a project that \`voicebot init\` scaffolded.`,
      {
        hint:
          "run it in the project's directory, or name it (`voicebot update my-bot`). A project with the coding agent's guides only has nothing to update.",
      },
    );
  }
  // A write that was killed part-way is undone first: the update starts from the tree before it.
  const interrupted = await undoInterrupted(root);
  await loadTemplates();
  const recorded = await reading(root, () => readRecord(root));
  if (recorded.version && compareVersions(recorded.version, VERSION) > 0) {
    throw new VoicebotError(
      `${root} was made by voicebot ${recorded.version}, newer than this one (${VERSION}); nothing was written.`,
      { hint: "update voicebot itself first, then the project." },
    );
  }
  const { input, dropped } = answersWith(recorded, request.flags);
  const { config } = resolveOrThrow(input, request.problems ?? [], recorded.config.project_name);

  const plan = planProject(config);
  const rendered = plan.files.filter((file) => file.path !== RECORD && file.path !== BASE);
  const theirs = new Map(rendered.map((file) => [file.path, file]));
  const { base, source, text: baseBefore } = await reading(root, () => baseOf(root, recorded));
  const paths = [...new Set([...Object.keys(base?.files ?? {}), ...theirs.keys()])].sort();
  const projectGuides = planProjectGuides(config);
  // The paths voicebot writes itself: a link that leads to one of them is not followed.
  const own = [...paths, RECORD, BASE, ...projectGuides.map((guide) => guide.path)];
  const onDisk = await reading(root, () => readProject(root, paths, own));
  refuseUnsettled(root, onDisk);

  // When Pipecat moves, the user's Python and voicebot's earlier version of it are both carried
  // across its API changes first: the merge then meets the new names on every side.
  const pipecatFrom = pipecatOf(base?.files["server/pyproject.toml"]);
  const pipecatTo = pipecatOf(theirs.get("server/pyproject.toml")?.content);
  const migration = pipecatFrom && pipecatTo && compareVersions(pipecatFrom, pipecatTo) < 0
    ? (await import("../migrate/mod.ts")).pythonMigration(
      pipecatFrom,
      pipecatTo,
      theirs.get("server/pyproject.toml")?.content ?? null,
    )
    : undefined;
  const mergeBase = migration && base ? await migratedBase(base, migration) : base;
  const changes: FileChange[] = [];
  for (const path of paths) {
    const disk = onDisk.get(path)!;
    const yours = migration ? await migratedText(path, disk.bytes, migration) : undefined;
    const change = merged(path, disk, mergeBase, theirs.get(path)?.content, yours);
    if (change) {
      changes.push(change.aside ? { ...change, aside: freeName(root, change.aside) } : change);
    }
  }
  // The project's Python, walked once: the user's own files are migrated, and every file, as the
  // update leaves it, is read for the places left to the user.
  const python = migration ? await reading(root, () => projectFiles(root).py) : [];
  if (migration) {
    changes.push(
      ...await reading(root, () => ownPython(root, python, [...paths, ...own], migration)),
    );
  }
  const guides = await reading(
    root,
    () => sortGuides(root, projectGuides, "project", request.overwriteGuide),
  );
  // Guides go by init's rule: a missing one is written, one there is kept unless overwriteGuide.
  for (const guide of guides.write) {
    const before = readOrNull(root, guide.path);
    changes.push({
      path: guide.path,
      outcome: before === null ? "added" : "updated",
      before,
      after: guide.content,
    });
  }
  // The record is voicebot's: it takes the answers and the version as they are now.
  const record = plan.files.find((file) => file.path === RECORD)!.content;
  if (recorded.text !== record) {
    changes.push({ path: RECORD, outcome: "updated", before: recorded.text, after: record });
  }
  changes.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  // The new base: voicebot's render, but for the paths that are the user's (kept at this update,
  // or earlier and still there), which it names as theirs instead.
  const yours = changes.filter((change) => change.outcome === "kept-yours").map((c) => c.path);
  const newBase = baseText(rendered.filter((file) => !yours.includes(file.path)), yours);
  const baseChanged = baseBefore !== newBase;
  const result = {
    root,
    config,
    from: { version: recorded.version ?? null, pipecat: pipecatFrom },
    to: { version: VERSION, pipecat: pipecatTo },
    answers: answerChanges(recorded.config, config),
    dropped,
    base: source,
    changes,
    baseChanged,
    kept: guides.kept,
    written: false,
    interrupted,
    manual: migration
      ? await reading(root, () => manualPlaces(root, python, changes, migration))
      : [],
  };
  if (!request.write || !changesSomething(result)) return result;

  const writes: FileToWrite[] = changes.filter((change) => WRITES.has(change.outcome))
    .map((change) => ({ path: writtenAt(change), content: change.data ?? change.after! }));
  if (baseChanged) writes.push({ path: BASE, content: newBase });
  const removals = changes.filter((change) => change.outcome === "removed").map(writtenAt);
  await writeAll(root, writes, undefined, removals);
  return { ...result, written: true };
}

/** A Python file's text (canonical, see file_form.ts) migrated; undefined when that changes nothing. */
async function migratedText(
  path: string,
  bytes: Uint8Array | null,
  migration: PythonMigration,
): Promise<string | undefined> {
  if (!path.endsWith(".py") || bytes === null) return undefined;
  const { form, text } = readForm(bytes);
  if (form.binary) return undefined;
  const migrated = await migration.text(text);
  return migrated === text ? undefined : migrated;
}

/** voicebot's earlier version of the project, its Python migrated as the user's is. */
async function migratedBase(base: Base, migration: PythonMigration): Promise<Base> {
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(base.files)) {
    files[path] = path.endsWith(".py") ? await migration.text(text) : text;
  }
  return { ...base, files };
}

/** The Python files that are the user's alone (none voicebot writes), migrated. */
async function ownPython(
  root: string,
  python: readonly string[],
  voicebots: readonly string[],
  migration: PythonMigration,
): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const path of python.filter((path) => !voicebots.includes(path))) {
    const bytes = Deno.readFileSync(join(root, path));
    const migrated = await migratedText(path, bytes, migration);
    if (migrated === undefined) continue;
    const data = toBytes(readForm(bytes).form, migrated);
    changes.push({ path, outcome: "migrated", before: shown(bytes), after: shown(data), data });
  }
  return changes;
}

/** The places left to the user in every Python file of the project, as the update leaves it. */
async function manualPlaces(
  root: string,
  python: readonly string[],
  changes: readonly FileChange[],
  migration: PythonMigration,
): Promise<ManualPlace[]> {
  const places: ManualPlace[] = [];
  for (const path of python) {
    const change = changes.find((change) => change.path === path);
    const text = change ? change.after : readForm(Deno.readFileSync(join(root, path))).text;
    if (text === null) continue;
    places.push(...(await migration.manual(text)).map((item) => ({ ...item, path })));
  }
  return places;
}

/** Where a change is written: beside the path, the file its link leads to, or the path. */
function writtenAt(change: FileChange): string {
  return change.aside ?? change.link?.file ?? change.path;
}

/** The record's answers, resolved, and the version that wrote it. */
interface Recorded {
  /** The record's text, as it is on disk. */
  readonly text: string;
  readonly input: ScaffoldInput;
  readonly config: ScaffoldConfig;
  readonly version?: string;
}

async function readRecord(root: string): Promise<Recorded> {
  const path = join(root, RECORD);
  const { parseConfigFile } = await import("./config_file.ts");
  const text = Deno.readTextFileSync(path);
  const parsed = parseConfigFile(text, path);
  const { config } = resolveOrThrow(parsed.input, parsed.problems, basename(root), {
    unknownInput: parsed.unreadable,
    message: `${path}, the record of how this project was made, is not a valid configuration`,
    hint: `fix it (\`voicebot init --config ${path} --dry-run\` checks it), then update again.`,
  });
  return { text, input: parsed.input, config, version: parsed.version };
}

/**
 * The answers to make the project with: the recorded ones, overridden by those given, as flags
 * override `--config` in init, but for two things a record cannot say. An answer voicebot
 * inferred (the bot type from the transports, a default) is inferred again from the new answers,
 * not held at its old value. And a recorded answer that the given ones make invalid (the
 * speech-to-text service of a project that goes realtime) gives way, and is named (`dropped`).
 */
function answersWith(
  recorded: Recorded,
  flags: ScaffoldInput,
): { input: ScaffoldInput; dropped: ConfigKey[] } {
  if (Object.keys(flags).length === 0) return { input: recorded.input, dropped: [] };
  const name = recorded.config.project_name;
  const same = (input: ScaffoldInput) =>
    JSON.stringify(resolveConfig(input, name).config) === JSON.stringify(recorded.config);
  const without = (input: ScaffoldInput, keys: readonly string[]) =>
    Object.fromEntries(Object.entries(input).filter(([key]) => !keys.includes(key)));
  const inferred = Object.keys(recorded.input).filter((key) =>
    key !== "project_name" && same(without(recorded.input, [key]))
  );
  const kept = same(without(recorded.input, inferred))
    ? without(recorded.input, inferred)
    : recorded.input;
  const { problems } = resolveConfig({ ...kept, ...flags }, name);
  const dropped = [
    ...new Set(
      problems.filter((p) => !p.missing && p.key && p.key in kept && !(p.key in flags))
        .map((p) => p.key as ConfigKey),
    ),
  ];
  return { input: { ...without(kept, dropped), ...flags }, dropped };
}

/**
 * The merge base: what the project was made as. The copy the project keeps; else, for a project
 * this very version made, its render of the recorded answers; else unknown. `text` is BASE as it
 * is on disk.
 */
function baseOf(
  root: string,
  recorded: Recorded,
): { base: Base | undefined; source: UpdateResult["base"]; text: string | null } {
  const text = readOrNull(root, BASE);
  const kept = text === null ? undefined : parseBase(text);
  if (kept) return { base: kept, source: "kept", text };
  if (text === null && recorded.version === VERSION) {
    const files = planProject(recorded.config).files
      .filter((file) => file.path !== RECORD && file.path !== BASE);
    return {
      base: {
        version: VERSION,
        files: Object.fromEntries(files.map((file) => [file.path, file.content])),
      },
      source: "rendered",
      text,
    };
  }
  return { base: undefined, source: "unknown", text };
}

/** A path of the project as the update finds it. */
interface OnDisk {
  /** The file's bytes (through a link, its file's); null when there is none. */
  readonly bytes: Uint8Array | null;
  /** For a symbolic link: where it leads, and the file the update follows it to (see `linkAt`). */
  readonly link?: Link;
}

/** A symbolic link: where it leads, as it says; the file it is followed to, relative to the root. */
export interface Link {
  readonly to: string;
  readonly file?: string;
}

/** Each of the `paths` on disk under `root`; a link is followed unless it leads to one of `own`. */
function readProject(
  root: string,
  paths: readonly string[],
  own: readonly string[],
): Map<string, OnDisk> {
  const onDisk = new Map<string, OnDisk>();
  const followed = new Set<string>();
  let realRoot: string | undefined; // where links are followed from: found at the first link
  for (const path of paths) {
    const full = join(root, path);
    const info = statOrNull(full);
    if (info?.isSymlink) {
      realRoot ??= Deno.realPathSync(root);
      const { real, ...link } = linkAt(root, realRoot, path, own, followed);
      onDisk.set(path, { bytes: real ? Deno.readFileSync(real) : null, link });
    } else onDisk.set(path, { bytes: info ? Deno.readFileSync(full) : null });
  }
  return onDisk;
}

/**
 * The symbolic link at `path`: where it leads, the real path of its file when that is a file, and
 * the file the update follows it to, if it does. It does when the file is inside the project and is
 * none of the paths voicebot writes itself (`own`) nor one another link leads to: the merge is
 * written there and the link stays. Else the link is left as it is (a file outside the project may
 * be shared with others; voicebot does not write there).
 */
function linkAt(
  root: string,
  realRoot: string,
  path: string,
  own: readonly string[],
  followed: Set<string>,
): Link & { real?: string } {
  const full = join(root, path);
  const to = Deno.readLinkSync(full);
  let real: string | undefined;
  try {
    real = Deno.statSync(full).isFile ? Deno.realPathSync(full) : undefined;
  } catch {
    return { to }; // it leads nowhere
  }
  const file = real?.startsWith(`${realRoot}/`) ? real.slice(realRoot.length + 1) : undefined;
  if (file === undefined || own.includes(file) || followed.has(file)) return { to, real };
  followed.add(file);
  return { to, file, real };
}

/**
 * One file's fate, from its three versions: on disk (the user's), `base` as voicebot made it,
 * `theirs` as voicebot makes it now (undefined: not part of the project, or not known). Undefined
 * when the file stays as it is and there is nothing to say about it. A link voicebot does not
 * follow is never written: what would have happened to it is named instead.
 */
function merged(
  path: string,
  disk: OnDisk,
  base: Base | undefined,
  theirs: string | undefined,
  migrated?: string,
): FileChange | undefined {
  const change = mergedBytes(path, disk.bytes, base, theirs, migrated);
  if (!change || !disk.link) return change;
  // Followed, but never to remove the file the link leads to: that one is left, and named.
  if (disk.link.file && change.outcome !== "removed") return { ...change, link: disk.link };
  if (change.before === change.after && change.outcome !== "conflict") return change;
  const { before } = change;
  const link = { to: disk.link.to };
  return { path, outcome: "linked", before, after: before, link, would: change.outcome };
}

/**
 * The same on the file's bytes. The user's bytes are merged in their own form (see file_form.ts):
 * read as a canonical string, voicebot's versions put in its terms, the result written back in it.
 * A file that is not text is never merged: when both changed it, voicebot's version goes beside it.
 */
function mergedBytes(
  path: string,
  bytes: Uint8Array | null,
  baseRecord: Base | undefined,
  theirsText: string | undefined,
  migrated?: string,
): FileChange | undefined {
  const read = bytes === null ? { form: PLAIN, text: null } : readForm(bytes);
  const { form } = read;
  const yours = migrated ?? read.text;
  const before = bytes === null ? null : shown(bytes);
  const baseText = baseRecord?.files[path];
  const base = baseText === undefined ? undefined : inForm(form, baseText);
  const theirs = theirsText === undefined ? undefined : inForm(form, theirsText);
  const keep = (outcome: Outcome): FileChange => ({ path, outcome, before, after: before });
  const take = (outcome: Outcome, text: string | null, conflicts = 0): FileChange => {
    if (text === null) return { path, outcome, before, after: null };
    // A new file is written as voicebot writes; a file there keeps its own form.
    const data = toBytes(yours === null ? PLAIN : form, text);
    return { path, outcome, before, after: shown(data), data, ...(conflicts ? { conflicts } : {}) };
  };
  const threeWay = (merge: () => { text: string; conflicts: number }): FileChange => {
    if (form.binary) return aside(path, before, theirsText!);
    const { text, conflicts } = merge();
    return take(conflicts > 0 ? "conflict" : "merged", text, conflicts);
  };
  // What the merge leaves as it is, a migration of the user's file still changes.
  const unchanged = (outcome?: Outcome) =>
    migrated !== undefined && migrated !== read.text
      ? take("migrated", migrated)
      : outcome === undefined
      ? undefined
      : keep(outcome);
  if (yours === theirs) return unchanged();
  if (theirs === undefined) {
    // Not voicebot's any more (or never known to be: then it is the user's, and left alone).
    if (base === undefined || yours === null) return unchanged();
    return yours === base ? take("removed", null) : unchanged("kept-edited");
  }
  if (yours === null) {
    // New in this render, or the user's own file is gone (then voicebot's takes its place), or
    // the base is not known: then there is nothing to lose.
    if (base === undefined) return take("added", theirs);
    // Deleted by the user: it stays deleted, and is named when voicebot has changed it since.
    return base === theirs ? undefined : keep("kept-deleted");
  }
  if (baseRecord === undefined) return threeWay(() => mergeTwoWay(yours, theirs));
  // Not in the base: voicebot had not rendered it when the user made theirs (or it is recorded as
  // theirs since): theirs.
  if (base === undefined) return unchanged("kept-yours");
  if (yours === base) return take("updated", theirs);
  if (theirs === base) return unchanged(); // only the user changed it
  return threeWay(() => mergeThreeWay(yours, base, theirs));
}

/**
 * A conflict in a file that is not text: the user's file stays as it is, and voicebot's version
 * is written beside it, at the first free `<path>.voicebot[-N]`.
 */
function aside(path: string, before: string | null, theirs: string): FileChange {
  return {
    path,
    outcome: "conflict",
    before,
    after: before,
    data: new TextEncoder().encode(theirs),
    conflicts: 1,
    aside: `${path}.voicebot`,
  };
}

/** `aside`, or the first of `aside-2`, `aside-3`, ... that no file takes. */
function freeName(root: string, aside: string): string {
  for (let n = 2, name = aside;; name = `${aside}-${n++}`) {
    if (statOrNull(join(root, name)) === null) return name;
  }
}

/** A conflict an earlier update wrote and nobody settled stops this one: it would merge markers. */
function refuseUnsettled(root: string, onDisk: ReadonlyMap<string, OnDisk>): void {
  const unsettled = [...onDisk].filter(([, { bytes }]) =>
    bytes !== null && hasConflictMarkers(shown(bytes))
  ).map(([path]) => path);
  if (unsettled.length === 0) return;
  throw new ConflictError(
    `${unsettled.length} file${
      unsettled.length === 1 ? " still holds a conflict" : "s still hold conflicts"
    } from an earlier update in ${root}; nothing was written.`,
    {
      problems: unsettled,
      hint:
        "settle each one: keep the lines you want between `<<<<<<< yours` and `>>>>>>> voicebot …`, delete the marker lines, then run `voicebot update` again.",
    },
  );
}

function answerChanges(from: ScaffoldConfig, to: ScaffoldConfig): AnswerChange[] {
  return CONFIG_KEYS.filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key]))
    .map((key) => ({ key, from: from[key], to: to[key] }));
}

/** The Pipecat release a pyproject.toml requires at least (`pipecat-ai[...]>=1.7.0,<1.8`). */
function pipecatOf(pyproject: string | undefined): string | null {
  return pyproject?.match(/"pipecat-ai(?:\[[^\]]*\])?>=([0-9][0-9A-Za-z.]*)/)?.[1] ?? null;
}

/** The text of the file at `path` in the project, or null when there is none. */
function readOrNull(root: string, path: string): string | null {
  return readIfExists(join(root, path));
}
