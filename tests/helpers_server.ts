/**
 * Helpers for the secrets server's tests: the storage backends under test, an in-process app
 * with an organization and a key, and the real `voicebot cloud serve` spawned on 127.0.0.1.
 */
import { join } from "pathe";
import { type AppOptions, createApp } from "../src/server/app.ts";
import { generateApiKey, Vault } from "../src/server/crypto.ts";
import { silentLogger } from "../src/server/log.ts";
import { openStorage } from "../src/server/storage/open.ts";
import type { Storage } from "../src/server/storage/types.ts";
import { type CliResult, DENO_DIR, ENTRY, tempDir, voicebot } from "./helpers.ts";
import { type GroupName, skipped } from "./skips.ts";

export { tempDir };

/** A parsed response body, read loosely: the assertions say what it must be. */
// deno-lint-ignore no-explicit-any
export type JsonBody = any;

const POSTGRES_URL = Deno.env.get("VOICEBOT_TEST_POSTGRES_URL");

/** A database for one test: a SQLite file in a temp dir, or a fresh PostgreSQL schema. */
export interface TestDatabase extends AsyncDisposable {
  /** What `--database` takes. */
  spec: string;
}

export interface Backend {
  name: "sqlite" | "postgres";
  /**
   * The groups of tests/skips.ts its tests need: PostgreSQL's are ignored when it is not
   * configured here (and fail on CI).
   */
  needs: GroupName[];
  database(): Promise<TestDatabase>;
}

const sqlite: Backend = {
  name: "sqlite",
  needs: [],
  async database() {
    const dir = await tempDir();
    return {
      spec: join(dir.path, "voicebot.db"),
      [Symbol.asyncDispose]: () => dir[Symbol.asyncDispose](),
    };
  },
};

