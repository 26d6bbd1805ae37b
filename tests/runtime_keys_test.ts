/**
 * Runtime keys, in process on every storage backend: what they read (GET /runtime/secrets/{name}),
 * what they may not do, and how their binding, revocation and expiry end.
 */
import assert from "node:assert/strict";
import { AUTH_CACHE_MS } from "../src/server/auth.ts";
import { FAILED_RETRY_SECONDS, PENDING_RETRY_SECONDS } from "../src/server/app.ts";
import { NotReadyResponse, RuntimeSecretSetResponse } from "../src/secrets/schemas.ts";
import type { LogEntry } from "../src/server/log.ts";
import {
  addKey,
  addRuntimeKey,
  backendTest,
  documented,
  fakeClock,
  type JsonBody,
  type TestApp,
  testApp,
} from "./helpers_server.ts";

/** Writes a set through the API and marks every pending set ready (or `failed`). */
async function writeReady(t: TestApp, name: string, values: Record<string, string>) {
  const put = await t.json("PUT", `/v1/secrets/${name}`, { body: documented(values) });
  assert.equal(put.status, 202, JSON.stringify(put.body));
  await finishAll(t, { status: "ready" });
}

async function finishAll(
  t: TestApp,
  result: { status: "ready" } | { status: "failed"; errorMessage: string },
) {
  const pending = await t.storage.pendingSets(Number.MAX_SAFE_INTEGER, 100);
  await t.storage.finishProvisioning(pending.map((set) => ({ set, result })));
}

const read = (t: TestApp, key: string, name: string) =>
  t.json("GET", `/v1/runtime/secrets/${name}`, { key });

function assertStatus(
  answer: { status: number; body: JsonBody; response: Response },
  status: number,
  code?: string,
) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code) assert.equal(answer.body.code, code);
  assert.equal(answer.response.headers.get("cache-control"), "no-store");
}

backendTest(
  "a runtime key reads exactly the values of the sets it is bound to",
  async (backend) => {
    await using t = await testApp(backend);
    await writeReady(t, "bot", { OPENAI_API_KEY: "sk-one", EMPTY_LINE: "a\nb", SPACE: " x " });
    await writeReady(t, "other", { SECRET: "not-yours" });
    await writeReady(t, "second", { B: "2" });
    const key = await addRuntimeKey(t.storage, "acme", ["bot", "second"]);
    // Another key's binding gives this one nothing.
    await addRuntimeKey(t.storage, "acme", ["other"]);

    const answer = await read(t, key, "bot");
    assertStatus(answer, 200);
    assert.deepEqual(answer.body, {
      name: "bot",
      region: "us-west",
      status: "ready",
      secrets: [
        { secretKey: "EMPTY_LINE", secretValue: "a\nb" },
        { secretKey: "OPENAI_API_KEY", secretValue: "sk-one" },
        { secretKey: "SPACE", secretValue: " x " },
      ],
    });
    assert.ok(RuntimeSecretSetResponse.safeParse(answer.body).success);
    assert.deepEqual((await read(t, key, "second")).body.secrets, [
      { secretKey: "B", secretValue: "2" },
    ]);

    // A set it is not bound to and a set that does not exist answer alike: no oracle for names.
    const other = await read(t, key, "other");
    const missing = await read(t, key, "no-such-set");
    assertStatus(other, 404, "NOT_FOUND");
    assertStatus(missing, 404, "NOT_FOUND");
    assert.equal(
      other.body.error.replace("other", "NAME"),
      missing.body.error.replace("no-such-set", "NAME"),
    );
    assert.doesNotMatch(JSON.stringify(other.body), /not-yours/);

    // Another organization's set of the same name is not readable either.
    const elsewhere = await addKey(t.storage, "globex");
    const put = await t.json("PUT", "/v1/secrets/bot", {
      key: elsewhere,
      body: documented({ THEIRS: "x" }),
    });
    assert.equal(put.status, 202);
    await finishAll(t, { status: "ready" });
    assert.deepEqual((await read(t, key, "bot")).body.secrets.map((s: JsonBody) => s.secretKey), [
      "EMPTY_LINE",
      "OPENAI_API_KEY",
      "SPACE",
    ]);
  },
);

backendTest(
  "a runtime key is 401 on every management route, with a message about runtime keys",
  async (backend) => {
    await using t = await testApp(backend);
    await writeReady(t, "bot", { A: "1" });
    const key = await addRuntimeKey(t.storage, "acme", ["bot"]);
    const routes: [string, string, unknown?][] = [
      ["GET", "/v1/secrets"],
      ["GET", "/v1/secrets/bot"],
      ["PUT", "/v1/secrets/bot", documented({ A: "2" })],
      ["DELETE", "/v1/secrets/bot/A"],
      ["DELETE", "/v1/secrets/bot/keys/A"],
      ["DELETE", "/v1/secrets/bot"],
      ["GET", "/v1/regions"],
      ["GET", "/v1/me"],
      ["GET", "/v1/no-such-route"],
    ];
    for (const [method, path, body] of routes) {
      const answer = await t.json(method, path, { key, body });
      assert.equal(answer.status, 401, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, "UNAUTHORIZED");
      assert.match(answer.body.error, /runtime key/);
    }
    // Nothing changed: the private key still sees the set with its key.
    const detail = await t.json("GET", "/v1/secrets/bot");
    assert.deepEqual(detail.body.keys, ["A"]);
    assert.equal((await read(t, key, "bot")).body.secrets[0].secretValue, "1");
  },
);

