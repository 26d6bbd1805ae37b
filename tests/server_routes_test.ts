/** Every route of the secrets API, in process (`app.request()`), on every storage backend. */
import assert from "node:assert/strict";
import { DEFAULT_LIMITS } from "../src/server/config.ts";
import { createApp, LIST_FRESHNESS_MS } from "../src/server/app.ts";
import { testVault } from "./helpers_server.ts";
import { waitFor } from "./helpers_secrets.ts";
import { Provisioner } from "../src/server/provisioner.ts";
import { type LogEntry, silentLogger } from "../src/server/log.ts";
import { ErrorResponse, ListSecretSetsResponse, SecretSetDetail } from "../src/secrets/schemas.ts";
import { fingerprint, importFingerprintKey } from "../src/secrets/fingerprint.ts";
import {
  addKey,
  addRuntimeKey,
  BACKENDS,
  backendTest,
  documented,
  fakeClock,
  type JsonBody,
  ORPHAN_KEYS,
  rawSql,
  type TestApp,
  testApp,
  withDeadline,
} from "./helpers_server.ts";

const secrets = (values: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  type: "secret",
  secrets: values,
  ...extra,
});
/** `user:pass` base64-encoded, as the client sends it. */
const GOOD_CREDENTIALS = btoa("robot:s3cret-pass");

/** Asserts an ErrorResponse with this status and code; returns its body. */
async function expectError(
  call: Promise<{ status: number; body: JsonBody; response: Response }>,
  status: number,
  code: string,
) {
  const { status: got, body, response } = await call;
  assert.equal(got, status, JSON.stringify(body));
  assert.equal(body.code, code);
  assert.equal(typeof body.error, "string");
  assert.ok(ErrorResponse.safeParse(body).success);
  assert.ok(response.headers.get("x-request-id"), "every response has a request id");
  return body;
}

function provisioner(t: TestApp) {
  return new Provisioner(t.storage, t.vault, { delayMs: 0, pollMs: 60_000 }, silentLogger);
}

// --- GET /secrets (SPEC 4.1, 5, 7) ---

backendTest(
  "GET /secrets: 401 UNAUTHORIZED for a missing, malformed, wrong-scheme or unknown key",
  async (backend) => {
    await using t = await testApp(backend);
    const [, , id] = t.key.split("_");
    const unknownKey = `vb_sk_${"0".repeat(16)}_${"A".repeat(43)}`;
    const wrongSecret = `vb_sk_${id}_${"B".repeat(43)}`;
    const cases: [string, Record<string, string>][] = [
      ["missing", {}],
      ["empty", { authorization: "" }],
      ["scheme only", { authorization: "Bearer" }],
      ["malformed", { authorization: "Bearer not-a-key" }],
      ["wrong scheme", { authorization: `Basic ${t.key}` }],
      ["extra words", { authorization: `Bearer ${t.key} more` }],
      ["unknown", { authorization: `Bearer ${unknownKey}` }],
      ["wrong secret for a real id", { authorization: `Bearer ${wrongSecret}` }],
    ];
    // The right key first: a key verified once is remembered, and must not open the door to
    // another secret under its id, of the same length or not.
    assert.equal((await t.json("GET", "/v1/secrets")).status, 200);
    for (const [label, headers] of cases) {
      const body = await expectError(
        t.json("GET", "/v1/secrets", { key: null, headers }),
        401,
        "UNAUTHORIZED",
      );
      assert.deepEqual(Object.keys(body).sort(), ["code", "error"], label);
      assert.ok(!JSON.stringify(body).includes(t.key.slice(6)), `${label}: no key in the body`);
    }
    const lastCharacterChanged = t.key.slice(0, -1) + (t.key.endsWith("A") ? "B" : "A");
    await expectError(
      t.json("GET", "/v1/secrets", { key: lastCharacterChanged }),
      401,
      "UNAUTHORIZED",
    );
    assert.equal((await t.json("GET", "/v1/secrets")).status, 200, "the right key still works");
  },
);

backendTest(
  "a key whose organization is gone is 401 on reads and writes, never 500",
  async (backend) => {
    await using t = await testApp(backend);
    assert.equal((await t.json("GET", "/v1/secrets")).status, 200);
    await rawSql(t.spec, ORPHAN_KEYS);
    // This app verified the key a moment ago: its write still finds no organization to write to.
    await expectError(
      t.json("PUT", "/v1/secrets/app", { body: secrets({ A: "1" }) }),
      401,
      "UNAUTHORIZED",
    );
    // A server that has not seen the key yet refuses it outright.
    const fresh = createApp(t.storage, { vault: await testVault(), logger: silentLogger });
    for (const method of ["GET", "PUT"]) {
      const response = await fresh.request("http://localhost/v1/secrets/app", {
        method,
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
        body: method === "PUT" ? JSON.stringify(secrets({ A: "1" })) : undefined,
      });
      assert.equal(response.status, 401, method);
      await response.body?.cancel();
    }
  },
);

backendTest(
  "a key verified once is verified again: the next request with a wrong secret is 401",
  async (backend) => {
    await using t = await testApp(backend);
    const wrongSecret = `${t.key.slice(0, 23)}${t.key.at(23) === "A" ? "B" : "A"}${
      t.key.slice(24)
    }`;
    for (const path of ["/v1/secrets", "/v1/regions", "/v1/secrets/app"]) {
      assert.notEqual((await t.json("GET", path)).status, 401, path);
      await expectError(t.json("GET", path, { key: wrongSecret }), 401, "UNAUTHORIZED");
    }
    await expectError(
      t.json("PUT", "/v1/secrets/app", { key: wrongSecret, body: secrets({ A: "1" }) }),
      401,
      "UNAUTHORIZED",
    );
  },
);

