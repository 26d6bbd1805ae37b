/**
 * What `voicebot init` does once its command line is read: by gunshi (init.ts), or, for the
 * plainest command lines, by the direct start (direct.ts), which skips the parser. Either way the
 * same values come here.
 */
import type { ScaffoldConfig } from "../init/config.ts";
import type { InitResult } from "../init/mod.ts";
import { relative } from "../paths.ts";
import { VERSION } from "../version.ts";
import { andList, count, shellQuote } from "../words.ts";
import { CancelledError } from "../errors.ts";
import {
  isInteractive,
  printCommand,
  printInterrupted,
  printJson,
  printNote,
  printSuccess,
  printWarning,
} from "./output.ts";
import { givenAnswers, type ScaffoldValues } from "./scaffold_options.ts";

/** `init`'s options as gunshi names them, and its directory. */
export interface InitValues extends ScaffoldValues {
  readonly dir?: string;
  readonly "overwrite-guide"?: boolean;
  readonly "coding-agent"?: boolean;
  readonly config?: string;
  readonly "dry-run"?: boolean;
  readonly "list-options"?: boolean;
}

/** The command line as read: the options' values and every positional word, `init` first. */
export interface InitCommandLine {
  readonly values: InitValues;
  readonly positionals: readonly string[];
  readonly commandPath: readonly string[];
}

/** `init` for the command line read: `--list-options`, the wizard, or the core and its report. */
export async function runInit(ctx: InitCommandLine): Promise<void> {
  const values = ctx.values;
  // The core loads here, not at start: `--version` and `--help` never pay for it.
  if (values["list-options"]) {
    const { listOptions } = await import("../init/catalog.ts");
    printJson(listOptions());
    return;
  }
  // What is wrong here is reported by the core, with every other problem of the run.
  const { flags: given, problems } = givenAnswers("init", ctx);
  const scaffolding = Object.keys(given).length > 0 || values.config !== undefined ||
    values.dir === "quickstart";
  if (values["coding-agent"] && scaffolding) {
    problems.push({
      field: "--coding-agent",
      message:
        "writes the guides only; scaffold options, --config and quickstart make a bot: give one or the other",
    });
  }
  const wizard = !values["coding-agent"] && !scaffolding && !values["dry-run"] &&
    problems.length === 0 && isInteractive();
  if (wizard) {
    await runInteractive(values.dir, values["overwrite-guide"] ?? false);
    return;
  }
  const { initProject, refuseConflicts, refusePresetTypo } = await import("../init/mod.ts");
  // `init quickstrat` is the preset mistyped, not a directory.
  refusePresetTypo(Deno.cwd(), values.dir);
  const result = await initProject({
    cwd: Deno.cwd(),
    dir: values.dir,
    flags: given,
    configPath: values.config,
    dryRun: values["dry-run"] ?? false,
    overwriteGuide: values["overwrite-guide"] ?? false,
    problems,
  });
  // A dry run ends as the real run would: files in the way are the same error, the same code.
  if (result.kind === "dry-run") refuseConflicts(result.root, result.conflicts);
  report(result);
}