backendTest("a private key is 403 on the runtime route and still never sees values", async (
  backend,
) => {
  await using t = await testApp(backend);
  await writeReady(t, "bot", { A: "the-value" });
  const answer = await read(t, t.key, "bot");
  assertStatus(answer, 403, "FORBIDDEN");
  assert.match(answer.body.error, /runtime key/);
  assert.doesNotMatch(JSON.stringify(answer.body), /the-value/);
  // Unknown and missing keys are 401 there too, with no-store.
  assertStatus(await t.json("GET", "/v1/runtime/secrets/bot", { key: null }), 401, "UNAUTHORIZED");
});

backendTest("a pending or failed set is 409 NOT_READY with its status and a Retry-After", async (
  backend,
) => {
  await using t = await testApp(backend);
  await writeReady(t, "bot", { A: "1" });
  const key = await addRuntimeKey(t.storage, "acme", ["bot"]);
  await t.json("PUT", "/v1/secrets/bot", { body: documented({ A: "2" }) });

  const pending = await read(t, key, "bot");
  assertStatus(pending, 409, "NOT_READY");
  assert.equal(pending.body.status, "pending");
  assert.equal(pending.response.headers.get("retry-after"), String(PENDING_RETRY_SECONDS));
  assert.ok(NotReadyResponse.safeParse(pending.body).success);
  assert.doesNotMatch(JSON.stringify(pending.body), /"[12]"/, "no value in the answer");

  await finishAll(t, { status: "failed", errorMessage: "the vault was unreachable" });
  const failed = await read(t, key, "bot");
  assertStatus(failed, 409, "NOT_READY");
  assert.equal(failed.body.status, "failed");
  assert.equal(failed.body.errorMessage, "the vault was unreachable");
  assert.equal(failed.response.headers.get("retry-after"), String(FAILED_RETRY_SECONDS));

  await t.json("PUT", "/v1/secrets/bot", { body: documented({ A: "3" }) });
  await finishAll(t, { status: "ready" });
  assert.equal((await read(t, key, "bot")).body.secrets[0].secretValue, "3");
});

backendTest(
  "the binding is to the set: deleted, it ends; a set made again under the name is not read",
  async (backend) => {
    await using t = await testApp(backend);
    await writeReady(t, "bot", { A: "old" });
    await writeReady(t, "keep", { K: "1" });
    const key = await addRuntimeKey(t.storage, "acme", ["bot", "keep"]);
    assert.equal((await read(t, key, "bot")).status, 200);

    assert.equal((await t.json("DELETE", "/v1/secrets/bot")).status, 200);
    assertStatus(await read(t, key, "bot"), 404, "NOT_FOUND");
    await writeReady(t, "bot", { A: "new" });
    assertStatus(await read(t, key, "bot"), 404, "NOT_FOUND");
    assert.equal((await read(t, key, "keep")).status, 200, "its other set stays bound");

    const [listed] = (await t.storage.listApiKeys("acme"))!.filter((k) => k.kind === "runtime");
    assert.deepEqual(listed.sets, ["keep"]);
  },
);

backendTest("revoked or expired, a runtime key is refused within the documented bound", async (
  backend,
) => {
  const clock = fakeClock(Date.now());
  await using t = await testApp(backend, { clock: clock.now });
  await writeReady(t, "bot", { A: "1" });
  const revoked = await addRuntimeKey(t.storage, "acme", ["bot"]);
  const expiring = await addRuntimeKey(t.storage, "acme", ["bot"], clock.now() + 60_000);
  assert.equal((await read(t, revoked, "bot")).status, 200);
  assert.equal((await read(t, expiring, "bot")).status, 200);

  assert.ok(await t.storage.revokeApiKey(revoked.split("_")[2]));
  clock.advance(AUTH_CACHE_MS + 1);
  assertStatus(await read(t, revoked, "bot"), 401, "UNAUTHORIZED");
  assert.equal((await read(t, expiring, "bot")).status, 200);

  clock.advance(60_000);
  const expired = await read(t, expiring, "bot");
  assertStatus(expired, 401, "UNAUTHORIZED");
  assert.match(expired.body.error, /expired/);
});

backendTest("a runtime key is rate-limited like any key", async (backend) => {
  const clock = fakeClock(Date.now());
  await using t = await testApp(backend, {
    clock: clock.now,
    rateLimit: { perSecond: 1, burst: 2 },
  });
  await writeReady(t, "bot", { A: "1" });
  const key = await addRuntimeKey(t.storage, "acme", ["bot"]);
  assert.equal((await read(t, key, "bot")).status, 200);
  assert.equal((await read(t, key, "bot")).status, 200);
  const limited = await read(t, key, "bot");
  assertStatus(limited, 429, "RATE_LIMITED");
  assert.ok(limited.response.headers.get("retry-after"));
});

