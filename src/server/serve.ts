/**
 * Starting and stopping the server: the database, the master key, the socket, the bootstrap
 * and the provisioner, in that order; shutdown undoes them in reverse, after in-flight
 * requests have finished.
 */
import { NotFoundError, UsageError, VoicebotError } from "../errors.ts";
import { createApp } from "./app.ts";
import { describeDatabase, isPostgresUrl } from "./database_url.ts";
import { DatabaseHealth } from "./health.ts";
import type { ProvisionerOptions, RateLimit } from "./config.ts";
import { generateApiKey } from "./crypto.ts";
import { listen, type Listening } from "./listen.ts";
import {
  KEY_CHECK,
  keyNeeds,
  keyringFromEnv,
  keyringFromFile,
  MASTER_KEY_ENV,
  unlock,
} from "./master_key.ts";
import { type Logger, stderrLogger } from "./log.ts";
import type { NowOrLater } from "./now_or_later.ts";
import { Provisioner } from "./provisioner.ts";
import { rotateMasterKey, type RotationOptions, type RotationReport } from "./rotation.ts";
import { AUDIT_RETENTION_DAYS } from "./storage/common.ts";
import type { ApiKeyInfo, Storage } from "./storage/types.ts";
import { type OpenOptions, openStorage } from "./storage/open.ts";

export { PROVISION_POLL_MS } from "./config.ts";

export { keyNeeds, MASTER_KEY_ENV };
export const BOOTSTRAP_ORGANIZATION = "default";
/** How long shutdown waits for in-flight requests before it closes their connections. */
export const DRAIN_TIMEOUT_MS = 10_000;
/** Then how long closing the listener and every connection may take. */
export const CLOSE_TIMEOUT_MS = 1_000;

export interface ServerOptions {
  hostname: string;
  port: number;
  /** A SQLite file path, or a `postgres://` URL. */
  database: string;
  regions: string[];
  defaultRegion: string;
  rateLimit?: RateLimit;
  provisioner: ProvisionerOptions;
  /** The value of VOICEBOT_MASTER_KEY, if set. */
  masterKey?: string;
  logger?: Logger;
}