/** On a terminal with nothing to go on: ask (and confirm), write with a spinner, then say how to redo it. */
async function runInteractive(dir: string | undefined, overwriteGuide: boolean) {
  const [
    { backPrompter: prompt, loadedSpinner, orCancelled, drawInFrame },
    { runWizard },
    { commandLine },
    { initProject, refusePresetTypo },
  ] = await Promise.all([
    import("./prompt.ts"),
    import("./wizard/run.ts"),
    import("./wizard/answers.ts"),
    import("../init/mod.ts"),
  ]);
  const cwd = Deno.cwd();
  // Before anything is asked: `init quickstrat` is the preset mistyped, not a directory.
  refusePresetTypo(cwd, dir);
  await prompt.intro(`voicebot ${VERSION}: a new bot project`);
  // A scaffold's answers come confirmed: the wizard shows the summary and asks.
  const answers = await runWizard(prompt, cwd, { dir, overwriteGuide });
  // Loaded before it starts, so that its "Done." comes before the report, not after it.
  const spinner = await loadedSpinner();
  spinner.start("Writing the project");
  const writing = initProject({
    cwd,
    dir: answers.dir,
    flags: answers.flags,
    dryRun: false,
    overwriteGuide: answers.overwriteGuide,
  });
  let result: InitResult;
  try {
    result = await orCancelled(spinner, writing);
  } catch (error) {
    if (error instanceof CancelledError) {
      // The write is all or nothing and is not stopped half-way: say which it was.
      const done = await writing.catch(() => undefined);
      throw new CancelledError(
        done?.kind === "written"
          ? `Cancelled, but the project had been written already: ${done.written.length} files in ${
            relative(cwd, done.root) || "."
          }.`
          : "Cancelled. Nothing written.",
      );
    }
    spinner.error("Nothing written.");
    throw error;
  }
  spinner.stop("Done.");
  // The report in the questions' frame; the outro leads to the next steps, which are printed
  // below it unframed, as create-vite's are, so that each line pastes as it is.
  const where = relative(cwd, result.root) || ".";
  await drawInFrame(() => report(result, { nextSteps: false }));
  const next = result.kind === "written" ? nextSteps(result, where) : undefined;
  await prompt.outro(next?.heading ?? "Nothing more to do.");
  if (next) printNextCommands(next);
  console.error("");
  printNote(
    result.config
      ? "To make the same project again without questions:"
      : "To write the same guides again without questions:",
  );
  printCommand(commandLine(answers));
}

function report(result: InitResult, { nextSteps: withNextSteps = true } = {}) {
  const where = relative(Deno.cwd(), result.root) || ".";
  printInterrupted(result.interrupted, where);
  for (const note of result.deprecated) printWarning(note);
  for (const warning of result.warnings) printWarning(warning);
  const unchanged = result.unchanged.length;
  if (result.kind === "dry-run") {
    if (result.config) printJson(result.config);
    if (result.files.length === 0) {
      printNote(`Nothing would be written: ${nothingToWrite(result, where)}`);
    } else {
      printNote(`Would write ${count(result.files.length, "file")} in ${where}:`);
      printNote(fileList(result.files));
      if (unchanged > 0) printNote(alreadyThere(unchanged));
    }
  } else if (result.written.length === 0) {
    printSuccess(`Nothing to write: ${nothingToWrite(result, where)}`);
  } else {
    printSuccess(`Wrote ${count(result.written.length, "file")} in ${where}:`);
    printNote(fileList(result.written));
    if (unchanged > 0) printNote(alreadyThere(unchanged));
  }
  if (result.lowerNames && result.config) {
    // Said once: where the project's name has capitals, what takes lower case only is named apart.
    const { image, secret_set } = result.lowerNames;
    const client = hasClient(result.config);
    printNote(
      `Lower case where capitals are refused: the image${
        client ? ", the cloud agent and the client package are" : " and the cloud agent are"
      } named ${image}, the secret set ${secret_set}; pyproject.toml and the titles keep "${result.config.project_name}".`,
    );
  }
  // The directory as written, not as typed: `init quickstart` wrote into ./voicebot-quickstart.
  reportGuides(result, where);
  const next = withNextSteps && result.kind === "written" ? nextSteps(result, where) : undefined;
  if (next) {
    printNote(next.heading);
    printNextCommands(next);
  }
}

/** The next steps' commands, each whole, and the word after them. */
function printNextCommands(next: NextSteps) {
  for (const line of next.commands) printCommand(line);
  if (next.after) printNote(next.after);
}

/** One line a file, indented, for one write to the console rather than one a file. */
function fileList(files: readonly string[]): string {
  return files.map((file) => `  ${file}`).join("\n");
}

function alreadyThere(n: number): string {
  return `${count(n, "other file")} ${n === 1 ? "was" : "were"} already there, unchanged.`;
}

