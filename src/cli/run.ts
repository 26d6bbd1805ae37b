/**
 * Builds the command tree, runs it, and maps every error to its exit code: the one place that does.
 */
import { cli, define } from "gunshi";
import { renderUsage } from "gunshi/renderer";
import { VERSION } from "../version.ts";
import { DifferencesFound, ExitCode, VoicebotError } from "../errors.ts";
import { printError } from "./output.ts";
import init from "./init.ts";
import cloud from "./cloud/mod.ts";
import { complete, completions } from "./completions.ts";

const root = define({
  name: "voicebot",
  description:
    `voicebot ${VERSION}: create voice and video AI bot projects and manage their secrets.`,
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
 * gunshi's own usage renderer, minus one cost: it sorts the subcommands with `localeCompare`, whose
 * first call builds an ICU collator (about 20 ms, a third of `voicebot --help`). Command names are
 * ASCII, so code-unit order is the same order; the swap lasts only while the text is rendered.
 */
async function renderUsageQuickly(ctx: Parameters<typeof renderUsage>[0]): Promise<string> {
  const localeCompare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (this: string, other: string) {
    return this < other ? -1 : this > other ? 1 : 0;
  };
  try {
    return await renderUsage(ctx);
  } finally {
    String.prototype.localeCompare = localeCompare;
  }
}

function report(error: unknown, verbose: boolean): number {
  if (error instanceof NoCommandGiven) {
    printError("no command given.", [], "run `voicebot --help` to see the commands.");
    return ExitCode.Usage;
  }
  // The comparison was printed; the exit status alone says that something differs.
  if (error instanceof DifferencesFound) return error.exitCode;
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
    const problems = error.errors.map((e) => String(e?.message ?? e)).filter(Boolean);
    const message = problems.length === 1 ? problems[0] : "invalid arguments.";
    printError(message, problems.length === 1 ? [] : problems, "add `--help` to see the options.");
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
