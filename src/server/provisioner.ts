/**
 * Moves written sets from `pending` to `ready` or `failed`.
 *
 * It works from the database alone, so it picks up at start whatever a crash left pending, and
 * several server processes on one PostgreSQL database can run it side by side: a result is
 * recorded only if the set's generation is still the one that was read, so a stale result never
 * overwrites a newer write, and processing the same generation twice gives the same answer.
 */
import type { DatabaseHealth } from "./health.ts";
import type { ProvisionerOptions } from "./config.ts";
import { credentialsContext, type Vault } from "./crypto.ts";
import { errorText, type Logger } from "./log.ts";
import type { PendingSet, ProvisionResult, Storage } from "./storage/types.ts";
import { isEncodedUserPassword, isRegistryHost } from "../secrets/registry.ts";

/** The most sets one round takes; a full round is followed by another at once. */
export const PROVISION_BATCH = 100;

export class Provisioner {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerDue = Infinity;
  private running: Promise<void> | undefined;
  /** Set when a wake-up came during a round: another round follows at once. */
  private wokenWhileRunning = false;
  /** When the latest write becomes due; a round that ends before then comes back for it. */
  private latestDue = 0;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    private readonly vault: Vault,
    private readonly options: ProvisionerOptions,
    private readonly logger: Logger,
    /** Tells the database's absence apart, logged once an outage; without it, every round's. */
    private readonly health?: DatabaseHealth,
    private readonly clock: () => number = Date.now,
  ) {}

  start() {
    this.schedule(0);
  }

  /** A write happened: look again once its delay has passed. */
  notify() {
    this.latestDue = this.clock() + this.options.delayMs + 1;
    this.schedule(this.options.delayMs + 1);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(inMs: number) {
    if (this.stopped) return;
    const due = this.clock() + inMs;
    if (this.timer !== undefined && this.timerDue <= due) return;
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Infinity;
      this.wake();
    }, inMs);
  }

  private wake() {
    if (this.running) {
      this.wokenWhileRunning = true;
      return;
    }
    this.wokenWhileRunning = false;
    this.running = this.provisionDue().then((more) => {
      this.running = undefined;
      const untilDue = this.latestDue - this.clock();
      const next = more || this.wokenWhileRunning
        ? 0
        : untilDue > 0
        ? untilDue
        : this.options.pollMs;
      this.schedule(Math.min(next, this.options.pollMs));
    });
  }

  /** One batch of the sets that are due; true when there may be more waiting. */
  async provisionDue(): Promise<boolean> {
    try {
      const batch = await this.storage.pendingSets(
        this.clock() - this.options.delayMs,
        PROVISION_BATCH,
      );
      const outcomes = [];
      for (const set of batch) outcomes.push({ set, result: await this.provision(set) });
      // One transaction for the batch: one disk sync rather than one a set.
      await this.storage.finishProvisioning(outcomes);
      return batch.length === PROVISION_BATCH;
    } catch (error) {
      // The database may be away for a moment (its outage is logged once, by the health); the
      // next round tries again.
      if (!this.health?.unavailable(error)) {
        this.logger({ level: "warn", msg: "provisioning round failed", error: errorText(error) });
      }
      return false;
    }
  }

  /** Validates what can be validated here; the messages are shown to customers. */
  private async provision(set: PendingSet): Promise<ProvisionResult> {
    if (set.type !== "imagePullSecret") return { status: "ready" };
    if (!isRegistryHost(set.host ?? "")) {
      return {
        status: "failed",
        errorMessage:
          // A host stored before userinfo was refused may hold a password: never echoed.
          `Registry host ${
            set.host?.includes("@") ? "(with user information)" : `"${set.host}"`
          } is not a host name (for example registry.example.com or registry.example.com:5000).`,
      };
    }
    let credentials: string;
    try {
      credentials = await this.vault.open(
        set.credentials!,
        credentialsContext(set.orgId, set.name),
      );
    } catch (error) {
      this.logger({
        level: "error",
        msg: "stored credentials do not decrypt",
        set: set.name,
        error: errorText(error),
      });
      return {
        status: "failed",
        errorMessage: "The stored credentials could not be read; set them again.",
      };
    }
    if (!isEncodedUserPassword(credentials)) {
      return {
        status: "failed",
        errorMessage: "The credentials are not base64 of username:password once decoded.",
      };
    }
    return { status: "ready" };
  }
}
