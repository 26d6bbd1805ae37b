/**
 * The audit trail, in process on every storage backend: an event for every change, in the
 * change's own transaction (a refused write records none), with who and which request, read a
 * page at a time; never a value, not even in the database's raw bytes.
 */
import assert from "node:assert/strict";
import { apiKeyId, Vault } from "../src/server/crypto.ts";
import { AuditEventsResponse } from "../src/secrets/schemas.ts";
import { rotateMasterKey } from "../src/server/rotation.ts";
import {
  addKey,
  addRuntimeKey,
  backendTest,
  documented,
  type JsonBody,
  rawQuery,
  type TestApp,
  testApp,
} from "./helpers_server.ts";

const VALUES = ["sk-audit-value-9f8e7d", "second-audit-value-6c5b", "rollback-audit-value-4a3f"];

async function events(t: TestApp, query = "", key?: string): Promise<JsonBody> {
  const answer = await t.json("GET", `/v1/audit${query}`, { key });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(AuditEventsResponse.safeParse(answer.body).success, JSON.stringify(answer.body));
  return answer.body;
}

backendTest(
  "every change is an event: who, which request, which set and keys; newest first; never a value",
  async (backend) => {
    await using t = await testApp(backend);
    const me = apiKeyId(t.key)!;
    const requestIds: string[] = [];
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await t.json(method, path, { body });
      assert.ok(answer.status < 300, JSON.stringify(answer.body));
      requestIds.push(answer.response.headers.get("x-request-id")!);
      return answer;
    };
    await call("PUT", "/v1/secrets/bot", documented({ OPENAI_API_KEY: VALUES[0], B: "x" }));
    await call("PUT", "/v1/secrets/bot", documented({ OPENAI_API_KEY: VALUES[1] }));
    await call("DELETE", "/v1/secrets/bot/B");
    await call("POST", "/v1/secrets/bot/rollback", { version: 1 });
    await call("POST", "/v1/secrets/bot/versions/purge");
    await call("PUT", "/v1/secrets/registry", {
      isImagePullSecret: true,
      host: "ghcr.io",
      secretValue: btoa("robot:" + VALUES[2]),
    });
    // Refused or changing nothing: no event.
    const refused = await t.json("PUT", "/v1/secrets/registry", { body: documented({ A: "1" }) });
    assert.equal(refused.status, 400);
    await call("PUT", "/v1/secrets/bot", documented({ B: "x" }));
    const pending = await t.storage.pendingSets(Number.MAX_SAFE_INTEGER, 100);
    await t.storage.finishProvisioning(
      pending.map((set) => ({ set, result: { status: "ready" } })),
    );
    const runtime = await addRuntimeKey(t.storage, "acme", ["bot"]);
    const read = await t.json("GET", "/v1/runtime/secrets/bot", { key: runtime });
    assert.equal(read.status, 200);
    await call("DELETE", "/v1/secrets/registry");

    const { events: listed } = await events(t);
    const summary = listed.map((e: JsonBody) => [e.action, e.keyId, e.set ?? null, e.keys]);
    assert.deepEqual(summary, [
      ["set.delete", me, "registry", []],
      ["runtime.read", apiKeyId(runtime), "bot", ["B", "OPENAI_API_KEY"]],
      ["api-key.create", "operator", null, []],
      ["image-pull-secret.write", me, "registry", []],
      ["versions.purge", me, "bot", []],
      ["set.rollback", me, "bot", ["B", "OPENAI_API_KEY"]],
      ["key.delete", me, "bot", ["B"]],
      ["set.write", me, "bot", ["OPENAI_API_KEY"]],
      ["set.write", me, "bot", ["B", "OPENAI_API_KEY"]],
      ["api-key.create", "operator", null, []],
    ]);
    // Each change made through the API names the request that made it.
    const mine = listed.filter((e: JsonBody) => e.keyId === me);
    assert.deepEqual(mine.map((e: JsonBody) => e.requestId).reverse(), [
      ...requestIds.slice(0, 6),
      requestIds.at(-1),
    ]);
    assert.equal(read.response.headers.get("x-request-id"), listed[1].requestId);
    assert.deepEqual(listed[5].detail, {
      created: ["B"],
      updated: ["OPENAI_API_KEY"],
      removed: [],
      version: 4,
      rollbackOf: 1,
    });
    assert.equal(listed[3].detail.host, "ghcr.io");
    assert.equal(listed[2].detail.keyId, apiKeyId(runtime));

    // No value in what the API shows, nor anywhere in the database's bytes.
    const shown = JSON.stringify(listed);
    for (const value of VALUES) assert.ok(!shown.includes(value));
    await assertNoValueStored(t.spec);
  },
);