const postgresBackend: Backend = {
  name: "postgres",
  needs: ["postgres"],
  async database() {
    if (!POSTGRES_URL) {
      throw new Error(
        "VOICEBOT_TEST_POSTGRES_URL is not set; CI must run the PostgreSQL suite (see .ci/run).",
      );
    }
    // A schema per test, so parallel test files never see each other's rows.
    const schema = `test_${crypto.getRandomValues(new Uint8Array(6)).toHex()}`;
    const { default: postgres } = await import("postgres");
    const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set("search_path", schema);
    return {
      spec: url.toString(),
      async [Symbol.asyncDispose]() {
        await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  },
};

export const BACKENDS: Backend[] = [sqlite, postgresBackend];

/**
 * `Deno.test` once per backend. PostgreSQL runs when VOICEBOT_TEST_POSTGRES_URL is set; without
 * it the test is ignored locally but fails on CI (CI=true), so a missing database never passes
 * silently (tests/skips.ts's "postgres" group).
 */
export function backendTest(name: string, fn: (backend: Backend) => Promise<void>) {
  for (const backend of BACKENDS) {
    Deno.test({
      name: `${backend.name}: ${name}`,
      ignore: skipped(...backend.needs),
      fn: () => fn(backend),
    });
  }
}

export async function testVault(): Promise<Vault> {
  return await Vault.fromRawKey(crypto.getRandomValues(new Uint8Array(32)));
}

/** Adds an organization (created if new) with a fresh key; returns the key. */
export async function addKey(storage: Storage, organization: string): Promise<string> {
  const key = generateApiKey();
  await storage.addApiKey(organization, { id: key.id, hash: key.hash, now: Date.now() });
  return key.key;
}

/** The platform's documented PUT body for keys and values, with any other members in `extra`. */
export const documented = (
  values: Record<string, string>,
  extra: Record<string, unknown> = {},
) => ({
  secrets: Object.entries(values).map(([secretKey, secretValue]) => ({ secretKey, secretValue })),
  ...extra,
});

/** A runtime key of `organization` bound to `sets` (which must exist); returns the key. */
export async function addRuntimeKey(
  storage: Storage,
  organization: string,
  sets: string[],
  expiresAt?: number,
): Promise<string> {
  const key = generateApiKey("runtime");
  const refusal = await storage.addRuntimeKey(organization, {
    id: key.id,
    hash: key.hash,
    now: Date.now(),
    expiresAt,
  }, sets);
  if (refusal) throw new Error(`runtime key refused: ${JSON.stringify(refusal)}`);
  return key.key;
}

export interface TestApp extends AsyncDisposable {
  /** The database, as `--database` takes it. */
  spec: string;
  storage: Storage;
  vault: Vault;
  /** A key of organization `acme`. */
  key: string;
  /** Sends a request to the app in process; `body` objects are sent as JSON. */
  call(method: string, path: string, init?: CallInit): Promise<Response>;
  /** Like call, with the JSON body parsed. */
  json(
    method: string,
    path: string,
    init?: CallInit,
  ): Promise<{ status: number; body: JsonBody; response: Response }>;
}

export interface CallInit {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
}

/** The app over a fresh database of `backend`, with organization `acme` and its key. */
export async function testApp(
  backend: Backend,
  options: Partial<Omit<AppOptions, "vault">> = {},
): Promise<TestApp> {
  const database = await backend.database();
  const storage = await openStorage(database.spec);
  const vault = await testVault();
  const key = await addKey(storage, "acme");
  const app = createApp(storage, { vault, logger: silentLogger, ...options });
  const call = (method: string, path: string, init: CallInit = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const key_ = init.key === undefined ? key : init.key;
    if (key_ !== null) headers.authorization ??= `Bearer ${key_}`;
    let body: BodyInit | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === "string" || init.body instanceof Uint8Array ||
          init.body instanceof ReadableStream
        ? init.body as BodyInit
        : JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    return Promise.resolve(app.request(`http://localhost${path}`, { method, headers, body }));
  };
  return {
    spec: database.spec,
    storage,
    vault,
    key,
    call,
    async json(method, path, init) {
      const response = await call(method, path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, response };
    },
    async [Symbol.asyncDispose]() {
      await storage.close();
      await database[Symbol.asyncDispose]();
    },
  };
}

/** Fake time for the rate limiter and the provisioner. */
export function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** Bounds on every wait of the server tests: a start, one request (the machine is shared). */
const SERVER_START_TIMEOUT_MS = 60_000;
export const REQUEST_TIMEOUT_MS = 20_000;
/**
 * A stop: the documented shutdown bound (10 s drain, 1 s close, PostgreSQL's 5 s close) with
 * slack for a shared machine. A shutdown that hangs fails its test instead of the suite.
 */
export const STOP_TIMEOUT_MS = 30_000;

export const MASTER_KEY = crypto.getRandomValues(new Uint8Array(32)).toBase64();

export interface SpawnedServer extends AsyncDisposable {
  baseUrl: string;
  /** Printed only when this start bootstrapped an empty database. */
  bootstrapKey?: string;
  stdout: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  child: Deno.ChildProcess;
  /**
   * Sends the signal and waits for the exit, at most STOP_TIMEOUT_MS: a server still running
   * then is killed, and the stop fails.
   */
  stop(signal?: Deno.Signal): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * `voicebot cloud serve --port 0 --database <spec>` on 127.0.0.1, as a user would run it:
 * no stdin, NO_COLOR, a temporary HOME. Resolves once it prints its base URL.
 */
export async function spawnServer(
  database: string,
  options: {
    args?: string[];
    env?: Record<string, string>;
    umask?: string;
    /** The most file descriptors the server may have open (`ulimit -n`, soft and hard). */
    fdLimit?: number;
    /** The command that starts the CLI, instead of `deno run -A --quiet ENTRY`. */
    cli?: string[];
  } = {},
): Promise<SpawnedServer> {
  const home = await tempDir();
  // With a umask or an fd limit, through sh, which sets them and then becomes deno.
  const setup = [
    ...options.umask === undefined ? [] : [`umask ${options.umask}`],
    ...options.fdLimit === undefined ? [] : [`ulimit -n ${options.fdLimit}`],
  ];
  const [cli, ...cliArgs] = options.cli ?? [Deno.execPath(), "run", "-A", "--quiet", ENTRY];
  const [command, ...prefix] = setup.length === 0
    ? [cli]
    : ["sh", "-c", `${setup.join(" && ")} && exec "$0" "$@"`, cli];
  const child = new Deno.Command(command, {
    args: [
      ...prefix,
      ...cliArgs,
      "cloud",
      "serve",
      "--port",
      "0",
      ...databaseArgs(database).args,
      ...options.args ?? [],
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      HOME: home.path,
      DENO_DIR,
      VOICEBOT_MASTER_KEY: MASTER_KEY,
      ...databaseArgs(database).env,
      ...options.env,
    },
  }).spawn();

  // Both pipes are drained all along, so that the server never blocks on a full pipe.
  let stdout = "";
  let stderr = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr += chunk) }),
  );
  let listening!: (url: string) => void;
  const started = new Promise<string>((resolve) => (listening = resolve));
  const stdoutDone = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(chunk) {
        stdout += chunk;
        const match = /^Listening on (\S+)$/m.exec(stdout);
        if (match) listening(match[1]);
      },
    }),
  );
  const exited = child.status.then(async (status) => {
    await Promise.all([stdoutDone, stderrDone]);
    await home[Symbol.asyncDispose]();
    return status;
  });
  // Bounded: a server that never listens fails the test instead of hanging it.
  const baseUrl = await withDeadline(
    Promise.race([
      started,
      exited.then((status) => {
        throw new Error(
          `server exited with ${status.code} before listening:\n${stdout}\n${stderr}`,
        );
      }),
    ]),
    SERVER_START_TIMEOUT_MS,
  ).catch((error) => {
    child.kill("SIGKILL");
    throw error;
  });
  const kill = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  };
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    kill(signal);
    let status: Deno.CommandStatus;
    try {
      status = await withDeadline(exited, STOP_TIMEOUT_MS);
    } catch {
      kill("SIGKILL");
      await withDeadline(exited, 5_000).catch(() => {});
      throw new Error(
        `the server did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}:\n${stderr}`,
      );
    }
    return { code: status.code, stdout, stderr };
  };
  return {
    baseUrl,
    bootstrapKey: /^(vb_sk_\S+)$/m.exec(stdout)?.[1],
    stdout,
    stderr: () => stderr,
    child,
    stop,
    [Symbol.asyncDispose]: async () => void (await stop("SIGKILL")),
  };
}

