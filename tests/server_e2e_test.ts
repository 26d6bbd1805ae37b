/**
 * End to end: the real `voicebot cloud serve` spawned on 127.0.0.1 with a temporary database,
 * spoken to over HTTP as a client would. Bounded in requests and time throughout.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { voicebot } from "./helpers.ts";
import { AUTH_CACHE_MS } from "../src/server/auth.ts";
import { LIST_FRESHNESS_MS } from "../src/server/app.ts";
import { CLOSE_TIMEOUT_MS, DRAIN_TIMEOUT_MS } from "../src/server/serve.ts";
import { openStorage } from "../src/server/storage/open.ts";
import { CLOSE_TIMEOUT_SECONDS as POSTGRES_CLOSE_SECONDS } from "../src/server/storage/postgres.ts";
import {
  api,
  BACKENDS,
  backendTest,
  MASTER_KEY,
  REQUEST_TIMEOUT_MS,
  serveAction,
  type SpawnedServer,
  spawnServer,
  STOP_TIMEOUT_MS,
  tempDir,
  withDeadline,
} from "./helpers_server.ts";

const sqlite = BACKENDS.find((backend) => backend.name === "sqlite")!;

/** Polls until `done` holds; bounded, and fails with the last value when it never does. */
async function eventually<T>(get: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await get();
  for (let attempt = 0; attempt < 200 && !done(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await get();
  }
  assert.ok(done(value), `never reached: ${JSON.stringify(value)}`);
  return value;
}

/** The server's complete log lines so far (a line still being written is left for later). */
function logLines(server: SpawnedServer): Record<string, unknown>[] {
  return server.stderr().split("\n").slice(0, -1).filter(Boolean).map((line) => JSON.parse(line));
}

backendTest(
  "serve bootstraps an empty database once: organization default and one key on stdout",
  async (backend) => {
    await using database = await backend.database();
    const first = await spawnServer(database.spec);
    assert.match(
      first.stdout,
      /^Created organization "default" with this API key .*:\nvb_sk_\S+\nListening on http:\/\/127\.0\.0\.1:\d+\/v1\n$/,
    );
    const key = first.bootstrapKey!;
    assert.equal((await api(first.baseUrl, key, "GET", "/secrets")).status, 200);
    const stopped = await first.stop();
    assert.equal(stopped.code, 0);
    assert.ok(!stopped.stderr.includes(key), "the key never reaches the logs");

    await using second = await spawnServer(database.spec);
    assert.equal(second.bootstrapKey, undefined);
    assert.match(second.stdout, /^Listening on http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
    assert.equal(
      (await api(second.baseUrl, key, "GET", "/secrets")).status,
      200,
      "the key survives a restart",
    );
  },
);

backendTest(
  "serve create-key prints a working key alone on stdout; organizations stay apart",
  async (backend) => {
    await using database = await backend.database();
    await using server = await spawnServer(database.spec);
    const created = await serveAction(database.spec, ["create-key", "--organization", "acme"]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^vb_sk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}\n$/);
    const acme = created.stdout.trim();

    const put = await api(server.baseUrl, acme, "PUT", "/secrets/app", {
      type: "secret",
      secrets: { A: "1" },
    });
    assert.equal(put.status, 201);
    assert.deepEqual((await api(server.baseUrl, server.bootstrapKey!, "GET", "/secrets")).body, {
      sets: [],
    });
    assert.equal(
      (await api(server.baseUrl, server.bootstrapKey!, "GET", "/secrets/app")).status,
      404,
    );

    const invalid = await serveAction(database.spec, ["create-key", "-o", "bad name!"]);
    assert.equal(invalid.code, 2);
    assert.equal(invalid.stdout, "");
    assert.match(invalid.stderr, /invalid organization name/);
  },
);

/** The tables of the database's schema (SQLite: none when the file is not there). */
async function tablesOf(spec: string): Promise<string[]> {
  if (spec.startsWith("postgres")) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(spec, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() ORDER BY table_name`;
      return rows.map((row) => row.table_name as string);
    } finally {
      await sql.end();
    }
  }
  try {
    await Deno.stat(spec);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(spec, { readOnly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
      .map((row) => row.name as string);
  } finally {
    db.close();
  }
}

backendTest(
  "operator commands name their database, and a mistyped one is an error that creates nothing",
  async (backend) => {
    // A database nobody made: a mistyped path, or a schema voicebot never migrated.
    await using database = await backend.database();
    const named = backend.name === "sqlite"
      ? `Database: ${database.spec}\n`
      : "Database: postgres://voicebot:***@";
    for (
      const action of [
        ["create-key", "-o", "acme"],
        ["create-key", "-o", "acme", "--runtime", "--set", "bot"],
        ["list-keys", "-o", "acme"],
        ["revoke-key", "0123456789abcdef"],
      ]
    ) {
      const result = await serveAction(database.spec, action);
      assert.equal(result.code, 4, `${action.join(" ")}: ${result.stderr}`);
      assert.equal(result.stdout, "");
      assert.ok(result.stderr.startsWith(named), result.stderr);
      assert.match(result.stderr, /(does not exist|holds no voicebot database); nothing was done/);
      assert.match(result.stderr, /--create/);
    }
    assert.deepEqual(await tablesOf(database.spec), [], "nothing was created");
    if (backend.name === "sqlite") {
      await assert.rejects(Deno.stat(`${database.spec}.key`), Deno.errors.NotFound);
    }
    const misplaced = await serveAction(database.spec, ["list-keys", "-o", "acme", "--create"]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--create goes with create-key/);

    // Asked for, the database is made, and the key works on a server started on it.
    const created = await serveAction(database.spec, ["create-key", "-o", "acme", "--create"]);
    assert.equal(created.code, 0, created.stderr);
    assert.ok(created.stderr.startsWith(named), created.stderr);
    await using server = await spawnServer(database.spec);
    assert.equal(server.bootstrapKey, undefined, "no second organization is bootstrapped");
    const key = created.stdout.trim();
    assert.equal((await api(server.baseUrl, key, "GET", "/secrets")).status, 200);
    const listed = await serveAction(database.spec, ["list-keys", "-o", "acme", "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).length, 1);
  },
);

backendTest(
  "list-keys and revoke-key: ids and times, never a secret; a revoked key is refused by both server processes",
  async (backend) => {
    await using database = await backend.database();
    await using one = await spawnServer(database.spec);
    await using two = await spawnServer(database.spec);
    const created = await serveAction(database.spec, ["create-key", "-o", "acme"]);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    const keyId = key.split("_")[2];
    for (const server of [one, two]) {
      assert.equal((await api(server.baseUrl, key, "GET", "/secrets")).status, 200);
    }
    const listed = await eventually(async () => {
      const result = await serveAction(database.spec, ["list-keys", "-o", "acme", "--json"]);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as { id: string; created: string; lastUsed: string }[];
    }, (keys) => keys[0]?.lastUsed !== null);
    assert.deepEqual(listed.map(({ id }) => id), [keyId]);
    assert.match(listed[0].created, /^\d{4}-\d\d-\d\dT/);
    const table = await serveAction(database.spec, ["list-keys", "-o", "acme"]);
    assert.match(table.stdout, new RegExp(`${keyId}.*\\d{4}-`));
    assert.ok(!table.stdout.includes("\x1b"), "no ANSI codes with NO_COLOR, into a pipe");
    for (const output of [JSON.stringify(listed), table.stdout, table.stderr]) {
      assert.ok(!output.includes(key.slice(24)), "no secret in list-keys");
    }
    const unknown = await serveAction(database.spec, ["list-keys", "-o", "nobody"]);
    assert.equal(unknown.code, 4);

    const revoked = await serveAction(database.spec, ["revoke-key", keyId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    for (const server of [one, two]) {
      await eventually(
        async () => (await api(server.baseUrl, key, "GET", "/secrets")).status,
        (status) => status === 401,
      );
    }
    assert.equal((await serveAction(database.spec, ["revoke-key", keyId])).code, 4);
    const notAnId = await serveAction(database.spec, ["revoke-key", key]);
    assert.equal(notAnId.code, 2);
    assert.ok(!notAnId.stderr.includes(key.slice(24)), "a key passed by mistake is not echoed");
  },
);

backendTest(
  "create-key --runtime: every problem at once, missing sets named, nothing created; list-keys shows kind, sets, expiry",
  async (backend) => {
    await using database = await backend.database();
    await using server = await spawnServer(database.spec);
    const put = await api(server.baseUrl, server.bootstrapKey!, "PUT", "/secrets/bot", {
      type: "secret",
      secrets: { A: "1" },
    });
    assert.equal(put.status, 201);
    await api(server.baseUrl, server.bootstrapKey!, "PUT", "/secrets/registry", {
      type: "imagePullSecret",
      host: "ghcr.io",
      credentials: btoa("u:p"),
    });

    const usage = await serveAction(database.spec, [
      ...["create-key", "-o", "default", "--runtime", "--set", "not a name"],
      ...["--expires-in", "soon"],
    ]);
    assert.equal(usage.code, 2, usage.stderr);
    assert.match(usage.stderr, /--set number 1 is not a set name/);
    assert.match(usage.stderr, /--expires-in "soon" is not a duration/);
    assert.doesNotMatch(usage.stderr, /not a name"/, "a --set that is not a name is not echoed");
    const noSet = await serveAction(database.spec, ["create-key", "-o", "default", "--runtime"]);
    assert.equal(noSet.code, 2);
    assert.match(noSet.stderr, /--runtime needs --set NAME/);

    const refused = await serveAction(database.spec, [
      ...["create-key", "-o", "default", "--runtime"],
      ...["--set", "bot", "--set", "nope", "--set", "registry"],
    ]);
    assert.equal(refused.code, 4, refused.stderr);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /--set nope: no such set/);
    assert.match(refused.stderr, /--set registry: an image pull secret/);

    const created = await serveAction(database.spec, [
      ...["create-key", "-o", "default", "--runtime", "--set", "bot", "--expires-in", "12h"],
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^vb_rk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}\n$/);
    assert.match(created.stderr, /New runtime key for organization "default", reading "bot"/);
    const runtimeId = created.stdout.split("_")[2];

    const listed = await serveAction(database.spec, ["list-keys", "-o", "default", "--json"]);
    const keys = JSON.parse(listed.stdout);
    assert.deepEqual(keys.map((key: { kind: string }) => key.kind), ["private", "runtime"]);
    const runtime = keys.find((key: { id: string }) => key.id === runtimeId);
    assert.deepEqual(runtime.sets, ["bot"]);
    assert.equal(runtime.expired, false);
    const hours = (Date.parse(runtime.expires) - Date.parse(runtime.created)) / 3_600_000;
    assert.ok(Math.abs(hours - 12) < 0.1, `expires ${hours} h after its creation`);
    const table = await serveAction(database.spec, ["list-keys", "-o", "default"]);
    assert.match(table.stdout, new RegExp(`${runtimeId}.*runtime.*bot`));
    assert.equal(refused.stdout + usage.stdout, "", "no key was printed by a refusal");
  },
);

Deno.test("revoke-key echoes no part of an argument that is not a key id", async () => {
  await using dir = await tempDir();
  const secret = crypto.getRandomValues(new Uint8Array(32))
    .toBase64({ alphabet: "base64url", omitPadding: true });
  const key = `vb_sk_0123456789abcdef_${secret}`;
  // A secret may start with "-" (base64url): not an option, and not shown (tests/arguments_test.ts
  // holds every command to it, for many draws).
  const dashed = `-${secret}`;
  for (const argument of [secret, key, secret.slice(0, 16), "0123456789abcdeg", dashed]) {
    const result = await voicebot([
      "cloud",
      "serve",
      "revoke-key",
      argument,
      "--database",
      join(dir.path, "s.db"),
    ]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      argument.startsWith("-")
        ? /an argument that starts with "-" is not an option of this command \(not shown/
        : /is not a key id \(16 hex digits\)/,
    );
    const output = result.stdout + result.stderr;
    assert.doesNotMatch(output, /unknown option -/, "no letter of it is named");
    // Any 6 characters in a row of the argument (of a key: of its secret) would be a leak.
    const part = argument === key ? secret : argument;
    for (let i = 0; i + 6 <= part.length; i++) {
      assert.ok(!output.includes(part.slice(i, i + 6)), `characters ${i} to ${i + 5} are echoed`);
    }
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)], [], "no database is made for it");
});

/** How late past the documented bound a refusal may be seen: polling and a loaded machine. */
const REFUSAL_SLACK_MS = 500;

backendTest(
  "a key verified just before its revocation is refused by every server process within the authentication cache time",
  async (backend) => {
    await using database = await backend.database();
    await using one = await spawnServer(database.spec);
    await using two = await spawnServer(database.spec);
    const created = await serveAction(database.spec, ["create-key", "-o", "acme"]);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    // The operator's connection is open beforehand: the revocation is one statement, made right
    // after both processes verified the key, so their caches hold it at their freshest.
    const operator = await openStorage(database.spec);
    try {
      const verifiedAt: number[] = [];
      for (const server of [one, two]) {
        assert.equal((await api(server.baseUrl, key, "GET", "/secrets")).status, 200);
        verifiedAt.push(performance.now());
      }
      assert.ok(await operator.revokeApiKey(key.split("_")[2]));
      const revokedAt = performance.now();
      assert.ok(
        revokedAt - verifiedAt[0] < AUTH_CACHE_MS / 2,
        `both caches were warm at the revocation (${Math.round(revokedAt - verifiedAt[0])} ms)`,
      );
      // Both polled at once, each until refused, or for a little longer than the bound.
      const refusedAfter = await Promise.all([one, two].map(async (server) => {
        while (performance.now() - revokedAt < AUTH_CACHE_MS + REFUSAL_SLACK_MS) {
          if ((await api(server.baseUrl, key, "GET", "/secrets")).status === 401) {
            return performance.now() - revokedAt;
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return Infinity;
      }));
      for (const [i, ms] of refusedAfter.entries()) {
        assert.ok(
          ms <= AUTH_CACHE_MS + REFUSAL_SLACK_MS,
          `process ${i + 1} still accepted the key ${
            AUTH_CACHE_MS + REFUSAL_SLACK_MS
          } ms after its revocation`,
        );
      }
    } finally {
      await operator.close();
    }
  },
);

backendTest(
  "the database URL comes from VOICEBOT_DATABASE_URL; --database refuses a password",
  async (backend) => {
    await using database = await backend.database();
    if (backend.name === "postgres") {
      await using server = await spawnServer(database.spec);
      const cmdline = await Deno.readTextFile(`/proc/${server.child.pid}/cmdline`);
      assert.ok(!cmdline.includes("postgres"), "no URL in the process's arguments");
      assert.equal(
        (await api(server.baseUrl, server.bootstrapKey!, "GET", "/secrets")).status,
        200,
      );
      const url = new URL(database.spec);
      url.password = "hunter2-secret";
      const refused = await voicebot(["cloud", "serve", "--port", "0", "--database", String(url)], {
        env: { VOICEBOT_MASTER_KEY: MASTER_KEY },
      });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /must not carry a password/);
      assert.match(refused.stderr, /VOICEBOT_DATABASE_URL/);
      assert.ok(!refused.stderr.includes("hunter2-secret"));
    } else {
      // A file path in the variable works as well as with --database.
      await using server = await spawnServer("", {
        env: { VOICEBOT_DATABASE_URL: database.spec },
      });
      assert.ok(server.bootstrapKey);
      assert.ok((await Deno.stat(database.spec)).isFile);
    }
  },
);

/** `voicebot cloud serve ARGS` run in `cwd`, where a database taken for a file would be made. */
const serveIn = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  voicebot(["cloud", "serve", ...args], { cwd, env: { VOICEBOT_MASTER_KEY: MASTER_KEY, ...env } });

Deno.test("a database URL's password never shows, in its query either; a POSTGRES:// URL in any case is PostgreSQL", async () => {
  await using dir = await tempDir();
  const run = (args: string[], env: Record<string, string> = {}) => serveIn(dir.path, args, env);
  // Nothing listens on port 1: the error describes the URL, with its query's password hidden.
  const inQuery = "postgres://voicebot@127.0.0.1:1/db?sslmode=disable&password=hunter2-query";
  for (const args of [["--port", "0"], ["create-key", "-o", "acme"], ["list-keys", "-o", "a"]]) {
    const result = await run(args, { VOICEBOT_DATABASE_URL: inQuery });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /cannot open the database postgres:\/\/voicebot@127\.0\.0\.1:1\/db\?sslmode=disable&password=\*\*\*: /,
    );
    assert.ok(!(result.stdout + result.stderr).includes("hunter2"), result.stderr);
  }
  for (const scheme of ["POSTGRES", "PostgreSQL"]) {
    // Taken for PostgreSQL, as the password check takes it: never a SQLite file named so.
    const created = await run([
      "create-key",
      "-o",
      "acme",
      "--database",
      `${scheme}://u@127.0.0.1:1/db`,
    ]);
    assert.equal(created.code, 1, created.stderr);
    assert.match(
      created.stderr,
      /cannot open the database postgres(ql)?:\/\/u@127\.0\.0\.1:1\/db: /,
    );
    assert.equal(created.stdout, "");
    const withPassword = await run([
      "list-keys",
      "-o",
      "a",
      "--database",
      `${scheme}://u:hunter2@h/db`,
    ]);
    assert.equal(withPassword.code, 2);
    assert.match(withPassword.stderr, /must not carry a password/);
    assert.ok(!withPassword.stderr.includes("hunter2"));
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)], [], "no SQLite file is made");
});

