/**
 * `voicebot migrate`'s core: every Python file of a project migrated from one Pipecat release to
 * another, and its pyproject.toml moved to ask for the newer one, written all or nothing.
 */
import { NotFoundError, UsageError } from "../errors.ts";
import { compareVersions } from "../init/guides.ts";
import { PIPECAT_VERSION } from "../init/project_view.ts";
import { readForm, toBytes } from "../init/file_form.ts";
import { type FileToWrite, type Interrupted, undoInterrupted, writeAll } from "../init/writer.ts";
import { reading } from "../init/mod.ts";
import { dirname, join, relative, resolve } from "../paths.ts";
import type { Change } from "./catalog.ts";
import { CHANGES } from "./changes.ts";
import { type Applied, type ManualItem, migrateSource } from "./engine.ts";
import { changesBetween } from "./renames.ts";
import { projectFiles } from "./files.ts";
import {
  floorOf,
  lockedVersion,
  movePyproject,
  pipecatRequirements,
  ruffLineLength,
} from "./pyproject.ts";

/** The first release the catalog starts from: migrations are of changes made after it. */
export const FIRST_RELEASE = "1.0.0";

export interface MigrateRequest {
  readonly cwd: string;
  readonly dir?: string;
  readonly from?: string;
  readonly to?: string;
  /** False for --dry-run and --check. */
  readonly write: boolean;
}

export interface MigratedFile {
  /** Relative to the root, with `/`. */
  readonly path: string;
  /** As the user's file reads, and after the changes (LF line endings; written in its form). */
  readonly before: string;
  readonly after: string;
  readonly applied: readonly Applied[];
}

export interface MigrateResult {
  readonly root: string;
  readonly from: string;
  /** Where `from` came from: `--from`, or the pyproject.toml or uv.lock it was read in. */
  readonly fromSource: string;
  readonly to: string;
  readonly files: readonly MigratedFile[];
  readonly manual: readonly (ManualItem & { path: string })[];
  /** Python files that are not valid Python, left as they are. */
  readonly unparsable: readonly string[];
  readonly scanned: number;
  readonly written: boolean;
  readonly interrupted: readonly Interrupted[];
}

const VERSION_FORM = /^\d+\.\d+\.\d+$/;

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** The pyproject.toml that says which Pipecat the code is for: DIR's or one above, else one below. */
function projectFile(dir: string, below: readonly string[]): string | null {
  for (let at = dir;; at = dirname(at)) {
    const path = join(at, "pyproject.toml");
    const text = readText(path);
    if (text !== null && pipecatRequirements(text).length > 0) return path;
    if (dirname(at) === at) break;
  }
  const withPipecat = below
    .map((path) => join(dir, path))
    .filter((path) => pipecatRequirements(readText(path) ?? "").length > 0);
  if (withPipecat.length > 1) {
    throw new UsageError(
      `${dir} holds ${withPipecat.length} projects that depend on pipecat-ai: ${
        withPipecat.map((path) => relative(dir, path)).join(", ")
      }.`,
      { hint: "migrate each one: name its directory, or give --from." },
    );
  }
  return withPipecat[0] ?? null;
}

/** The release the code is written for: the requirement's floor, else what uv.lock pins. */
function releaseOf(pyproject: string): string | null {
  const text = Deno.readTextFileSync(pyproject);
  for (const requirement of pipecatRequirements(text)) {
    const floor = floorOf(requirement);
    if (floor !== null) return floor;
  }
  const lock = readText(join(dirname(pyproject), "uv.lock"));
  return lock === null ? null : lockedVersion(lock);
}

function checkVersions(from: string | undefined, to: string | undefined): string[] {
  const problems: string[] = [];
  for (const [flag, value] of [["--from", from], ["--to", to]] as const) {
    if (value !== undefined && !VERSION_FORM.test(value)) {
      problems.push(`${flag}: "${value}" is not a release (as 1.2.0)`);
    }
  }
  if (to !== undefined && VERSION_FORM.test(to) && compareVersions(to, PIPECAT_VERSION) > 0) {
    problems.push(
      `--to: ${to} is newer than the last release this voicebot knows, ${PIPECAT_VERSION}`,
    );
  }
  if (from !== undefined && VERSION_FORM.test(from) && compareVersions(from, FIRST_RELEASE) < 0) {
    problems.push(`--from: ${from} is older than ${FIRST_RELEASE}, where the migrations start`);
  }
  return problems;
}

