/**
 * The server against a real PostgreSQL whose connections go away under writes, as at a restart, a
 * failover or a terminated backend: a TCP plug between the two cuts every connection, or refuses
 * them for a while. The process never ends, and no acknowledged write is lost.
 */
import assert from "node:assert/strict";
import { tcpPlug } from "./helpers_proxy.ts";
import { api, BACKENDS, spawnServer, withDeadline } from "./helpers_server.ts";
import { skipped } from "./skips.ts";

const postgres = BACKENDS.find((backend) => backend.name === "postgres")!;
const WRITERS = 8;
const ROUNDS = 6;
/** A test's bound: the rounds, then the pool's reconnection backoff (seconds) at most. */
const TEST_TIMEOUT_MS = 120_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name:
    "postgres: connections cut and refused under writes never end the server, and lose no acknowledged write",
  ignore: skipped(...postgres.needs),
  fn: () =>
    withDeadline(
      (async () => {
        await using database = await postgres.database();
        const url = new URL(database.spec);
        await using plug = tcpPlug({ hostname: url.hostname, port: Number(url.port) });
        url.port = String(plug.port);
        await using server = await spawnServer(url.toString());
        const key = server.bootstrapKey!;
        let exited = false;
        server.child.status.then(() => exited = true);

        // Each writer writes its own set, a new key a write: an acknowledged key must be there.
        const acknowledged = new Map<string, string[]>();
        let writing = true;
        const writers = Array.from({ length: WRITERS }, async (_, w) => {
          const set = `writer-${w}`;
          acknowledged.set(set, []);
          for (let i = 0; writing; i++) {
            const answer = await api(server.baseUrl, key, "PUT", `/secrets/${set}`, {
              type: "secret",
              secrets: { [`K${i}`]: `value-${w}-${i}` },
            }).catch(() => undefined);
            if (answer?.status === 200 || answer?.status === 201) {
              acknowledged.get(set)!.push(`K${i}`);
            } else await pause(50);
          }
        });
        for (let round = 0; round < ROUNDS; round++) {
          await pause(700);
          if (round % 2 === 0) plug.cut();
          else {
            plug.pull();
            await pause(500);
            plug.putBack();
          }
          await pause(50);
          assert.ok(!exited, `the server ended at round ${round}:\n${server.stderr()}`);
        }
        writing = false;
        await Promise.all(writers);
        assert.ok(!exited, `the server ended:\n${server.stderr()}`);

        // Back to serving once the database is reachable (the pool reconnects with its backoff).
        let detail;
        for (let attempt = 0; attempt < 120; attempt++) {
          detail = await api(server.baseUrl, key, "GET", "/secrets/writer-0").catch(() =>
            undefined
          );
          if (detail?.status === 200) break;
          await pause(500);
        }
        assert.equal(detail?.status, 200, JSON.stringify(detail?.body));
        for (const [set, keys] of acknowledged) {
          assert.ok(keys.length > 0, `${set}: no write was acknowledged`);
          const stored = (await api(server.baseUrl, key, "GET", `/secrets/${set}`)).body.keys;
          const lost = keys.filter((name) => !stored.includes(name));
          assert.deepEqual(lost, [], `${set}: acknowledged keys lost`);
        }
        assert.doesNotMatch(server.stderr(), /Uncaught|TypeError/);
      })(),
      TEST_TIMEOUT_MS,
    ),
});
