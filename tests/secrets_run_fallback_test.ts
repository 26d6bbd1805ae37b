/**
 * `secrets run --fallback FILE`: the values of the last read kept sealed, a start from them while
 * the API cannot be reached, and never in place of a refusal. The CLI spawned against the real
 * server, stopped and started again on its port.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { loadFallback } from "../src/secrets/fallback.ts";
import { api, databaseArgs, spawnServer } from "./helpers_server.ts";
import { runtimeKey, type Session, startCli, startSession, transcript } from "./helpers_secrets.ts";

const VALUE = "fallback-v4lue-0123456789";
/** Prints the digest of A, never A: the test's output holds no value. */
const PRINTER = [
  "python3",
  "-c",
  "import hashlib, os; print(hashlib.sha256(os.environ['A'].encode()).hexdigest()[:12])",
];

async function digest(value: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return new Uint8Array(bytes).toHex().slice(0, 12);
}

function run(session: Session, key: string, args: string[]) {
  return session.run(["cloud", "secrets", "run", ...args, "--", ...PRINTER], {
    env: { VOICEBOT_RUNTIME_KEY: key, VOICEBOT_API_URL: session.baseUrl },
  });
}

Deno.test("secrets run --fallback: kept sealed after a read, started from while the API is down, never for a refusal", async () => {
  await using session = await startSession();
  await session.put("bot", { type: "secret", secrets: { A: VALUE } });
  await session.put("gone", { type: "secret", secrets: { A: VALUE } });
  const key = await runtimeKey(session, ["bot"]);
  const other = await runtimeKey(session, ["bot"]);
  const goneKey = await runtimeKey(session, ["gone"]);
  const file = join(session.home, "fallback", "bot.sealed");
  const goneFile = join(session.home, "fallback", "gone.sealed");

  // A read with the API up keeps the values, sealed: the file holds no value and no key.
  const first = await run(session, key, ["bot", "--fallback", file]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.trim(), await digest(VALUE));
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  const sealed = await Deno.readTextFile(file);
  for (const secret of [VALUE, key, key.split("_").at(-1)!]) assert.ok(!sealed.includes(secret));
  assert.equal((await run(session, goneKey, ["gone", "--fallback", goneFile])).code, 0);

  // The API down: the values come from the file, and voicebot says so, once.
  await session.server.stop();
  const down = await run(session, key, ["bot", "--fallback", file]);
  assert.equal(down.code, 0, down.stderr);
  assert.equal(down.stdout.trim(), await digest(VALUE));
  assert.match(
    down.stderr,
    /^The API cannot be reached: starting from \S+bot\.sealed, with the values read \d+ s ago\.$/m,
  );
  // Without --fallback, no start; with values older than allowed, another key, a changed file
  // or a file of other sets, neither.
  const without = await run(session, key, ["bot"]);
  assert.equal(without.code, 1);
  assert.match(without.stderr, /cannot reach the voicebot API/);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const stale = await run(session, key, ["bot", "--fallback", file, "--fallback-max-age", "1s"]);
  assert.equal(stale.code, 1);
  assert.match(stale.stderr, /holds values read \d+ s ago, more than --fallback-max-age allows/);
  for (const [who, args] of [[other, ["bot"]], [key, ["bot", "gone"]]] as const) {
    const refused = await run(session, who, [...args, "--fallback", file]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /does not open with this runtime key for these sets/);
  }
  const tampered = JSON.parse(sealed);
  tampered.sealed = (tampered.sealed.startsWith("A") ? "B" : "A") + tampered.sealed.slice(1);
  await Deno.writeTextFile(join(session.home, "tampered"), JSON.stringify(tampered), {
    mode: 0o600,
  });
  const changed = await run(session, key, ["bot", "--fallback", join(session.home, "tampered")]);
  assert.match(changed.stderr, /does not open with this runtime key/);
  assert.equal(changed.code, 1);

  // The API back: a revoked key and a deleted set stop the start, whatever the file holds.
  const port = new URL(session.baseUrl).port;
  await using again = await spawnServer(session.database, { args: ["--port", port] });
  const deleted = await fetch(`${again.baseUrl}/secrets/gone`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${session.key}` },
  });
  assert.equal(deleted.status, 200, await deleted.text());
  const gone = await run(session, goneKey, ["gone", "--fallback", goneFile]);
  assert.equal(gone.code, 4, gone.stderr);
  const { args, env } = databaseArgs(session.database);
  const revoked = await session.run(["cloud", "serve", "revoke-key", key.split("_")[2], ...args], {
    env,
  });
  assert.equal(revoked.code, 0, revoked.stderr);
  // Revocation reaches a server within its authentication cache time.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const refusedKey = await run(session, key, ["bot", "--fallback", file]);
  assert.equal(refusedKey.code, 3, refusedKey.stderr);
  for (const result of [gone, refusedKey]) assert.doesNotMatch(result.stderr, /starting from/);
});

Deno.test("secrets run --fallback --watch: started from the file while the API is down, restarted with the API's values once they differ, which are kept", async () => {
  await using session = await startSession();
  await session.put("bot", { type: "secret", secrets: { A: VALUE } });
  const key = await runtimeKey(session, ["bot"]);
  const file = join(session.home, "bot.sealed");
  assert.equal((await run(session, key, ["bot", "--fallback", file])).code, 0);
  await session.server.stop();

  const bot = [
    "import hashlib, os, signal, sys, time",
    "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))",
    "print('ready', hashlib.sha256(os.environ['A'].encode()).hexdigest()[:12], flush=True)",
    "while True: time.sleep(1)",
  ].join("\n");
  await using running = startCli(
    ["cloud", "secrets", "run", "bot", "--watch", "--interval", "0.2", "--fallback", file, "--"]
      .concat(["python3", "-c", bot]),
    { ...session.env, VOICEBOT_RUNTIME_KEY: key, VOICEBOT_API_URL: session.baseUrl },
  );
  const first = await running.line(/^ready /);
  assert.equal(first.text, `ready ${await digest(VALUE)}`);
  assert.match(running.stderr(), /The API cannot be reached: starting from/);

  const port = new URL(session.baseUrl).port;
  await using again = await spawnServer(session.database, { args: ["--port", port] });
  const changed = "fallback-changed-v4lue-987";
  const put = await api(again.baseUrl, session.key, "PUT", "/secrets/bot", {
    type: "secret",
    secrets: { A: changed },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  // The watch asks again with backoff (the interval, doubled while unanswered).
  const second = await running.line(/^ready /, first.index + 1, 60_000);
  assert.equal(second.text, `ready ${await digest(changed)}`);
  const context = { apiUrl: session.baseUrl, names: ["bot"] };
  const kept = await loadFallback(file, key, context, 60_000);
  assert.deepEqual(kept.sets[0].secrets, [["A", changed]], "the new values are kept");
  running.child.kill("SIGTERM");
  assert.equal(await running.status(), 0, running.stderr());
});

Deno.test("no value or runtime key appears in anything the CLI printed in this file", () => {
  for (const text of transcript) {
    assert.ok(!text.includes(VALUE) && !text.includes("fallback-changed-v4lue"));
  }
});
