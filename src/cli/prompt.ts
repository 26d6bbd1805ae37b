/**
 * The one prompter: every question the CLI asks goes through here, so that tests can drive it
 * (pass another `Prompter`) and so that nothing ever prompts without a terminal.
 *
 * `@clack/prompts` (and with it Node's `process`) loads on the first prompt, never at start.
 * Prompts draw on stderr, so that stdout keeps only data (`--json` stays one document).
 * Ctrl-C at a prompt throws `CancelledError` (exit 130), and so does Escape, but for the
 * `backPrompter` of a run of questions (the init wizard), where Escape throws `GoBack`; in a
 * search with something typed, Escape first clears it. At a spinner Ctrl-C and Escape abort the
 * spinner's `signal` (see `orCancelled`), so that the command ends through the same path.
 *
 * @module
 */
import { CancelledError, UsageError } from "../errors.ts";
import { drawIn, isInteractive } from "./output.ts";

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
  /**
   * Aborted, with a `CancelledError` as its reason, when the user presses Ctrl-C or Escape while
   * it spins, or the process gets SIGINT; the spinner has then stopped and drawn "Cancelled".
   * Never aborted without a terminal. `orCancelled` races a task against it.
   */
  readonly signal: AbortSignal;
}

export interface Prompter {
  /** True when stdin and stdout are both terminals: only then may anything prompt. */
  isInteractive(): boolean;
  confirm(message: string, options?: { initial?: boolean }): Promise<boolean>;
  /** Hidden input: what is typed is never echoed. */
  password(message: string): Promise<string>;
  /**
   * `placeholder` is shown grey in an empty field; with `defaultValue` it is also the answer when
   * the field is left empty (typing replaces it, as create-vite's directory question does).
   * `validate` sees the answer as it would be taken: the default for an empty field.
   */
  text(message: string, options?: TextOptions): Promise<string>;
  select<T>(message: string, options: SelectOption<T>[], initial?: T): Promise<T>;
  /** A select whose list narrows as the user types. */
  search<T>(message: string, options: SelectOption<T>[], initial?: T): Promise<T>;
  /** Ticks: any number of the options, `initial` ticked to start with. */
  multiselect<T>(message: string, options: SelectOption<T>[], initial: readonly T[]): Promise<T[]>;
  /** On a terminal a spinner on stderr; otherwise it does nothing. */
  spinner(): Spinner;
  /** Opens the questions' frame (`┌  title`). */
  intro(title: string): Promise<void>;
  /** Closes it (`└  message`), wrapped to the terminal's width. */
  outro(message: string): Promise<void>;
  /** A framed note in the questions' frame: `lines` under `title`. */
  note(title: string, lines: readonly string[]): Promise<void>;
  /** A line of information in the questions' frame. */
  info(message: string): Promise<void>;
  /** A warning in the questions' frame. */
  warn(message: string): Promise<void>;
}

export interface TextOptions {
  placeholder?: string;
  defaultValue?: string;
  initial?: string;
  validate?: (value: string) => string | void;
}

/**
 * What Escape at a question means: cancel (exit 130, as Ctrl-C), or go back one question (the
 * question throws `GoBack`). In a search with something typed, it first clears what is typed.
 */
export type EscapeMeans = "cancel" | "back";

/** Thrown by a question of a `backPrompter` when the user presses Escape: go back one question. */
export class GoBack extends Error {
  constructor() {
    super("Escape: back one question");
    this.name = "GoBack";
  }
}

// In output.ts, so that a command that only asks whether it may ask does not load this module.
export { isInteractive };

type Clack = typeof import("@clack/prompts");
type Output = NonNullable<Parameters<Clack["confirm"]>[0]["output"]>;
/** `text` with each line after `gutter` (the first after `first`), wrapped to the terminal. */
type Wrap = (text: string, gutter: string, first?: string) => string;
type Key = { name?: string; ctrl?: boolean; sequence?: string };
interface Terminal {
  clack: Clack;
  output: Output;
  wrap: Wrap;
  input: {
    on(event: "keypress", listener: KeyListener): unknown;
    off(event: "keypress", listener: KeyListener): unknown;
  };
}
type KeyListener = (sequence: unknown, key?: Key) => void;
let loaded: Promise<Terminal> | undefined;