Deno.test("a database written as a URL of another scheme is refused, naming the scheme: no file, no password shown", async () => {
  await using dir = await tempDir();
  const run = (args: string[], env: Record<string, string> = {}) => serveIn(dir.path, args, env);
  const typo = "postgress://voicebot:hunter2@127.0.0.1/db";
  const cases: [string[], Record<string, string>, RegExp][] = [
    [
      ["--port", "0"],
      { VOICEBOT_DATABASE_URL: typo },
      /^error: VOICEBOT_DATABASE_URL: postgress:\/\/ is not a database this server opens\. Did you mean postgres:\/\/\?$/m,
    ],
    [
      ["create-key", "-o", "acme", "--create"],
      { VOICEBOT_DATABASE_URL: typo },
      /Did you mean postgres:\/\/\?/,
    ],
    [
      ["--port", "0", "--database", "mysql://u@host/db"],
      {},
      /^error: --database: mysql:\/\/ is not a database this server opens\.$/m,
    ],
    [
      ["backup", "--to", "copy.db", "--database", "sqlite:///tmp/hunter2.db"],
      {},
      /sqlite:\/\/ is not/,
    ],
  ];
  for (const [args, env, message] of cases) {
    const result = await run(args, env);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.match(result.stderr, /hint: give a SQLite file path, or a PostgreSQL URL/);
    assert.ok(!(result.stdout + result.stderr).includes("hunter2"), result.stderr);
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)], [], "no SQLite file is made");
});

