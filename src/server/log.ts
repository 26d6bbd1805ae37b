/** Structured logs: one JSON object a line on stderr. Callers never pass a header, body, value or key. */

export type LogEntry = { level: "info" | "warn" | "error"; msg: string } & Record<string, unknown>;

export interface Logger {
  (entry: LogEntry): void;
  /** Writes out what is buffered; called at shutdown. */
  flush?(): void;
}

const FLUSH_AFTER_MS = 10;
const encoder = new TextEncoder();

/**
 * Access logs are gathered for a few milliseconds and written together: one write for many
 * requests instead of one each. Warnings and errors, and a flush at shutdown, go out at once.
 */
export function stderrLogger(): Logger {
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const bytes = encoder.encode(pending.join("\n") + "\n");
    pending = [];
    try {
      for (let written = 0; written < bytes.length;) {
        written += Deno.stderr.writeSync(bytes.subarray(written));
      }
    } catch {
      // stderr closed: the logs have nowhere to go, and the server keeps serving.
    }
  };
  // The time as text, made once a millisecond: under load many lines share it.
  let timeMs = NaN;
  let time = "";
  const logger: Logger = (entry) => {
    const now = Date.now();
    if (now !== timeMs) {
      timeMs = now;
      time = new Date(now).toISOString();
    }
    // The time spliced in front, rather than the entry copied to put it first: a line a request.
    pending.push(`{"time":"${time}",${JSON.stringify(entry).slice(1)}`);
    if (entry.level !== "info") return flush();
    if (timer === undefined) {
      const id = setTimeout(flush, FLUSH_AFTER_MS);
      Deno.unrefTimer(id);
      timer = id;
    }
  };
  logger.flush = flush;
  return logger;
}

export const silentLogger: Logger = () => {};
