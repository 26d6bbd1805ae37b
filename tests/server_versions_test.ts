/**
 * Versions of secret sets, in process on every storage backend: each write that changes a set
 * makes one, the last ten are kept, a rollback restores a version's exact values as a new write,
 * a purge keeps only the current one, and deleting the set deletes them all.
 */
import assert from "node:assert/strict";
import { apiKeyId, valueContext } from "../src/server/crypto.ts";
import { ListVersionsResponse, RollbackResponse, VersionDetail } from "../src/secrets/schemas.ts";
import {
  addKey,
  BACKENDS,
  backendTest,
  documented,
  type JsonBody,
  rawQuery,
  type TestApp,
  testApp,
} from "./helpers_server.ts";

async function put(t: TestApp, values: Record<string, string>, extra = {}, key?: string) {
  const answer = await t.json("PUT", "/v1/secrets/app", { body: documented(values, extra), key });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return answer.body;
}

async function versions(t: TestApp, name = "app"): Promise<JsonBody[]> {
  const answer = await t.json("GET", `/v1/secrets/${name}/versions`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(ListVersionsResponse.safeParse(answer.body).success);
  return answer.body.versions;
}

/** The set's values now, opened: what a bot would get. */
async function valuesNow(t: TestApp, name = "app"): Promise<Record<string, string>> {
  const orgId = (await t.storage.findApiKey(apiKeyId(t.key)!))!.orgId;
  const detail = (await t.storage.getSet(orgId, name))!;
  return Object.fromEntries(
    detail.values.map(({ key, sealed }) => [
      key,
      t.vault.openSync(sealed, valueContext(orgId, name, key)),
    ]),
  );
}

backendTest(
  "each write that changes a set makes a version: who, when, which keys; never a value",
  async (backend) => {
    await using t = await testApp(backend);
    const other = await addKey(t.storage, "acme");
    assert.equal((await put(t, { A: "1", B: "2" })).version, 1);
    assert.equal((await put(t, { B: "3", C: "4" }, {}, other)).version, 2);
    // The same values again change nothing: no version, and the answer names the current one.
    assert.equal((await put(t, { A: "1" })).version, 2);
    const removed = await t.json("DELETE", "/v1/secrets/app/A");
    assert.equal(removed.status, 200);
    const replaced = await t.json("PUT", "/v1/secrets/app", {
      body: { type: "secret", secrets: { C: "4", D: "5" }, replace: true },
    });
    assert.equal(replaced.body.version, 4);

    const listed = await versions(t);
    assert.deepEqual(
      listed.map(({ version, keyId, created, updated, removed }: JsonBody) => [
        version,
        keyId,
        created,
        updated,
        removed,
      ]),
      [
        [4, apiKeyId(t.key), ["D"], [], ["B"]],
        [3, apiKeyId(t.key), [], [], ["A"]],
        [2, apiKeyId(other), ["C"], ["B"], []],
        [1, apiKeyId(t.key), ["A", "B"], [], []],
      ],
    );
    assert.match(listed[0].createdAt, /^\d{4}-\d\d-\d\dT/);
    for (const value of ["1", "2", "3", "4", "5"]) {
      assert.ok(!JSON.stringify(listed).includes(`"${value}"`), "no value in the list");
    }
    // An image pull secret keeps no versions; an unknown set is 404.
    await t.json("PUT", "/v1/secrets/registry", {
      body: { isImagePullSecret: true, host: "ghcr.io", secretValue: btoa("robot:pass") },
    });
    assert.deepEqual(await versions(t, "registry"), []);
    assert.equal((await t.json("GET", "/v1/secrets/nope/versions")).status, 404);
  },
);

backendTest("the last ten versions are kept, sealed like the live values", async (backend) => {
  await using t = await testApp(backend);
  for (let n = 1; n <= 12; n++) await put(t, { A: `value-${n}` });
  const listed = await versions(t);
  assert.deepEqual(listed.map(({ version }: JsonBody) => version), [
    12,
    11,
    10,
    9,
    8,
    7,
    6,
    5,
    4,
    3,
  ]);
  assert.equal((await t.json("GET", "/v1/secrets/app/versions/2")).status, 404);
  const rows = await rawQuery(
    t.spec,
    "SELECT version, value FROM secret_version_values WHERE set_name = 'app' ORDER BY version",
  );
  assert.deepEqual(rows.map((row) => Number(row.version)), [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  for (const row of rows) {
    const bytes = new Uint8Array(row.value as Uint8Array);
    assert.ok(!new TextDecoder("latin1").decode(bytes).includes("value-"), "sealed, not in clear");
  }
});

backendTest(
  "writes committed together keep the last ten versions of each set, a failing one among them",
  async (backend) => {
    await using t = await testApp(backend);
    const registry = { type: "imagePullSecret", host: "r.example.com", credentials: btoa("u:p") };
    assert.equal((await t.json("PUT", "/v1/secrets/registry", { body: registry })).status, 201);
    // Concurrent, so that the server commits them in groups: two sets written 15 times each,
    // and a write that fails (secrets into an image pull secret) in the middle of them.
    const writes = [];
    for (let n = 1; n <= 15; n++) {
      for (const name of ["app", "other"]) {
        writes.push(t.json("PUT", `/v1/secrets/${name}`, { body: documented({ A: `${n}` }) }));
      }
      if (n === 8) writes.push(t.json("PUT", "/v1/secrets/registry", { body: documented({}) }));
    }
    const statuses = (await Promise.all(writes)).map((answer) => answer.status);
    assert.deepEqual(statuses.filter((status) => status !== 202), [400]);
    for (const name of ["app", "other"]) {
      const listed = (await versions(t, name)).map(({ version }: JsonBody) => version);
      assert.deepEqual(listed, [15, 14, 13, 12, 11, 10, 9, 8, 7, 6], name);
      const rows = await rawQuery(
        t.spec,
        `SELECT DISTINCT version FROM secret_version_values WHERE set_name = '${name}'
         ORDER BY version`,
      );
      assert.deepEqual(rows.map((row) => Number(row.version)), [
        6,
        7,
        8,
        9,
        10,
        11,
        12,
        13,
        14,
        15,
      ]);
    }
  },
);

backendTest(
  "rollback makes a version current again, exactly, as a new write; its detail shows what it will be",
  async (backend) => {
    await using t = await testApp(backend);
    await put(t, { A: "alpha", B: "beta" });
    await put(t, { B: "bravo", C: "charlie" });
    await t.json("DELETE", "/v1/secrets/app/A");

    const one = await t.json("GET", "/v1/secrets/app/versions/1");
    assert.equal(one.status, 200);
    assert.ok(VersionDetail.safeParse(one.body).success, JSON.stringify(one.body));
    assert.deepEqual(one.body.keys, ["A", "B"]);
    // A version id is decimal digits: no other way of writing 1 is taken for version 1.
    for (const id of ["0x1", "0b1", "1e0", "+1", "1.0", "%201", "1%20", "-1", "0", "2147483648"]) {
      const answer = await t.json("GET", `/v1/secrets/app/versions/${id}`);
      assert.equal(answer.status, 400, `${id}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body.details.map((d: JsonBody) => d.field), ["version"], id);
    }
    assert.equal((await t.json("GET", "/v1/secrets/app/versions/01")).status, 200);

    const rolled = await t.json("POST", "/v1/secrets/app/rollback", { body: { version: 1 } });
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    assert.ok(RollbackResponse.safeParse(rolled.body).success);
    assert.deepEqual(
      [rolled.body.created, rolled.body.updated, rolled.body.removed, rolled.body.version],
      [["A"], ["B"], ["C"], 4],
    );
    assert.deepEqual(await valuesNow(t), { A: "alpha", B: "beta" });
    // The fingerprints of the set now are the version's: the same values.
    const now = await t.json("GET", "/v1/secrets/app");
    assert.deepEqual(
      now.body.keyDetails.map(({ key, fingerprint }: JsonBody) => [key, fingerprint]),
      one.body.keyDetails.map(({ key, fingerprint }: JsonBody) => [key, fingerprint]),
    );
    assert.equal(now.body.status, "pending", "a rollback is a write: provisioned again");
    assert.equal((await versions(t))[0].rollbackOf, 1);

    // Rolling back to what is current changes nothing and makes no version.
    const again = await t.json("POST", "/v1/secrets/app/rollback", { body: { version: 4 } });
    assert.deepEqual([again.body.unchanged, again.body.version], [["A", "B"], 4]);
    assert.equal((await versions(t)).length, 4);

    for (
      const [body, status] of [
        [{ version: 99 }, 404],
        [{ version: 0 }, 400],
        [{ version: "1" }, 400],
        [{ version: 1, extra: true }, 400],
        ['{"version":1,"version":2}', 400],
      ] as const
    ) {
      const answer = await t.json("POST", "/v1/secrets/app/rollback", { body });
      assert.equal(answer.status, status, JSON.stringify([body, answer.body]));
    }
    assert.equal(
      (await t.json("POST", "/v1/secrets/none/rollback", { body: { version: 1 } })).status,
      404,
    );
  },
);

Deno.test(
  "SQLite: a purge, and a set's deletion, leave the dropped ciphertext nowhere on disk, -wal included",
  async () => {
    await using t = await testApp(BACKENDS.find((backend) => backend.name === "sqlite")!);
    await put(t, { LEAKED: "oops-this-leaked-value" });
    await put(t, { OTHER: "kept" }, {}, undefined);
    // Every sealed copy of the leaked value, wherever the server put it.
    const sealedCopies = async (key: string) =>
      (await rawQuery(
        t.spec,
        `SELECT value FROM secret_values WHERE key = '${key}'
         UNION ALL SELECT value FROM secret_version_values WHERE key = '${key}'`,
      )).map((row) => new Uint8Array(row.value as Uint8Array));
    const leaked = await sealedCopies("LEAKED");
    assert.ok(leaked.length >= 2, "the live value and its versions");
    /** Which of `copies` the database file or its -wal still holds, by their first 24 bytes. */
    const onDisk = async (copies: Uint8Array[]) => {
      const files = [t.spec, `${t.spec}-wal`];
      const bytes = await Promise.all(
        files.map((file) => Deno.readFile(file).catch(() => new Uint8Array())),
      );
      const text = bytes.map((b) => new TextDecoder("latin1").decode(b));
      return copies.filter((copy) => {
        const probe = new TextDecoder("latin1").decode(copy.subarray(0, 24));
        return text.some((file) => file.includes(probe));
      }).length;
    };
    assert.equal(await onDisk(leaked), leaked.length, "the probe finds what is there");

    await put(t, { LEAKED: "rotated-value" });
    assert.equal((await t.json("POST", "/v1/secrets/app/versions/purge")).status, 200);
    assert.equal(await onDisk(leaked), 0, "a purged version's ciphertext is left on disk");

    const current = await sealedCopies("OTHER");
    assert.equal((await t.json("DELETE", "/v1/secrets/app")).status, 200);
    assert.equal(await onDisk(current), 0, "a deleted set's ciphertext is left on disk");
  },
);

backendTest(
  "purge keeps only the current version; deleting the set deletes every version",
  async (backend) => {
    await using t = await testApp(backend);
    await put(t, { LEAKED: "oops-this-leaked" });
    await put(t, { LEAKED: "rotated-value" });
    await put(t, { OTHER: "x" });
    const purged = await t.json("POST", "/v1/secrets/app/versions/purge");
    assert.deepEqual([purged.status, purged.body], [200, { status: "OK", purged: 2 }]);
    assert.deepEqual((await versions(t)).map(({ version }: JsonBody) => version), [3]);
    assert.equal((await t.json("GET", "/v1/secrets/app/versions/1")).status, 404);
    const kept = await rawQuery(t.spec, "SELECT DISTINCT version FROM secret_version_values");
    assert.deepEqual(kept.map((row) => Number(row.version)), [3]);
    assert.deepEqual(await valuesNow(t), { LEAKED: "rotated-value", OTHER: "x" });
    assert.equal((await t.json("POST", "/v1/secrets/none/versions/purge")).status, 404);

    assert.equal((await t.json("DELETE", "/v1/secrets/app")).status, 200);
    for (const table of ["secret_versions", "secret_version_values"]) {
      const rows = await rawQuery(t.spec, `SELECT count(*) AS n FROM ${table}`);
      assert.equal(Number(rows[0].n), 0, table);
    }
    // A set made again under the name starts from version 1.
    assert.equal((await put(t, { A: "new" })).version, 1);
  },
);
