/**
 * Starting and stopping the server: the database, the master key, the socket, the bootstrap
 * and the provisioner, in that order; shutdown undoes them in reverse, after in-flight
 * requests have finished.
 */
import { dirname } from "pathe";
import { NotFoundError, UsageError, VoicebotError } from "../errors.ts";
import { openToOthers } from "../file_mode.ts";
import { createApp } from "./app.ts";
import { describeDatabase, isPostgresUrl, parsePostgresUrl } from "./database_url.ts";
import type { ProvisionerOptions, RateLimit } from "./config.ts";
import { generateApiKey, KEY_CHECK_CONTEXT, KEY_CHECK_PLAINTEXT, Vault } from "./crypto.ts";
import { listen, type Listening } from "./listen.ts";
import { type Logger, stderrLogger } from "./log.ts";
import { Provisioner } from "./provisioner.ts";
import type { ApiKeyInfo, Storage } from "./storage/types.ts";

export { PROVISION_POLL_MS } from "./config.ts";

export const MASTER_KEY_ENV = "VOICEBOT_MASTER_KEY";
export const BOOTSTRAP_ORGANIZATION = "default";
const KEY_CHECK = "key_check";
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
  const envKey = options.masterKey === undefined
    ? undefined
    : parseMasterKey(options.masterKey, MASTER_KEY_ENV);
  if (!envKey && isPostgresUrl(options.database)) {
    throw new UsageError(`${MASTER_KEY_ENV} is required with a PostgreSQL database.`, {
      hint:
        `set it to the base64 of 32 random bytes, e.g. \`export ${MASTER_KEY_ENV}=$(head -c 32 /dev/urandom | base64)\`, and keep it safe.`,
    });
  }
  const storage = await openStorage(options.database);
  let listening: Listening | undefined;
  try {
    const vault = await unlock(storage, options.database, envKey);
    const provisioner = new Provisioner(storage, vault, options.provisioner, logger);
    const app = createApp(storage, {
      vault,
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
    const { hostname, port } = listening.addr;
    const baseUrl = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}/v1`;
    logger({
      level: "info",
      msg: "listening",
      baseUrl,
      database: describeDatabase(options.database),
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

/** Counts requests being handled, so that shutdown can wait for them. */
class InFlight {
  private count = 0;
  private onIdle: (() => void) | undefined;

  get size(): number {
    return this.count;
  }

  async track(response: Response | Promise<Response>): Promise<Response> {
    this.count++;
    try {
      return await response;
    } finally {
      if (--this.count === 0) this.onIdle?.();
    }
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

export interface OpenOptions {
  /**
   * False: the database must exist already (a SQLite file, a PostgreSQL schema voicebot has
   * migrated), else NotFoundError naming it. The operator commands open so: a mistyped
   * `--database` must not become a new, empty database that they then report on.
   */
  create?: boolean;
}

export async function openStorage(
  database: string,
  { create = true }: OpenOptions = {},
): Promise<Storage> {
  try {
    if (isPostgresUrl(database)) {
      if (!parsePostgresUrl(database)) {
        throw new Error("it is not a URL of the form postgres://user@host:port/database");
      }
      const { PostgresStorage } = await import("./storage/postgres.ts");
      const storage = await PostgresStorage.open(database, { create });
      if (!storage) throw noDatabase(database, "holds no voicebot database");
      return storage;
    }
    const { SqliteStorage } = await import("./storage/sqlite.ts");
    if (create) await createPrivately(database);
    else if (!(await exists(database))) throw noDatabase(database, "does not exist");
    return SqliteStorage.open(database);
  } catch (error) {
    if (error instanceof VoicebotError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new VoicebotError(`cannot open the database ${describeDatabase(database)}: ${reason}`, {
      hint:
        "check the database: a SQLite file path (--database), or VOICEBOT_DATABASE_URL=postgres://user:password@host:port/database.",
    });
  }
}

/**
 * The vault under the master key: VOICEBOT_MASTER_KEY, else (SQLite only) the key file beside
 * the database, created on first start. A key that does not open the database's key check is
 * refused before anything is written with it.
 */
async function unlock(
  storage: Storage,
  database: string,
  envKey: Uint8Array | undefined,
): Promise<Vault> {
  const raw = envKey ??
    await keyFromFile(`${database}.key`, await storage.getMeta(KEY_CHECK) !== undefined);
  const vault = await Vault.fromRawKey(raw);
  const check = await storage.putMetaIfAbsent(
    KEY_CHECK,
    await vault.seal(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT),
  );
  try {
    await vault.open(check, KEY_CHECK_CONTEXT);
  } catch {
    throw new UsageError("the master key does not match the one this database was created with.", {
      hint: `use the original key (${MASTER_KEY_ENV} or the key file beside the database).`,
    });
  }
  return vault;
}

export function parseMasterKey(text: string, source: string): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    bytes = Uint8Array.fromBase64(text.trim(), { lastChunkHandling: "strict" });
  } catch {
    // reported below, without the value
  }
  if (bytes?.length !== 32) {
    throw new UsageError(
      `${source} must be the base64 encoding of exactly 32 bytes${
        bytes ? ` (it decodes to ${bytes.length})` : " (it is not base64)"
      }.`,
      { hint: "generate one with `head -c 32 /dev/urandom | base64`." },
    );
  }
  return bytes;
}

/** Reads the key file, refusing one others can read; creates it (mode 0600) for a new database. */
async function keyFromFile(path: string, databaseHasData: boolean): Promise<Uint8Array> {
  let info: Deno.FileInfo | undefined;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!info) {
    if (databaseHasData) {
      throw new UsageError(
        `the key file ${path} is missing, but the database was encrypted with a key.`,
        {
          hint: `restore the key file, or set ${MASTER_KEY_ENV} to the key.`,
        },
      );
    }
    const raw = crypto.getRandomValues(new Uint8Array(32));
    await Deno.writeTextFile(path, raw.toBase64() + "\n", { mode: 0o600, createNew: true });
    return raw;
  }
  const loose = openToOthers(info);
  if (loose !== undefined) {
    throw new UsageError(
      `the key file ${path} can be read by others (mode ${loose.toString(8)}).`,
      { hint: `run \`chmod 600 ${path}\`.` },
    );
  }
  return parseMasterKey(await Deno.readTextFile(path), `the key file ${path}`);
}

function noDatabase(database: string, what: string): NotFoundError {
  return new NotFoundError(
    `the database ${describeDatabase(database)} ${what}; nothing was done.`,
    {
      hint:
        "check --database and VOICEBOT_DATABASE_URL; a new database is made by starting the server on it (`voicebot cloud serve`), or by create-key with --create.",
    },
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Creates a new database file empty, mode 0600, before SQLite opens it (its directories 0700):
 * SQLite gives the `-wal` and `-shm` files it makes the database's own mode, so every file is
 * private from its first byte whatever the umask. An existing file is left as it is.
 */
async function createPrivately(database: string) {
  await Deno.mkdir(dirname(database), { recursive: true, mode: 0o700 });
  try {
    const file = await Deno.open(database, { write: true, createNew: true, mode: 0o600 });
    file.close();
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}
