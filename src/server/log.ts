/** Structured logs: one JSON object a line on stderr. Callers never pass a header, body, value or key. */

export type LogEntry = { level: "info" | "warn" | "error"; msg: string } & Record<string, unknown>;

/** The access line every request writes (app.ts), with exactly these fields in this order. */
export type RequestEntry = {
  level: "info";
  msg: "request";
  method: string;
  /** The route's template, or the (redacted) path when no route matched. */
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** Absent when the request was not authenticated. */
  orgId?: string;
};

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
    pending.push(
      entry.msg === "request"
        ? requestLine(time, entry as RequestEntry)
        // The time spliced in front, rather than the entry copied to put it first.
        : `{"time":"${time}",${JSON.stringify(entry).slice(1)}`,
    );
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

/** An error as a log line shows it: its name and message, never its stack. */
export const errorText = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * The access line as `JSON.stringify` would write it with the time first, built from its fixed
 * fields: a line a request, where the generic pass over an object costs three times as much.
 */
export function requestLine(time: string, entry: RequestEntry): string {
  const { method, path, status, durationMs, requestId, orgId } = entry;
  const org = orgId === undefined ? "" : `,"orgId":${jsonString(orgId)}`;
  return `{"time":"${time}","level":"info","msg":"request","method":${jsonString(method)},` +
    `"path":${jsonString(path)},"status":${status},"durationMs":${durationMs},` +
    `"requestId":${jsonString(requestId)}${org}}`;
}

/** Printable ASCII but `"` and the backslash, written as it is; the rest goes through JSON. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const jsonString = (text: string) => PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
