/**
 * `secrets run --watch`: the sets are asked, every interval, whether they changed (a conditional
 * read the server answers 304 while they have not), and a change that gives the command a new
 * environment is handed to the supervisor, which restarts it. Nothing the server does (down,
 * slow, 5xx, the set deleted, the key revoked) stops or restarts a working command: it is said
 * once, asked again with backoff, and said again when it is over.
 *
 * @module
 */
import { AuthError, NotFoundError, VoicebotError } from "../errors.ts";
import type { RuntimeRead, UNCHANGED } from "./client.ts";
import type { ChildEnvironment, SetValues } from "./run.ts";
import { abortableSleep } from "./wait.ts";

export interface ConditionalReader {
  readRuntimeSetIfChanged(name: string, tag: string | undefined): Promise<
    RuntimeRead | typeof UNCHANGED
  >;
}

/** The longest wait between two questions while the server is in trouble. */
export const MAX_BACKOFF_MS = 60_000;

export interface WatchOptions {
  intervalMs: number;
  /** The command's environment from the sets' values; throws what it will not pass on. */
  environmentOf: (sets: SetValues[]) => ChildEnvironment;
  /** Tells the user (stderr). */
  say: (message: string) => void;
  /** Ends every wait and question in flight. */
  signal: AbortSignal;
}

/** Why a question went unanswered, in words that say the command is unharmed. */
type Trouble = { kind: string; message: string };

export class SetWatcher {
  readonly #reader: ConditionalReader;
  readonly #sets: SetValues[];
  readonly #options: WatchOptions;
  #current: ChildEnvironment;
  /** What is wrong now, said once; undefined while every question is answered. */
  #trouble: Trouble | undefined;
  /** A change that cannot be passed on, said once. */
  #refused: string | undefined;
  #failures = 0;

  constructor(
    reader: ConditionalReader,
    sets: SetValues[],
    current: ChildEnvironment,
    options: WatchOptions,
  ) {
    this.#reader = reader;
    this.#sets = sets.map((set) => ({ ...set }));
    this.#current = current;
    this.#options = options;
  }

  /**
   * Resolves with the command's new environment once the sets give it one; until then, asks.
   * Rejects only when the watch is ended (its signal).
   */
  async changed(): Promise<ChildEnvironment> {
    while (true) {
      await abortableSleep(this.#wait(), this.#options.signal);
      if (!(await this.#ask())) continue;
      let next: ChildEnvironment;
      try {
        next = this.#options.environmentOf(this.#sets);
      } catch (error) {
        const message = explain(error);
        if (message !== this.#refused) {
          this.#options.say(`${message} The command keeps running with the values it has.`);
        }
        this.#refused = message;
        continue;
      }
      this.#refused = undefined;
      if (sameEnvironment(next.env, this.#current.env)) continue;
      this.#current = next;
      return next;
    }
  }

  /**
   * Whether a set changed since the last question; new values are kept. A set that cannot be
   * read (deleted, say) keeps its values, and the others are read all the same.
   */
  async #ask(): Promise<boolean> {
    const { signal } = this.#options;
    let changed = false;
    let trouble: Trouble | undefined;
    for (const set of this.#sets) {
      let read: Awaited<ReturnType<ConditionalReader["readRuntimeSetIfChanged"]>>;
      try {
        read = await this.#reader.readRuntimeSetIfChanged(set.name, set.tag);
      } catch (error) {
        signal.throwIfAborted();
        trouble ??= troubleOf(error);
        continue;
      }
      signal.throwIfAborted();
      if (typeof read === "symbol" || !read.ready) continue; // unchanged, or not ready yet
      if (sameValues(read.secrets, set.secrets) && read.tag === set.tag) continue;
      set.secrets = read.secrets;
      set.tag = read.tag;
      changed = true;
    }
    if (trouble) {
      this.#troubled(trouble);
    } else {
      if (this.#trouble) {
        const names = this.#sets.map(({ name }) => `"${name}"`).join(", ");
        this.#options.say(`The API answers again: watching ${names}.`);
      }
      this.#trouble = undefined;
      this.#failures = 0;
    }
    return changed;
  }

  #troubled(trouble: Trouble): void {
    this.#failures++;
    if (trouble.kind !== this.#trouble?.kind) {
      this.#options.say(
        `${trouble.message} The command keeps running with the values it has; asking again ` +
          "with backoff.",
      );
    }
    this.#trouble = trouble;
  }

  /** The interval, doubled for each question in a row that went unanswered, up to a minute. */
  #wait(): number {
    const { intervalMs } = this.#options;
    return Math.min(intervalMs * 2 ** this.#failures, Math.max(intervalMs, MAX_BACKOFF_MS));
  }
}

function troubleOf(error: unknown): Trouble {
  if (error instanceof NotFoundError) {
    return {
      kind: "gone",
      message: "A watched set is gone, or this runtime key no longer reads it.",
    };
  }
  if (error instanceof AuthError || (error instanceof VoicebotError && error.api?.status === 403)) {
    return { kind: "refused", message: "The runtime key was refused (revoked or expired?)." };
  }
  const status = error instanceof VoicebotError ? error.api?.status : undefined;
  return {
    kind: "unreachable",
    message: status === undefined
      ? "The API cannot be reached."
      : `The API answered ${status} when asked whether the sets changed.`,
  };
}

/** What a refused environment's error says: its message and problems, which hold no value. */
function explain(error: unknown): string {
  if (!(error instanceof VoicebotError)) throw error;
  const problems = error.problems?.length ? ` (${error.problems.join("; ")})` : "";
  return `The sets changed, but ${
    error.message.replace(/; nothing was started\.$/, "")
  }${problems}.`;
}

function sameValues(a: [string, string][], b: [string, string][]): boolean {
  return a.length === b.length &&
    a.every(([key, value], i) => b[i][0] === key && b[i][1] === value);
}

function sameEnvironment(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
