/**
 * The database going away: requests that need it answer 503 with Retry-After, never 500;
 * `/readyz` says so while `/healthz` still answers; the outage is logged once and its end once.
 * In process on both backends (a storage that refuses while "down"), and against a real
 * PostgreSQL whose connections a TCP plug cuts or refuses under writes, as a restart, a failover
 * or a terminated backend does: the process never ends, and no acknowledged write is lost.
 */
import assert from "node:assert/strict";
import { createApp } from "../src/server/app.ts";
import type { LogEntry } from "../src/server/log.ts";
import type { Storage } from "../src/server/storage/types.ts";
import { ownPostgres } from "./helpers_postgres_server.ts";
import { type TcpPlug, tcpPlug } from "./helpers_proxy.ts";
import {
  api,
  BACKENDS,
  backendTest,
  type SpawnedServer,
  spawnServer,
  testApp,
  withDeadline,
} from "./helpers_server.ts";
import { waitFor } from "./helpers_secrets.ts";
import { skipped } from "./skips.ts";

/** `storage` as a database that refuses every connection while `down()` says so. */
function refusing(storage: Storage, down: () => boolean): Storage {
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        down()
          ? Promise.reject(
            Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
              code: "ECONNREFUSED",
            }),
          )
          : value.apply(target, args);
    },
  });
}

const said = (lines: LogEntry[], msg: string) => lines.filter((line) => line.msg === msg).length;

backendTest(
  "the database unreachable: 503 SERVICE_UNAVAILABLE with Retry-After, never 500; /readyz 503 and /healthz 200; logged once, its end once",
  async (backend) => {
    await using t = await testApp(backend);
    let down = false;
    const lines: LogEntry[] = [];
    const app = createApp(refusing(t.storage, () => down), {
      vault: t.vault,
      logger: (entry) => void lines.push(entry),
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await app.request(`http://localhost${path}`, {
        method,
        headers: {
          authorization: `Bearer ${t.key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, response };
    };
    const write = { type: "secret", secrets: { A: "1" } };
    assert.equal((await call("PUT", "/v1/secrets/bot", write)).status, 201);
    assert.equal((await call("GET", "/readyz")).status, 200);

    for (const outage of [1, 2]) {
      down = true;
      for (
        const [method, path, body] of [
          ["PUT", "/v1/secrets/bot", write],
          ["GET", "/v1/secrets/bot"],
          ["DELETE", "/v1/secrets/bot/A"],
          ["GET", "/v1/audit"],
          ["GET", "/readyz"],
        ] as const
      ) {
        const answer = await call(method, path, body);
        assert.equal(answer.status, 503, `${method} ${path}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.code, "SERVICE_UNAVAILABLE");
        assert.equal(answer.response.headers.get("retry-after"), "2");
      }
      assert.equal((await call("GET", "/healthz")).status, 200, "the process itself is alive");
      assert.equal(said(lines, "database unreachable"), outage, "each outage said once");
      assert.equal(said(lines, "unexpected error"), 0, "no 500");

      down = false;
      assert.equal((await call("GET", "/readyz")).status, 200);
      assert.equal(said(lines, "database reachable again"), outage, "each end said once");
      assert.equal((await call("PUT", "/v1/secrets/bot", write)).status, 200);
    }
    assert.ok(!JSON.stringify(lines).includes(t.key), "no key in the log");
  },
);

const postgres = BACKENDS.find((backend) => backend.name === "postgres")!;
const WRITERS = 8;
const ROUNDS = 6;
/** A test's bound: the rounds, then the pool's reconnection backoff (seconds) at most. */
const TEST_TIMEOUT_MS = 120_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server on the suite's PostgreSQL (a fresh schema) through a TCP plug: `fn`'s to pull. */
async function behindPlug(fn: (server: SpawnedServer, plug: TcpPlug) => Promise<void>) {
  await using database = await postgres.database();
  const url = new URL(database.spec);
  await using plug = tcpPlug({ hostname: url.hostname, port: Number(url.port) });
  url.port = String(plug.port);
  // No rate limit: eight writers on one key, then the reads, would meet it (429), which is not
  // what these tests are about.
  await using server = await spawnServer(url.toString(), { args: ["--rate-limit", "0"] });
  await fn(server, plug);
}

/**
 * Writers, each to its own set, a new key a write, while `disrupt(round)` is done to the database
 * for ROUNDS rounds: the server must be alive after each, answer no 500, serve again once the
 * database is back, and hold every key it acknowledged.
 */
async function underWrites(server: SpawnedServer, disrupt: (round: number) => Promise<void>) {
  const key = server.bootstrapKey!;
  let exited = false;
  server.child.status.then(() => exited = true);
  const acknowledged = new Map<string, string[]>();
  const statuses = new Set<number>();
  let writing = true;
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    const set = `writer-${w}`;
    acknowledged.set(set, []);
    for (let i = 0; writing; i++) {
      const answer = await api(server.baseUrl, key, "PUT", `/secrets/${set}`, {
        type: "secret",
        secrets: { [`K${i}`]: `value-${w}-${i}` },
      }).catch(() => undefined);
      if (answer) statuses.add(answer.status);
      if (answer?.status === 200 || answer?.status === 201) {
        acknowledged.get(set)!.push(`K${i}`);
      } else await pause(50);
    }
  });
  for (let round = 0; round < ROUNDS; round++) {
    await pause(700);
    await disrupt(round);
    await pause(50);
    assert.ok(!exited, `the server ended at round ${round}:\n${server.stderr()}`);
  }
  writing = false;
  await Promise.all(writers);
  assert.ok(!exited, `the server ended:\n${server.stderr()}`);
  assert.deepEqual([...statuses].filter((status) => status >= 500), [503], "never a 500");

  // Back to serving once the database is reachable (the pool reconnects with its backoff).
  await answers(server, "/readyz", 200, 60_000);
  for (const [set, keys] of acknowledged) {
    assert.ok(keys.length > 0, `${set}: no write was acknowledged`);
    // The writers spent the key's request budget a moment ago: a 429 is waited out, bounded.
    const answer = await waitFor(`${set} read back`, async () => {
      const read = await api(server.baseUrl, key, "GET", `/secrets/${set}`);
      return read.status === 429 ? undefined : read;
    }, 10_000);
    assert.equal(answer.status, 200, `${set}: ${JSON.stringify(answer.body)}`);
    const stored: string[] = answer.body.keys;
    const lost = keys.filter((name) => !stored.includes(name));
    assert.deepEqual(lost, [], `${set}: acknowledged keys lost`);
  }
  assert.doesNotMatch(server.stderr(), /Uncaught|TypeError/);
}