backendTest(
  "pages: limit and cursor walk the trail without gaps or repeats; organizations apart",
  async (backend) => {
    await using t = await testApp(backend);
    for (let n = 0; n < 7; n++) {
      const put = await t.json("PUT", `/v1/secrets/s${n}`, { body: documented({ A: `${n}` }) });
      assert.equal(put.status, 202);
    }
    const all = (await events(t, "?limit=200")).events.map((e: JsonBody) => e.id);
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const body = await events(t, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      walked.push(...body.events.map((e: JsonBody) => e.id));
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(walked, all);
    assert.equal(all.length, 8, "7 writes and the key's creation");
    // Decimal digits only: a number written another way is not taken for the one it reads as.
    const refused = ["0", "201", "x", "0x3", "1e1", "+3", "3.0", "%203", "3%20", "-1", ""]
      .map((limit) => `?limit=${limit}`).concat("?cursor=abc");
    for (const query of refused) {
      const answer = await t.json("GET", `/v1/audit${query}`);
      assert.equal(answer.status, 400, `${query}: ${JSON.stringify(answer.body)}`);
    }
    assert.equal((await events(t, "?limit=003")).events.length, 3);
    // Another organization sees its own events, not acme's.
    const other = await addKey(t.storage, "globex");
    const theirs = (await events(t, "", other)).events;
    assert.deepEqual(theirs.map((e: JsonBody) => e.action), ["api-key.create"]);
  },
);

backendTest(
  "a master-key rotation and key revocations are recorded, by the operator",
  async (backend) => {
    await using t = await testApp(backend);
    await t.json("PUT", "/v1/secrets/bot", { body: documented({ A: "1" }) });
    const doomed = await addKey(t.storage, "acme");
    assert.ok(await t.storage.revokeApiKey(apiKeyId(doomed)!));
    const ring = await Vault.fromRawKeys([crypto.getRandomValues(new Uint8Array(32))]);
    await rotateMasterKey(t.storage, ring);
    const listed = (await events(t)).events;
    assert.deepEqual(listed.slice(0, 2).map((e: JsonBody) => [e.action, e.keyId]), [
      ["master-key.rotate", "operator"],
      ["api-key.revoke", "operator"],
    ]);
    assert.equal(listed[1].detail.keyId, apiKeyId(doomed));
    assert.equal(listed[0].detail.keyId, ring.keyIds[0]);
  },
);

/** Neither the database file nor its WAL (SQLite), nor any row (PostgreSQL), holds a value. */
async function assertNoValueStored(spec: string) {
  if (spec.startsWith("postgres")) {
    const tables = await rawQuery(
      spec,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
    );
    for (const { table_name } of tables) {
      const rows = await rawQuery(spec, `SELECT * FROM ${table_name}`);
      const text = JSON.stringify(
        rows,
        (_, v) => v instanceof Uint8Array ? new TextDecoder("latin1").decode(v) : v,
      );
      for (const value of VALUES) assert.ok(!text.includes(value), `${table_name} holds a value`);
    }
    return;
  }
  for (const file of [spec, `${spec}-wal`]) {
    const bytes = await Deno.readFile(file).catch(() => new Uint8Array());
    const text = new TextDecoder("latin1").decode(bytes);
    for (const value of VALUES) assert.ok(!text.includes(value), `${file} holds a value`);
    for (const value of VALUES) assert.ok(!text.includes(btoa(value)), `${file} holds a value`);
  }
}
