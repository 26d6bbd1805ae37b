/**
 * `voicebot init`, the core: decide the path (coding agent, scaffold, quickstart), resolve and
 * validate the configuration, plan the files, refuse on conflicts, then write all or nothing.
 */
import { basename, dirname, join, resolve } from "../paths.ts";
import { ConflictError, UsageError } from "../errors.ts";
import {
  type ConfigKey,
  FIELDS,
  formatProblem,
  lowerName,
  type Problem,
  resolveConfig,
  type ScaffoldConfig,
  type ScaffoldInput,
} from "./config.ts";
import { type GuideKind, type KeptGuide, sortGuides } from "./guides.ts";
import {
  loadTemplates,
  planGuides,
  planProject,
  planProjectGuides,
  type ProjectRecord,
  RECORD,
  recordOf,
} from "./project.ts";
import { secretSetName, servicesOf } from "./project_view.ts";
import {
  cannotRead,
  type Interrupted,
  type PlannedFile,
  survey,
  undoInterrupted,
  writeAll,
} from "./writer.ts";
import { clientFolder } from "./client.ts";
import { closest, editDistance } from "../suggest.ts";
import { shellQuote } from "../words.ts";

export const QUICKSTART_DIR = "voicebot-quickstart";

/** The quickstart preset (SPEC.md 4.2.4): two web transports, one service of each cascade kind. */
export const QUICKSTART: ScaffoldInput = {
  project_name: QUICKSTART_DIR,
  transports: ["lightweb", "hosted"],
  mode: "cascade",
  stt_service: "deepgram_stt",
  llm_service: "openai_llm",
  tts_service: "cartesia_tts",
  deploy_to_cloud: true,
};

/** The directory argument that scaffolds the quickstart preset. */
export const QUICKSTART_WORD = "quickstart";

/**
 * A directory argument a letter or two from `quickstart` (`quickstrat`, `Quickstart`) that names
 * no directory here is the preset mistyped, not a project to make: refused, with the preset's
 * command and the way to make a project of that name. An existing directory of that name is
 * taken as before, and so is a path (`./quickstrat`).
 */
export function refusePresetTypo(cwd: string, dir: string | undefined): void {
  if (dir === undefined || dir === QUICKSTART_WORD || /[\\/]/.test(dir)) return;
  const near = closest(dir, [QUICKSTART_WORD]);
  if (near === undefined || editDistance(dir.toLowerCase(), near) > 2) return;
  try {
    if (Deno.statSync(resolve(cwd, dir)).isDirectory) return;
  } catch {
    // Nothing there: the typo it looks like.
  }
  const name = shellQuote(dir);
  throw new UsageError(
    `${name} is not the quickstart preset, and there is no directory ${name} here; nothing was written.`,
    {
      hint:
        `did you mean \`voicebot init ${near}\`? To make a project in a new directory ${name} ` +
        `instead, run \`voicebot init ${shellQuote(`./${dir}`)}\`.`,
    },
  );
}

export interface InitRequest {
  readonly cwd: string;
  /** TARGET_DIR as given, if any. */
  readonly dir?: string;
  /** The scaffold options given as flags; keys that were not given are absent. */
  readonly flags: ScaffoldInput;
  readonly configPath?: string;
  readonly dryRun: boolean;
  readonly overwriteGuide: boolean;
  /**
   * What the command line got wrong before the core saw it (an unexpected argument, two flags
   * that disagree): reported with every other problem of the run.
   */
  readonly problems?: readonly Problem[];
}

/**
 * The lower-case names a project with capitals in its name gets where lower case is needed: its
 * container image (and cloud agent, client package) and its secret set.
 */
export interface LowerNames {
  readonly image: string;
  readonly secret_set: string;
}

/** What every result says besides its files. */
interface Notes {
  /**
   * What is accepted, as Pipecat's scaffolder accepts it, but is inert: one line each, naming the
   * flag and key as a problem does.
   */
  readonly warnings: readonly string[];
  /** Set when the project name has capitals, so the image and secret set are named otherwise. */
  readonly lowerNames: LowerNames | null;
  /** Earlier writes in the directory that were stopped part-way, undone before this run. */
  readonly interrupted: readonly Interrupted[];
}

