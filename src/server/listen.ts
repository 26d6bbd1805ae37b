/**
 * The listening socket, kept alive whatever accepting connections does.
 *
 * `Deno.serve` (Deno 2.9) has no idle, header-read or keep-alive timeout, and it cannot close one
 * connection alone: only the whole server, listener included. And an error from accept() ends its
 * accept loop and rejects `finished`, which, unhandled, ends the process: clients that open more
 * idle connections than the process has file descriptors (EMFILE) would take the server down.
 *
 * So an accept error sheds instead: the failed `Deno.serve` is shut down, which closes at once
 * every idle connection and every connection that has sent only part of a request (freeing their
 * descriptors), while the requests it is handling get their answers; and a new `Deno.serve`
 * listens on the same port, RELISTEN_FIRST_MS later, retrying with doubling delays up to
 * RELISTEN_MAX_MS until it can. Connections that arrive in between are refused.
 */
import { errorText, type Logger } from "./log.ts";

/** How long after a failed accept the server listens again; doubled after each failed try. */
export const RELISTEN_FIRST_MS = 10;
/** The longest wait between two tries to listen again. */
export const RELISTEN_MAX_MS = 1_000;

export interface Listening {
  addr: Deno.NetAddr;
  /**
   * Stops accepting and closes every connection once its request is answered (idle ones at
   * once). True when all were closed within `timeoutMs`; false leaves the rest to the process's
   * end. Never rejects.
   */
  close(timeoutMs: number): Promise<boolean>;
}

/** Listens on `hostname:port` (0: any free port); throws what Deno.serve throws (AddrInUse). */
export function listen(
  hostname: string,
  port: number,
  handler: Deno.ServeHandler<Deno.NetAddr>,
  logger: Logger,
): Listening {
  const first = Deno.serve({ hostname, port, onListen: () => {} }, handler);
  const addr = first.addr;
  /** Every server not yet closed: the listening one, and any shed one still answering. */
  const servers = new Set<Deno.HttpServer<Deno.NetAddr>>();
  let closing = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let firstDelay = RELISTEN_FIRST_MS;
  let listenedAgainAt = -Infinity;

  const relisten = async (reason: string) => {
    const started = performance.now();
    // A shed soon after the last one backs off as a failed try does: an accept error that
    // persists costs a try (and a log line) a second at most.
    firstDelay = started - listenedAgainAt < RELISTEN_MAX_MS
      ? Math.min(firstDelay * 2, RELISTEN_MAX_MS)
      : RELISTEN_FIRST_MS;
    let failures = 0;
    for (let delay = firstDelay;; delay = Math.min(delay * 2, RELISTEN_MAX_MS)) {
      // close() clears the timer: this then never resumes, and holds the process no longer.
      await new Promise((resolve) => (retry = setTimeout(resolve, delay)));
      if (closing) return;
      try {
        watch(
          Deno.serve({ hostname: addr.hostname, port: addr.port, onListen: () => {} }, handler),
        );
      } catch (error) {
        if (failures++ === 0) {
          logger({ level: "warn", msg: "cannot listen again yet", error: errorText(error) });
        }
        continue;
      }
      listenedAgainAt = performance.now();
      logger({
        level: "info",
        msg: "listening again",
        afterMs: Math.round(performance.now() - started),
        reason,
      });
      return;
    }
  };

  const watch = (server: Deno.HttpServer<Deno.NetAddr>) => {
    servers.add(server);
    server.finished.then(
      () => servers.delete(server),
      (error) => {
        // Its accept loop is over and its listener gone; its connections are still open.
        const reason = errorText(error);
        logger({
          level: "warn",
          msg: "accepting a connection failed: idle connections are closed, then listening again",
          error: reason,
        });
        server.shutdown().catch(() => {}).finally(() => servers.delete(server));
        if (!closing) void relisten(reason);
      },
    );
  };
  watch(first);

  return {
    addr,
    async close(timeoutMs) {
      closing = true;
      clearTimeout(retry);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const closed = await Promise.race([
        Promise.allSettled([...servers].map((server) => server.shutdown())).then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      return closed;
    },
  };
}