export interface RunningServer {
  baseUrl: string;
  /** Present only when this start found an empty database and created the first organization. */
  bootstrap?: { organization: string; apiKey: string };
  /**
   * Drains in-flight requests, stops accepting, stops the provisioner, closes the database.
   * Resolves within DRAIN_TIMEOUT_MS + CLOSE_TIMEOUT_MS (and the database's close) whatever the
   * clients do; `connectionsLeft` then says that some connection is still held by a client
   * that stalled, which only the end of the process closes.
   */
  shutdown(): Promise<{ connectionsLeft: boolean }>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const logger = options.logger ?? stderrLogger();
  // The master key's own problems are reported before any connection is made.
  const envKeys = options.masterKey === undefined ? undefined : keyringFromEnv(options.masterKey);
  if (!envKeys && isPostgresUrl(options.database)) {
    throw new UsageError(`${MASTER_KEY_ENV} is required with a PostgreSQL database.`, {
      hint:
        `set it to the base64 of 32 random bytes, e.g. \`export ${MASTER_KEY_ENV}=$(head -c 32 /dev/urandom | base64)\`, and keep it safe.`,
    });
  }
  const storage = await openStorage(options.database);
  let listening: Listening | undefined;
  try {
    const vault = await unlock(storage, await keyringFor(storage, options.database, envKeys));
    const health = new DatabaseHealth(storage, logger);
    const provisioner = new Provisioner(storage, vault, options.provisioner, logger, health);
    const app = createApp(storage, {
      vault,
      health,
      regions: options.regions,
      defaultRegion: options.defaultRegion,
      rateLimit: options.rateLimit,
      logger,
      onWrite: () => provisioner.notify(),
    });
    const inFlight = new InFlight();
    listening = listenOn(options, (request) => inFlight.track(app.fetch(request)), logger);
    const { close } = listening;
    // After listen: a key made for a server that could not start would never be shown.
    const bootstrap = await bootstrapIfNew(storage);
    provisioner.start();
    const pruning = pruneAuditTrail(storage, logger, health);
    const { hostname, port } = listening.addr;
    const baseUrl = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}/v1`;
    logger({
      level: "info",
      msg: "listening",
      baseUrl,
      database: describeDatabase(options.database),
      masterKeys: vault.keyIds,
    });

    let stopping: Promise<{ connectionsLeft: boolean }> | undefined;
    const shutdown = () =>
      stopping ??= (async () => {
        logger({ level: "info", msg: "shutting down", inFlight: inFlight.size });
        // Deno's shutdown cuts request bodies still arriving, so requests finish first.
        await inFlight.settled(DRAIN_TIMEOUT_MS);
        // Deno's graceful close writes out the responses just made, then waits for every
        // connection: a client that stalls mid-body would hold it forever, hence the bound.
        const closed = await close(CLOSE_TIMEOUT_MS);
        if (!closed) {
          logger({ level: "warn", msg: "connections held by stalled clients are left to close" });
        }
        pruning.stop();
        health.close();
        await provisioner.stop();
        await storage.close();
        logger({ level: "info", msg: "stopped" });
        logger.flush?.();
        return { connectionsLeft: !closed };
      })();
    return { baseUrl, bootstrap, shutdown };
  } catch (error) {
    await listening?.close(CLOSE_TIMEOUT_MS);
    await storage.close();
    throw error;
  }
}

/** How often a server drops audit events older than the retention. */
const AUDIT_PRUNE_MS = 3_600_000;

/**
 * Drops audit events older than AUDIT_RETENTION_DAYS now and every hour; a failure is logged
 * and tried again at the next turn.
 */
function pruneAuditTrail(
  storage: Storage,
  logger: Logger,
  health: DatabaseHealth,
): { stop(): void } {
  const prune = () =>
    void storage.pruneAudit(Date.now() - AUDIT_RETENTION_DAYS * 86_400_000).catch((error) =>
      health.unavailable(error) ||
      logger({ level: "error", msg: "audit pruning failed", error: String(error) })
    );
  prune();
  const timer = setInterval(prune, AUDIT_PRUNE_MS);
  Deno.unrefTimer(timer);
  return { stop: () => clearInterval(timer) };
}

/** Counts requests being handled, so that shutdown can wait for them. */
class InFlight {
  private count = 0;
  private onIdle: (() => void) | undefined;

  get size(): number {
    return this.count;
  }

  /** `response`, counted until it settles; one already made was never in flight. */
  track(response: NowOrLater<Response>): NowOrLater<Response> {
    if (!(response instanceof Promise)) return response;
    this.count++;
    return response.finally(() => {
      if (--this.count === 0) this.onIdle?.();
    });
  }

  /** Resolves when no request is being handled, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.onIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

function listenOn(
  options: ServerOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
  logger: Logger,
): Listening {
  try {
    return listen(options.hostname, options.port, handler, logger);
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new VoicebotError(`port ${options.port} on ${options.hostname} is already in use.`, {
        hint: "choose another with --port, or --port 0 for any free port.",
      });
    }
    throw error;
  }
}

export interface NewKeyOptions {
  /** A runtime key bound to these sets, which must exist; else a private key. */
  runtimeSets?: string[];
  /** Milliseconds since the epoch; undefined: never. */
  expiresAt?: number;
  /** Make the database if there is none (else NotFoundError). */
  create?: boolean;
}

/**
 * A fresh key (`serve create-key`): a private key, for which the organization is created if it is
 * new, or a runtime key, for which the organization and every set must exist already.
 */
export async function createApiKey(
  database: string,
  organization: string,
  options: NewKeyOptions = {},
): Promise<string> {
  const { runtimeSets, expiresAt, create = false } = options;
  return await withStorage(database, { create }, async (storage) => {
    const key = generateApiKey(runtimeSets ? "runtime" : "private");
    const record = { id: key.id, hash: key.hash, now: Date.now(), expiresAt };
    if (!runtimeSets) {
      await storage.addApiKey(organization, record);
      return key.key;
    }
    const refusal = await storage.addRuntimeKey(organization, record, runtimeSets);
    if (refusal?.reason === "no-organization") {
      throw new NotFoundError(`no organization named "${organization}"; no key was created.`, {
        hint: "a runtime key reads sets of an existing organization; check -o.",
      });
    }
    if (refusal) {
      throw new NotFoundError(
        `a runtime key reads existing secret sets of "${organization}"; no key was created.`,
        {
          problems: [
            ...refusal.missing.map((name) => `--set ${name}: no such set`),
            ...refusal.imagePullSecrets.map((name) =>
              `--set ${name}: an image pull secret, which no runtime key reads`
            ),
          ],
          hint: "create the set first (`voicebot cloud secrets set NAME ...`), then the key.",
        },
      );
    }
    return key.key;
  });
}

/** The organization's keys (`serve list-keys`): ids and times, never a secret or a hash. */
export async function listApiKeys(database: string, organization: string): Promise<ApiKeyInfo[]> {
  const keys = await withStorage(database, {}, (storage) => storage.listApiKeys(organization));
  if (!keys) throw new NotFoundError(`no organization named "${organization}".`);
  return keys;
}

/** Deletes the key (`serve revoke-key`); running servers refuse it within AUTH_CACHE_MS. */
export async function revokeApiKey(database: string, keyId: string): Promise<void> {
  if (!(await withStorage(database, {}, (storage) => storage.revokeApiKey(keyId)))) {
    throw new NotFoundError(`no API key with id ${keyId}.`, {
      hint: "`voicebot cloud serve list-keys --organization ORG` lists the ids.",
    });
  }
}

/**
 * `serve rotate-master-key`: re-seals what older keys of the ring sealed with the newest (see
 * rotation.ts). Unlike a server, it opens a database whose values need a key the ring lacks: it
 * re-seals the rest and reports those.
 */
export async function rotateMasterKeyOf(
  database: string,
  masterKey: string | undefined,
  options: RotationOptions,
): Promise<RotationReport> {
  const envKeys = masterKey === undefined ? undefined : keyringFromEnv(masterKey);
  return await withStorage(database, {}, async (storage) => {
    const keys = await keyringFor(storage, database, envKeys);
    const vault = await unlock(storage, keys, { requireEveryKey: false });
    return await rotateMasterKey(storage, vault, options);
  });
}

/** For the operator commands: the database must exist unless `create` says to make it. */
async function withStorage<T>(
  database: string,
  { create = false }: OpenOptions,
  fn: (storage: Storage) => Promise<T>,
): Promise<T> {
  const storage = await openStorage(database, { create });
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}

/** The first organization and its key, only on a database that never had an organization. */
async function bootstrapIfNew(storage: Storage): Promise<RunningServer["bootstrap"]> {
  const key = generateApiKey();
  const created = await storage.addApiKey(BOOTSTRAP_ORGANIZATION, {
    id: key.id,
    hash: key.hash,
    now: Date.now(),
  }, {
    onlyIfNew: true,
  });
  return created ? { organization: BOOTSTRAP_ORGANIZATION, apiKey: key.key } : undefined;
}

/**
 * The keyring: VOICEBOT_MASTER_KEY's (parsed by the caller, before any connection), else (SQLite
 * only) the key file's beside the database, made with a fresh key for a database that holds
 * nothing yet.
 */
async function keyringFor(
  storage: Storage,
  database: string,
  envKeys: Uint8Array[] | undefined,
): Promise<Uint8Array[]> {
  if (envKeys) return envKeys;
  return await keyringFromFile(`${database}.key`, await storage.getMeta(KEY_CHECK) === undefined);
}