backendTest(
  "a write through one server process shows in another's list within the documented bound",
  async (backend) => {
    await using database = await backend.database();
    await using one = await spawnServer(database.spec);
    await using two = await spawnServer(database.spec);
    const key = one.bootstrapKey!;
    const names = async (server: SpawnedServer) =>
      ((await api(server.baseUrl, key, "GET", "/secrets")).body.sets as { name: string }[])
        .map(({ name }) => name);
    for (const [i, name] of ["first", "second"].entries()) {
      assert.ok(!(await names(two)).includes(name), "two has it cached without it");
      const put = await api(one.baseUrl, key, "PUT", `/secrets/${name}`, {
        type: "secret",
        secrets: { A: String(i) },
      });
      assert.equal(put.status, 201);
      assert.ok((await names(one)).includes(name), "the writer's own list has it at once");
      const written = performance.now();
      const seen = await eventually(
        () => names(two),
        (list) => list.includes(name) || performance.now() - written > LIST_FRESHNESS_MS + 1_000,
      );
      assert.ok(seen.includes(name), `another process shows ${name} within the bound`);
    }
  },
);

backendTest(
  "many concurrent writers to one set, through two server processes, lose no key",
  async (backend) => {
    await using database = await backend.database();
    await using one = await spawnServer(database.spec);
    await using two = await spawnServer(database.spec);
    const key = one.bootstrapKey!;
    assert.equal(two.bootstrapKey, undefined, "only one process bootstraps");
    const writers = 24;
    const keysEach = 4;
    const results = await Promise.all(
      Array.from({ length: writers }, (_, writer) => {
        const secrets = Object.fromEntries(
          Array.from({ length: keysEach }, (_, i) => [`W${writer}_K${i}`, `value-${writer}-${i}`]),
        );
        const server = writer % 2 ? one : two;
        return api(server.baseUrl, key, "PUT", "/secrets/shared", { type: "secret", secrets });
      }),
    );
    assert.deepEqual(
      results.map((result) => result.status).filter((status) => status !== 200 && status !== 201),
      [],
    );
    assert.equal(
      results.filter((result) => result.status === 201).length,
      1,
      "exactly one writer created the set",
    );
    const { body } = await api(one.baseUrl, key, "GET", "/secrets/shared");
    assert.equal(body.keys.length, writers * keysEach);
  },
);