backendTest(
  "GET /secrets: 200 with exactly the SPEC 2.1 fields; errorMessage only on failed",
  async (backend) => {
    await using t = await testApp(backend);
    assert.deepEqual((await t.json("GET", "/v1/secrets")).body, { sets: [] });

    await t.json("PUT", "/v1/secrets/app", { body: secrets({ A: "1" }) });
    await t.json("PUT", "/v1/secrets/good-registry", {
      body: {
        type: "imagePullSecret",
        host: "registry.example.com:5000",
        credentials: GOOD_CREDENTIALS,
        region: "eu-central",
      },
    });
    await t.json("PUT", "/v1/secrets/bad-creds", {
      body: { type: "imagePullSecret", host: "ghcr.io", credentials: btoa("no-colon-here") },
    });
    await t.json("PUT", "/v1/secrets/still-pending", { body: secrets({ B: "2" }) });

    const before = await t.json("GET", "/v1/secrets");
    assert.ok(before.body.sets.every((set: { status: string }) => set.status === "pending"));

    await provisioner(t).provisionDue();
    await t.json("PUT", "/v1/secrets/still-pending", { body: secrets({ C: "3" }) });

    const { status, body, response } = await t.json("GET", "/v1/secrets");
    assert.equal(status, 200);
    assert.match(response.headers.get("content-type")!, /^application\/json/);
    assert.ok(ListSecretSetsResponse.safeParse(body).success);
    assert.deepEqual(Object.keys(body), ["sets"]);
    assert.deepEqual(body.sets, [
      { name: "app", type: "secret", region: "us-west", status: "ready" },
      {
        name: "bad-creds",
        type: "imagePullSecret",
        region: "us-west",
        status: "failed",
        errorMessage: "The credentials are not base64 of username:password once decoded.",
      },
      { name: "good-registry", type: "imagePullSecret", region: "eu-central", status: "ready" },
      { name: "still-pending", type: "secret", region: "us-west", status: "pending" },
    ]);

    // The documented filter; a region the organization does not have is named as such.
    assert.deepEqual((await t.json("GET", "/v1/secrets?region=eu-central")).body.sets, [
      { name: "good-registry", type: "imagePullSecret", region: "eu-central", status: "ready" },
    ]);
    assert.deepEqual((await t.json("GET", "/v1/secrets?region=us-east")).body, { sets: [] });
    const mars = await expectError(
      t.json("GET", "/v1/secrets?region=mars-1"),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(mars.details.map((d: { field: string }) => d.field), ["region"]);
    await expectError(t.json("GET", "/v1/secrets?region=US%20West"), 400, "VALIDATION_ERROR");
  },
);

backendTest("a failed set is cleared by a later successful write", async (backend) => {
  await using t = await testApp(backend);
  const put = (host: string) =>
    t.json("PUT", "/v1/secrets/reg", {
      body: { type: "imagePullSecret", host, credentials: GOOD_CREDENTIALS },
    });
  await put("not a host");
  await provisioner(t).provisionDue();
  const failed = (await t.json("GET", "/v1/secrets/reg")).body;
  assert.equal(failed.status, "failed");
  assert.match(failed.errorMessage, /not a host name/);

  const fixed = await put("registry.example.com");
  assert.equal(fixed.status, 200);
  assert.deepEqual(fixed.body.set, {
    name: "reg",
    type: "imagePullSecret",
    region: "us-west",
    status: "pending",
  });
  await provisioner(t).provisionDue();
  assert.deepEqual((await t.json("GET", "/v1/secrets")).body.sets, [
    { name: "reg", type: "imagePullSecret", region: "us-west", status: "ready" },
  ]);
});

backendTest("organizations are isolated on every route", async (backend) => {
  await using t = await testApp(backend);
  const other = await addKey(t.storage, "globex");
  await t.json("PUT", "/v1/secrets/ours", { body: secrets({ A: "1", B: "2" }) });

  // Each organization's list right after the other's, so that any cache shared between them
  // (of keys or of lists) would answer one with the other's.
  const listOf = async (key: string) =>
    (await t.json("GET", "/v1/secrets", { key })).body.sets.map((set: JsonBody) => set.name);
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(await listOf(t.key), ["ours"]);
    assert.deepEqual(await listOf(other), []);
  }
  assert.deepEqual((await t.json("GET", "/v1/secrets", { key: other })).body, { sets: [] });
  await expectError(t.json("GET", "/v1/secrets/ours", { key: other }), 404, "NOT_FOUND");
  await expectError(t.json("DELETE", "/v1/secrets/ours/keys/A", { key: other }), 404, "NOT_FOUND");
  await expectError(t.json("DELETE", "/v1/secrets/ours", { key: other }), 404, "NOT_FOUND");
  // The same name in another organization is another set, of any type or region.
  const theirs = await t.json("PUT", "/v1/secrets/ours", {
    key: other,
    body: {
      type: "imagePullSecret",
      region: "us-east",
      host: "r.io",
      credentials: GOOD_CREDENTIALS,
    },
  });
  assert.equal(theirs.status, 201);

  assert.deepEqual((await t.json("GET", "/v1/secrets/ours")).body.keys, ["A", "B"]);
  assert.equal(
    (await t.json("GET", "/v1/secrets/ours", { key: other })).body.type,
    "imagePullSecret",
  );
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(
      (await t.json("GET", "/v1/secrets")).body.sets.map((set: JsonBody) => set.type),
      ["secret"],
    );
    assert.deepEqual(
      (await t.json("GET", "/v1/secrets", { key: other })).body.sets.map((set: JsonBody) =>
        set.type
      ),
      ["imagePullSecret"],
    );
  }
  assert.equal((await t.json("GET", "/v1/regions", { key: other })).status, 200);
});

// --- GET /secrets/{name} ---

backendTest(
  "GET /secrets/{name}: keys sorted, never values; 404; 400 for a bad name",
  async (backend) => {
    await using t = await testApp(backend);
    await t.json("PUT", "/v1/secrets/app", {
      body: secrets({ ZED: "value-z", alpha: "value-a", MID: "value-m" }),
    });
    const { status, body } = await t.json("GET", "/v1/secrets/app");
    assert.equal(status, 200);
    const { keyDetails, fingerprintKey, ...summary } = body;
    assert.deepEqual(summary, {
      name: "app",
      type: "secret",
      region: "us-west",
      status: "pending",
      keys: ["MID", "ZED", "alpha"],
      // The documented form of the same names.
      secrets: [{ fieldName: "MID" }, { fieldName: "ZED" }, { fieldName: "alpha" }],
    });
    assert.deepEqual(keyDetails.map((d: { key: string }) => d.key), ["MID", "ZED", "alpha"]);
    assert.equal(typeof fingerprintKey, "string");
    assert.ok(!JSON.stringify(body).includes("value-"));

    await t.json("PUT", "/v1/secrets/reg", {
      body: { type: "imagePullSecret", host: "r.io", credentials: GOOD_CREDENTIALS },
    });
    assert.deepEqual((await t.json("GET", "/v1/secrets/reg")).body, {
      name: "reg",
      type: "imagePullSecret",
      region: "us-west",
      status: "pending",
      keys: [],
      secrets: [],
      host: "r.io",
      keyDetails: [],
    });
    await expectError(t.json("GET", "/v1/secrets/nope"), 404, "NOT_FOUND");
    const bad = await expectError(t.json("GET", "/v1/secrets/bad_name"), 400, "VALIDATION_ERROR");
    assert.deepEqual(bad.details.map((d: { field: string }) => d.field), ["setName"]);
  },
);

