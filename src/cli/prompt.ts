/**
 * The one prompter: every question the CLI asks goes through here, so that tests can drive it
 * (pass another `Prompter`) and so that nothing ever prompts without a terminal.
 *
 * `@clack/prompts` (and with it Node's `process`) loads on the first prompt, never at start.
 * Prompts draw on stderr, so that stdout keeps only data (`--json` stays one document).
 * Ctrl-C or Escape at a prompt throws `CancelledError` (exit 130).
 *
 * @module
 */
import { CancelledError, UsageError } from "../errors.ts";

export interface SelectOption<T> {
  value: T;
  label?: string;
  hint?: string;
}

export interface Spinner {
  start(message: string): void;
  message(message: string): void;
  stop(message?: string): void;
  error(message?: string): void;
}

export interface Prompter {
  /** True when stdin and stdout are both terminals: only then may anything prompt. */
  isInteractive(): boolean;
  confirm(message: string, options?: { initial?: boolean }): Promise<boolean>;
  /** Hidden input: what is typed is never echoed. */
  password(message: string): Promise<string>;
  text(
    message: string,
    options?: { placeholder?: string; initial?: string; validate?: (v: string) => string | void },
  ): Promise<string>;
  select<T>(message: string, options: SelectOption<T>[], initial?: T): Promise<T>;
  /** A select whose list narrows as the user types. */
  search<T>(message: string, options: SelectOption<T>[], initial?: T): Promise<T>;
  /** On a terminal a spinner on stderr; otherwise it does nothing. */
  spinner(): Spinner;
}

export function isInteractive(): boolean {
  return Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
}

type Clack = typeof import("@clack/prompts");
type Output = NonNullable<Parameters<Clack["confirm"]>[0]["output"]>;
let loaded: Promise<{ clack: Clack; output: Output }> | undefined;

function clack() {
  loaded ??= (async () => {
    const [clack, { default: process }] = await Promise.all([
      import("@clack/prompts"),
      import("node:process"),
    ]);
    return { clack, output: process.stderr as unknown as Output };
  })();
  return loaded;
}

/** Refuses to ask without a terminal: a caller should have checked `isInteractive()` first. */
function requireTerminal(message: string) {
  if (!isInteractive()) {
    throw new UsageError(`cannot ask "${message}" without a terminal.`, {
      hint: "pass the answer as a flag or on stdin (see --help).",
    });
  }
}

function answered<T>(clack: Clack, value: T | symbol): T {
  if (clack.isCancel(value) || typeof value === "symbol") throw new CancelledError();
  return value;
}

export async function confirm(
  message: string,
  options: { initial?: boolean } = {},
): Promise<boolean> {
  requireTerminal(message);
  const { clack: c, output } = await clack();
  return answered<boolean>(
    c,
    await c.confirm({ message, initialValue: options.initial ?? false, output }),
  );
}

export async function password(message: string): Promise<string> {
  requireTerminal(message);
  const { clack: c, output } = await clack();
  // No mask either: a hidden prompt echoes nothing, not even the length of what is typed.
  return answered<string>(c, await c.password({ message, mask: "", output }));
}

export async function text(
  message: string,
  options: { placeholder?: string; initial?: string; validate?: (v: string) => string | void } = {},
): Promise<string> {
  requireTerminal(message);
  const { clack: c, output } = await clack();
  const value = await c.text({
    message,
    placeholder: options.placeholder,
    initialValue: options.initial,
    validate: options.validate ? (v) => options.validate!(v ?? "") || undefined : undefined,
    output,
  });
  return answered<string>(c, value) ?? "";
}

export async function select<T>(
  message: string,
  options: SelectOption<T>[],
  initial?: T,
): Promise<T> {
  requireTerminal(message);
  const { clack: c, output } = await clack();
  const value = await c.select<T>({
    message,
    // deno-lint-ignore no-explicit-any
    options: options as any,
    initialValue: initial,
    output,
  });
  return answered<T>(c, value as T | symbol);
}

export async function search<T>(
  message: string,
  options: SelectOption<T>[],
  initial?: T,
): Promise<T> {
  requireTerminal(message);
  const { clack: c, output } = await clack();
  const value = await c.autocomplete<T>({
    message,
    // deno-lint-ignore no-explicit-any
    options: options as any,
    initialValue: initial,
    placeholder: "type to search",
    output,
  });
  return answered<T>(c, value as T | symbol);
}

const quietSpinner: Spinner = { start() {}, message() {}, stop() {}, error() {} };

/** A spinner that loads clack lazily; before it has loaded, calls are queued in order. */
export function spinner(): Spinner {
  if (!isInteractive()) return quietSpinner;
  let real: Spinner | undefined;
  const queue: ((s: Spinner) => void)[] = [];
  void clack().then(({ clack: c, output }) => {
    real = c.spinner({ output });
    for (const call of queue.splice(0)) call(real);
  });
  const call = (fn: (s: Spinner) => void) => (real ? fn(real) : void queue.push(fn));
  return {
    start: (m) => call((s) => s.start(m)),
    message: (m) => call((s) => s.message(m)),
    stop: (m) => call((s) => s.stop(m)),
    error: (m) => call((s) => s.error(m)),
  };
}

/** The real prompter, on the process's terminal. */
export const terminalPrompter: Prompter = {
  isInteractive,
  confirm,
  password,
  text,
  select,
  search,
  spinner,
};