backendTest(
  "SIGKILL during writes: every acknowledged write survives a restart, and pending sets get provisioned",
  async (backend) => {
    await using database = await backend.database();
    // A long delay keeps sets pending, so the crash leaves work for the next start.
    const first = await spawnServer(database.spec, { args: ["--provision-delay", "60000"] });
    const key = first.bootstrapKey!;
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (id: number) => {
      for (let i = 0; i < 50 && !killed; i++) {
        const name = `w${id}-s${i}`;
        try {
          const result = await api(first.baseUrl, key, "PUT", `/secrets/${name}`, {
            type: "secret",
            secrets: { VALUE: `${name}-payload` },
          });
          if (result.status === 201) acknowledged.push(name);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await eventually(() => Promise.resolve(acknowledged.length), (count) => count >= 20);
    killed = true;
    first.child.kill("SIGKILL");
    await Promise.all(writers);
    await first.stop("SIGKILL");

    await using second = await spawnServer(database.spec, { args: ["--provision-delay", "0"] });
    const sets = await eventually(
      async () =>
        (await api(second.baseUrl, key, "GET", "/secrets")).body.sets as {
          name: string;
          status: string;
        }[],
      (list) => list.length > 0 && list.every((set) => set.status === "ready"),
    );
    const names = new Set(sets.map((set) => set.name));
    assert.deepEqual(
      acknowledged.filter((name) => !names.has(name)),
      [],
      "acknowledged writes lost",
    );
    for (const name of acknowledged.slice(0, 5)) {
      assert.deepEqual((await api(second.baseUrl, key, "GET", `/secrets/${name}`)).body.keys, [
        "VALUE",
      ]);
    }
  },
);

Deno.test("the SQLite file holds no plaintext value, credential or API key", async () => {
  await using dir = await tempDir();
  const database = join(dir.path, "secrets.db");
  // No VOICEBOT_MASTER_KEY: the key file beside the database is created, mode 0600.
  const server = await spawnServer(database, {
    env: { VOICEBOT_MASTER_KEY: "" },
    args: ["--provision-delay", "0"],
  });
  const key = server.bootstrapKey!;
  const value = "plaintext-marker-7f3a9c";
  const password = "registry-password-51b2e8";
  const credentials = btoa(`robot:${password}`);
  await api(server.baseUrl, key, "PUT", "/secrets/app", {
    type: "secret",
    secrets: { API_TOKEN: value },
  });
  await api(server.baseUrl, key, "PUT", "/secrets/reg", {
    type: "imagePullSecret",
    host: "r.io",
    credentials,
  });
  await eventually(
    async () => (await api(server.baseUrl, key, "GET", "/secrets")).body.sets,
    (sets: { status: string }[]) => sets.every((set) => set.status === "ready"),
  );
  // Searched both while running (the WAL holds recent writes) and after a clean stop.
  const files = async () => {
    const names = [database, `${database}-wal`, `${database}-shm`];
    const contents = await Promise.all(
      names.map((name) => Deno.readFile(name).catch(() => new Uint8Array())),
    );
    return new TextDecoder("latin1").decode(
      new Uint8Array(contents.flatMap((bytes) => [...bytes])),
    );
  };
  const secretsToFind = [value, password, credentials, key, key.slice(24)];
  for (const stage of ["running", "stopped"]) {
    if (stage === "stopped") assert.equal((await server.stop()).code, 0);
    const bytes = await files();
    assert.ok(bytes.includes("API_TOKEN"), `${stage}: the key name is there, so the search works`);
    for (const secret of secretsToFind) {
      assert.ok(!bytes.includes(secret), `${stage}: found ${secret.slice(0, 8)}...`);
    }
  }
  assert.ok(!server.stderr().includes(value) && !server.stderr().includes(key));
  assert.equal((await Deno.stat(`${database}.key`)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(database)).mode! & 0o777, 0o600);
});

Deno.test("under umask 022, every file of a new SQLite database is private from the start", async () => {
  await using dir = await tempDir();
  const database = join(dir.path, "new-dir", "secrets.db");
  const server = await spawnServer(database, {
    umask: "022",
    env: { VOICEBOT_MASTER_KEY: "" },
  });
  // The first write lives in the WAL until a checkpoint: its file must be private too.
  await api(server.baseUrl, server.bootstrapKey!, "PUT", "/secrets/app", {
    type: "secret",
    secrets: { A: "1" },
  });
  const mode = async (path: string) => ((await Deno.stat(path)).mode! & 0o777).toString(8);
  const modes = {
    dir: await mode(join(dir.path, "new-dir")),
    db: await mode(database),
    wal: await mode(`${database}-wal`),
    shm: await mode(`${database}-shm`),
    key: await mode(`${database}.key`),
  };
  await server.stop();
  assert.deepEqual(modes, { dir: "700", db: "600", wal: "600", shm: "600", key: "600" });
});

backendTest(
  "access logs: one JSON line per request, with request id, no headers, bodies or keys",
  async (backend) => {
    await using database = await backend.database();
    const server = await spawnServer(database.spec);
    const key = server.bootstrapKey!;
    await api(server.baseUrl, key, "PUT", "/secrets/app", {
      type: "secret",
      secrets: { TOKEN: "value-9d1e" },
    });
    // A request a moment later is logged with its own time, not the first one's.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const secondSent = Date.now();
    const response = await fetch(`${server.baseUrl}/secrets/app?token=${key}`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { authorization: `Bearer ${key}`, "x-request-id": "0af7651916cd43dd" },
    });
    await response.body?.cancel();
    // A key sent as the request id is replaced, so it never reaches the log.
    const keyAsId = await fetch(`${server.baseUrl}/regions`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { authorization: `Bearer ${key}`, "x-request-id": key },
    });
    await keyAsId.body?.cancel();
    assert.notEqual(keyAsId.headers.get("x-request-id"), key);
    await (await fetch(`${server.baseUrl}/nope/${key}`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })).body?.cancel();
    await server.stop();

    const requests = logLines(server).filter((line) => line.msg === "request");
    assert.deepEqual(requests.map(({ method, path, status }) => [method, path, status]), [
      ["PUT", "/v1/secrets/:setName", 201],
      ["GET", "/v1/secrets/:setName", 200],
      ["GET", "/v1/regions", 200],
      ["GET", "/v1/nope/vb_sk_[redacted]", 401],
    ]);
    assert.equal(requests[1].requestId, "0af7651916cd43dd");
    assert.match(String(requests[2].requestId), /^[0-9a-f-]{36}$/);
    assert.match(String(requests[0].orgId), /^org_[0-9a-f]{16}$/);
    assert.equal(typeof requests[0].durationMs, "number");
    const times = requests.map(({ time }) => Date.parse(String(time)));
    assert.ok(
      times[0] < secondSent && times[1] >= secondSent,
      `times ${times}, sent ${secondSent}`,
    );
    assert.ok(!server.stderr().includes(key.slice(6)) && !server.stderr().includes("value-9d1e"));
  },
);

