/**
 * Retries that tell the truth: `set`, `unset` and `delete` spawned against the real server through
 * a loopback proxy that loses the first answer (the server acted, the client never heard) or
 * answers the first request 503 (the server never saw it). Each command must end in the state
 * asked for, and say what it did, not what the retry's answer alone suggests.
 */
import assert from "node:assert/strict";
import type { CliResult } from "./helpers.ts";
import { lossyProxy } from "./helpers_proxy.ts";
import { type Session, startSession } from "./helpers_secrets.ts";

function cli(session: Session, baseUrl: string, args: string[]): Promise<CliResult> {
  return session.run(["cloud", "secrets", ...args, "--yes"], {
    env: { VOICEBOT_API_URL: baseUrl, VOICEBOT_API_KEY: session.key },
  });
}

Deno.test("a PUT whose answer is lost is retried, and set reports what it wrote", async () => {
  await using session = await startSession();
  {
    await using proxy = lossyProxy(session.baseUrl, { methods: ["PUT"], count: 1, mode: "drop" });
    const created = await cli(session, proxy.baseUrl, ["set", "app", "A=1", "B=2", "--json"]);
    assert.equal(proxy.applied(), 1, "the proxy lost an answer");
    assert.equal(created.code, 0, created.stderr);
    // The retry found A and B holding these values: the first attempt had written them.
    const report = JSON.parse(created.stdout);
    assert.deepEqual(
      [report.created, report.updated, report.unchanged],
      [["A", "B"], [], []],
      created.stderr,
    );
  }
  {
    await using proxy = lossyProxy(session.baseUrl, { methods: ["PUT"], count: 1, mode: "drop" });
    const updated = await cli(session, proxy.baseUrl, ["set", "app", "A=3", "B=2"]);
    assert.equal(proxy.applied(), 1);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stderr, /Updated secret set "app" in us-west: updated A; unchanged B\./);
  }
  const stored = await session.get("app");
  assert.deepEqual(stored.body.keys, ["A", "B"]);
});

Deno.test("a PUT or DELETE answered 503 is retried, and reports the server's answer", async () => {
  await using session = await startSession();
  {
    await using proxy = lossyProxy(session.baseUrl, {
      methods: ["PUT"],
      count: 1,
      mode: "unavailable",
    });
    const created = await cli(session, proxy.baseUrl, ["set", "app", "A=1", "B=2"]);
    assert.equal(proxy.applied(), 1);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /Created secret set "app" in us-west: created A, B\./);
  }
  {
    await using proxy = lossyProxy(session.baseUrl, {
      methods: ["DELETE"],
      count: 1,
      mode: "unavailable",
    });
    const removed = await cli(session, proxy.baseUrl, ["unset", "app", "A"]);
    assert.equal(proxy.applied(), 1);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stderr, /Removed A from set "app" \(status pending\)\.$/m);
  }
  assert.deepEqual((await session.get("app")).body.keys, ["B"]);
});

Deno.test("a DELETE whose answer is lost, then 404 on the retry, is reported done: already gone", async () => {
  await using session = await startSession();
  await session.put("app", { type: "secret", secrets: { A: "1", B: "2" } });
  {
    await using proxy = lossyProxy(session.baseUrl, {
      methods: ["DELETE"],
      count: 1,
      mode: "drop",
    });
    const removed = await cli(session, proxy.baseUrl, ["unset", "app", "A", "--json"]);
    assert.equal(proxy.applied(), 1);
    assert.equal(removed.code, 0, removed.stderr);
    const report = JSON.parse(removed.stdout);
    assert.deepEqual([report.removed, report.alreadyGone, report.set.name], ["A", true, "app"]);
  }
  {
    await using proxy = lossyProxy(session.baseUrl, {
      methods: ["DELETE"],
      count: 1,
      mode: "drop",
    });
    const deleted = await cli(session, proxy.baseUrl, ["delete", "app"]);
    assert.equal(proxy.applied(), 1);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stderr, /Deleted set "app"; .* the retry found it already gone\./);
  }
  assert.equal((await session.get("app")).status, 404);

  // Without a lost answer, a 404 stays an error: nothing to delete is not a success.
  {
    await using proxy = lossyProxy(session.baseUrl, { methods: [], count: 0, mode: "drop" });
    const missing = await cli(session, proxy.baseUrl, ["delete", "app"]);
    assert.equal(missing.code, 4, missing.stderr);
  }
});