export type InitResult =
  | Notes & {
    readonly kind: "dry-run";
    readonly root: string;
    /** What the record would hold; null on the guides-only path, which has no configuration. */
    readonly config: ProjectRecord | null;
    /** On the guides-only path, whether they would be a scaffolded project's own. */
    readonly projectGuides: boolean;
    readonly files: readonly string[];
    readonly kept: readonly KeptGuide[];
    /** Guides the coding-agent path wrote and nobody edited, replaced by the project's own. */
    readonly replaced: readonly string[];
    /** The deprecated services the bot uses, each with what Pipecat says of it. */
    readonly deprecated: readonly string[];
    /** Files in the way: a real run stops on them, and so does the command's dry run. */
    readonly conflicts: readonly string[];
    /** Files already there with the same bytes: not in `files`, a real run leaves them alone. */
    readonly unchanged: readonly string[];
  }
  | Notes & {
    readonly kind: "written";
    readonly root: string;
    /** Null where only guides were written: the coding agent's, or a scaffolded project's own. */
    readonly config: ProjectRecord | null;
    /** Where only guides were written, whether they are a scaffolded project's own. */
    readonly projectGuides: boolean;
    readonly written: readonly string[];
    readonly kept: readonly KeptGuide[];
    readonly replaced: readonly string[];
    readonly deprecated: readonly string[];
    /** Files already there with the same bytes, left alone: when `written` is empty, all of them. */
    readonly unchanged: readonly string[];
  };

export async function initProject(request: InitRequest): Promise<InitResult> {
  const quickstart = request.dir === QUICKSTART_WORD;
  const scaffold = quickstart || request.configPath !== undefined ||
    Object.keys(request.flags).length > 0;
  if (!scaffold) return await writeGuideProject(request);

  const root = resolve(request.cwd, quickstart ? QUICKSTART_DIR : request.dir ?? ".");
  const { config, warnings } = quickstart
    ? resolveQuickstart(request)
    : await configFromRequest(request, basename(root));
  const lowerNames = lowerNamesOf(config);
  const there = refuseFileAsRoot(root);
  const interrupted = await undoInterrupted(root);
  // A dry run into a directory not made yet names the files and renders none: no templates.
  if (!request.dryRun || clientFolder(config) || there) await loadTemplates();
  const plan = planProject(config);
  const { guides, found } = await reading(root, () => ({
    guides: sortGuides(root, plan.guides, "project", request.overwriteGuide),
    found: survey(root, plan.files),
  }));
  const files = [...found.write, ...guides.write];
  const unchanged = [...found.unchanged, ...guides.unchanged].sort();
  const { kept, replaced } = guides;
  const deprecated = servicesOf(config).filter((service) => service.deprecated)
    .map((service) => `${service.id} is ${service.deprecated}`);
  if (request.dryRun) {
    return {
      kind: "dry-run",
      root,
      config: recordOf(config),
      projectGuides: false,
      files: paths(files),
      kept,
      replaced,
      deprecated,
      conflicts: found.conflicts,
      unchanged,
      warnings,
      lowerNames,
      interrupted,
    };
  }
  refuseConflicts(root, found.conflicts);
  if (files.length > 0) await writeAll(root, files);
  return {
    kind: "written",
    root,
    config: recordOf(config),
    projectGuides: false,
    written: paths(files),
    kept,
    replaced,
    deprecated,
    unchanged,
    warnings,
    lowerNames,
    interrupted,
  };
}

/** The image's and secret set's names, when they differ from the project's by case. */
function lowerNamesOf(config: ScaffoldConfig): LowerNames | null {
  const image = lowerName(config.project_name);
  return image === config.project_name
    ? null
    : { image, secret_set: secretSetName(config.project_name) };
}

/** The coding-agent path: a directory with the guides, for an agent to build the bot from. */
async function writeGuideProject(request: InitRequest): Promise<InitResult> {
  // Every problem of the run at once, each with its way out.
  const problems: { text: string; hint: string }[] = [];
  if (request.dir === undefined) {
    problems.push({
      text: "no target directory",
      hint:
        "name one (`voicebot init my-bot`), or pass scaffold options to generate a bot in place (`voicebot init --help`).",
    });
  }
  for (const problem of request.problems ?? []) {
    problems.push({
      text: formatProblem(problem),
      hint: "`voicebot init --help` describes every option.",
    });
  }
  if (problems.length === 1) {
    throw new UsageError(`${problems[0].text}.`, { hint: problems[0].hint });
  }
  if (problems.length > 1) {
    throw new UsageError(`${problems.length} problems; nothing was written.`, {
      problems: problems.map((problem) => problem.text),
      hint: [...new Set(problems.map((problem) => problem.hint.replace(/\.$/, "")))].join("; ") +
        ".",
    });
  }
  const root = resolve(request.cwd, request.dir!);
  refuseFileAsRoot(root);
  const interrupted = await undoInterrupted(root);
  const { guides, kind } = await reading(root, async () => {
    const { guides, kind } = await guidesFor(root);
    return { guides: sortGuides(root, guides, kind, request.overwriteGuide), kind };
  });
  const notes = {
    root,
    config: null,
    projectGuides: kind === "project",
    kept: guides.kept,
    replaced: guides.replaced,
    deprecated: [],
    unchanged: guides.unchanged,
    warnings: [],
    lowerNames: null,
    interrupted,
  };
  if (request.dryRun) {
    // Guides never stand in the way of anything: a guide there is kept or replaced.
    return { kind: "dry-run", ...notes, files: paths(guides.write), conflicts: [] };
  }
  if (guides.write.length > 0) await writeAll(root, guides.write);
  return { kind: "written", ...notes, written: paths(guides.write) };
}

