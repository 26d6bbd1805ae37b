/** Structured logs: one JSON object a line on stderr. Callers never pass a header, body, value or key. */

export type LogEntry = { level: "info" | "warn" | "error"; msg: string } & Record<string, unknown>;
export type Logger = (entry: LogEntry) => void;

const encoder = new TextEncoder();

export const stderrLogger: Logger = (entry) => {
  const line = encoder.encode(JSON.stringify({ time: new Date().toISOString(), ...entry }) + "\n");
  let written = 0;
  while (written < line.length) written += Deno.stderr.writeSync(line.subarray(written));
};

export const silentLogger: Logger = () => {};
