/**
 * Fuzzing the API with random methods, paths, headers and bodies: never a 5xx, never a crash,
 * every error body an ErrorResponse, every response with a request id. In process on every
 * backend, then over a real socket.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ErrorResponse } from "../src/secrets/schemas.ts";
import {
  BACKENDS,
  backendTest,
  REQUEST_TIMEOUT_MS,
  spawnServer,
  testApp,
} from "./helpers_server.ts";

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** Requests near the real ones (known routes, real keys, JSON bodies) as well as far from them. */
function requests(validKey: string): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(
    fc.constantFrom(
      "v1",
      "secrets",
      "keys",
      "regions",
      "openapi.json",
      "healthz",
      "app",
      "A_KEY",
      "",
    ),
    fc.string({ maxLength: 70 }).map(encodeURIComponent),
    fc.constantFrom("%", "%zz", "..", "%2F", "n".repeat(64)),
  );
  const name = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("app", "other", "reg") }, segment);
  // Mostly the real routes, so that requests get past routing and authentication.
  const path = fc.oneof(
    { weight: 4, arbitrary: name.map((n) => `/v1/secrets/${n}`) },
    {
      weight: 2,
      arbitrary: fc.tuple(name, segment).map(([n, key]) => `/v1/secrets/${n}/keys/${key}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("/v1/secrets", "/v1/regions", "/v1/openapi.json", "/healthz"),
    },
    {
      weight: 1,
      arbitrary: fc.array(segment, { maxLength: 6 }).map((parts) => "/" + parts.join("/")),
    },
  );
  const authorization = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(`Bearer ${validKey}`, `bearer  ${validKey}`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }).map((token) => `Bearer ${token}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "Bearer", "Basic abc", `Bearer ${validKey.slice(0, -1)}x`),
    },
  );
  const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  });
  const headers = fc.record(
    {
      authorization,
      "content-type": fc.oneof(
        { weight: 4, arbitrary: fc.constant("application/json") },
        fc.constantFrom(
          "application/json",
          "application/json; charset=utf-8",
          "text/plain",
          "application/x-www-form-urlencoded",
          "",
        ),
        printable,
      ),
      "x-request-id": printable,
      accept: printable,
    },
    { requiredKeys: ["authorization", "content-type"] },
  );
  const keyName = fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const anything = fc.jsonValue({ maxDepth: 2 });
  const secretsBody = fc.record(
    {
      type: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom("secret", "imagePullSecret") },
        anything,
      ),
      region: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom("us-west", "eu-central", "mars") },
        anything,
      ),
      secrets: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.dictionary(
            keyName,
            fc.oneof({ weight: 5, arbitrary: fc.string() }, anything),
          ),
        },
        anything,
      ),
      replace: fc.oneof(fc.boolean(), anything),
      host: fc.oneof(fc.domain(), fc.string()),
      credentials: fc.oneof(fc.base64String(), fc.string()),
    },
    { requiredKeys: ["type"] },
  ).map((value) => JSON.stringify(value));
  const wellFormed = fc.oneof(
    fc.record({
      type: fc.constant("secret"),
      secrets: fc.dictionary(fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/), fc.string(), {
        minKeys: 1,
      }),
      replace: fc.boolean(),
    }),
    fc.record({
      type: fc.constant("imagePullSecret"),
      host: fc.domain(),
      credentials: fc.base64String({ minLength: 4 }),
    }),
  ).map((value) => JSON.stringify(value));
  const body = fc.option(
    fc.oneof(
      { weight: 3, arbitrary: wellFormed },
      { weight: 3, arbitrary: secretsBody },
      fc.json(),
      fc.string(),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => new Uint8Array(bytes)),
    ),
    { nil: undefined },
  );
  const method = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("PUT", "GET", "DELETE") },
    { weight: 1, arbitrary: fc.constantFrom("POST", "PATCH", "HEAD", "OPTIONS") },
  );
  return fc.record({ method, path, headers, body });
}

async function checkResponse(request: FuzzRequest, response: Response, validKey: string) {
  const text = await response.text();
  const context = `${request.method} ${request.path} -> ${response.status} ${text.slice(0, 200)}`;
  assert.ok(response.status < 500, context);
  assert.ok(response.headers.get("x-request-id"), context);
  // Anything but the real key (a wrong secret for its id included) never gets past /v1's door.
  const token = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization)?.[1];
  const path = new URL(`http://x${request.path}`).pathname; // as the server sees it
  if (token !== validKey && path.startsWith("/v1/") && path !== "/v1/openapi.json") {
    assert.equal(response.status, 401, `not the key, yet: ${context}`);
  }
  if (response.status >= 400 && request.method !== "HEAD") {
    assert.ok(ErrorResponse.safeParse(JSON.parse(text)).success, context);
  }
}

const withBody = (request: FuzzRequest) =>
  request.method === "GET" || request.method === "HEAD" ? undefined : request.body;

backendTest("fuzz, in process: no 5xx, every error an ErrorResponse", async (backend) => {
  await using t = await testApp(backend);
  await t.json("PUT", "/v1/secrets/app", { body: { type: "secret", secrets: { A_KEY: "1" } } });
  await fc.assert(
    fc.asyncProperty(requests(t.key), async (request) => {
      const response = await t.call(request.method, request.path, {
        key: null,
        headers: request.headers,
        body: withBody(request),
      });
      await checkResponse(request, response, t.key);
    }),
    { numRuns: 300 },
  );
});

Deno.test("fuzz, over a socket: no 5xx, no crash, still healthy afterwards", async () => {
  await using database = await BACKENDS[0].database();
  await using server = await spawnServer(database.spec, { args: ["--rate-limit", "0"] });
  const origin = new URL(server.baseUrl).origin;
  await fc.assert(
    fc.asyncProperty(requests(server.bootstrapKey!), async (request) => {
      let outgoing: Request;
      try {
        outgoing = new Request(origin + request.path, {
          method: request.method,
          headers: request.headers,
          body: withBody(request),
          signal: AbortSignal.timeout(10_000),
        });
      } catch {
        return; // a request fetch refuses to build never reaches the server
      }
      // Once built, any failure to get an answer is the server's.
      const response = await fetch(outgoing);
      await checkResponse(request, response, server.bootstrapKey!);
    }),
    { numRuns: 150 },
  );
  const health = await fetch(`${origin}/healthz`, {
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  assert.equal(health.status, 200);
  await health.body?.cancel();
  assert.ok(
    !server.stderr().includes('"level":"error"'),
    server.stderr().split("\n").filter((l) => l.includes('"error"')).join("\n"),
  );
});