Deno.test({
  name:
    "postgres: connections cut and refused under writes never end the server, and lose no acknowledged write",
  ignore: skipped(...postgres.needs),
  fn: () =>
    withDeadline(
      (async () => {
        await behindPlug((server, plug) =>
          underWrites(server, async (round) => {
            if (round % 2 === 0) return plug.cut();
            plug.pull();
            await pause(500);
            plug.putBack();
          })
        );
      })(),
      TEST_TIMEOUT_MS,
    ),
});

Deno.test({
  name:
    "postgres: a server of the test's own restarted (pg_ctl restart -m fast) and its backends terminated under writes: the process lives, no acknowledged write lost",
  ignore: skipped("postgres-server"),
  fn: () =>
    withDeadline(
      (async () => {
        await using database = await ownPostgres();
        await using server = await spawnServer(database.url);
        let terminated = 0;
        await underWrites(server, async (round) => {
          if (round % 2 === 0) await database.restart();
          else terminated += await database.terminateConnections();
        });
        assert.ok(terminated > 0, "pg_terminate_backend ended the server's connections");
      })(),
      TEST_TIMEOUT_MS,
    ),
});

/** `GET path` outside /v1 (no key): its status. */
async function statusOf(server: SpawnedServer, path: string): Promise<number> {
  const root = server.baseUrl.replace(/\/v1$/, "");
  const response = await fetch(`${root}${path}`, { signal: AbortSignal.timeout(20_000) });
  await response.body?.cancel();
  return response.status;
}

/** Waits, bounded by `ms`, until `GET path` answers `wanted`; throws if it never does. */
const answers = (server: SpawnedServer, path: string, wanted: number, ms: number) =>
  waitFor(
    `${path} answering ${wanted}`,
    async () => await statusOf(server, path) === wanted || undefined,
    ms,
  );

Deno.test({
  name:
    "postgres: while its connections are refused, requests answer 503 (never 500) and /readyz 503; back, /readyz 200; logged once each",
  ignore: skipped(...postgres.needs),
  fn: () =>
    withDeadline(
      (async () => {
        await behindPlug(async (server, plug) => {
          const key = server.bootstrapKey!;
          const write = { type: "secret", secrets: { A: "1" } };
          assert.equal((await api(server.baseUrl, key, "PUT", "/secrets/bot", write)).status, 201);
          assert.equal(await statusOf(server, "/readyz"), 200);

          plug.pull();
          await answers(server, "/readyz", 503, 30_000);
          const refused = await api(server.baseUrl, key, "PUT", "/secrets/bot", write);
          assert.equal(refused.status, 503, JSON.stringify(refused.body));
          assert.equal(refused.body.code, "SERVICE_UNAVAILABLE");
          assert.equal(refused.headers.get("retry-after"), "2");
          assert.equal(await statusOf(server, "/healthz"), 200);

          plug.putBack();
          // The pool reconnects with its backoff: seconds at most.
          await answers(server, "/readyz", 200, 60_000);
          assert.equal((await api(server.baseUrl, key, "PUT", "/secrets/bot", write)).status, 200);
          // The line is written before /readyz answers, but reaches this process's pipe reader
          // on its own time: wait for it, bounded.
          await waitFor(
            "the log of the database's return",
            () => server.stderr().includes('"msg":"database reachable again"') || undefined,
            10_000,
          );
          const log = server.stderr();
          assert.equal(log.match(/"msg":"database unreachable"/g)?.length, 1, log);
          assert.equal(log.match(/"msg":"database reachable again"/g)?.length, 1, log);
          assert.doesNotMatch(log, /"status":500|"msg":"unexpected error"/);
        });
      })(),
      TEST_TIMEOUT_MS,
    ),
});
