/**
 * Whether the database answers, as the server's readiness (`GET /readyz`) and its log say it. An
 * outage begins with the first storage call that finds the database unreachable, or a failed
 * ping; it is logged once, then a ping every PROBE_MS looks for its end, which is logged once too.
 */
import { errorText, type Logger } from "./log.ts";
import type { Storage } from "./storage/types.ts";
import { isDatabaseUnavailable } from "./storage/unavailable.ts";

/** What a 503 tells clients to wait before they try again. */
export const RETRY_AFTER_SECONDS = 2;
/** How often an outage's end is looked for. */
const PROBE_MS = 1_000;
/** How long a ping may take before the database counts as unreachable. */
const PING_TIMEOUT_MS = 2_000;

export class DatabaseHealth {
  /** When the outage under way began, if one is. */
  #downSince: number | undefined;
  #probe: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Whether `error`, a storage call's, is the database being unreachable; the first such error of
   * an outage is logged (name and message: the driver's, which hold no password or value).
   */
  unavailable(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.#down(error);
    return true;
  }

  /** Asks the database now, within PING_TIMEOUT_MS: an answer ends an outage, none begins one. */
  async ready(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error("no answer in time"), { code: "CONNECT_TIMEOUT" })),
        PING_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.storage.ping(), late]);
    } catch (error) {
      // An error that is not the database's absence (a broken schema, say) is no outage, but the
      // server is no more ready for it.
      if (!this.unavailable(error)) {
        this.logger({ level: "error", msg: "ping failed", error: errorText(error) });
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
    this.#up();
    return true;
  }

  /** Stops looking for an outage's end (the server is stopping). */
  close(): void {
    clearInterval(this.#probe);
    this.#probe = undefined;
  }

  #down(error: unknown): void {
    if (this.#downSince !== undefined) return;
    this.#downSince = this.clock();
    this.logger({ level: "error", msg: "database unreachable", error: errorText(error) });
    // One ping at a time: while the pool waits out its reconnection backoff, a ping may outlast
    // the interval, and pings piling up would only queue more queries.
    let pinging = false;
    const probe = setInterval(() => {
      if (pinging) return;
      pinging = true;
      void this.ready().finally(() => pinging = false);
    }, PROBE_MS);
    // The probe never keeps a stopping process alive.
    Deno.unrefTimer(probe);
    this.#probe = probe;
  }

  #up(): void {
    if (this.#downSince === undefined) return;
    const downForMs = this.clock() - this.#downSince;
    this.#downSince = undefined;
    this.close();
    this.logger({ level: "info", msg: "database reachable again", downForMs });
  }
}
