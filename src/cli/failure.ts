/**
 * How a command that threw ends: what the user reads on stderr and the exit status, decided here
 * for every error but the parser's own (run.ts adds those).
 */
import {
  CancelledError,
  ChildExited,
  DifferencesFound,
  ExitCode,
  VoicebotError,
} from "../errors.ts";
import { printError, printNote } from "./output.ts";

/** Prints what `error` means for the user and returns the exit status it maps to. */
export function reportFailure(error: unknown, verbose: boolean): number {
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
  const message = error instanceof Error ? error.message : String(error);
  printError(
    `unexpected: ${message}`,
    [],
    verbose ? undefined : "run again with --verbose for details.",
  );
  if (verbose) console.error(error);
  return ExitCode.Failure;
}
