/**
 * The API client over the real app (`app.request`) and a real temporary SQLite database, plus
 * fetch wrappers that inject 5xx, 429, connection failures and silence to test retries.
 */
import assert from "node:assert/strict";
import { AuthError, NotFoundError, UsageError, VoicebotError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { createApp } from "../server/app.ts";
import { generateApiKey, Vault } from "../server/crypto.ts";
import { silentLogger } from "../server/log.ts";
import { openStorage } from "../server/storage/open.ts";
import { type Fetch, normalizeApiUrl, retryAfter, SecretsClient } from "./client.ts";

// https: an http:// URL to a host other than loopback is refused (see the last test).
const BASE = "https://api.test/v1";

async function withApp(fn: (app: { fetch: Fetch; key: string }) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "voicebot-client-test-" });
  const storage = await openStorage(`${dir}/voicebot.db`);
  try {
    const key = generateApiKey();
    await storage.addApiKey("acme", { id: key.id, hash: key.hash, now: Date.now() });
    const vault = await Vault.fromRawKey(crypto.getRandomValues(new Uint8Array(32)));
    const app = createApp(storage, { vault, logger: silentLogger });
    // The app is mounted at /v1, as behind the real server.
    await fn({ fetch: (request) => app.request(request), key: key.key });
  } finally {
    await storage.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const noSleep = { sleep: () => Promise.resolve() };

const pairs = (values: Record<string, string>) =>
  Object.entries(values).map(([secretKey, secretValue]) => ({ secretKey, secretValue }));

Deno.test("the client speaks the documented routes of the real app, with its headers", async () => {
  await withApp(async ({ fetch, key }) => {
    const seen: Request[] = [];
    const client = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: (request) => (seen.push(request.clone()), fetch(request)),
    });
    assert.deepEqual(await client.listSets(), []);
    const put = await client.putSet("bot", { secrets: pairs({ A: "1", B: "2" }) });
    assert.deepEqual(put.created, ["A", "B"]);
    assert.equal(put.region, "us-west");
    assert.equal(put.set?.region, "us-west");
    assert.ok(client.offers("replace") && client.offers("fingerprints") && client.offers("me"));
    assert.deepEqual((await client.getSet("bot")).keys, ["A", "B"]);
    assert.deepEqual(await client.listSets("us-east"), []);
    const removed = await client.deleteKey("bot", "A");
    assert.ok(!removed.alreadyGone);
    assert.equal(removed.response.set?.name, "bot");
    assert.equal((await client.regions()).default, "us-west");
    await client.deleteSet("bot");
    assert.deepEqual(await client.listSets(), []);

    // Documented paths only: nothing here needs voicebot's own.
    assert.deepEqual(
      seen.map((r) => `${r.method} ${new URL(r.url).pathname}${new URL(r.url).search}`),
      [
        "GET /v1/secrets",
        "PUT /v1/secrets/bot",
        "GET /v1/secrets/bot",
        "GET /v1/secrets?region=us-east",
        "DELETE /v1/secrets/bot/A",
        "GET /v1/regions",
        "DELETE /v1/secrets/bot",
        "GET /v1/secrets",
      ],
    );

    const first = seen[0];
    assert.equal(first.url, `${BASE}/secrets`);
    assert.equal(first.headers.get("authorization"), `Bearer ${key}`);
    assert.equal(first.headers.get("user-agent"), `voicebot/${VERSION}`);
    assert.equal(first.headers.get("accept"), "application/json");
    assert.equal(seen[1].headers.get("content-type"), "application/json");
  });
});