/** Why a run has nothing to write: every file is there, unchanged, or a guide kept (said below). */
function nothingToWrite(result: InitResult, where: string): string {
  const { kept, unchanged } = result;
  const place = where === "." ? "here" : `in ${where}`;
  if (kept.length === 0) {
    if (result.config) return `every file of this project is already ${place} and unchanged.`;
    return result.projectGuides
      ? `this project's guides are already ${place} and unchanged.`
      : `every guide is already ${place} and unchanged.`;
  }
  const guides = kept.map((guide) => guide.path);
  const keptText = `${andList(guides)} ${guides.length === 1 ? "is" : "are"} kept (below)`;
  return unchanged.length === 0
    ? `every file is already ${place}: ${keptText}.`
    : `every file is already ${place}: ${keptText}, the others are unchanged.`;
}

function reportGuides({ kept, replaced }: InitResult, dir: string) {
  if (replaced.length > 0) {
    printNote(
      `Replaced ${replaced.join(" and ")}: voicebot wrote ${
        replaced.length === 1 ? "it" : "them"
      } for the coding-agent path and nobody edited ${replaced.length === 1 ? "it" : "them"}; now ${
        replaced.length === 1 ? "it describes" : "they describe"
      } this project.`,
    );
  }
  const edited = kept.filter((guide) => guide.agentGuide).map((guide) => guide.path);
  if (edited.length > 0) {
    printWarning(
      `${edited.join(" and ")} still ${edited.length === 1 ? "is" : "are"} the coding-agent ` +
        `guide, edited since voicebot wrote it, so it was kept. To replace it with this project's ` +
        `guide, run: voicebot init ${shellQuote(dir)} --overwrite-guide`,
    );
  }
  for (const guide of kept) {
    const by = guide.writtenBy
      ? `written by voicebot ${guide.writtenBy}`
      : "not written by voicebot";
    printNote(`Kept ${guide.path} (${by}).`);
  }
  for (const age of ["older", "newer"] as const) {
    const other = kept.filter((guide) => guide.age === age);
    if (other.length === 0) continue;
    printWarning(
      `${other.map((g) => g.path).join(", ")} came from ${
        age === "older" ? "an older" : "a newer"
      } ` +
        `voicebot; this is ${VERSION}. To replace ${other.length === 1 ? "it" : "them"} with ` +
        `this version's template, run: voicebot init ${shellQuote(dir)} --overwrite-guide`,
    );
  }
}

interface NextSteps {
  heading: string;
  commands: string[];
  after?: string;
}

/**
 * What to do next after a write: a heading, the commands, and a word after them. Each command
 * runs in a subshell from the directory `init` ran in, so that they paste as printed into one
 * shell, and a directory with a space in its name is quoted. After a run that changed nothing, or
 * a refresh of a project's guides, there is nothing new to run (and `cp .env.example .env` would
 * clobber a finished project's keys).
 */
function nextSteps(
  result: Extract<InitResult, { kind: "written" }>,
  where: string,
): NextSteps | undefined {
  if (result.written.length === 0 || result.projectGuides) return undefined;
  if (!result.config) {
    return {
      heading: `Next: open ${
        shellQuote(where)
      } with your coding agent and ask it to build your bot; GETTING_STARTED.md explains.`,
      commands: [],
    };
  }
  const inside = (sub: string) => shellQuote(where === "." ? sub : `${where}/${sub}`);
  return {
    heading: "Next:",
    commands: [
      `(cd ${inside("server")} && cp .env.example .env)    # then fill in your keys`,
      `(cd ${inside("server")} && uv sync && uv run bot.py)`,
      ...hasClient(result.config)
        ? [`(cd ${inside("client")} && npm install && npm run dev)    # in another terminal`]
        : [],
    ],
    after: result.config.bot_type === "telephony"
      ? `Calls reach the bot through a tunnel and the carrier's webhook: "Phone calls" in ${
        where === "." ? "README.md" : `${where}/README.md`
      } says how.`
      : undefined,
  };
}

/** Whether the project has a web client (`client/`). */
function hasClient(config: ScaffoldConfig): boolean {
  return config.client_framework !== null && config.client_framework !== "none";
}