function clack(): Promise<Terminal> {
  loaded ??= (async () => {
    const [clack, { wrapTextWithPrefix }, { default: process }] = await Promise.all([
      import("@clack/prompts"),
      import("@clack/core"),
      import("node:process"),
    ]);
    // Escape is ours (see `asked`): clack would cancel the whole run on it.
    clack.settings.aliases.delete("escape");
    const output = process.stderr as unknown as Output;
    return {
      clack,
      output,
      wrap: (text, gutter, first = gutter) =>
        wrapTextWithPrefix(output as never, text, gutter, first),
      input: process.stdin as unknown as Terminal["input"],
    };
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

/**
 * A search prompt, as its options function sees it (`this`): what is typed, and how to clear it.
 * `_clearUserInput` is clack's own (@clack/core 1.6); the Esc journey of the init tests holds it.
 */
interface Typed {
  userInput: string;
  _clearUserInput(): void;
  /** The option the highlight is on: none while nothing matches. */
  focusedValue?: unknown;
}

/**
 * What a prompt of `asked` can hook: a search sets `current`, what is typed; `key` sees each key
 * before the prompt does.
 */
interface Hooks {
  current?: Typed;
  key?: (key: Key) => void;
}

/**
 * Runs one clack prompt on the terminal, with Escape handled here (clack's is off): in a search
 * with something typed, Escape clears it; otherwise it ends the prompt, which then throws
 * `GoBack` or `CancelledError` as `escape` says. Ctrl-C stays clack's, and cancels.
 * `run` gets the output to draw on, and the hooks (see `Hooks`).
 */
async function asked<T>(
  message: string,
  escape: EscapeMeans,
  run: (c: Clack, common: { output: Output }, typed: Hooks) => Promise<T | symbol>,
): Promise<T> {
  requireTerminal(message);
  const { clack: c, output, input } = await clack();
  const typed: Hooks = {};
  let escaped = false;
  // Registered before the prompt's own listener, so that it sees Escape first. To end the prompt,
  // Escape is made clack's cancel key for this one keypress: the prompt then draws itself
  // cancelled in place, as on Ctrl-C. (Ending it from outside, through its signal, drew nothing
  // and left the question's header line behind.)
  const onKey = (_: unknown, key: Key = {}) => {
    typed.key?.(key);
    if (key.name !== "escape") return;
    if (typed.current && typed.current.userInput !== "") {
      typed.current._clearUserInput();
      return;
    }
    escaped = true;
    c.settings.aliases.set("escape", "cancel");
    queueMicrotask(() => c.settings.aliases.delete("escape"));
  };
  input.on("keypress", onKey);
  let value: T | symbol;
  try {
    value = await run(c, { output }, typed);
  } finally {
    input.off("keypress", onKey);
  }
  if (c.isCancel(value) || typeof value === "symbol") {
    throw escaped && escape === "back" ? new GoBack() : new CancelledError();
  }
  return value;
}

function confirmPrompt(escape: EscapeMeans) {
  return (message: string, options: { initial?: boolean } = {}): Promise<boolean> =>
    asked<boolean>(
      message,
      escape,
      (c, common) => c.confirm({ message, initialValue: options.initial ?? false, ...common }),
    );
}

function passwordPrompt(escape: EscapeMeans) {
  return (message: string): Promise<string> =>
    // No mask either: a hidden prompt echoes nothing, not even the length of what is typed.
    asked<string>(message, escape, (c, common) => c.password({ message, mask: "", ...common }));
}

function textPrompt(escape: EscapeMeans) {
  return async (message: string, options: TextOptions = {}): Promise<string> => {
    const { validate, defaultValue } = options;
    const value = await asked<string | undefined>(message, escape, (c, common) =>
      c.text({
        message,
        // Grey is how a default looks; without colour it would look typed, so it says so.
        placeholder: Deno.noColor && defaultValue !== undefined && options.placeholder
          ? `${options.placeholder} (default)`
          : options.placeholder,
        defaultValue,
        initialValue: options.initial,
        // clack checks the field before it puts the default in an empty one.
        validate: validate ? (v) => validate(v || defaultValue || "") || undefined : undefined,
        ...common,
      }));
    return value ?? "";
  };
}

function selectPrompt(escape: EscapeMeans) {
  return <T>(message: string, options: SelectOption<T>[], initial?: T): Promise<T> =>
    asked<T>(message, escape, (c, common) =>
      c.select<T>({
        message,
        // deno-lint-ignore no-explicit-any
        options: options as any,
        initialValue: initial,
        ...common,
      }));
}

/** Before the label of the option a list of ticks is on: seen without colour too. */
const TICKS_CURSOR = "›";

/**
 * A list of ticks. clack shows which option it is on by colour alone (its box is the same grey
 * square, ticked or not, under `NO_COLOR`): here that option's label also starts with
 * `TICKS_CURSOR`. The keys are followed as clack follows them (up and down, or their aliases,
 * round the ends); once the list is answered or left, no label is marked.
 */
function multiselectPrompt(escape: EscapeMeans) {
  return <T>(message: string, options: SelectOption<T>[], initial: readonly T[]): Promise<T[]> =>
    asked<T[]>(message, escape, (c, common, hooks) => {
      let at = 0;
      let done = false;
      hooks.key = (key) => {
        const name = key.name === undefined
          ? undefined
          : c.settings.aliases.get(key.name) ?? key.name;
        if (name === "up" || name === "left") at = (at + options.length - 1) % options.length;
        else if (name === "down" || name === "right") at = (at + 1) % options.length;
        else if (
          name === "return" || name === "escape" || name === "cancel" ||
          (key.ctrl && key.name === "c") || key.sequence === "\x03"
        ) done = true;
      };
      const marked = options.map((option, index) => ({
        ...option,
        get label() {
          const label = option.label ?? String(option.value);
          return !done && index === at ? `${TICKS_CURSOR} ${label}` : label;
        },
      }));
      return c.multiselect<T>({
        message,
        // deno-lint-ignore no-explicit-any
        options: marked as any,
        initialValues: initial.filter((value) => options.some((o) => o.value === value)),
        required: false,
        ...common,
      });
    });
}

function searchPrompt(escape: EscapeMeans) {
  return async <T>(message: string, options: SelectOption<T>[], initial?: T): Promise<T> => {
    let before = "";
    const value = await asked<T>(message, escape, (c, common, typed) =>
      c.autocomplete<T>({
        message,
        // A function, so that the list comes in `rankMatches`'s order for what is typed; clack
        // then keeps the matches (its filter, given ours) in that order, and counts them against
        // the whole. Its `this` is the prompt: what Escape clears.
        options: function (this: Typed) {
          typed.current = this;
          const query = this.userInput ?? "";
          // After a search that matched nothing, the highlight goes back to the question's
          // default as soon as it is listed again (clack would put it on the first option); and
          // once what was typed is cleared, it is on the default again, as before the search.
          const cleared = query === "" && before !== "";
          before = query;
          if (
            (this.focusedValue === undefined || cleared) && initial !== undefined &&
            options.some((o) => o.value === initial && matchRank(o, query) < NO_MATCH)
          ) {
            this.focusedValue = initial;
          }
          return rankMatches(options, query);
          // deno-lint-ignore no-explicit-any
        } as any,
        filter: (query, option) => matchRank(option as SelectOption<T>, query) < NO_MATCH,
        initialValue: initial,
        placeholder: "type to search",
        // Enter with nothing matching would answer nothing (clack submits `undefined`): the
        // question stays open instead, and says why.
        validate: (picked) =>
          picked === undefined || (Array.isArray(picked) && picked.length === 0)
            ? "Nothing matches: delete some letters (Backspace, or Esc for all) and pick one."
            : undefined,
        ...common,
      }));
    if (value === undefined) throw new Error(`no answer to "${message}"`);
    return value;
  };
}

const NO_MATCH = 4;

/**
 * How well an option matches what is typed, best first: 0, the label is what is typed, or begins
 * with it as a whole word (the vendor's name: `deepgram`, `open ai`); 1, the label begins with it
 * (`deep`, `open`); 2, a later word of the label does (`sage` in "Deepgram on SageMaker"); 3, it
 * is inside the label, the hint or the value; `NO_MATCH` otherwise. Case is ignored.
 */
export function matchRank(option: SelectOption<unknown>, query: string): number {
  const q = query.trim().toLowerCase();
  if (q === "") return 0;
  const label = (option.label ?? String(option.value)).toLowerCase();
  if (label === q || (label.startsWith(q) && /^[^a-z0-9]/.test(label.slice(q.length)))) return 0;
  if (label.startsWith(q)) return 1;
  if (label.split(/[^a-z0-9]+/).some((word) => word.startsWith(q))) return 2;
  const hint = (option.hint ?? "").toLowerCase();
  if (label.includes(q) || hint.includes(q) || String(option.value).toLowerCase().includes(q)) {
    return 3;
  }
  return NO_MATCH;
}

/**
 * The options in the order a search for `query` lists them: by `matchRank`; among labels that
 * begin with it, the one with fewer words first (plain "Deepgram" before "Deepgram Flux on
 * SageMaker"); otherwise in their own order. Options that do not match come last.
 */
export function rankMatches<O extends SelectOption<unknown>>(
  options: readonly O[],
  query: string,
): O[] {
  const words = (option: O) => (option.label ?? String(option.value)).split(/\s+/).length;
  return options
    .map((option, index) => ({ option, index, rank: matchRank(option, query) }))
    .sort((a, b) =>
      a.rank - b.rank ||
      (a.rank <= 1 && query.trim() !== "" ? words(a.option) - words(b.option) : 0) ||
      a.index - b.index
    )
    .map(({ option }) => option);
}

/** Without a terminal: draws nothing, and is never cancelled (SIGINT ends the process as usual). */
function quietSpinner(): Spinner {
  return { start() {}, message() {}, stop() {}, error() {}, signal: new AbortController().signal };
}

/**
 * A spinner on stderr. It is our own rather than clack's: clack's spinner reads keys through
 * `block()`, which calls `process.exit(0)` on Ctrl-C or Escape, so a cancelled `--wait` or write
 * ended with success. This one puts stdin in raw mode too (nothing typed is echoed across the
 * drawing), and Ctrl-C, Escape or SIGINT stop it and abort its `signal`; the command then throws
 * `CancelledError` and exits 130 like any other cancellation.
 *
 * Node's modules load lazily; before they have, calls are queued in order.
 */
export function spinner(): Spinner {
  if (!isInteractive()) return quietSpinner();
  const controller = new AbortController();
  let real: Omit<Spinner, "signal"> | undefined;
  const queue: ((s: Omit<Spinner, "signal">) => void)[] = [];
  void loadSpinnerIo().then((io) => {
    real = drawingSpinner(io, controller);
    for (const call of queue.splice(0)) call(real);
  });
  const call = (
    fn: (s: Omit<Spinner, "signal">) => void,
  ) => (real ? fn(real) : void queue.push(fn));
  return {
    start: (m) => call((s) => s.start(m)),
    message: (m) => call((s) => s.message(m)),
    stop: (m) => call((s) => s.stop(m)),
    error: (m) => call((s) => s.error(m)),
    signal: controller.signal,
  };
}

/**
 * A spinner whose modules have loaded: what it draws is on the screen before the next line the
 * command prints (`spinner()` queues its calls until then, so a quick task's report could come
 * before the spinner's "Done.").
 */
export async function loadedSpinner(): Promise<Spinner> {
  if (!isInteractive()) return quietSpinner();
  const controller = new AbortController();
  return { ...drawingSpinner(await loadSpinnerIo(), controller), signal: controller.signal };
}

/** `work`, or `CancelledError` as soon as `spinner` is cancelled, whichever comes first. */
export function orCancelled<T>(spinner: Spinner, work: Promise<T>): Promise<T> {
  const { signal } = spinner;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

interface SpinnerIo {
  output: Output & { columns?: number };
  stdin: import("node:tty").ReadStream;
  readline: typeof import("node:readline");
  style: (color: "gray" | "magenta" | "green" | "red" | "yellow", text: string) => string;
  symbols: { bar: string; done: string; cancelled: string; failed: string; frames: string[] };
}

async function loadSpinnerIo(): Promise<SpinnerIo> {
  const [{ clack: c, output }, readline, { styleText }, { default: process }] = await Promise.all([
    clack(),
    import("node:readline"),
    import("node:util"),
    import("node:process"),
  ]);
  return {
    output: output as SpinnerIo["output"],
    stdin: process.stdin as unknown as SpinnerIo["stdin"],
    readline,
    style: (color, text) => styleText(color, text),
    // clack's own symbols, so that the spinner looks like the prompts around it.
    symbols: {
      bar: c.S_BAR,
      done: c.S_STEP_SUBMIT,
      cancelled: c.S_STEP_CANCEL,
      failed: c.S_STEP_ERROR,
      frames: c.unicode ? ["◒", "◐", "◓", "◑"] : ["•", "o", "O", "0"],
    },
  };
}

const FRAME_MS = 80;
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
const CLEAR_LINE = "\r\x1b[2K";

function drawingSpinner(io: SpinnerIo, controller: AbortController): Omit<Spinner, "signal"> {
  let text = "";
  let frame = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let release: (() => void) | undefined;

  const draw = () => {
    const width = Math.max(10, (io.output.columns ?? 80) - 4);
    const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    io.output.write(`${CLEAR_LINE}${io.style("magenta", io.symbols.frames[frame])}  ${line}`);
    frame = (frame + 1) % io.symbols.frames.length;
  };
  const finish = (symbol: string, message: string | undefined) => {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
    release?.();
    release = undefined;
    io.output.write(`${CLEAR_LINE}${symbol}  ${message || text}\n${SHOW_CURSOR}`);
  };
  const cancel = () => {
    finish(io.style("red", io.symbols.cancelled), "Cancelled");
    controller.abort(new CancelledError());
  };
  return {
    start(message) {
      if (timer !== undefined || controller.signal.aborted) return;
      text = message.replace(/\.+$/, "");
      io.output.write(`${io.style("gray", io.symbols.bar)}\n${HIDE_CURSOR}`);
      release = holdKeys(io, cancel);
      draw();
      timer = setInterval(draw, FRAME_MS);
    },
    message(message) {
      text = message.replace(/\.+$/, "");
    },
    stop: (message) => finish(io.style("green", io.symbols.done), message),
    error: (message) => finish(io.style("red", io.symbols.failed), message),
  };
}

/**
 * While the spinner runs: stdin in raw mode (what is typed is neither echoed nor a signal), Ctrl-C
 * and Escape call `onCancel`, and so does SIGINT sent by other means. Returns the undo.
 */
function holdKeys(io: SpinnerIo, onCancel: () => void): () => void {
  const { stdin } = io;
  // As clack's prompts do: a readline interface without output, for keypress events only.
  const rl = io.readline.createInterface({ input: stdin, escapeCodeTimeout: 50, terminal: true });
  const onKey = (_: unknown, key: { name?: string; ctrl?: boolean; sequence?: string } = {}) => {
    if (key.name === "escape" || (key.ctrl && key.name === "c") || key.sequence === "\x03") {
      onCancel();
    }
  };
  stdin.on("keypress", onKey);
  if (stdin.isTTY) stdin.setRawMode(true);
  let signalHeld = false;
  try {
    Deno.addSignalListener("SIGINT", onCancel);
    signalHeld = true;
  } catch {
    // A platform without SIGINT listeners: the keys still cancel.
  }
  return () => {
    stdin.off("keypress", onKey);
    if (stdin.isTTY) stdin.setRawMode(false);
    rl.close();
    if (signalHeld) Deno.removeSignalListener("SIGINT", onCancel);
  };
}

/** The frame's first line: what is running, and its version (as create-cloudflare's). */
async function intro(title: string): Promise<void> {
  requireTerminal(title);
  const { clack: c, output } = await clack();
  c.intro(title, { output: output as never });
}

/** The frame's last line. */
async function outro(message: string): Promise<void> {
  requireTerminal(message);
  const { clack: c, output, wrap } = await clack();
  output.write(
    `${paint("gray", c.S_BAR)}\n${wrap(message, "   ", `${paint("gray", c.S_BAR_END)}  `)}\n\n`,
  );
}

/**
 * While `draw` runs, what the command prints (output.ts's `printNote`, `printSuccess`,
 * `printWarning`) is drawn inside the questions' frame, each line wrapped to the terminal's width
 * after the frame's gutter.
 */
export async function drawInFrame(draw: () => void): Promise<void> {
  const { clack: c, output, wrap } = await clack();
  const gutter = `${paint("gray", c.S_BAR)}  `;
  const write = (text: string) => output.write(`${text}\n`);
  write(paint("gray", c.S_BAR));
  drawIn({
    note: (message) => write(wrap(message, gutter)),
    success: (message) => write(wrap(message, gutter, `${paint("green", c.S_SUCCESS)}  `)),
    warning: (message) => write(wrap(message, gutter, `${paint("yellow", c.S_WARN)}  `)),
  });
  try {
    draw();
  } finally {
    drawIn(undefined);
  }
}

/** A line of the frame with its symbol, wrapped to the terminal's width after the gutter. */
async function framed(symbol: (c: Clack) => string, message: string): Promise<void> {
  requireTerminal(message);
  const { clack: c, output, wrap } = await clack();
  output.write(
    `${paint("gray", c.S_BAR)}\n${
      wrap(message, `${paint("gray", c.S_BAR)}  `, `${symbol(c)}  `)
    }\n`,
  );
}

async function note(title: string, lines: readonly string[]): Promise<void> {
  requireTerminal(title);
  const { clack: c, output } = await clack();
  // deno-lint-ignore no-explicit-any
  c.note(lines.join("\n"), title, { output: output as any });
}

function info(message: string): Promise<void> {
  return framed((c) => paint("blue", c.S_INFO), message);
}

function warn(message: string): Promise<void> {
  return framed((c) => paint("yellow", c.S_WARN), message);
}

const COLOURS = { green: 32, yellow: 33, blue: 34, gray: 90 } as const;

/** Text in the colour clack draws the same symbol in, unless NO_COLOR. */
function paint(colour: keyof typeof COLOURS, text: string): string {
  return Deno.noColor ? text : `\x1b[${COLOURS[colour]}m${text}\x1b[39m`;
}

function prompter(escape: EscapeMeans): Prompter {
  return {
    isInteractive,
    confirm: confirmPrompt(escape),
    password: passwordPrompt(escape),
    text: textPrompt(escape),
    select: selectPrompt(escape),
    search: searchPrompt(escape),
    multiselect: multiselectPrompt(escape),
    spinner,
    intro,
    outro,
    note,
    info,
    warn,
  };
}

/** The real prompter, on the process's terminal: Escape, like Ctrl-C, cancels. */
export const terminalPrompter: Prompter = prompter("cancel");

/** The same, for a run of questions with a way back: Escape throws `GoBack`. */
export const backPrompter: Prompter = prompter("back");

/** Single questions on the terminal, Escape cancelling (`auth login`, image pull secrets). */
export const { confirm, password } = terminalPrompter;