/**
 * The scaffolded project `dir` is in (it or a directory above it holds the record of how the
 * project was made), or undefined.
 */
export function projectAround(dir: string): string | undefined {
  for (let at = dir;; at = dirname(at)) {
    try {
      if (Deno.statSync(join(at, RECORD)).isFile) return at;
    } catch {
      // Not here: look above.
    }
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The guides a directory takes without scaffold options: a scaffolded project's own, from the
 * configuration it recorded, or the coding-agent path's.
 */
export async function guidesFor(
  root: string,
): Promise<{ guides: PlannedFile[]; kind: GuideKind }> {
  await loadTemplates();
  const record = join(root, RECORD);
  let source: string;
  try {
    source = Deno.readTextFileSync(record); // sync: an async call costs a trip through Deno's thread pool
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { guides: planGuides(basename(root)), kind: "agent" };
    }
    throw error;
  }
  const { parseConfigFile } = await import("./config_file.ts");
  const parsed = parseConfigFile(source, record);
  const { config } = resolveOrThrow(parsed.input, parsed.problems, basename(root), {
    unknownInput: parsed.unreadable,
    message: `${record}, the record of how this project was made, is not a valid configuration`,
    hint:
      `fix it (\`voicebot init --config ${record} --dry-run\` checks it), or move it away to get the coding-agent guides.`,
  });
  return { guides: planProjectGuides(config), kind: "project" };
}

async function configFromRequest(request: InitRequest, dirName: string): Promise<Resolved> {
  let fileInput: ScaffoldInput = {};
  const earlier: Problem[] = [...request.problems ?? []];
  let unknownInput = false;
  if (request.configPath !== undefined) {
    const path = resolve(request.cwd, request.configPath);
    const source = await readConfigFile(path, request.configPath);
    if (typeof source === "string") {
      const { parseConfigFile } = await import("./config_file.ts");
      const parsed = parseConfigFile(source, request.configPath);
      fileInput = parsed.input;
      earlier.push(...parsed.problems);
      unknownInput = parsed.unreadable ?? false;
    } else {
      earlier.push(source);
      unknownInput = true;
    }
  }
  // Flags override the file, key by key.
  return resolveOrThrow({ ...fileInput, ...request.flags }, earlier, dirName, { unknownInput });
}

/** A valid configuration, with the warnings its resolution gave, formatted. */
interface Resolved {
  readonly config: ScaffoldConfig;
  readonly warnings: readonly string[];
}

/**
 * The configuration and its warnings, or a UsageError with every problem of the run: `earlier` ones (the command
 * line's, the config file's) and the resolution's. A key that is required but not given is left
 * out where the input is not known: when the file could not be read at all (`unknownInput`), or
 * when the file gave that key with the wrong type (already reported).
 */
export function resolveOrThrow(
  input: ScaffoldInput,
  earlier: readonly Problem[],
  dirName: string,
  options: { unknownInput?: boolean; message?: string; hint?: string } = {},
): Resolved {
  const { config, problems, warnings } = resolveConfig(input, dirName);
  const reported = new Set(earlier.map((p) => p.key).filter(Boolean));
  const all = [
    ...earlier,
    ...problems.filter((p) => !p.missing || !(options.unknownInput || reported.has(p.key))),
  ];
  if (all.length > 0 || !config) {
    const message = `${all.length} option${all.length === 1 ? "" : "s"} missing or invalid`;
    throw new UsageError(`${options.message ?? message}; nothing was written.`, {
      problems: all.map(formatProblem),
      hint: options.hint ??
        (all.some((p) => p.key && CATALOG_KEYS.has(p.key))
          ? "`voicebot init --list-options` lists every transport and service."
          : "`voicebot init --help` describes every option."),
    });
  }
  return { config, warnings: warnings.map(formatProblem) };
}

/** The settings whose values come from the catalog that `--list-options` prints. */
const CATALOG_KEYS = new Set<string>([
  "transports",
  "stt_service",
  "llm_service",
  "tts_service",
  "realtime_service",
  "video_service",
]);

/** The file's text, or the problem that it cannot be read, reported with the others. */
async function readConfigFile(path: string, given: string): Promise<string | Problem> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { field: "--config", message: `no file at ${given}` };
    }
    if (error instanceof Deno.errors.IsADirectory) {
      return { field: "--config", message: `${given} is a directory, not a JSON file` };
    }
    throw error;
  }
}