Deno.test("extensions are learnt without the key: one GET /secrets, its 401 read", async () => {
  await withApp(async ({ fetch, key }) => {
    const seen: Request[] = [];
    const client = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: (request) => (seen.push(request.clone()), fetch(request)),
      ...noSleep,
    });
    assert.ok(!client.offers("runtime"));
    await client.discoverExtensions();
    assert.ok(client.offers("runtime") && client.offers("replace"));
    assert.deepEqual(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`), [
      "GET /v1/secrets",
    ]);
    assert.equal(seen[0].headers.get("authorization"), null, "the key is not sent");

    // A server of the documentation only: its 401 names nothing, and nothing is offered.
    const documentedOnly = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: () => Response.json({ error: "Unauthorized", code: "UNAUTHORIZED" }, { status: 401 }),
      ...noSleep,
    });
    await documentedOnly.discoverExtensions();
    assert.ok(!documentedOnly.offers("runtime"));

    // An answer that says nothing of the server is the error it is, after the retries.
    const down = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: () => Response.json({ error: "down", code: "BAD_GATEWAY" }, { status: 502 }),
      ...noSleep,
    });
    const error = await down.discoverExtensions().catch((e) => e);
    assert.equal(error.api?.status, 502);
  });
});

Deno.test("API errors become typed errors with status, code and the server's request id", async () => {
  await withApp(async ({ fetch, key }) => {
    const client = new SecretsClient({ baseUrl: BASE, apiKey: key, fetch });
    const notFound = await client.getSet("nope").catch((e) => e);
    assert.ok(notFound instanceof NotFoundError);
    assert.equal(notFound.api?.status, 404);
    assert.equal(notFound.api?.code, "NOT_FOUND");
    assert.match(notFound.api?.requestId ?? "", /\S/);

    const bad = await client.putSet("bot", { secrets: pairs({ A: "1" }), region: "mars" })
      .catch((e) => e);
    assert.ok(bad instanceof UsageError, String(bad));
    assert.equal(bad.api?.code, "VALIDATION_ERROR");
    assert.ok(bad.problems.length > 0);

    await client.putSet("taken", { secrets: pairs({ A: "1" }) });
    // The documented 400 for a change of type: a request that cannot succeed, as any 400.
    const otherType = await client.putSet("taken", {
      isImagePullSecret: true,
      host: "registry.example.com",
      secretValue: btoa("u:p"),
    }).catch((e) => e);
    assert.ok(otherType instanceof UsageError, String(otherType));
    assert.equal(otherType.api?.code, "GENERIC_BAD_REQUEST");
    assert.match(otherType.message, /"taken" already exists as a secret set/);

    const wrong = new SecretsClient({ baseUrl: BASE, apiKey: "vb_sk_nope", fetch, ...noSleep });
    const auth = await wrong.listSets().catch((e) => e);
    assert.ok(auth instanceof AuthError);
    assert.equal(auth.api?.status, 401);
    assert.match(auth.hint ?? "", /voicebot cloud auth login/);
    assert.ok(!auth.message.includes("vb_sk_nope"));
  });
});

Deno.test("5xx and 429 are retried with backoff; Retry-After is honoured up to a bound", async () => {
  await withApp(async ({ fetch, key }) => {
    const waits: number[] = [];
    let failures = 2;
    const flaky: Fetch = (request) => {
      if (failures-- > 0) {
        return new Response(JSON.stringify({ error: "busy", code: "RATE_LIMITED" }), {
          status: 429,
          headers: { "retry-after": "2" },
        });
      }
      return fetch(request);
    };
    const client = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: flaky,
      sleep: (ms) => (waits.push(ms), Promise.resolve()),
    });
    assert.deepEqual(await client.listSets(), []);
    assert.deepEqual(waits, [2000, 2000]);

    // Over the bound: no wait, the error says when to come back.
    const slow = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: () =>
        new Response(JSON.stringify({ error: "busy", code: "RATE_LIMITED" }), {
          status: 429,
          headers: { "retry-after": "120" },
        }),
      sleep: () => Promise.reject(new Error("must not wait")),
    });
    const error = await slow.listSets().catch((e) => e);
    assert.ok(error instanceof VoicebotError);
    assert.match(error.hint ?? "", /try again in 120 s/);

    // A 500 every time: three attempts, then the server's error.
    let calls = 0;
    const broken = new SecretsClient({
      baseUrl: BASE,
      apiKey: key,
      fetch: () => (calls++,
        new Response(
          JSON.stringify({ error: "Internal server error.", code: "INTERNAL_ERROR" }),
          {
            status: 500,
          },
        )),
      ...noSleep,
    });
    const internal = await broken.listSets().catch((e) => e);
    assert.equal(calls, 3);
    assert.equal(internal.api?.code, "INTERNAL_ERROR");
  });
});

Deno.test("a connection failure is retried, then names the URL; a silent server times out", async () => {
  let calls = 0;
  const refused = new SecretsClient({
    baseUrl: "http://127.0.0.1:9/v1",
    apiKey: "k",
    fetch: () => {
      calls++;
      throw new TypeError("fetch failed", {
        cause: new Error("Connection refused (os error 111)"),
      });
    },
    ...noSleep,
  });
  const error = await refused.listSets().catch((e) => e);
  assert.equal(calls, 3);
  assert.match(
    error.message,
    /cannot reach the voicebot API at http:\/\/127\.0\.0\.1:9\/v1\/secrets/,
  );
  assert.match(error.message, /connection refused/);

  const silent = new SecretsClient({
    baseUrl: BASE,
    apiKey: "k",
    timeoutMs: 50,
    attempts: 1,
    fetch: (request) =>
      new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(request.signal.reason))
      ),
  });
  const timeout = await silent.listSets().catch((e) => e);
  assert.match(timeout.message, /no answer within 0\.1 s|no answer within 0\.05 s/);
  assert.match(timeout.hint, /VOICEBOT_API_TIMEOUT/);
});

Deno.test("a body that does not match the schema is an error, not a crash later", async () => {
  const client = new SecretsClient({
    baseUrl: BASE,
    apiKey: "k",
    fetch: () => Response.json({ sets: "not a list" }),
  });
  const error = await client.listSets().catch((e) => e);
  assert.ok(error instanceof VoicebotError);
  assert.match(error.message, /does not understand/);
});

Deno.test("API URLs: a bare origin means /v1; credentials in the URL are refused", () => {
  assert.equal(normalizeApiUrl("http://127.0.0.1:8787"), "http://127.0.0.1:8787/v1");
  assert.equal(normalizeApiUrl("http://127.0.0.1:8787/"), "http://127.0.0.1:8787/v1");
  assert.equal(normalizeApiUrl("https://api.example.com/v1/"), "https://api.example.com/v1");
  assert.throws(() => normalizeApiUrl("ftp://x"), UsageError);
  assert.throws(() => normalizeApiUrl("not a url"), UsageError);
  assert.throws(() => normalizeApiUrl("http://user:pw@x/v1"), UsageError);
  assert.equal(retryAfter("3"), 3000);
  assert.equal(retryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
  assert.equal(retryAfter("soon"), undefined);
});

Deno.test("http:// goes only to this machine's loopback, unless insecure", () => {
  const client = (baseUrl: string, insecure?: boolean) =>
    new SecretsClient({ baseUrl, apiKey: "k", fetch: () => Response.json({}), insecure });
  for (const url of ["http://127.0.0.1:8787", "http://127.9.8.7/v1", "http://localhost/v1"]) {
    assert.ok(client(url));
  }
  assert.ok(client("http://[::1]:8787/v1"));
  for (
    const url of ["http://10.0.0.2/v1", "http://127.0.0.1.example.com/v1", "http://0.0.0.0/v1"]
  ) {
    assert.throws(() => client(url), UsageError, url);
    assert.ok(client(url, true));
  }
});