/** Migrates the project at `request.dir` (see the command's help for the rules). */
export async function migrateProject(request: MigrateRequest): Promise<MigrateResult> {
  const dir = resolve(request.cwd, request.dir ?? ".");
  const problems = checkVersions(request.from, request.to);
  if (problems.length > 0) {
    throw new UsageError(problems.length === 1 ? problems[0] : "the releases given are wrong:", {
      problems: problems.length === 1 ? [] : problems,
    });
  }
  let isDir = false;
  try {
    isDir = Deno.statSync(dir).isDirectory;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!isDir) throw new NotFoundError(`no directory ${dir}: nothing to migrate.`);

  const found = await reading(dir, () => projectFiles(dir));
  const pyproject = await reading(dir, () => projectFile(dir, found.pyproject));
  const to = request.to ?? PIPECAT_VERSION;
  let from = request.from;
  let fromSource = "--from";
  if (from === undefined) {
    from = pyproject === null
      ? undefined
      : await reading(dir, () => releaseOf(pyproject)) ?? undefined;
    if (from === undefined) {
      throw new UsageError(
        pyproject === null
          ? `no pyproject.toml in or above ${dir} depends on pipecat-ai: which release is the code for?`
          : `${pyproject} gives no version of pipecat-ai (no floor, no uv.lock): which release is the code for?`,
        { hint: "give it: `voicebot migrate --from 1.2.0`." },
      );
    }
    fromSource = relative(request.cwd, pyproject!) || "pyproject.toml";
  }
  if (compareVersions(from, to) > 0) {
    throw new UsageError(`--from ${from} is newer than --to ${to}: there is nothing to migrate.`);
  }
  // The pyproject may be above DIR: the root is where both are.
  const root = pyproject !== null && !pyproject.startsWith(`${dir}/`) ? dirname(pyproject) : dir;
  const interrupted = request.write ? await undoInterrupted(root) : [];

  const changes: Change[] = changesBetween(CHANGES, from, to);
  const lineLength = ruffLineLength(pyproject === null ? null : readText(pyproject));
  const files: MigratedFile[] = [];
  const writes: FileToWrite[] = [];
  const manual: (ManualItem & { path: string })[] = [];
  const unparsable: string[] = [];
  for (const path of found.py) {
    const full = join(dir, path);
    const bytes = await reading(dir, () => Deno.readFileSync(full));
    const { form, text } = readForm(bytes);
    if (form.binary) continue;
    const pathFromRoot = relative(root, full);
    const result = await migrateSource(text, changes, { lineLength });
    if (result.unparsable) unparsable.push(pathFromRoot);
    manual.push(...result.manual.map((item) => ({ ...item, path: pathFromRoot })));
    if (result.text === text) continue;
    files.push({ path: pathFromRoot, before: text, after: result.text, applied: result.applied });
    writes.push({ path: pathFromRoot, content: toBytes(form, result.text) });
  }
  // The project asks for the release its code now uses, its extras under their new names.
  if (pyproject !== null) {
    const extras = new Map(
      changes.flatMap((change) => change.kind === "extra" ? [[change.from, change.to]] : []),
    );
    const bytes = Deno.readFileSync(pyproject);
    const { form, text } = readForm(bytes);
    const moved = movePyproject(text, to, extras);
    if (moved !== text) {
      const path = relative(root, pyproject);
      files.push({ path, before: text, after: moved, applied: [] });
      writes.push({ path, content: toBytes(form, moved) });
    }
  }
  if (request.write && writes.length > 0) await writeAll(root, writes);
  return {
    root,
    from,
    fromSource,
    to,
    files,
    manual,
    unparsable,
    scanned: found.py.length,
    written: request.write && writes.length > 0,
    interrupted,
  };
}