Deno.test("SIGTERM and SIGINT drain an in-flight request, then exit 0 with no error", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // The signal must come while the request is in the server. Nothing outside can see that
    // moment, so the server's "shutting down" line reports how many requests it drains, and an
    // attempt where the request had not arrived yet is made again, a little later.
    let drained = false;
    for (let attempt = 1; attempt <= 5 && !drained; attempt++) {
      drained = await drainAttempt(signal, attempt * 100);
    }
    assert.ok(drained, `${signal}: the request was never in flight when the signal came`);
  }
});

Deno.test("a second signal as the server winds down (Ctrl-C twice) still ends a clean stop with 0", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    for (let attempt = 0; attempt < 3; attempt++) {
      await using database = await sqlite.database();
      const server = await spawnServer(database.spec);
      server.child.kill(signal);
      // The next signal as soon as the shutdown is done, while the runtime winds down: polled
      // every millisecond (a coarser poll sends it after the exit, and proves nothing).
      const deadline = Date.now() + STOP_TIMEOUT_MS;
      while (!server.stderr().includes('"msg":"stopped"') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const { code, stderr } = await server.stop(signal);
      assert.equal(code, 0, `${signal}, attempt ${attempt + 1}: ${stderr}`);
    }
  }
});

/** One try: false when the request had not reached the server when the signal came. */
async function drainAttempt(signal: "SIGTERM" | "SIGINT", waitMs: number): Promise<boolean> {
  await using database = await sqlite.database();
  const server = await spawnServer(database.spec);
  // A request whose body is still arriving when the signal comes.
  let sendRest!: () => void;
  const rest = new Promise<void>((resolve) => (sendRest = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode('{"type":"secret",'));
      await rest;
      controller.enqueue(new TextEncoder().encode('"secrets":{"A":"1"}}'));
      controller.close();
    },
  });
  const inFlight = fetch(`${server.baseUrl}/secrets/drained`, {
    method: "PUT",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    headers: { authorization: `Bearer ${server.bootstrapKey}`, "content-type": "application/json" },
    body,
  }).catch((error: Error) => error);
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  server.child.kill(signal);
  const shuttingDown = await eventually(
    () => Promise.resolve(logLines(server).find((line) => line.msg === "shutting down")),
    (line) => line !== undefined,
  );
  sendRest();
  const response = await inFlight;
  if (shuttingDown!.inFlight === 0) {
    if (response instanceof Response) await response.body?.cancel();
    await server.stop(signal);
    return false;
  }
  assert.ok(response instanceof Response, `${signal}: ${response}`);
  assert.equal(
    response.status,
    201,
    `${signal}: the in-flight request completes: ${server.stderr()}`,
  );
  await response.body?.cancel();
  const { code, stderr } = await server.stop(signal);
  assert.equal(code, 0, stderr);
  assert.ok(logLines(server).every((line) => line.level === "info"), stderr);
  assert.match(stderr, /"msg":"stopped"/);
  return true;
}