backendTest(
  "GET /secrets/{name}: per key its last write and a fingerprint the caller can recompute",
  async (backend) => {
    const clock = fakeClock();
    await using t = await testApp(backend, { clock: clock.now });
    await t.json("PUT", "/v1/secrets/app", {
      body: secrets({ A: "same-value", B: "same-value", C: "other-value" }),
    });
    clock.advance(60_000);
    await t.json("PUT", "/v1/secrets/app", { body: secrets({ C: "changed-value" }) });
    const { body } = await t.json("GET", "/v1/secrets/app");
    assert.ok(SecretSetDetail.safeParse(body).success);
    const [a, b, c] = body.keyDetails;
    // Only the key written the second time moved on.
    assert.equal(a.writtenAt, new Date(1_700_000_000_000).toISOString());
    assert.equal(c.writtenAt, new Date(1_700_000_060_000).toISOString());
    assert.equal(a.fingerprint, b.fingerprint);
    assert.notEqual(a.fingerprint, c.fingerprint);
    assert.match(a.fingerprint, /^[0-9a-f]{16}$/);
    // The client recomputes it from the key it was given, and learns "same" or "different".
    const key = await importFingerprintKey(body.fingerprintKey);
    assert.equal(await fingerprint(key, "same-value"), a.fingerprint);
    assert.equal(await fingerprint(key, "changed-value"), c.fingerprint);
    assert.notEqual(await fingerprint(key, "other-value"), c.fingerprint);
    assert.ok(!JSON.stringify(body).includes("-value"));

    // Another organization: another fingerprint key, so another fingerprint for the same value.
    const other = await addKey(t.storage, "other-org");
    await t.json("PUT", "/v1/secrets/app", { key: other, body: secrets({ A: "same-value" }) });
    const theirs = (await t.json("GET", "/v1/secrets/app", { key: other })).body;
    assert.notEqual(theirs.fingerprintKey, body.fingerprintKey);
    assert.notEqual(theirs.keyDetails[0].fingerprint, a.fingerprint);
    // The same organization gets the same key on every read.
    assert.equal((await t.json("GET", "/v1/secrets/app")).body.fingerprintKey, body.fingerprintKey);
  },
);

// --- PUT /secrets/{name} ---

