/**
 * The typed errors every command throws, and the exit codes they map to.
 * src/cli/failure.ts is the one place that turns an error into output and an exit status
 * (src/cli/run.ts, for the parser's own).
 */

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  /** `cloud secrets diff --exit-code`: something differs (as `git diff --exit-code`). */
  Differs: 1,
  Usage: 2,
  Auth: 3,
  NotFound: 4,
  Conflict: 5,
  /** `cloud secrets set --wait`: the set ended `failed` (its errorMessage is printed). */
  ProvisioningFailed: 6,
  /** `update --check`: an update would change the project (nothing was written). */
  UpdateAvailable: 7,
  /** `update`: written with conflicts in the files it lists, for the user to settle (--dry-run: it would be). */
  MergeConflicts: 8,
  /** `cloud secrets run`: the command was found but could not be started (as a shell's 126). */
  CommandNotExecutable: 126,
  /** `cloud secrets run`: no such command (as a shell's 127). */
  CommandNotFound: 127,
  Cancelled: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What the secrets API said about a failed request, kept so that a user can report it. */
export interface ApiErrorInfo {
  status: number;
  /** The ErrorResponse's `code`, e.g. NOT_FOUND. */
  code: string;
  /** The server's X-Request-Id, when it sent one. */
  requestId?: string;
}

export interface VoicebotErrorOptions {
  problems?: readonly string[];
  hint?: string;
  api?: ApiErrorInfo;
  cause?: unknown;
}

/** An error the user can act on: printed as its message, its problems and a hint, no stack. */
export class VoicebotError extends Error {
  readonly exitCode: ExitCode = ExitCode.Failure;
  /** One line each; printed under the message. */
  readonly problems: readonly string[];
  readonly hint?: string;
  /** Set when the error is the secrets API's answer. */
  readonly api?: ApiErrorInfo;

  constructor(message: string, options: VoicebotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.problems = options.problems ?? [];
    this.hint = options.hint;
    this.api = options.api;
  }
}

/** The API did not answer: refused, reset, unreachable, or no answer in time. */
export class ApiUnreachable extends VoicebotError {}

/** Bad flags, arguments or configuration. Nothing has been changed. */
export class UsageError extends VoicebotError {
  override readonly exitCode = ExitCode.Usage;
}

/**
 * Every problem of a command line at once: one problem is the message itself, several are listed
 * under `summary`.
 */
export function invalidArguments(
  problems: readonly string[],
  options: { summary?: string; hint?: string } = {},
): UsageError {
  return problems.length === 1
    ? new UsageError(`${problems[0]}.`, { hint: options.hint })
    : new UsageError(options.summary ?? "invalid arguments.", { problems, hint: options.hint });
}

/** Missing, invalid or rejected credentials. */
export class AuthError extends VoicebotError {
  override readonly exitCode = ExitCode.Auth;
}

/** The thing named does not exist. */
export class NotFoundError extends VoicebotError {
  override readonly exitCode = ExitCode.NotFound;
}

/** Something already there stands in the way (existing files, a name taken by another type). */
export class ConflictError extends VoicebotError {
  override readonly exitCode = ExitCode.Conflict;
}

/** A set written with `--wait` ended `failed`; the message is the server's errorMessage. */
export class ProvisioningFailedError extends VoicebotError {
  override readonly exitCode = ExitCode.ProvisioningFailed;
}

/**
 * `cloud secrets diff --exit-code` found a difference. Not a failure to report: the command has
 * printed the comparison, and only the exit status is left to say it.
 */
export class DifferencesFound extends VoicebotError {
  override readonly exitCode: ExitCode = ExitCode.Differs;
}

/** `update --check`: the update it printed would change the project. */
export class UpdateAvailable extends DifferencesFound {
  override readonly exitCode = ExitCode.UpdateAvailable;
}

/** `update` wrote the project with conflicts, which it has listed. */
export class MergeConflicts extends DifferencesFound {
  override readonly exitCode = ExitCode.MergeConflicts;
}

/** `cloud secrets run`: the command could not be started; its exit code says why, as a shell's. */
export class CommandNotStarted extends VoicebotError {
  constructor(
    message: string,
    override readonly exitCode:
      | typeof ExitCode.CommandNotFound
      | typeof ExitCode.CommandNotExecutable,
    options: VoicebotErrorOptions = {},
  ) {
    super(message, options);
  }
}

/**
 * `cloud secrets run`: the command ran and ended with this status, which becomes voicebot's own.
 * Not an error to report: the command has said what it had to.
 */
export class ChildExited extends Error {
  constructor(readonly status: number) {
    super(`the command exited with status ${status}`);
    this.name = "ChildExited";
  }
}

/** The user cancelled at a prompt, or pressed Ctrl-C. */
export class CancelledError extends VoicebotError {
  override readonly exitCode = ExitCode.Cancelled;
  constructor(message = "Cancelled.", options: VoicebotErrorOptions = {}) {
    super(message, options);
  }
}
