/**
 * The typed errors every command throws, and the exit codes they map to.
 * src/cli/run.ts is the one place that turns an error into output and an exit status.
 */

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  Auth: 3,
  NotFound: 4,
  Conflict: 5,
  /** `--wait` saw the set fail to provision. */
  ProvisioningFailed: 6,
  Cancelled: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the user can act on: printed as its message, its problems and a hint, no stack. */
export class VoicebotError extends Error {
  readonly exitCode: ExitCode = ExitCode.Failure;
  /** One line each; printed under the message. */
  readonly problems: readonly string[];
  readonly hint?: string;

  constructor(message: string, options: { problems?: readonly string[]; hint?: string } = {}) {
    super(message);
    this.name = new.target.name;
    this.problems = options.problems ?? [];
    this.hint = options.hint;
  }
}

/** Bad flags, arguments or configuration. Nothing has been changed. */
export class UsageError extends VoicebotError {
  override readonly exitCode = ExitCode.Usage;
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

/** The user cancelled at a prompt, or pressed Ctrl-C. */
export class CancelledError extends VoicebotError {
  override readonly exitCode = ExitCode.Cancelled;
  constructor(message = "Cancelled.") {
    super(message);
  }
}