backendTest(
  "PUT: 201 on create, 200 on update, with created, updated and unchanged keys; replace",
  async (backend) => {
    await using t = await testApp(backend);
    const created = await t.json("PUT", "/v1/secrets/app", {
      body: secrets({ A: "1", B: "2" }, { region: "us-east" }),
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, {
      status: "OK",
      region: "us-east",
      set: { name: "app", type: "secret", region: "us-east", status: "pending" },
      created: ["A", "B"],
      updated: [],
      unchanged: [],
      version: 1,
    });
    const merged = await t.json("PUT", "/v1/secrets/app", {
      body: secrets({ A: "1", B: "3", C: "4" }),
    });
    assert.equal(merged.status, 200);
    assert.deepEqual(
      [merged.body.created, merged.body.updated, merged.body.unchanged, merged.body.set.region],
      [["C"], ["B"], ["A"], "us-east"],
    );
    const replaced = await t.json("PUT", "/v1/secrets/app", {
      body: secrets({ D: "5" }, { replace: true }),
    });
    assert.deepEqual([replaced.status, replaced.body.created, replaced.body.updated], [
      200,
      ["D"],
      [],
    ]);
    assert.deepEqual((await t.json("GET", "/v1/secrets/app")).body.keys, ["D"]);
  },
);

backendTest(
  "PUT with the documented bodies: 202 with status and region, keys merged, our report beside",
  async (backend) => {
    await using t = await testApp(backend);
    const created = await t.json("PUT", "/v1/secrets/app", {
      body: documented({ A: "1", B: "2" }, { region: "us-east" }),
    });
    assert.equal(created.status, 202);
    assert.deepEqual(created.body, {
      status: "OK",
      region: "us-east",
      set: { name: "app", type: "secret", region: "us-east", status: "pending" },
      created: ["A", "B"],
      updated: [],
      unchanged: [],
      version: 1,
    });
    // Merged into the set, as the documented write is; the region is the set's own.
    const merged = await t.json("PUT", "/v1/secrets/app", { body: documented({ B: "3", C: "4" }) });
    assert.deepEqual(
      [merged.status, merged.body.region, merged.body.created, merged.body.updated],
      [202, "us-east", ["C"], ["B"]],
    );
    assert.deepEqual((await t.json("GET", "/v1/secrets/app")).body.keys, ["A", "B", "C"]);

    // Registry credentials, the host given as a URL as the documentation's example does.
    const registry = await t.json("PUT", "/v1/secrets/hub", {
      body: {
        isImagePullSecret: true,
        host: "https://index.docker.io/v1/",
        secretValue: GOOD_CREDENTIALS,
      },
    });
    assert.deepEqual([registry.status, registry.body.status, registry.body.region], [
      202,
      "OK",
      "us-west",
    ]);
    await provisioner(t).provisionDue();
    const hub = (await t.json("GET", "/v1/secrets/hub")).body;
    assert.deepEqual([hub.type, hub.host, hub.status], [
      "imagePullSecret",
      "https://index.docker.io/v1/",
      "ready",
    ]);
  },
);
backendTest(
  "PUT: the documented 400 GENERIC_BAD_REQUEST for another region or the other type, in either " +
    "body; 400 naming the valid regions",
  async (backend) => {
    await using t = await testApp(backend);
    await t.json("PUT", "/v1/secrets/app", { body: secrets({ A: "1" }) });
    await t.json("PUT", "/v1/secrets/reg", {
      body: { type: "imagePullSecret", host: "r.io", credentials: GOOD_CREDENTIALS },
    });
    const documentedRegistry = {
      isImagePullSecret: true,
      host: "https://r.io/",
      secretValue: GOOD_CREDENTIALS,
    };
    // The documentation's examples: cannotChangeSecretType, invalidImagePullSecretUpdate and
    // regionMismatch, each in its documented body and in ours. Permanent, so never a 409, which
    // it keeps for "modified concurrently, retry".
    const refused: [string, unknown, RegExp][] = [
      ["app", documentedRegistry, /"app" already exists as a secret set; its type cannot change/],
      ["app", { type: "imagePullSecret", host: "r.io", credentials: GOOD_CREDENTIALS }, /type/],
      ["reg", documented({ A: "1" }), /"reg" already exists as an image pull secret/],
      ["reg", secrets({ A: "1" }), /image pull secret/],
      [
        "app",
        documented({ A: "1" }, { region: "eu-central" }),
        /"app" already exists in region us-west; it cannot move to eu-central/,
      ],
      ["app", secrets({ A: "1" }, { region: "eu-central" }), /cannot move to eu-central/],
    ];
    for (const [name, body, message] of refused) {
      const answer = await expectError(
        t.json("PUT", `/v1/secrets/${name}`, { body }),
        400,
        "GENERIC_BAD_REQUEST",
      );
      assert.match(answer.error, message);
    }
    const { sets } = (await t.json("GET", "/v1/secrets")).body;
    assert.deepEqual(
      sets.map((set: JsonBody) => [set.name, set.type, set.region]),
      [["app", "secret", "us-west"], ["reg", "imagePullSecret", "us-west"]],
      "nothing changed",
    );
    const region = await expectError(
      t.json("PUT", "/v1/secrets/new", { body: secrets({ A: "1" }, { region: "mars-1" }) }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(region.details, [{
      field: "region",
      message: "must be one of: us-west, us-east, eu-central",
    }]);
  },
);

backendTest(
  "PUT: a documented body with isImagePullSecret false is a secret set, checked as one",
  async (backend) => {
    await using t = await testApp(backend);
    const accepted = await t.json("PUT", "/v1/secrets/app", {
      body: documented({ A: "1" }, { isImagePullSecret: false }),
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.deepEqual(accepted.body.created, ["A"]);
    const wrong = await expectError(
      t.json("PUT", "/v1/secrets/other", {
        body: documented({ "1BAD": "1" }, { isImagePullSecret: false }),
      }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(wrong.details, [{
      field: "secrets.0.secretKey",
      message: wrong.details[0].message,
    }]);
  },
);

backendTest("PUT: 400 lists every problem of the name and the body together", async (backend) => {
  await using t = await testApp(backend);
  const body = await expectError(
    t.json("PUT", "/v1/secrets/bad_name", {
      body: {
        type: "secret",
        region: "mars-1",
        secrets: { "1BAD": "x", "also-bad": "y", GOOD: 3 },
        extra: true,
      },
    }),
    400,
    "VALIDATION_ERROR",
  );
  const fields = body.details.map((d: { field: string }) => d.field).sort();
  assert.deepEqual(fields, [
    "extra",
    "region",
    "secrets.1BAD",
    "secrets.GOOD",
    "secrets.also-bad",
    "setName",
  ]);

  const shapes: [unknown, string[]][] = [
    // Without `type`, a body is read as the documented one.
    [{}, ["secrets"]],
    [{ secrets: [] }, ["secrets"]],
    [{ secrets: [{ secretKey: "A" }], extra: 1 }, ["extra", "secrets.0.secretValue"]],
    [{ secrets: [{ secretKey: "1BAD", secretValue: "x" }] }, ["secrets.0.secretKey"]],
    // The same key twice in the documented array: which value was meant is not known.
    [
      documented({ A: "1" }, {
        secrets: [...documented({ A: "1", B: "2" }).secrets, { secretKey: "A", secretValue: "3" }],
      }),
      ["secrets.A"],
    ],
    [{ isImagePullSecret: true, host: "r.io" }, ["secretValue"]],
    // The flag false without `secrets` is the platform CLI's one key a request.
    [{ isImagePullSecret: false, host: "r.io", secretValue: "x" }, ["host", "secretKey"]],
    [{ isImagePullSecret: false }, ["secretKey", "secretValue"]],
    [{ secretKey: "A" }, ["secretValue"]],
    [{ name: "other", secretKey: "A", secretValue: "1" }, ["name"]],
    [{ name: "ok", secretKey: "1BAD", secretValue: "1", region: "mars" }, ["region", "secretKey"]],
    ['{"secrets":[{"secretKey":"__proto__","secretValue":"x"}]}', ["secrets.__proto__"]],
    [{ type: "secret", secrets: [{ secretKey: "A", secretValue: "1" }] }, ["secrets"]],
    [[], ["body"]],
    [{ type: "secret" }, ["secrets"]],
    [{ type: "secret", secrets: {} }, ["secrets"]],
    [{ type: "secret", secrets: { A: "1" }, replace: "yes" }, ["replace"]],
    [{ type: "imagePullSecret", host: "" }, ["credentials", "host"]],
    // A key every JS object would drop on the way through: refused, not lost.
    ['{"type":"secret","secrets":{"__proto__":"x","A":"1"}}', ["secrets.__proto__"]],
  ];
  for (const [shape, expected] of shapes) {
    const text = typeof shape === "string" ? shape : JSON.stringify(shape);
    const error = await expectError(
      t.json("PUT", "/v1/secrets/ok", { body: text }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(error.details.map((d: { field: string }) => d.field).sort(), expected, text);
  }
});

backendTest(
  "PUT: a member given twice is 400 naming it, and nothing is written",
  async (backend) => {
    await using t = await testApp(backend);
    const cases: [string, { field: string; message: string }[]][] = [
      // JSON.parse keeps the last one: the second "secrets" would have won.
      [
        '{"secrets":[{"secretKey":"A","secretValue":"1"}],"secrets":[{"secretKey":"B","secretValue":"2"}]}',
        [{ field: "secrets", message: "is given twice" }],
      ],
      ['{"type":"secret","type":"imagePullSecret","secrets":{"A":"1"}}', [{
        field: "type",
        message: "is given twice",
      }]],
      // The same member spelled with an escape is the same member.
      ['{"type":"secret","secrets":{"A":"1","\\u0041":"2"}}', [{
        field: "secrets.A",
        message: "is given twice",
      }]],
      ['{"secrets":[{"secretKey":"A","secretValue":"1","secretValue":"2"}]}', [{
        field: "secrets.0.secretValue",
        message: "is given twice",
      }]],
      // A member that may be a value is not named, only where it is.
      ['{"type":"secret","secrets":{"c2VjcmV0LXRva2Vu9Q":"1","c2VjcmV0LXRva2Vu9Q":"2"}}', [{
        field: "secrets",
        message: "gives a member twice",
      }]],
    ];
    for (const [body, details] of cases) {
      const error = await expectError(
        t.json("PUT", "/v1/secrets/twice", { body }),
        400,
        "VALIDATION_ERROR",
      );
      assert.deepEqual(error.details, details, body);
      assert.ok(!JSON.stringify(error).includes("c2VjcmV0LXRva2Vu9Q"));
    }
    assert.equal((await t.json("GET", "/v1/secrets/twice")).status, 404);
    // Equal member names in different objects are no duplicates.
    const fine =
      '{"secrets":[{"secretKey":"A","secretValue":"1"},{"secretKey":"B","secretValue":"1"}]}';
    assert.equal((await t.json("PUT", "/v1/secrets/twice", { body: fine })).status, 202);
  },
);

backendTest("PUT: non-JSON is 400, another content type 415, never 500", async (backend) => {
  await using t = await testApp(backend);
  await expectError(t.json("PUT", "/v1/secrets/a", { body: "{not json" }), 400, "VALIDATION_ERROR");
  await expectError(t.json("PUT", "/v1/secrets/a", { body: "" }), 400, "VALIDATION_ERROR");
  await expectError(
    t.json("PUT", "/v1/secrets/a", { body: new Uint8Array([0x7b, 0xff, 0x7d]) }),
    400,
    "VALIDATION_ERROR",
  );
  for (
    const contentType of [
      "text/plain",
      "application/json; charset=latin1",
      "application/jsonx",
      // Not RFC 9110 media types: a parameter without a value, junk, a space inside the type.
      "application/json; charset",
      "application/json x",
      "application /json",
      "application/json; charset=utf-8; =x",
    ]
  ) {
    await expectError(
      t.json("PUT", "/v1/secrets/a", {
        body: JSON.stringify(secrets({ A: "1" })),
        headers: { "content-type": contentType },
      }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
  }
  await expectError(t.json("PUT", "/v1/secrets/a"), 415, "UNSUPPORTED_MEDIA_TYPE");
  // RFC 9110: case-insensitive names, optional whitespace around ";", empty parameters,
  // quoted values. Each is accepted end to end, not only by the first check.
  for (
    const contentType of [
      "Application/JSON; charset=UTF-8",
      "application/json ; charset=utf-8",
      "application/json;",
      'application/json;charset="utf-8"',
      "application/json; foo=bar; CHARSET=utf-8",
      "application/json\t;\tcharset=utf-8 ",
    ]
  ) {
    const ok = await t.json("PUT", "/v1/secrets/a", {
      body: JSON.stringify(secrets({ A: "1" })),
      headers: { "content-type": contentType },
    });
    assert.ok(ok.status === 200 || ok.status === 201, `${contentType}: ${JSON.stringify(ok.body)}`);
  }
});

backendTest(
  "PUT: a lone surrogate or a registry host with user:password@ is 400, never stored",
  async (backend) => {
    await using t = await testApp(backend);
    const loneSurrogate = '{"type":"secret","secrets":{"GOOD":"x","BAD":"a\\ud800b"}}';
    const body = await expectError(
      t.json("PUT", "/v1/secrets/app", { body: loneSurrogate }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(body.details.map((d: { field: string }) => d.field), ["secrets.BAD"]);
    const credentials = '{"type":"imagePullSecret","host":"r.io","credentials":"\\udc00"}';
    await expectError(
      t.json("PUT", "/v1/secrets/reg", { body: credentials }),
      400,
      "VALIDATION_ERROR",
    );
    for (const host of ["robot:hunter2@registry.io", "robot@registry.io:5000"]) {
      const refused = await expectError(
        t.json("PUT", "/v1/secrets/reg", {
          body: { type: "imagePullSecret", host, credentials: GOOD_CREDENTIALS },
        }),
        400,
        "VALIDATION_ERROR",
      );
      assert.deepEqual(refused.details.map((d: { field: string }) => d.field), ["host"]);
      assert.ok(!JSON.stringify(refused).includes("hunter2"), "never echoed");
    }
    assert.deepEqual((await t.json("GET", "/v1/secrets")).body, { sets: [] }, "nothing stored");
  },
);

backendTest(
  "PUT: a registry host is taken in any form that names one, stored as the provisioner takes it",
  async (backend) => {
    await using t = await testApp(backend);
    const bodies = (host: string) => [
      { isImagePullSecret: true, host, secretValue: GOOD_CREDENTIALS },
      { type: "imagePullSecret", host, credentials: GOOD_CREDENTIALS },
    ];
    // A scheme in capitals, an IPv6 literal with a port, a path as Docker Hub's documented URL
    // has: each names a registry, and the set provisions.
    const named: [string, string][] = [
      ["HTTPS://GHCR.IO/", "https://GHCR.IO/"],
      ["https://[::1]:5000/", "https://[::1]:5000/"],
      ["Http://[2001:db8::1]:5000/v1/", "http://[2001:db8::1]:5000/v1/"],
      ["https://index.docker.io/v1/", "https://index.docker.io/v1/"],
    ];
    let n = 0;
    for (const [host, stored] of named) {
      for (const body of bodies(host)) {
        const name = `reg${n++}`;
        const put = await t.json("PUT", `/v1/secrets/${name}`, { body });
        assert.equal(
          put.status,
          "type" in body ? 201 : 202,
          `${host}: ${JSON.stringify(put.body)}`,
        );
        await provisioner(t).provisionDue();
        const set = (await t.json("GET", `/v1/secrets/${name}`)).body;
        assert.deepEqual(
          [set.host, set.status, set.errorMessage],
          [stored, "ready", undefined],
          host,
        );
      }
    }
    const written = (await t.json("GET", "/v1/secrets")).body.sets.length;
    assert.equal(written, n);

    // Another scheme, a query or a fragment names no registry: refused when written, on both
    // bodies, never quoted (the last one holds user information too).
    const unnamed = [
      "oci://registry.example.com",
      "https://ghcr.io/v2/?service=registry",
      "https://ghcr.io/v2/#top",
      "docker://robot:zq9x@ghcr.io",
    ];
    for (const host of unnamed) {
      for (const body of bodies(host)) {
        const refused = await expectError(
          t.json("PUT", "/v1/secrets/never", { body }),
          400,
          "VALIDATION_ERROR",
        );
        assert.deepEqual(refused.details.map((d: { field: string }) => d.field), ["host"], host);
        const text = JSON.stringify(refused);
        assert.ok(!text.includes(host) && !text.includes("zq9x"), `${host}: never echoed`);
      }
    }
    await expectError(t.json("GET", "/v1/secrets/never"), 404, "NOT_FOUND");
    assert.equal((await t.json("GET", "/v1/secrets")).body.sets.length, written, "nothing stored");
  },
);

// --- limits, each at its edge ---

backendTest(
  "limit: set names of 63 characters pass, 64 do not; key names of 128 pass, 129 do not",
  async (backend) => {
    await using t = await testApp(backend);
    assert.equal(
      (await t.json("PUT", `/v1/secrets/${"n".repeat(63)}`, { body: secrets({ A: "1" }) })).status,
      201,
    );
    await expectError(
      t.json("PUT", `/v1/secrets/${"n".repeat(64)}`, { body: secrets({ A: "1" }) }),
      400,
      "VALIDATION_ERROR",
    );
    assert.equal(
      (await t.json("PUT", "/v1/secrets/keys", { body: secrets({ ["K".repeat(128)]: "1" }) }))
        .status,
      201,
    );
    await expectError(
      t.json("PUT", "/v1/secrets/keys", { body: secrets({ ["K".repeat(129)]: "1" }) }),
      400,
      "VALIDATION_ERROR",
    );
    await expectError(
      t.json("DELETE", `/v1/secrets/keys/keys/${"K".repeat(129)}`),
      400,
      "VALIDATION_ERROR",
    );
  },
);

backendTest(
  "limit: a value of exactly the maximum UTF-8 bytes passes, one byte more is 413",
  async (backend) => {
    await using t = await testApp(backend);
    const max = DEFAULT_LIMITS.maxValueBytes;
    assert.equal(
      (await t.json("PUT", "/v1/secrets/v", { body: secrets({ A: "x".repeat(max) }) })).status,
      201,
    );
    // Two bytes a character: the limit counts bytes, not characters.
    assert.equal(
      (await t.json("PUT", "/v1/secrets/v", { body: secrets({ B: "é".repeat(max / 2) }) })).status,
      200,
    );
    const over = await expectError(
      t.json("PUT", "/v1/secrets/v", {
        body: secrets({ C: "é".repeat(max / 2) + "x", D: "fine" }),
      }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    assert.deepEqual(over.details, [{ field: "secrets.C", message: `is over ${max} bytes` }]);
    await expectError(
      t.json("PUT", "/v1/secrets/r", {
        body: { type: "imagePullSecret", host: "r.io", credentials: "x".repeat(max + 1) },
      }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    assert.deepEqual((await t.json("GET", "/v1/secrets/v")).body.keys, ["A", "B"]);
  },
);

backendTest(
  "limit: a body of exactly the maximum bytes is read, one byte more is 413",
  async (backend) => {
    await using t = await testApp(backend);
    const max = DEFAULT_LIMITS.maxBodyBytes;
    const bodyOfSize = (size: number) => {
      const values: Record<string, string> = {};
      for (let i = 0; i < 17; i++) values[`K${i}`] = "x".repeat(60_000);
      const base = JSON.stringify(secrets({ ...values, PAD: "" })).length;
      values.PAD = "y".repeat(size - base);
      const text = JSON.stringify(secrets(values));
      assert.equal(text.length, size);
      return text;
    };
    assert.equal((await t.json("PUT", "/v1/secrets/big", { body: bodyOfSize(max) })).status, 201);
    await expectError(
      t.json("PUT", "/v1/secrets/big", { body: bodyOfSize(max + 1) }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  },
);

Deno.test("a body that stalls part-way is answered 400 once its time is up, and nothing is written", async () => {
  await using t = await testApp(BACKENDS[0], { bodyReadTimeoutMs: 300 });
  // Half a body, and then nothing: the stream never closes, as a client that stopped sending.
  const half = new TextEncoder().encode('{"type":"secret","secrets":{"A":');
  const stall = async (name: string, headers?: Record<string, string>) => {
    const started = performance.now();
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(half) });
    const response = await withDeadline(
      t.call("PUT", `/v1/secrets/${name}`, { body: stalled, headers }),
      10_000,
    );
    return { response, body: await response.json(), tookMs: performance.now() - started };
  };
  // The second starts while the first waits: each is cut at its own deadline, not the other's.
  // The first declares its length, which is read whole; the second's is read as it streams.
  const first = stall("first", { "content-length": "1000" });
  await new Promise((resolve) => setTimeout(resolve, 150));
  const second = stall("second");
  const answers = { first: await first, second: await second };
  for (const [name, { response, body, tookMs }] of Object.entries(answers)) {
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match(body.error, /did not arrive within 0.3 seconds/);
    assert.equal(response.headers.get("connection"), "close");
    assert.ok(tookMs >= 300, `${name}: cut after ${tookMs} ms, before its time`);
    assert.equal((await t.json("GET", `/v1/secrets/${name}`)).status, 404);
  }
});

backendTest(
  "limit: keys per set and sets per organization, at and over the edge",
  async (backend) => {
    await using t = await testApp(backend, {
      limits: { maxKeysPerSet: 3, maxSetsPerOrganization: 2 },
    });
    assert.equal(
      (await t.json("PUT", "/v1/secrets/a", { body: secrets({ A: "1", B: "1", C: "1" }) })).status,
      201,
    );
    const keys = await expectError(
      t.json("PUT", "/v1/secrets/a", { body: secrets({ D: "1" }) }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(keys.details, [{
      field: "secrets",
      message: "the set would hold 4 keys; at most 3 are allowed",
    }]);
    assert.equal((await t.json("PUT", "/v1/secrets/b", { body: secrets({ A: "1" }) })).status, 201);
    const sets = await expectError(
      t.json("PUT", "/v1/secrets/c", { body: secrets({ A: "1" }) }),
      400,
      "VALIDATION_ERROR",
    );
    assert.match(sets.details[0].message, /already has 2 sets/);
    // Updating an existing set is not a new set.
    assert.equal((await t.json("PUT", "/v1/secrets/b", { body: secrets({ B: "1" }) })).status, 200);
  },
);

// --- DELETE ---

backendTest(
  "DELETE a key, at the documented path and at ours: 200 with the summary; 404 for an unknown key or set",
  async (backend) => {
    await using t = await testApp(backend);
    await t.json("PUT", "/v1/secrets/app", { body: secrets({ A: "1", B: "2", C: "3" }) });
    const { status, body } = await t.json("DELETE", "/v1/secrets/app/A");
    assert.equal(status, 200);
    assert.deepEqual(body, {
      status: "OK",
      set: { name: "app", type: "secret", region: "us-west", status: "pending" },
    });
    assert.deepEqual((await t.json("GET", "/v1/secrets/app")).body.keys, ["B", "C"]);
    const ours = await t.json("DELETE", "/v1/secrets/app/keys/B");
    assert.deepEqual([ours.status, ours.body.status], [200, "OK"]);
    assert.deepEqual((await t.json("GET", "/v1/secrets/app")).body.keys, ["C"]);
    for (const path of ["/v1/secrets/app/A", "/v1/secrets/app/keys/A", "/v1/secrets/nope/A"]) {
      await expectError(t.json("DELETE", path), 404, "NOT_FOUND");
    }
  },
);

backendTest(
  "DELETE a set: 200 {status: OK}, gone with its values; 404 the second time",
  async (backend) => {
    await using t = await testApp(backend);
    await t.json("PUT", "/v1/secrets/app", { body: secrets({ A: "1" }) });
    const deleted = await t.json("DELETE", "/v1/secrets/app");
    assert.deepEqual([deleted.status, deleted.body], [200, { status: "OK" }]);
    await expectError(t.json("GET", "/v1/secrets/app"), 404, "NOT_FOUND");
    await expectError(t.json("DELETE", "/v1/secrets/app"), 404, "NOT_FOUND");
    assert.deepEqual(
      (await t.json("PUT", "/v1/secrets/app", { body: secrets({ B: "1" }) })).body.created,
      ["B"],
    );
  },
);

// --- regions, document, health, unknown routes ---

backendTest("GET /regions lists the organization's regions and its default", async (backend) => {
  await using t = await testApp(backend, {
    regions: ["eu-central", "us-east"],
    defaultRegion: "us-east",
  });
  assert.deepEqual((await t.json("GET", "/v1/regions")).body, {
    regions: [
      { code: "eu-central", display_name: "EU Central", name: "EU Central" },
      { code: "us-east", display_name: "US East", name: "US East" },
    ],
    default: "us-east",
  });
  const created = await t.json("PUT", "/v1/secrets/a", { body: secrets({ A: "1" }) });
  assert.equal(created.body.set.region, "us-east");
  await expectError(t.json("GET", "/v1/regions", { key: null }), 401, "UNAUTHORIZED");
});

backendTest(
  "GET /openapi.json: OpenAPI 3.1, version 1.0.0, no key needed, built from the wire schemas",
  async (backend) => {
    await using t = await testApp(backend);
    const { status, body: document } = await t.json("GET", "/v1/openapi.json", { key: null });
    assert.equal(status, 200);
    assert.equal(document.openapi, "3.1.0");
    assert.equal(document.info.version, "1.0.0");
    assert.equal(document.paths["/secrets"].get.operationId, "listSecretSets");
    assert.deepEqual(Object.keys(document.paths).sort(), [
      "/audit",
      "/me",
      "/openapi.json",
      "/organizations",
      "/organizations/{organization}/properties",
      "/organizations/{organization}/regions",
      "/organizations/{organization}/secrets",
      "/organizations/{organization}/secrets/{setName}",
      "/organizations/{organization}/secrets/{setName}/{secretKey}",
      "/regions",
      "/runtime/secrets/{setName}",
      "/secrets",
      "/secrets/{setName}",
      "/secrets/{setName}/keys/{secretKey}",
      "/secrets/{setName}/rollback",
      "/secrets/{setName}/versions",
      "/secrets/{setName}/versions/purge",
      "/secrets/{setName}/versions/{version}",
      "/secrets/{setName}/{secretKey}",
    ]);
    assert.deepEqual(
      document.paths["/secrets"].get.parameters.map((
        p: { name: string; in: string },
      ) => [p.name, p.in]),
      [["region", "query"]],
    );
    // The documented operations, under their documented ids.
    assert.deepEqual(
      [
        document.paths["/secrets/{setName}"].put.operationId,
        document.paths["/secrets/{setName}"].delete.operationId,
        document.paths["/secrets/{setName}/{secretKey}"].delete.operationId,
      ],
      ["upsertSecretSet", "deleteSecretSet", "deleteSecretFromSet"],
    );
    assert.deepEqual(Object.keys(document.components.schemas.SecretSetSummary.properties), [
      "name",
      "type",
      "region",
      "status",
      "errorMessage",
    ]);
    assert.deepEqual(document.components.schemas.SecretSetSummary.properties.type.enum, [
      "secret",
      "imagePullSecret",
    ]);
    assert.deepEqual(document.components.schemas.ErrorResponse.required, ["error", "code"]);
    assert.deepEqual(Object.keys(document.paths["/secrets"].get.responses).sort(), [
      "200",
      "400",
      "401",
      "429",
      "500",
      "503",
    ]);
  },
);

backendTest(
  "unknown routes are 404 and wrong methods 405 with Allow, as ErrorResponses",
  async (backend) => {
    await using t = await testApp(backend);
    // Its own code: a client tells a wrong URL from a missing set by it.
    await expectError(t.json("GET", "/v1/nope"), 404, "ROUTE_NOT_FOUND");
    await expectError(t.json("GET", "/nope", { key: null }), 404, "ROUTE_NOT_FOUND");
    await expectError(t.json("GET", "/v1/secrets/a/b/c"), 404, "ROUTE_NOT_FOUND");
    // Paths that end like the list, which is answered ahead of hono's router, are not the list.
    for (const path of ["/x/v1/secrets", "/v1/v1/secrets", "/v1/secrets/"]) {
      await expectError(t.json("GET", path), 404, "ROUTE_NOT_FOUND");
    }
    const post = await t.json("POST", "/v1/secrets");
    await expectError(Promise.resolve(post), 405, "METHOD_NOT_ALLOWED");
    assert.equal(post.response.headers.get("allow"), "GET, HEAD");
    const patch = await t.json("PATCH", "/v1/secrets/a");
    assert.equal(patch.status, 405);
    assert.equal(patch.response.headers.get("allow"), "GET, PUT, DELETE, HEAD");
    // Without a key, /v1 answers 401 before saying anything about its routes.
    await expectError(t.json("GET", "/v1/nope", { key: null }), 401, "UNAUTHORIZED");
  },
);

backendTest("/healthz answers without a key; HEAD works where GET does", async (backend) => {
  await using t = await testApp(backend);
  assert.deepEqual((await t.json("GET", "/healthz", { key: null })).body, { status: "ok" });
  await t.json("PUT", "/v1/secrets/app", { body: secrets({ A: "1" }) });
  for (const path of ["/v1/secrets", "/v1/secrets/app", "/v1/regions", "/healthz"]) {
    const get = await t.call("GET", path);
    const head = await t.call("HEAD", path);
    assert.equal(head.status, get.status, path);
    const length = new TextEncoder().encode(await get.text()).length;
    assert.ok(length > 0, path);
    assert.equal(head.headers.get("content-length"), String(length), `${path}: HEAD's length`);
    assert.equal(await head.text(), "", `${path}: HEAD has no body`);
  }
});

backendTest("X-Request-Id: a sane incoming id is kept, anything else replaced", async (backend) => {
  await using t = await testApp(backend);
  for (const id of ["0af7651916cd43dd8448eb211c80319c", "123e4567-e89b-12d3-a456-426614174000"]) {
    const kept = await t.call("GET", "/v1/secrets", { headers: { "x-request-id": id } });
    assert.equal(kept.headers.get("x-request-id"), id);
  }
  // A key, or anything that could hold one, never reaches the logs through the request id.
  for (
    const id of ["bad id with spaces", t.key, t.key.slice(24), "client-abc.123", "f".repeat(65)]
  ) {
    const replaced = await t.call("GET", "/nope", { headers: { "x-request-id": id } });
    assert.match(replaced.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/, id.slice(0, 8));
    assert.notEqual(replaced.headers.get("x-request-id"), id);
  }
  const ids = new Set(
    await Promise.all(
      [1, 2, 3].map(async () => (await t.call("GET", "/v1/secrets")).headers.get("x-request-id")),
    ),
  );
  assert.equal(ids.size, 3);
});

backendTest(
  "rate limit: 429 RATE_LIMITED with Retry-After once a key's burst is spent; other keys unaffected",
  async (backend) => {
    const clock = fakeClock();
    await using t = await testApp(backend, {
      rateLimit: { perSecond: 2, burst: 3 },
      clock: clock.now,
    });
    const other = await addKey(t.storage, "globex");
    for (let i = 0; i < 3; i++) assert.equal((await t.json("GET", "/v1/secrets")).status, 200);
    const limited = await t.json("GET", "/v1/secrets");
    await expectError(Promise.resolve(limited), 429, "RATE_LIMITED");
    assert.equal(limited.response.headers.get("retry-after"), "1");
    assert.equal((await t.json("GET", "/v1/secrets", { key: other })).status, 200);
    clock.advance(500);
    assert.equal(
      (await t.json("GET", "/v1/secrets")).status,
      200,
      "one token back after half a second",
    );
    assert.equal((await t.json("GET", "/v1/secrets")).status, 429);
  },
);

backendTest(
  "GET /v1/secrets, answered ahead of hono, answers and logs as hono's route does, errors included",
  async (backend) => {
    await using t = await testApp(backend);
    await t.json("PUT", "/v1/secrets/app", { body: secrets({ TOKEN: "1" }) });
    await t.json("PUT", "/v1/secrets/web", { body: secrets({ TOKEN: "2" }) });
    const runtimeKey = await addRuntimeKey(t.storage, "acme", ["app"]);
    const expiredKey = await addRuntimeKey(t.storage, "acme", ["app"], Date.now() - 1);
    const failing = { on: false };
    const storage = new Proxy(t.storage, {
      get(target, name, receiver) {
        const method = Reflect.get(target, name, receiver);
        if (name !== "setsVersion") return method;
        return (...args: unknown[]) =>
          failing.on ? Promise.reject(new Error("database is down")) : method.apply(target, args);
      },
    });
    // Two servers alike, asked the same things in the same order: one for the path as such (the
    // path ahead of hono), one with an empty query (hono's route, which reads no query then).
    const clock = fakeClock(Date.now());
    const server = () => {
      const logged: LogEntry[] = [];
      const app = createApp(storage, {
        vault: t.vault,
        logger: (entry) => void logged.push(entry),
        clock: clock.now,
        rateLimit: { perSecond: 0.001, burst: 9 },
      });
      return async (path: string, headers: Record<string, string>) => {
        const response = await app.request("http://localhost" + path, { headers });
        const requestId = response.headers.get("x-request-id");
        return {
          status: response.status,
          headers: [...response.headers].filter(([name]) => name !== "x-request-id"),
          body: await response.text(),
          // Each line names the answer's request id; all else in it must be alike.
          logged: logged.splice(0).map(({ durationMs: _, requestId: id, ...rest }) => ({
            ...rest,
            sameId: id === requestId,
          })),
          givenId: headers["x-request-id"] === undefined || headers["x-request-id"] === requestId,
        };
      };
    };
    const ahead = server();
    const throughHono = server();
    const asks: [string, Record<string, string>][] = [
      ["a list", { authorization: `Bearer ${t.key}`, "x-request-id": "0af7651916cd43dd" }],
      ["no key", {}],
      ["not Bearer", { authorization: `Basic ${btoa("a:b")}` }],
      ["a malformed key", { authorization: "Bearer vb_sk_nope" }],
      ["an unknown key", { authorization: `Bearer ${t.key.slice(0, -4)}AAAA` }],
      ["a runtime key", { authorization: `Bearer ${runtimeKey}` }],
      ["an expired key", { authorization: `Bearer ${expiredKey}` }],
      ["a database that fails", { authorization: `Bearer ${t.key}` }],
      ...Array.from({ length: 9 }, (): [string, Record<string, string>] => [
        "a key over its rate",
        { authorization: `Bearer ${t.key}` },
      ]),
    ];
    const statuses = [];
    for (const [what, headers] of asks) {
      failing.on = what === "a database that fails";
      // Past its freshness, the list is read from the database again: here, one that fails.
      if (failing.on) clock.advance(LIST_FRESHNESS_MS);
      const answer = await ahead("/v1/secrets", headers);
      assert.deepEqual(answer, await throughHono("/v1/secrets?", headers), what);
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [
      200,
      401,
      401,
      401,
      401,
      401,
      401,
      500,
      ...Array(7).fill(200),
      429,
      429,
    ]);
  },
);

backendTest(
  "the cached list follows writes made through another server on the same database",
  async (backend) => {
    await using t = await testApp(backend);
    // A second app over the same storage stands for a second server process; its clock says
    // when its cached list may be LIST_FRESHNESS_MS old.
    const clock = fakeClock();
    const other = createApp(t.storage, { vault: t.vault, logger: silentLogger, clock: clock.now });
    const listVia = async (
      app: { request: (url: string, init: RequestInit) => Response | Promise<Response> },
    ) => {
      const response = await app.request("http://localhost/v1/secrets", {
        headers: { authorization: `Bearer ${t.key}` },
      });
      return ((await response.json()) as { sets: { name: string }[] }).sets.map((set) => set.name);
    };
    assert.deepEqual(await listVia(other), []);
    await t.json("PUT", "/v1/secrets/a", { body: secrets({ A: "1" }) });
    // The writer's own list shows its write at once.
    assert.deepEqual((await t.json("GET", "/v1/secrets")).body.sets.map((s: JsonBody) => s.name), [
      "a",
    ]);
    clock.advance(LIST_FRESHNESS_MS);
    assert.deepEqual(await listVia(other), ["a"], "another server shows it within the bound");
    await t.json("DELETE", "/v1/secrets/a");
    clock.advance(LIST_FRESHNESS_MS);
    assert.deepEqual(await listVia(other), []);
  },
);

backendTest(
  "requests that find the caches stale together share one database read; a list asked after a write is read after it",
  async (backend) => {
    await using t = await testApp(backend);
    // Counts the reads behind the key and list caches; while `gate.held` is set, a list read
    // (done) waits for it before it answers, as a slow database would.
    const reads = { findApiKey: 0, setsVersion: 0, listSets: 0 };
    const gate: { held?: Promise<void> } = {};
    const storage = new Proxy(t.storage, {
      get(target, name, receiver) {
        const method = Reflect.get(target, name, receiver);
        if (typeof name !== "string" || !(name in reads)) return method;
        return async (...args: unknown[]) => {
          reads[name as keyof typeof reads]++;
          const result = await method.apply(target, args);
          if (name !== "findApiKey") await gate.held;
          return result;
        };
      },
    });
    const clock = fakeClock();
    const app = createApp(storage, { vault: t.vault, logger: silentLogger, clock: clock.now });
    const call = async (method = "GET", path = "/v1/secrets", body?: unknown) => {
      const response = await app.request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const lists = await Promise.all(Array.from({ length: 16 }, () => call()));
    assert.deepEqual(lists.map(({ status }) => status), Array(16).fill(200));
    assert.deepEqual(reads, { findApiKey: 1, setsVersion: 1, listSets: 1 });

    // A list read under way when a write is acknowledged is not the answer to a later request.
    clock.advance(LIST_FRESHNESS_MS);
    let release!: () => void;
    gate.held = new Promise((resolve) => release = resolve);
    const before = call();
    await waitFor("the list read", () => reads.setsVersion === 2 || undefined, 5_000);
    assert.equal((await call("PUT", "/v1/secrets/a", secrets({ A: "1" }))).status, 201);
    const after = call();
    release();
    assert.deepEqual((await after).body.sets.map((set: JsonBody) => set.name), ["a"]);
    assert.equal((await before).status, 200);
  },
);

backendTest("GET /me: the key's organization and public id; 401 without a key", async (backend) => {
  await using t = await testApp(backend);
  const other = await addKey(t.storage, "beta");
  const me = await t.json("GET", "/v1/me");
  assert.equal(me.status, 200);
  assert.deepEqual(me.body, { organization: "acme", keyId: t.key.split("_")[2] });
  assert.equal((await t.json("GET", "/v1/me", { key: other })).body.organization, "beta");
  await expectError(t.json("GET", "/v1/me", { key: null }), 401, "UNAUTHORIZED");
  // Never the key itself.
  assert.ok(!JSON.stringify(me.body).includes(t.key));
});
