/** What the `cloud secrets` commands share: name checks before anything is sent, confirmations. */
import { CancelledError, NotFoundError, UsageError } from "../../../errors.ts";
import { KEY_NAME, SET_NAME } from "../../../secrets/names.ts";
import { type Prompter, terminalPrompter } from "../../prompt.ts";

/**
 * The set name (argument 1). Not quoted when it is not valid: what was typed there may be a value.
 */
export function checkSetName(name: string): string {
  if (!SET_NAME.test(name)) {
    throw new UsageError("argument 1 is not a set name.", {
      hint: "use 1 to 63 letters, digits or hyphens.",
    });
  }
  return name;
}

/** The key (argument 2 of `unset`). Never quoted when invalid: it may be a value typed there. */
export function checkKeyName(key: string): string {
  if (!KEY_NAME.test(key)) {
    throw new UsageError("argument 2 is not a key name (it is not shown, as it may be a value).", {
      hint:
        "a key is an environment-variable name: [A-Za-z_][A-Za-z0-9_]*, at most 128 characters.",
    });
  }
  return key;
}

/**
 * A 404 about set `name` becomes a message naming the organization (`where`, from `connect`), and
 * how to see the sets.
 */
export function notFoundHint(name: string, where: string) {
  return (error: unknown): never => {
    if (error instanceof NotFoundError) {
      throw new NotFoundError(`no set named "${name}" in ${where}.`, {
        hint: "see the sets with `voicebot cloud secrets list --no-sets`.",
        api: error.api,
      });
    }
    throw error;
  };
}

export const confirmArgs = {
  skip: { type: "boolean", short: "s", description: "Skip the confirmation" },
  yes: { type: "boolean", short: "y", description: "Same as --skip" },
} as const;

/**
 * Whether to ask before a destructive action: false with --skip/--yes. Without a terminal to ask
 * on, it refuses (exit 2) with the flag to add, before anything is sent.
 */
export function mustConfirm(
  options: { skip?: boolean; yes?: boolean; action: string },
  prompter: Prompter = terminalPrompter,
): boolean {
  if (options.skip || options.yes) return false;
  if (!prompter.isInteractive()) {
    throw new UsageError(
      `${options.action} needs a confirmation, and there is no terminal to ask.`,
      {
        hint: "add --skip (or --yes) to confirm; nothing was changed.",
      },
    );
  }
  return true;
}

/** Asks; a "no" (or Ctrl-C, or Escape) is a cancellation, exit 130, with nothing changed. */
export async function confirmOrCancel(question: string, prompter: Prompter = terminalPrompter) {
  const nothingChanged = new CancelledError("Cancelled; nothing was changed.");
  const yes = await prompter.confirm(question).catch((error) => {
    throw error instanceof CancelledError ? nothingChanged : error;
  });
  if (!yes) throw nothingChanged;
}

/** Said of a DELETE whose retry got 404 after an attempt whose answer was lost. */
export const RETRY_FOUND_IT_GONE =
  "the first attempt's answer was lost on the way back, and the retry found it already gone";