backendTest("a runtime read logs who read which set, never a value or the key", async (
  backend,
) => {
  const records: LogEntry[] = [];
  await using t = await testApp(backend, { logger: (record) => void records.push(record) });
  await writeReady(t, "bot", { A: "value-in-the-vault" });
  const key = await addRuntimeKey(t.storage, "acme", ["bot"]);
  assert.equal((await read(t, key, "bot")).status, 200);
  const logged = JSON.stringify(records);
  assert.doesNotMatch(logged, /value-in-the-vault/);
  // The secret is the 43 characters after `vb_rk_<id>_` (they may hold `_` themselves).
  const secret = key.slice("vb_rk_".length + 16 + 1);
  assert.equal(secret.length, 43);
  assert.ok(!logged.includes(secret), "no part of the key's secret");
  const line = records.find((record) => record.path === "/v1/runtime/secrets/:setName");
  assert.equal(line?.status, 200);
});

backendTest("storage: a runtime key binds existing secret sets only, and lists them", async (
  backend,
) => {
  await using t = await testApp(backend);
  await writeReady(t, "bot", { A: "1" });
  const registry = await t.json("PUT", "/v1/secrets/reg", {
    body: { type: "imagePullSecret", host: "ghcr.io", credentials: btoa("u:p") },
  });
  assert.equal(registry.status, 201);
  const refusal = await t.storage.addRuntimeKey(
    "acme",
    { id: "f".repeat(16), hash: new Uint8Array(32), now: Date.now() },
    ["bot", "reg", "gone", "also-gone"],
  );
  assert.deepEqual(refusal, {
    reason: "sets",
    missing: ["also-gone", "gone"],
    imagePullSecrets: ["reg"],
  });
  assert.deepEqual(
    await t.storage.addRuntimeKey(
      "nobody",
      { id: "e".repeat(16), hash: new Uint8Array(32), now: Date.now() },
      ["bot"],
    ),
    { reason: "no-organization" },
  );
  const keys = (await t.storage.listApiKeys("acme"))!;
  assert.deepEqual(keys.map((key) => key.kind), ["private"], "nothing was added");

  const expiresAt = Date.now() + 3_600_000;
  await addRuntimeKey(t.storage, "acme", ["bot"], expiresAt);
  const runtime = (await t.storage.listApiKeys("acme"))!.find((key) => key.kind === "runtime")!;
  assert.deepEqual(runtime.sets, ["bot"]);
  assert.equal(runtime.expiresAt, expiresAt);
  const record = await t.storage.findApiKey(runtime.id);
  assert.equal(record?.kind, "runtime");
  assert.equal(record?.expiresAt, expiresAt);
});

backendTest(
  "a runtime read carries an ETag: If-None-Match gets 304 (no values, no audit event) until a value changes",
  async (backend) => {
    await using t = await testApp(backend);
    await writeReady(t, "bot", { A: "first-value", B: "b-value" });
    const key = await addRuntimeKey(t.storage, "acme", ["bot"]);
    const auditReads = async () =>
      (await t.json("GET", "/v1/audit")).body.events
        .filter((event: JsonBody) => event.action === "runtime.read").length;

    const first = await read(t, key, "bot");
    assertStatus(first, 200);
    const tag = first.response.headers.get("etag")!;
    assert.match(tag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(await auditReads(), 1);

    for (const header of [tag, `W/${tag}`, `"other", ${tag}`, "*"]) {
      const again = await t.call("GET", "/v1/runtime/secrets/bot", {
        key,
        headers: { "if-none-match": header },
      });
      assert.equal(again.status, 304, header);
      assert.equal(await again.text(), "");
      assert.equal(again.headers.get("etag"), tag);
      assert.equal(again.headers.get("cache-control"), "no-store");
    }
    assert.equal(await auditReads(), 1, "a 304 sends no value, and records no read");

    // The same values written again: the tag stays. A changed value: a new tag, and the values.
    await writeReady(t, "bot", { A: "first-value" });
    assert.equal((await read(t, key, "bot")).response.headers.get("etag"), tag);
    await writeReady(t, "bot", { A: "second-value" });
    const changed = await t.json("GET", "/v1/runtime/secrets/bot", {
      key,
      headers: { "if-none-match": tag },
    });
    assertStatus(changed, 200);
    assert.notEqual(changed.response.headers.get("etag"), tag);
    assert.deepEqual(
      changed.body.secrets.find((s: JsonBody) => s.secretKey === "A").secretValue,
      "second-value",
    );
    // No tag is given to a key that may not read the set, nor for a set that is not ready.
    await writeReady(t, "elsewhere", { C: "c-value" });
    const other = await addRuntimeKey(t.storage, "acme", ["elsewhere"]);
    const refused = await t.call("GET", "/v1/runtime/secrets/bot", {
      key: other,
      headers: { "if-none-match": "*" },
    });
    assert.equal(refused.status, 404);
    assert.equal(refused.headers.get("etag"), null);
  },
);
