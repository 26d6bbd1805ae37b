/**
 * Builds the command tree, runs it, and maps every error to its exit code: the parser's here, the
 * others in failure.ts.
 */
import { cli, type CommandContext, define } from "gunshi";
import { VERSION } from "../version.ts";
import { ExitCode } from "../errors.ts";
import { NO_COLOR, printError } from "./output.ts";
import { reportFailure } from "./failure.ts";
import init from "./init.ts";
import update from "./update.ts";
import migrate from "./migrate.ts";
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
  reportsItsOwnWords,
  unexpectedWords,
  withNumberValues,
} from "./help.ts";
import { contradictionOf, contradictions } from "./contradictions.ts";

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
  exitCodes: [
    ["0", "Success"],
    ["1", "Failure: an unexpected error (--verbose shows its stack), or the server unreachable"],
    ["2", "Usage: bad options, arguments or configuration; nothing was changed"],
    ["3", "Authentication: a missing, invalid or rejected credential"],
    ["4", "Not found"],
    ["5", "Conflict: something already there is in the way"],
    ["130", "Cancelled: Ctrl-C, or a prompt cancelled"],
  ],
  run: noCommandGiven,
});

/** The command tree under `voicebot`: what gunshi runs, completion completes and help tests walk. */
export const COMMANDS = { init, update, migrate, cloud, completions, complete } as const;

/**
 * `--verbose` is global: it is taken off before gunshi parses, and shows stacks of unexpected errors.
 * `commands` is the tree to run, COMMANDS but in tests (tests/direct_test.ts puts a stand-in for
 * init's action in it, to see what gunshi read).
 */
export async function run(
  argv: readonly string[],
  commands: typeof COMMANDS = COMMANDS,
): Promise<number> {
  const verbose = argv.includes("--verbose");
  const given = argv.filter((arg) => arg !== "--verbose");
  // Numbers first: a negative one (`--rate-limit -1`) is the option's value, not a word to hide.
  const args = markEmptyValues(
    hideUnknownArguments(withNumberValues(given, commands), commands),
    commands,
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
      renderUsage: helpRenderer({ ...root, subCommands: commands }) as (
        ctx: Readonly<CommandContext>,
      ) => Promise<string>,
      // A word the command would ignore is a problem of the command line, reported with the
      // parser's (after --help and --version, which gunshi answers later, whatever else is typed).
      onBeforeCommand: (ctx) => {
        if (ctx.values.help || ctx.values.version) return;
        const unexpected = unexpectedWords(ctx);
        const contradicting = reportsItsOwnWords(ctx.commandPath) ? [] : contradictions(ctx);
        const ours = [
          ...(unexpected === undefined ? [] : [unexpected]),
          ...contradicting.map(contradictionOf).map(({ field, message }) => `${field}: ${message}`),
        ];
        if (ours.length === 0) return;
        throw new AggregateError([
          ...ctx.validationError?.errors ?? [],
          ...ours.map((problem) => new Error(problem)),
        ]);
      },
      onErrorCommand: (ctx) => {
        place = {
          commandPath: ctx.commandPath,
          args: ctx.args,
          subCommands: ctx.env.subCommands as SubCommands | undefined,
        };
      },
      subCommands: commands,
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
  // gunshi reports unknown commands and options, missing arguments and bad values together.
  if (error instanceof AggregateError) {
    const { message, problems, hint } = parserProblems(error.errors, place);
    printError(message, problems, hint);
    return ExitCode.Usage;
  }
  return reportFailure(error, verbose);
}
