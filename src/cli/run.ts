/**
 * Builds the command tree, runs it, and maps every error to its exit code: the one place that does.
 */
import { cli, CommandNotFoundError, define } from "gunshi";
import { renderUsage } from "gunshi/renderer";
import { VERSION } from "../version.ts";
import { ChildExited, DifferencesFound, ExitCode, VoicebotError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import { printError } from "./output.ts";
import init from "./init.ts";
import cloud from "./cloud/mod.ts";
import { complete, completions } from "./completions.ts";

const root = define({
  name: "voicebot",
  description:
    `voicebot ${VERSION}: create voice and video AI bot projects and manage their secrets.`,
  // gunshi lists the entry command among the commands, as `[voicebot]`; internal leaves it out.
  internal: true,
  run: () => {
    throw new NoCommandGiven();
  },
});

class NoCommandGiven extends Error {}

/** `--verbose` is global: it is taken off before gunshi parses, and shows stacks of unexpected errors. */
export async function run(argv: readonly string[]): Promise<number> {
  const verbose = argv.includes("--verbose");
  const args = argv.filter((arg) => arg !== "--verbose");
  try {
    await cli(args, root, {
      name: "voicebot",
      version: VERSION,
      strict: true,
      renderHeader: null,
      renderValidationErrors: null,
      renderUsage: renderUsageQuickly,
      subCommands: { init, cloud, completions, complete },
    });
    return ExitCode.Ok;
  } catch (error) {
    return report(error, verbose);
  }
}

/**
 * gunshi's own usage renderer, with three changes.
 *
 * - One cost less: it sorts the subcommands with `localeCompare`, whose first call builds an ICU
 *   collator (about 20 ms, a third of `voicebot --help`). Command names are ASCII, so code-unit
 *   order is the same order; the swap lasts only while the text is rendered.
 * - A group's own path in its usage line: for a group run without a subcommand (`cloud --help`),
 *   gunshi writes `voicebot [COMMANDS]`, leaving the path out. Rendered as if the CLI were called
 *   `voicebot cloud` at the top, it writes `voicebot cloud [COMMANDS]`, and its "run any command
 *   with --help" lines stay `voicebot cloud auth --help`.
 * - `--verbose` under `--help` (`withVerbose`).
 */
async function renderUsageQuickly(ctx: Parameters<typeof renderUsage>[0]): Promise<string> {
  const localeCompare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (this: string, other: string) {
    return this < other ? -1 : this > other ? 1 : 0;
  };
  const group = ctx.omitted && ctx.commandPath.length > 0;
  try {
    return withVerbose(
      await renderUsage(
        group
          ? {
            ...ctx,
            env: { ...ctx.env, name: [ctx.env.name, ...ctx.commandPath].join(" ") },
            commandPath: [],
          }
          : ctx,
      ),
    );
  } finally {
    String.prototype.localeCompare = localeCompare;
  }
}

/** `--verbose` is taken off before gunshi parses, so gunshi never lists it: add it under `--help`. */
function withVerbose(usage: string): string {
  return usage.replace(
    /^( +-h, --help +)Display this help message$/m,
    (help, column: string) =>
      `${help}\n${"  --verbose".padEnd(column.length)}Show the details of an unexpected error`,
  );
}

/** gunshi's message, with the option or command the user probably meant. */
function withSuggestion(error: unknown): string {
  const option = (error as { values?: { rawName?: string; candidates?: string[] } })?.values;
  const [message, typed, candidates] = error instanceof CommandNotFoundError
    ? [error.message, error.commandName, error.candidates]
    : [String((error as Error)?.message ?? error), option?.rawName, option?.candidates];
  const suggestion = typed && candidates ? didYouMean(typed, candidates).trim() : "";
  return suggestion ? `${message}; ${suggestion}` : message;
}

function report(error: unknown, verbose: boolean): number {
  if (error instanceof NoCommandGiven) {
    printError("no command given.", [], "run `voicebot --help` to see the commands.");
    return ExitCode.Usage;
  }
  // The comparison was printed; the exit status alone says that something differs.
  if (error instanceof DifferencesFound) return error.exitCode;
  // `secrets run`: the command's own status, passed on.
  if (error instanceof ChildExited) return error.status;
  if (error instanceof VoicebotError) {
    // An API error shows what the server said, with its request id for a bug report.
    const api = error.api &&
      `HTTP ${error.api.status} ${error.api.code}` +
        (error.api.requestId ? `, request id ${error.api.requestId}` : "");
    printError(error.message, error.problems, error.hint, api);
    if (verbose && error.cause) console.error(error.cause);
    return error.exitCode;
  }
  // gunshi reports unknown options, bad option values and unknown commands as an AggregateError.
  if (error instanceof AggregateError) {
    const problems = error.errors.map(withSuggestion).filter(Boolean);
    const message = problems.length === 1 ? problems[0] : "invalid arguments.";
    const command = error.errors.find((e) => e instanceof CommandNotFoundError)?.commandPath;
    const hint = command
      ? `run \`${["voicebot", ...command, "--help"].join(" ")}\` to see the commands.`
      : "add `--help` to see the options.";
    printError(message, problems.length === 1 ? [] : problems, hint);
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