/**
 * The quickstart's configuration. It is a fixed preset: scaffold options or `--config` given with
 * it are refused with the run's other problems, never dropped (the user meant a bot of their own,
 * and would get another).
 */
function resolveQuickstart(request: InitRequest) {
  const flags = (Object.keys(request.flags) as ConfigKey[]).map((key) => FIELDS[key].flag);
  const given = request.configPath === undefined ? flags : [...flags, "--config"];
  const problems = [...request.problems ?? []];
  if (given.length === 0) return resolveOrThrow(QUICKSTART, problems, QUICKSTART_DIR);
  problems.push({ field: "quickstart", message: `takes no ${given.join(", ")}` });
  return resolveOrThrow(QUICKSTART, problems, QUICKSTART_DIR, {
    message: "`init quickstart` is a fixed preset, which takes no scaffold options",
    hint: `drop ${
      given.length === 1 ? "it" : "them"
    }, or name a directory to scaffold your own: \`voicebot init my-bot ${
      given.join(" ... ")
    } ...\`.`,
  });
}

/**
 * The look at what is already in `root` before anything is written; a directory the system will
 * not let init read is said as such (cannotRead), not as an unexpected error.
 */
export async function reading<T>(root: string, look: () => T | Promise<T>): Promise<T> {
  try {
    return await look();
  } catch (error) {
    throw cannotRead(error, root);
  }
}

/**
 * A target that is a file, or that would be made under one, can take no project: dry runs and
 * real runs alike refuse it. Returns whether the target may hold files already: it is there, or
 * it could not be looked at (what then fails is said where it is read).
 */
function refuseFileAsRoot(root: string): boolean {
  // The target, or the nearest path above it that is there.
  for (let at = root;; at = dirname(at)) {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(at); // sync: an async call costs a trip through Deno's thread pool
    } catch (error) {
      const absent = error instanceof Deno.errors.NotFound ||
        error instanceof Deno.errors.NotADirectory;
      if (absent && dirname(at) !== at) continue;
      return true; // Nothing readable: the writer reports what it cannot do.
    }
    if (!info.isDirectory) {
      const what = `${at} is a file, not a directory; nothing was written.`;
      throw new ConflictError(at === root ? what : `cannot create ${root}: ${what}`);
    }
    return at === root;
  }
}

/**
 * Files in the way stop a real run: nothing is written. A dry run's caller calls it too, so that
 * the dry run ends as the real run would.
 */
export function refuseConflicts(root: string, conflicts: readonly string[]) {
  if (conflicts.length > 0) {
    throw new ConflictError(
      `${conflicts.length} file${conflicts.length === 1 ? "" : "s"} already exist${
        conflicts.length === 1 ? "s" : ""
      } in ${root}; nothing was written.`,
      {
        problems: conflicts,
        hint: "move them out of the way, or choose an empty directory.",
      },
    );
  }
}

function paths(files: readonly PlannedFile[]): string[] {
  return files.map((file) => file.path).sort();
}

/**
 * Every path a scaffold can write, whatever the answers: the files of the quickstart with cloud
 * deployment, evals and each client folder. The guides are apart (never clobbered, see guides.ts):
 * a directory that holds them has no clash with a scaffold.
 */
export async function scaffoldPaths(): Promise<string[]> {
  await loadTemplates();
  const all = new Set<string>();
  for (
    const client of [
      { client_framework: "vanilla" },
      { client_framework: "uilib", client_server: "devserver_a" },
      { client_framework: "uilib", client_server: "devserver_b" },
    ]
  ) {
    const input = { ...QUICKSTART, ...client, deploy_to_cloud: true, eval: true };
    const { config } = resolveConfig(input, QUICKSTART_DIR);
    if (!config) throw new Error(`scaffoldPaths: the preset with ${JSON.stringify(client)} fails`);
    for (const file of planProject(config).files) all.add(file.path);
  }
  return [...all].sort();
}
