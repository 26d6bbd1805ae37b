/**
 * The command `secrets run` starts: its output masked (or passed through), stopped with a grace
 * period, and ended with its whole process tree.
 *
 * Off a terminal (a container, a service, `--watch`), the command leads a process group (a
 * session) of its own: a stop or a restart signals the whole group, whatever the command does
 * with the signal (`sh -c 'python3 bot.py'`, whose shell forks the bot and dies alone), waits for
 * every process of it within the grace, then kills what is left. On a terminal it stays in the
 * terminal's foreground group, so that Ctrl-C and job control reach it as in a shell.
 *
 * @module
 */
import { CommandNotStarted, ExitCode } from "../errors.ts";
import { maskingStream } from "./mask.ts";

/**
 * How long the output of a command that has ended may still flow: a process it left behind that
 * holds its stdout open does not keep voicebot waiting.
 */
const DRAIN_MS = 1_000;

export interface StartOptions {
  /** The values to mask in its output; undefined: its output is voicebot's own, untouched. */
  mask?: string[];
  /** Leads a process group of its own (not on Windows), which signals and the stop reach whole. */
  ownGroup?: boolean;
}

/** How often a stop looks whether the processes of a group have all ended. */
const GROUP_POLL_MS = 50;

export class Child {
  /** Resolves once it has ended and its output has been passed on. */
  readonly ended: Promise<Deno.CommandStatus>;
  readonly #process: Deno.ChildProcess;
  /** It leads a process group, whose id is its pid. */
  readonly #grouped: boolean;
  /** Outside a group: the processes it had started when it was signalled. */
  readonly #started = new Set<number>();

  private constructor(
    process: Deno.ChildProcess,
    grouped: boolean,
    pumps: Promise<unknown>[],
    stop: AbortController,
  ) {
    this.#process = process;
    this.#grouped = grouped;
    this.ended = process.status.then(async (status) => {
      await orLate(Promise.allSettled(pumps), DRAIN_MS);
      stop.abort();
      return status;
    });
  }

  /**
   * Starts `command` with exactly `env`, stdin shared. Masked, its stdout and stderr are pipes
   * whose bytes reach voicebot's own through the masker, and a Python program is told not to
   * buffer its stdout there (PYTHONUNBUFFERED, unless `env` says otherwise), so logs stay live.
   */
  static start(command: string[], env: Record<string, string>, options: StartOptions): Child {
    const masked = options.mask !== undefined;
    const grouped = (options.ownGroup ?? false) && Deno.build.os !== "windows";
    let process: Deno.ChildProcess;
    try {
      process = new Deno.Command(command[0], {
        args: command.slice(1),
        env: masked ? { PYTHONUNBUFFERED: "1", ...env } : env,
        clearEnv: true,
        stdin: "inherit",
        stdout: masked ? "piped" : "inherit",
        stderr: masked ? "piped" : "inherit",
        // A new session (setsid), which the command leads: its own process group.
        detached: grouped,
      }).spawn();
    } catch (error) {
      throw notStarted(command[0], error);
    }
    const stop = new AbortController();
    // Into a stream of this command's own over voicebot's stdout or stderr, never into theirs:
    // cut off, the copy ends that stream and leaves voicebot's open and unlocked, for its messages
    // and the next command's output.
    const pass = (from: ReadableStream<Uint8Array>, to: typeof Deno.stdout) =>
      from.pipeThrough(maskingStream(options.mask!))
        .pipeTo(writerTo(to), { signal: stop.signal })
        .catch(() => {
          // voicebot's own output closed (`| head`): the command gets a broken pipe, as in a
          // shell's pipeline; or its output was cut off once it had ended, and what a process it
          // left behind writes later is dropped.
        });
    const pumps = masked
      ? [pass(process.stdout, Deno.stdout), pass(process.stderr, Deno.stderr)]
      : [];
    return new Child(process, grouped, pumps, stop);
  }

  get pid(): number {
    return this.#process.pid;
  }

