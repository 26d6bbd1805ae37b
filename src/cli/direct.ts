/**
 * The direct start: a command line whose meaning is plain without a parser runs without loading
 * one. Loading gunshi and the command tree, and parsing with them, costs as much as all of
 * `init quickstart --dry-run`'s own work; the commands people type first (`--version`,
 * `init quickstart`, `init my-bot --dry-run`, `init --list-options`) start here, and every other
 * command line goes to run.ts, which reads it as before. For each command line taken here, the
 * output is gunshi's (tests/direct_test.ts holds them to it).
 */
import { ExitCode } from "../errors.ts";
import { VERSION } from "../version.ts";
import { reportFailure } from "./failure.ts";
import type { InitCommandLine, InitValues } from "./init_action.ts";

/** `init`'s options that take no value, as typed; the key is the word without its dashes. */
const INIT_SWITCHES = new Set([
  "--dry-run",
  "--coding-agent",
  "--overwrite-guide",
  "--list-options",
]);

/**
 * `init`'s command line when `argv` is `init`, then at most one directory (a word that does not
 * start with "-") and some of INIT_SWITCHES, each once, in any order; else undefined.
 */
export function plainInit(argv: readonly string[]): InitCommandLine | undefined {
  if (argv[0] !== "init") return undefined;
  const values: Record<string, string | boolean> = {};
  const positionals = ["init"];
  for (const word of argv.slice(1)) {
    const name = word.slice(2);
    if (INIT_SWITCHES.has(word) && !(name in values)) values[name] = true;
    else if (word !== "" && !word.startsWith("-") && values.dir === undefined) {
      values.dir = word;
      positionals.push(word);
    } else return undefined;
  }
  return { values: values as InitValues, positionals, commandPath: ["init"] };
}

/**
 * Runs `argv` when it is plain (`--version`, or plainInit's) and returns its exit status;
 * undefined when it is not, and then nothing has run. `--verbose` is global, as in run.ts.
 */
export async function runDirect(argv: readonly string[]): Promise<number | undefined> {
  const words = argv.filter((arg) => arg !== "--verbose");
  if (words.length === 1 && words[0] === "--version") {
    console.log(VERSION);
    return ExitCode.Ok;
  }
  const commandLine = plainInit(words);
  if (!commandLine) return undefined;
  try {
    const { runInit } = await import("./init_action.ts");
    await runInit(commandLine);
    return ExitCode.Ok;
  } catch (error) {
    return reportFailure(error, argv.includes("--verbose"));
  }
}