backendTest(
  "a stalled body, 200 idle connections and a slow client neither block others nor keep the server from stopping in time",
  async (backend) => {
    await using database = await backend.database();
    const server = await spawnServer(database.spec);
    const { port } = new URL(server.baseUrl);
    const encoder = new TextEncoder();
    const connect = () => withDeadline(Deno.connect({ hostname: "127.0.0.1", port: Number(port) }));
    const open: Deno.Conn[] = [];
    try {
      // Declares 1,000 bytes and sends 3: the body never arrives.
      const stalled = await connect();
      open.push(stalled);
      await stalled.write(encoder.encode([
        "PUT /v1/secrets/stalled HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${server.bootstrapKey}`,
        "Content-Type: application/json",
        "Content-Length: 1000",
        "",
        '{"t',
      ].join("\r\n")));
      for (let i = 0; i < 200; i++) open.push(await connect());
      // Half a request line, and then nothing.
      const slow = await connect();
      open.push(slow);
      await slow.write(encoder.encode("GET /healthz HT"));

      // Others are answered meanwhile.
      const others = await Promise.all(
        [1, 2, 3].map(() => api(server.baseUrl, server.bootstrapKey!, "GET", "/secrets")),
      );
      assert.deepEqual(others.map(({ status }) => status), [200, 200, 200]);

      const signalled = performance.now();
      server.child.kill("SIGTERM");
      // The documented bound, with PostgreSQL's close, and a second's slack.
      const bound = DRAIN_TIMEOUT_MS + 2 * CLOSE_TIMEOUT_MS +
        (backend.name === "postgres" ? POSTGRES_CLOSE_SECONDS * 1000 : 0);
      const stopped = await withDeadline(server.stop("SIGTERM"), bound + 8_000);
      const tookMs = performance.now() - signalled;
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.ok(tookMs < bound + 5_000, `stopped after ${Math.round(tookMs)} ms`);
      // The stalled request was answered at its body deadline rather than left hanging.
      const buffer = new Uint8Array(4096);
      const read = await withDeadline(stalled.read(buffer));
      const answer = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.match(answer, /did not arrive within/);
    } finally {
      for (const connection of open) connection.close();
      await server.stop("SIGKILL");
    }
  },
);

backendTest(
  "HEAD over the socket: the status, headers and Content-Length of GET on every status, no body",
  async (backend) => {
    await using database = await backend.database();
    await using server = await spawnServer(database.spec);
    const key = server.bootstrapKey!;
    await api(server.baseUrl, key, "PUT", "/secrets/app", { type: "secret", secrets: { A: "1" } });
    // A set's status turns from pending to ready in the background, which changes its body's
    // length: the GET and the HEAD compared below must not straddle that.
    await eventually(
      async () => (await api(server.baseUrl, key, "GET", "/secrets/app")).body.status,
      (status) => status === "ready",
    );
    const origin = new URL(server.baseUrl).origin;
    const cases: [path: string, status: number, withKey: boolean][] = [
      ["/healthz", 200, false],
      ["/v1/openapi.json", 200, false],
      ["/v1/secrets", 200, true],
      ["/v1/secrets/app", 200, true],
      ["/v1/regions", 200, true],
      ["/v1/secrets/missing", 404, true],
      ["/v1/nope", 404, true],
      ["/nope", 404, false],
      ["/v1/secrets/app/keys/A", 405, true], // DELETE only
      ["/v1/secrets", 401, false],
    ];
    for (const [path, status, withKey] of cases) {
      const send = (method: string) =>
        fetch(origin + path, {
          method,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          headers: withKey ? { authorization: `Bearer ${key}` } : {},
        });
      const get = await send("GET");
      const body = new Uint8Array(await get.arrayBuffer());
      const head = await send("HEAD");
      const what = `HEAD ${path}`;
      assert.equal(get.status, status, `GET ${path}`);
      assert.equal(head.status, status, what);
      assert.equal(head.headers.get("content-length"), String(body.length), `${what}: length`);
      assert.equal(get.headers.get("content-length"), String(body.length), `GET ${path}: length`);
      for (const header of ["content-type", "allow", "www-authenticate"]) {
        assert.equal(head.headers.get(header), get.headers.get(header), `${what}: ${header}`);
      }
      assert.equal((await head.arrayBuffer()).byteLength, 0, `${what}: no body`);
    }
  },
);