  /**
   * Sends it a signal (every process of its group, when it leads one), unless it has ended.
   * Outside a group, what it started is noted first: its end would hand them to init.
   */
  signal(signal: Deno.Signal): void {
    if (!this.#grouped) { for (const pid of descendantsOf(this.pid)) this.#started.add(pid); }
    try {
      if (this.#grouped) Deno.kill(-this.pid, signal);
      else this.#process.kill(signal);
    } catch {
      // Already gone: its status is on the way.
    }
  }

  /** Whether a process of its group is still running. */
  #groupAlive(): boolean {
    return isRunning(-this.pid);
  }

  /** SIGTERM, then `endWithin(graceMs)`. */
  stop(graceMs: number): Promise<Deno.CommandStatus> {
    this.signal("SIGTERM");
    return this.endWithin(graceMs);
  }

  /**
   * Its status, once it and (when it leads a group) every process of its group have ended; what
   * takes longer than `graceMs` is killed (SIGKILL): its group, and the processes it started,
   * found before it dies, which would hand them to init.
   */
  async endWithin(graceMs: number): Promise<Deno.CommandStatus> {
    const deadline = Date.now() + graceMs;
    // Outside a group of its own (on a terminal), what it started: noted when it was signalled,
    // and found now, before its end hands them to init.
    const started = this.#grouped
      ? []
      : [...new Set([...this.#started, ...descendantsOf(this.pid)])];
    // The command itself, not its output: what it started may hold that open meanwhile.
    const first = await orLate(this.#process.status, graceMs);
    if (first !== "late") {
      // The command has ended; what it started has what is left of the grace, its output passed
      // on as it ends.
      if (this.#grouped) {
        while (this.#groupAlive() && Date.now() < deadline) await pause(GROUP_POLL_MS);
        if (this.#groupAlive()) this.signal("SIGKILL");
        return await this.ended;
      }
      // Orphans now: SIGTERM, as their group would have had it, then SIGKILL at the grace's end.
      let left = started.filter(isRunning);
      for (const pid of left) signalProcess(pid, "SIGTERM");
      while (left.length && Date.now() < deadline) {
        await pause(GROUP_POLL_MS);
        left = left.filter(isRunning);
      }
      for (const pid of left) signalProcess(pid, "SIGKILL");
      return await this.ended;
    }
    const tree = descendantsOf(this.pid);
    this.signal("SIGKILL");
    for (const pid of tree) signalProcess(pid, "SIGKILL");
    return await this.ended;
  }
}

/** A stream whose chunks are written whole to `file`; ending or aborting it leaves `file` as is. */
function writerTo(file: typeof Deno.stdout): WritableStream<Uint8Array> {
  return new WritableStream({
    async write(chunk) {
      for (let written = 0; written < chunk.length;) {
        written += await file.write(chunk.subarray(written));
      }
    },
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `signal` to one process, unless it has ended. */
function signalProcess(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(pid, signal);
  } catch {
    // Ended meanwhile.
  }
}

/** Whether a process is still running (SIGCONT: harmless to a running one). */
function isRunning(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/** What `promise` gives, or "late" after `ms`; the timer ends with it either way. */
async function orLate<T>(promise: Promise<T>, ms: number): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function notStarted(program: string, error: unknown): CommandNotStarted {
  if (error instanceof Deno.errors.NotFound) {
    return new CommandNotStarted(`command not found: ${program}.`, ExitCode.CommandNotFound);
  }
  // Not executable, or the system refused (an environment over its size limit, say): the
  // system's reason, which holds no value.
  const reason = error instanceof Deno.errors.PermissionDenied
    ? "permission denied"
    : (error as Error).message;
  return new CommandNotStarted(
    `cannot start ${program}: ${reason}.`,
    ExitCode.CommandNotExecutable,
  );
}

/**
 * The processes below `pid`, from /proc (Linux), read at once (a signal handler asks it just before
 * a signal that may end `pid`): `uv run` starts Python as its own child, which a
 * SIGKILL of uv would leave running, holding the bot's port. Elsewhere, none are known.
 */
export function descendantsOf(pid: number): number[] {
  if (Deno.build.os !== "linux") return [];
  const children = new Map<number, number[]>();
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      let stat = "";
      try {
        stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      } catch {
        // Ended meanwhile.
      }
      // "pid (name) state ppid ...": the name may hold spaces and parentheses; the parent's pid
      // is the second field after its last ")".
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!Number.isInteger(parent)) continue;
      children.set(parent, [...children.get(parent) ?? [], Number(entry.name)]);
    }
  } catch {
    return [];
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}