/**
 * Runs SQL on the database behind the server's back, as an operator with a SQL shell could:
 * foreign keys are not enforced, to make states the server itself never makes.
 */
export async function rawSql(spec: string, statements: string[]): Promise<void> {
  if (spec.startsWith("postgres")) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(spec, { max: 1, onnotice: () => {} });
    try {
      for (const statement of statements) await sql.unsafe(statement);
    } finally {
      await sql.end();
    }
    return;
  }
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(spec);
  try {
    db.exec("PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = OFF");
    for (const statement of statements) {
      if (!statement.startsWith("ALTER TABLE api_keys DROP CONSTRAINT")) db.exec(statement);
    }
  } finally {
    db.close();
  }
}

/** Deletes every organization, leaving their keys behind (PostgreSQL needs its check dropped). */
export const ORPHAN_KEYS = [
  "ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_org_id_fkey",
  "DELETE FROM organizations",
];

/** Reads rows behind the server's back, as an operator with a SQL shell could. */
export async function rawQuery(
  spec: string,
  statement: string,
): Promise<Record<string, unknown>[]> {
  if (spec.startsWith("postgres")) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(spec, { max: 1, onnotice: () => {} });
    try {
      return [...await sql.unsafe(statement)];
    } finally {
      await sql.end();
    }
  }
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(spec, { readOnly: true });
  try {
    return db.prepare(statement).all();
  } finally {
    db.close();
  }
}

/**
 * How a user passes this database to the CLI: a file with --database, a URL (which carries a
 * password here) in VOICEBOT_DATABASE_URL, never on the command line.
 */
export function databaseArgs(spec: string): { args: string[]; env: Record<string, string> } {
  if (spec === "") return { args: [], env: {} }; // the caller passes it some other way
  return spec.startsWith("postgres")
    ? { args: [], env: { VOICEBOT_DATABASE_URL: spec } }
    : { args: ["--database", spec], env: {} };
}

/** `voicebot cloud serve ACTION...` on the database, passed as a user would (see databaseArgs). */
export function serveAction(spec: string, action: string[]): Promise<CliResult> {
  const { args, env } = databaseArgs(spec);
  return voicebot(["cloud", "serve", ...action, ...args], {
    env: { VOICEBOT_MASTER_KEY: MASTER_KEY, ...env },
  });
}

/** fetch with a bearer key and a JSON body; returns status and parsed body. */
export async function api(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: JsonBody; headers: Headers }> {
  const response = await fetch(baseUrl + path, {
    method,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  };
}

/** Every wait in a test is bounded: `promise`, or a failure after `ms`. */
export async function withDeadline<T>(promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