/** The fd limit the shedding test runs the server with (`ulimit -n`). */
const FD_LIMIT = 256;

backendTest(
  "more idle connections than the server has file descriptors: it sheds them, answers again and stops in time",
  async (backend) => {
    await using database = await backend.database();
    const server = await spawnServer(database.spec, { fdLimit: FD_LIMIT });
    const key = server.bootstrapKey!;
    const { port } = new URL(server.baseUrl);
    const open: Deno.Conn[] = [];
    try {
      // More connections than the process can hold: accepting fails (EMFILE) part-way, and
      // connecting is refused until the server listens again, which is waited for.
      let refused = 0;
      while (open.length < FD_LIMIT + 150 && refused < 500) {
        try {
          open.push(
            await withDeadline(Deno.connect({ hostname: "127.0.0.1", port: Number(port) })),
          );
        } catch {
          refused++;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      // What the server said besides requests; a line that is not JSON (a crash) as it is.
      const notes = () =>
        server.stderr().split("\n").filter((line) => line && !line.includes('"msg":"request"'))
          .map((line) => {
            try {
              return String(JSON.parse(line).msg);
            } catch {
              return line;
            }
          });
      assert.ok(
        open.length > FD_LIMIT,
        `only ${open.length} connected, ${refused} refused; the server logged ${notes()}`,
      );
      // Every connection is still held here, yet the server answers, its database included.
      const status = await eventually(
        () => api(server.baseUrl, key, "GET", "/secrets").then(({ status }) => status, () => 0),
        (status) => status === 200,
      );
      assert.equal(status, 200);
      // The idle connections it had accepted were closed by the server, not left open.
      const first = await withDeadline(
        open[0].read(new Uint8Array(16)).then((read) => read ?? "closed", () => "closed"),
      );
      assert.equal(first, "closed");
      const messages = notes();
      assert.ok(messages.some((msg) => msg.startsWith("accepting a connection failed")));
      assert.ok(messages.includes("listening again"), String(messages));

      const signalled = performance.now();
      const stopped = await server.stop("SIGTERM");
      const tookMs = performance.now() - signalled;
      assert.equal(stopped.code, 0, stopped.stderr);
      const bound = DRAIN_TIMEOUT_MS + CLOSE_TIMEOUT_MS;
      assert.ok(tookMs < bound + 5_000, `stopped after ${Math.round(tookMs)} ms`);
    } finally {
      for (const connection of open) connection.close();
      await server.stop("SIGKILL");
    }
  },
);

Deno.test("body limit on the socket: a chunked body over the limit, and a Content-Length over it, get 413", async () => {
  await using database = await sqlite.database();
  await using server = await spawnServer(database.spec);
  const headers = {
    authorization: `Bearer ${server.bootstrapKey}`,
    "content-type": "application/json",
  };
  const megabyte = new Uint8Array(1024 * 1024).fill(0x20);
  const chunked = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(megabyte); // endless: the server must stop reading by itself
    },
  });
  const streamed = await fetch(`${server.baseUrl}/secrets/big`, {
    method: "PUT",
    headers,
    body: chunked,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  assert.equal(streamed.status, 413);
  assert.equal((await streamed.json()).code, "PAYLOAD_TOO_LARGE");

  // Declares 2 MB and sends none of it: the answer comes without waiting for the body.
  const { port } = new URL(server.baseUrl);
  const connection = await withDeadline(
    Deno.connect({ hostname: "127.0.0.1", port: Number(port) }),
  );
  const request = [
    "PUT /v1/secrets/big HTTP/1.1",
    "Host: 127.0.0.1",
    `Authorization: Bearer ${server.bootstrapKey}`,
    "Content-Type: application/json",
    "Content-Length: 2000000",
    "",
    "",
  ].join("\r\n");
  await connection.write(new TextEncoder().encode(request));
  const buffer = new Uint8Array(4096);
  const read = await withDeadline(connection.read(buffer));
  connection.close();
  const head = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
  assert.match(head, /^HTTP\/1\.1 413 /);
  assert.match(head, /PAYLOAD_TOO_LARGE/);
});

Deno.test("startup errors: a bad master key, a missing one for PostgreSQL, a loose key file, a wrong key", async () => {
  await using dir = await tempDir();
  const database = join(dir.path, "s.db");
  const serve = (env: Record<string, string>, db = database) =>
    voicebot(["cloud", "serve", "--port", "0", "--database", db], { env });

  const short = await serve({ VOICEBOT_MASTER_KEY: btoa("too short") });
  assert.equal(short.code, 2);
  assert.match(
    short.stderr,
    /VOICEBOT_MASTER_KEY must be the base64 encoding of exactly 32 bytes \(it decodes to 9\)/,
  );
  assert.ok(!short.stderr.includes(btoa("too short")), "the value is never echoed");
  assert.equal((await serve({ VOICEBOT_MASTER_KEY: "not base64!" })).code, 2);

  const postgres = await voicebot(["cloud", "serve", "--port", "0"], {
    env: { VOICEBOT_MASTER_KEY: "", VOICEBOT_DATABASE_URL: "postgres://u:hunter2@127.0.0.1:1/db" },
  });
  assert.equal(postgres.code, 2);
  assert.match(postgres.stderr, /VOICEBOT_MASTER_KEY is required with a PostgreSQL database/);
  assert.ok(!postgres.stderr.includes("hunter2"));

  // The database was made with MASTER_KEY; another key must not be used with it.
  const server = await spawnServer(database);
  await server.stop();
  const wrong = await serve({
    VOICEBOT_MASTER_KEY: crypto.getRandomValues(new Uint8Array(32)).toBase64(),
  });
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /no key of the keyring is this database's master key/);
  // What it needs is named by the key's id, never the key.
  const { masterKeyId } = await import("../src/server/crypto.ts");
  const id = masterKeyId(Uint8Array.fromBase64(MASTER_KEY));
  assert.match(wrong.stderr, new RegExp(`2 sealed items need master key ${id}`));
  assert.ok(!wrong.stderr.includes(MASTER_KEY));
  // A keyring's problems are all named at once, each key by its place, never its text.
  const badRing = await serve({
    VOICEBOT_MASTER_KEY: `${MASTER_KEY},${btoa("short")},${MASTER_KEY}`,
  });
  assert.equal(badRing.code, 2);
  assert.match(badRing.stderr, /VOICEBOT_MASTER_KEY is not a keyring/);
  assert.match(
    badRing.stderr,
    /key 2 of VOICEBOT_MASTER_KEY must be the base64 encoding of exactly 32 bytes \(it decodes to 5\)/,
  );
  assert.match(badRing.stderr, /key 3 of VOICEBOT_MASTER_KEY is key 1 again/);
  assert.ok(!badRing.stderr.includes(MASTER_KEY) && !badRing.stderr.includes(btoa("short")));
  // The newest first, then the database's own: the server starts.
  const newer = crypto.getRandomValues(new Uint8Array(32)).toBase64();
  const ringed = await spawnServer(database, {
    env: { VOICEBOT_MASTER_KEY: `${newer},${MASTER_KEY}` },
  });
  assert.equal((await ringed.stop()).code, 0);
  const missingFile = await serve({ VOICEBOT_MASTER_KEY: "" });
  assert.equal(missingFile.code, 2);
  assert.match(missingFile.stderr, /key file .* is missing/);

  const fresh = join(dir.path, "fresh.db");
  await Deno.writeTextFile(`${fresh}.key`, crypto.getRandomValues(new Uint8Array(32)).toBase64(), {
    mode: 0o644,
  });
  await Deno.chmod(`${fresh}.key`, 0o644);
  const loose = await serve({ VOICEBOT_MASTER_KEY: "" }, fresh);
  assert.equal(loose.code, 2);
  assert.match(loose.stderr, /can be read by others \(mode 644\)/);
});

Deno.test("serve refuses bad options with exit 2 and names each problem", async () => {
  const result = await voicebot([
    "cloud",
    "serve",
    "--port",
    "70000",
    "--regions",
    "us-west,Bad_Region",
    "--default-region",
    "eu-central",
  ]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--port must be 0 to 65535/);
  assert.match(result.stderr, /"Bad_Region" is not a region code/);
  assert.match(result.stderr, /--default-region "eu-central" is not one of --regions/);
});

backendTest(
  "GET /secrets over the socket: 401 for every bad key, 200 with exactly the SPEC fields",
  async (backend) => {
    await using database = await backend.database();
    await using server = await spawnServer(database.spec, { args: ["--provision-delay", "0"] });
    const key = server.bootstrapKey!;
    const unknown = `vb_sk_${"0".repeat(16)}_${"A".repeat(43)}`;
    // The real key's id with another secret, right after the real key was verified (and cached).
    assert.equal((await api(server.baseUrl, key, "GET", "/secrets")).status, 200);
    const wrongSecret = `${key.slice(0, 23)}${key.at(23) === "A" ? "B" : "A"}${key.slice(24)}`;
    for (
      const authorization of [
        undefined,
        "Bearer nonsense",
        `Basic ${key}`,
        `Bearer ${unknown}`,
        `Bearer ${wrongSecret}`,
      ]
    ) {
      const response = await fetch(`${server.baseUrl}/secrets`, {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: authorization === undefined ? {} : { authorization },
      });
      assert.equal(response.status, 401, authorization);
      assert.equal((await response.json()).code, "UNAUTHORIZED");
      assert.ok(response.headers.get("x-request-id"));
    }
    await api(server.baseUrl, key, "PUT", "/secrets/app", { type: "secret", secrets: { A: "1" } });
    await api(server.baseUrl, key, "PUT", "/secrets/reg", {
      type: "imagePullSecret",
      host: "not a host",
      credentials: btoa("u:p"),
    });
    const { body } = await api(server.baseUrl, key, "GET", "/secrets");
    const sets = await eventually(
      async () =>
        (await api(server.baseUrl, key, "GET", "/secrets")).body.sets as { status: string }[],
      (list) => list.every((set) => set.status !== "pending"),
    );
    assert.deepEqual(Object.keys(body), ["sets"]);
    assert.deepEqual(sets, [
      { name: "app", type: "secret", region: "us-west", status: "ready" },
      {
        name: "reg",
        type: "imagePullSecret",
        region: "us-west",
        status: "failed",
        errorMessage:
          'Registry host "not a host" is not a host name (for example registry.example.com or registry.example.com:5000).',
      },
    ]);
  },
);

Deno.test("a port in use is exit 1, and the empty database keeps its bootstrap for the next start", async () => {
  await using taken = await sqlite.database();
  await using server = await spawnServer(taken.spec);
  const { port } = new URL(server.baseUrl);
  await using fresh = await sqlite.database();
  const clash = await voicebot(["cloud", "serve", "--port", port, "--database", fresh.spec], {
    env: { VOICEBOT_MASTER_KEY: MASTER_KEY },
  });
  assert.equal(clash.code, 1);
  assert.match(clash.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  assert.equal(clash.stdout, "", "no key is shown for a server that did not start");
  await using retry = await spawnServer(fresh.spec);
  assert.ok(retry.bootstrapKey, "the bootstrap happens on the first start that listens");
});
