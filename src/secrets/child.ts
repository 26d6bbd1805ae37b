/**
 * The command `secrets run` starts: its output masked (or passed through), stopped with a grace
 * period, and ended with its whole process tree when the grace runs out.
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
}

export class Child {
  /** Resolves once it has ended and its output has been passed on. */
  readonly ended: Promise<Deno.CommandStatus>;
  readonly #process: Deno.ChildProcess;

  private constructor(
    process: Deno.ChildProcess,
    pumps: Promise<unknown>[],
    stop: AbortController,
  ) {
    this.#process = process;
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
    let process: Deno.ChildProcess;
    try {
      process = new Deno.Command(command[0], {
        args: command.slice(1),
        env: masked ? { PYTHONUNBUFFERED: "1", ...env } : env,
        clearEnv: true,
        stdin: "inherit",
        stdout: masked ? "piped" : "inherit",
        stderr: masked ? "piped" : "inherit",
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
    return new Child(process, pumps, stop);
  }

  get pid(): number {
    return this.#process.pid;
  }

  /** Sends it a signal, unless it has ended. */
  signal(signal: Deno.Signal): void {
    try {
      this.#process.kill(signal);
    } catch {
      // Already gone: its status is on the way.
    }
  }

  /** SIGTERM, then `endWithin(graceMs)`. */
  stop(graceMs: number): Promise<Deno.CommandStatus> {
    this.signal("SIGTERM");
    return this.endWithin(graceMs);
  }

  /**
   * Its status, once it ends; if that takes longer than `graceMs`, SIGKILL to it and every
   * process it started (found before it dies, which would hand them to init).
   */
  async endWithin(graceMs: number): Promise<Deno.CommandStatus> {
    const first = await orLate(this.ended, graceMs);
    if (first !== "late") return first;
    const tree = await descendantsOf(this.pid);
    this.signal("SIGKILL");
    for (const pid of tree) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Ended meanwhile.
      }
    }
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
 * The processes below `pid`, from /proc (Linux): `uv run` starts Python as its own child, which a
 * SIGKILL of uv would leave running, holding the bot's port. Elsewhere, none are known.
 */
async function descendantsOf(pid: number): Promise<number[]> {
  if (Deno.build.os !== "linux") return [];
  const children = new Map<number, number[]>();
  try {
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
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
