/**
 * Builds the command tree, runs it, and maps every error to its exit code: the one place that does.
 */
import { cli, type CommandContext, define } from "gunshi";
import { VERSION } from "../version.ts";
import {
  CancelledError,
  ChildExited,
  DifferencesFound,
  ExitCode,
  VoicebotError,
} from "../errors.ts";
import { NO_COLOR, printError, printNote } from "./output.ts";
import init from "./init.ts";
import update from "./update.ts";
import cloud from "./cloud/mod.ts";
import { complete, completions, type SubCommands } from "./completions.ts";
import {
  type ErrorPlace,
  helpRenderer,
  hideUnknownArguments,
  markEmptyValues,
  NoCommandGiven,
  noCommandGiven,
  parserProblems,
  withEmptyNumbers,
} from "./help.ts";

const root = define({
  name: "voicebot",
  description:
    `voicebot ${VERSION}: create voice and video AI bot projects and manage their secrets.`,
  // gunshi lists the entry command among the commands, as `[voicebot]`; internal leaves it out.
  internal: true,
  helpExamples: [
    ["A voice bot to try, in ./voicebot-quickstart", "voicebot init quickstart"],
    ["Store its secrets from .env in set my-bot", "voicebot cloud secrets set my-bot --file .env"],
    ["Serve the secrets API on this machine", "voicebot cloud serve"],
  ],
  environment: [NO_COLOR, [
    "COLUMNS",
    "Width of the help screens (default: the terminal's, else 80)",
  ]],
  run: noCommandGiven,
});

/** The command tree under `voicebot`: what gunshi runs, completion completes and help tests walk. */
export const COMMANDS = { init, update, cloud, completions, complete } as const;

/** `--verbose` is global: it is taken off before gunshi parses, and shows stacks of unexpected errors. */
export async function run(argv: readonly string[]): Promise<number> {
  const verbose = argv.includes("--verbose");
  const given = argv.filter((arg) => arg !== "--verbose");
  const args = withEmptyNumbers(
    markEmptyValues(hideUnknownArguments(given, COMMANDS), COMMANDS),
    COMMANDS,
  );
  // The command gunshi resolved, for the words of its parser errors (the usage line, the hint).
  let place: ErrorPlace | undefined;
  try {
    await cli(args, root, {
      name: "voicebot",
      description: root.description,
      version: VERSION,
      strict: true,
      renderHeader: null,
      // gunshi would print them on stdout, in its words: report() says them on stderr, in ours.
      renderValidationErrors: null,
      renderUsage: helpRenderer({ ...root, subCommands: COMMANDS }) as (
        ctx: Readonly<CommandContext>,
      ) => Promise<string>,
      onErrorCommand: (ctx) => {
        place = {
          commandPath: ctx.commandPath,
          args: ctx.args,
          subCommands: ctx.env.subCommands as SubCommands | undefined,
        };
      },
      subCommands: COMMANDS,
    });
    return ExitCode.Ok;
  } catch (error) {
    return report(error, verbose, place);
  }
}

function report(error: unknown, verbose: boolean, place?: ErrorPlace): number {
  if (error instanceof NoCommandGiven) {
    const path = ["voicebot", ...error.commandPath].join(" ");
    printError(
      "no command given; the commands are:",
      error.commands.map(([name, description]) => `${name}: ${description}`),
      `run \`${path} COMMAND --help\` for a command's options.`,
    );
    return ExitCode.Usage;
  }
  // The comparison was printed; the exit status alone says that something differs.
  if (error instanceof DifferencesFound) return error.exitCode;
  // `secrets run`: the command's own status, passed on.
  if (error instanceof ChildExited) return error.status;
  // The user's own choice, not an error: its words alone (`Cancelled.`), and what it left.
  if (error instanceof CancelledError) {
    printNote(error.message);
    if (error.hint) printNote(`hint: ${error.hint}`);
    return error.exitCode;
  }
  if (error instanceof VoicebotError) {
    // An API error shows what the server said, with its request id for a bug report.
    const api = error.api &&
      `HTTP ${error.api.status} ${error.api.code}` +
        (error.api.requestId ? `, request id ${error.api.requestId}` : "");
    printError(error.message, error.problems, error.hint, api);
    if (verbose && error.cause) console.error(error.cause);
    return error.exitCode;
  }
  // gunshi reports unknown commands and options, missing arguments and bad values together.
  if (error instanceof AggregateError) {
    const { message, problems, hint } = parserProblems(error.errors, place);
    printError(message, problems, hint);
    return ExitCode.Usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  printError(
    `unexpected: ${message}`,
    [],
    verbose ? undefined : "run again with --verbose for details.",
  );
  if (verbose) console.error(error);
  return ExitCode.Failure;
}
