/**
 * The secrets API as a fetch handler: `createApp(storage, options).fetch` is served by
 * `Deno.serve`, and tests call `.request()` on it in process.
 *
 * Order of checks on a request: under /v1 (but for the OpenAPI document) the API key (401) and
 * its rate limit (429); then the route (404, 405); for PUT the body (415, 413, 400); the name
 * and body shape (400); then the operation (404, 409, 400, 413).
 */
import { type Context, Hono, type TypedResponse } from "hono";
import { HTTPException } from "hono/http-exception";
import { matchedRoutes } from "hono/route";
import { type Hook, OpenAPIHono } from "@hono/zod-openapi";
import {
  type AuditEventBody,
  type AuditEventsResponse,
  type ErrorDetail,
  type ListSecretSetsResponse,
  putRequestSchemaFor,
  type PutSecretSetRequest,
  type RegionsResponse,
  type SecretSetSummary,
  type VersionSummary,
} from "../secrets/schemas.ts";
import { Authenticator, type Caller } from "./auth.ts";
import {
  DEFAULT_LIMITS,
  DEFAULT_REGION,
  DEFAULT_REGIONS,
  type Limits,
  type RateLimit,
  regionInfo,
} from "./config.ts";
import {
  credentialsContext,
  redactApiKeys,
  runtimeEntityTag,
  valueContext,
  type Vault,
} from "./crypto.ts";
import { utf8Length } from "../secrets/limits.ts";
import {
  normalizeRegistryHost,
  type RegistryHostRefusal,
  registryHostRefusal,
} from "../secrets/registry.ts";
import { fingerprint, importFingerprintKey } from "../secrets/fingerprint.ts";
import { ApiError, notFound, tooLarge, unauthorized, validationError } from "./errors.ts";
import type { Logger } from "./log.ts";
import { RateLimiter } from "./rate_limit.ts";
import { issuesToDetails, matchesEntityTag, readJsonBody, requestIdFor } from "./request.ts";
import * as routes from "./routes.ts";
import type {
  AuditEvent,
  Author,
  Storage,
  VersionInfo,
  WriteOutcome,
  WriteRules,
} from "./storage/types.ts";

export interface AppOptions {
  vault: Vault;
  /** Region codes offered to every organization; the first is the default unless `defaultRegion`. */
  regions?: string[];
  defaultRegion?: string;
  limits?: Partial<Limits>;
  /** Undefined: no rate limiting. */
  rateLimit?: RateLimit;
  /** Milliseconds since the epoch. */
  clock?: () => number;
  logger: Logger;
  /** Called after every successful write, to wake the provisioner. */
  onWrite?: () => void;
}

/**
 * What this server offers beyond the platform's documented API, named on every /v1 response so
 * that a client learns it from whatever it asked first: `replace` (voicebot's own PUT bodies,
 * `replace` among them), `fingerprints` (`keyDetails` and `fingerprintKey` in a set's detail),
 * `me` (`GET /me`), `registry-host` (an image pull secret's `host` may be `host[:port]`, where
 * the documentation takes a URL), `runtime` (runtime keys and `GET /runtime/secrets/{setName}`),
 * `versions` (a secret set's versions, rollback and purge), `audit` (`GET /audit`).
 */
export const EXTENSIONS = "replace, fingerprints, me, registry-host, runtime, versions, audit";

/** Bounds the memory of cached lists: up to ~75 KB each for an organization with 1,000 sets. */
const LIST_CACHE_ORGANIZATIONS = 256;
/**
 * How long a cached list is served without asking the database whether it changed: the bound
 * on how late a write made through another server process (or the provisioner) shows in a list.
 */
export const LIST_FRESHNESS_MS = 250;

/** Where runtime keys read values; every other /v1 route is for private keys. */
const RUNTIME_PREFIX = "/v1/runtime/";
/** Retry-After of a runtime read of a set that is not ready: provisioning takes moments... */
export const PENDING_RETRY_SECONDS = 1;
/** ...while a failed set stays failed until someone writes it again. */
export const FAILED_RETRY_SECONDS = 30;

type Env = { Variables: { requestId: string; orgId: string; caller: Caller; jsonBody: unknown } };

export function createApp(storage: Storage, options: AppOptions): Hono<Env> {
  const clock = options.clock ?? Date.now;
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const regionCodes = options.regions ?? DEFAULT_REGIONS;
  const defaultRegion = options.defaultRegion ?? (options.regions?.[0] ?? DEFAULT_REGION);
  if (!regionCodes.includes(defaultRegion)) {
    throw new Error(
      `the default region ${defaultRegion} is not one of the regions ${regionCodes.join(", ")}`,
    );
  }
  const regionsBody: RegionsResponse = {
    regions: regionCodes.map(regionInfo),
    default: defaultRegion,
  };
  const { vault, logger } = options;
  const authenticator = new Authenticator(storage, clock);
  const limiter = options.rateLimit && new RateLimiter(options.rateLimit, clock);
  const writeRules = (): WriteRules => ({ ...limits, defaultRegion, now: clock() });

  const regionProblem = (region: unknown): ErrorDetail[] =>
    typeof region === "string" && !regionCodes.includes(region)
      ? [{ field: "region", message: `must be one of: ${regionCodes.join(", ")}` }]
      : [];

  /** What the wire schema cannot see: the organization's regions, and a key JSON objects drop. */
  const bodyProblems = (body: unknown): ErrorDetail[] => {
    const { type, region, secrets, host, credentials, secretValue } = (body ?? {}) as Record<
      string,
      unknown
    >;
    const problems = regionProblem(region);
    const sent = sentSecrets(secrets);
    // JSON.parse keeps it as an own key, but zod's output object (like any) would silently lose it.
    if (sent.some(([key]) => key === "__proto__")) {
      problems.push({ field: "secrets.__proto__", message: "is a reserved name" });
    }
    // In the documented array, a key could be given twice: which value was meant is unknown.
    const seen = new Set<string>();
    for (const [key] of sent) {
      if (seen.has(key)) {
        problems.push({ field: `secrets.${key}`, message: "is given more than once" });
      }
      seen.add(key);
    }
    // A lone surrogate would be stored as U+FFFD: what is acknowledged must be what was sent.
    const strings: [string, unknown][] = [
      ...sent.map(([key, value]): [string, unknown] => [`secrets.${key}`, value]),
      ["host", host],
      ["credentials", credentials],
      ["secretValue", secretValue],
    ];
    for (const [field, value] of strings) {
      if (typeof value === "string" && !value.isWellFormed()) {
        problems.push({ field, message: "is not valid Unicode (it holds a lone surrogate)" });
      }
    }
    // A host that names no registry by its form could never be provisioned: refused here rather
    // than acknowledged. Never quoted: `user:password@registry` holds a credential.
    const refusal = typeof host === "string" ? registryHostRefusal(host) : undefined;
    if (refusal !== undefined) {
      // The documented body (no `type`) carries the credentials in `secretValue`.
      const credentialsField = type === undefined ? "secretValue" : "credentials";
      problems.push({ field: "host", message: HOST_REFUSALS[refusal](credentialsField) });
    }
    return problems;
  };

  /** On any 400, report every problem: the path's, the body's and the region's together. */
  const reportAll: Hook<unknown, Env, string, unknown> = (result, c) => {
    if (result.success) return;
    const isPut = c.req.method === "PUT";
    // A body is checked against the shape it has (documented or ours), not all four at once:
    // the union's own issues are left out, and the picked schema's reported below.
    const details = isPut && result.target === "json" ? [] : issuesToDetails(result.error.issues);
    if (isPut) {
      const body = c.get("jsonBody");
      const parsed = putRequestSchemaFor(body).safeParse(body);
      if (!parsed.success) details.push(...issuesToDetails(parsed.error.issues));
      details.push(...bodyProblems(body));
    }
    throw validationError("The request is not valid.", details);
  };

  const authenticate = async (c: Context<Env>, next: () => Promise<void>) => {
    const caller = await authenticator.authenticate(c.req.header("authorization"));
    const runtimeRoute = c.req.path.startsWith(RUNTIME_PREFIX);
    if (caller.kind === "runtime" && !runtimeRoute) {
      throw unauthorized(
        "This is a runtime key: it reads the values of the sets it is bound to " +
          "(GET /v1/runtime/secrets/{setName}, as `voicebot cloud secrets run` does) and does " +
          "nothing else. Use a private API key here.",
      );
    }
    if (caller.kind === "private" && runtimeRoute) {
      throw new ApiError(
        403,
        "FORBIDDEN",
        "A private API key never reads values: a runtime key bound to the set does " +
          "(`voicebot cloud serve create-key -o ORG --runtime --set NAME`).",
      );
    }
    const waitSeconds = limiter?.take(caller.keyId) ?? 0;
    if (waitSeconds > 0) {
      throw new ApiError(
        429,
        "RATE_LIMITED",
        `Too many requests for this API key; retry in ${waitSeconds} s.`,
        undefined,
        {
          "Retry-After": String(waitSeconds),
        },
      );
    }
    c.set("orgId", caller.orgId);
    c.set("caller", caller);
    await next();
  };

  const jsonBody = async (c: Context<Env>, next: () => Promise<void>) => {
    const { text, value } = await readJsonBody(c.req.raw, limits.maxBodyBytes);
    c.set("jsonBody", value);
    // The route's zod validator reads the body from hono's cache instead of the spent stream.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    // readJsonBody's media-type rule is the only one: the route's own gate, stricter, sees
    // the accepted type in its plain form.
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
    await next();
  };

  const api = new OpenAPIHono<Env>({ defaultHook: reportAll });
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A private API key: `Authorization: Bearer vb_sk_...`.",
  });
  api.openAPIRegistry.registerComponent("securitySchemes", "runtimeKey", {
    type: "http",
    scheme: "bearer",
    description: "A runtime API key, which reads the sets it is bound to: `Bearer vb_rk_...`.",
  });

  let openApiDocument: unknown;
  api.openapi(routes.getOpenApiDocument, (c) => {
    openApiDocument ??= api.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "voicebot secrets API", version: "1.0.0" },
      servers: [{ url: "/v1" }],
    });
    return c.json(openApiDocument as Record<string, unknown>, 200);
  });

  // Everything under /v1 but the document needs a key, unknown paths included: without one,
  // a caller learns nothing about the routes.
  api.use("*", (c, next) => c.req.path === "/v1/openapi.json" ? next() : authenticate(c, next));
  api.on("PUT", "/secrets/:setName", jsonBody);
  api.on("POST", "/secrets/:setName/rollback", jsonBody);

  // The hot path: the serialized list is reused while the organization's list version stands,
  // so a repeated GET reads one number from the database instead of every set, and for
  // LIST_FRESHNESS_MS after that check not even that. A write through this app drops its
  // organization's entry at once; one through another process shows within LIST_FRESHNESS_MS.
  const listCache = new Map<
    string,
    { version: number; sets: SecretSetSummary[]; body: string; checkedAt: number }
  >();
  /** Counts this app's writes, so that a list read while one commits is not cached. */
  let localWrites = 0;
  const wrote = (orgId: string) => {
    localWrites++;
    listCache.delete(orgId);
    options.onWrite?.();
  };
  api.openapi(routes.listSecretSets, async (c) => {
    // Read only when there is a query at all: nothing is parsed on the common path.
    const region = c.req.url.includes("?") ? c.req.query("region") : undefined;
    const problems = regionProblem(region);
    if (problems.length) throw validationError("The request is not valid.", problems);
    const orgId = c.get("orgId");
    const now = clock();
    let cached = listCache.get(orgId);
    if (!cached || now - cached.checkedAt >= LIST_FRESHNESS_MS) {
      const writesBefore = localWrites;
      // The version is read before the list, so a cached body is never older than its version.
      const version = await storage.setsVersion(orgId);
      if (cached?.version !== version) {
        const sets = await storage.listSets(orgId);
        cached = { version, sets, body: JSON.stringify({ sets }), checkedAt: now };
      } else {
        cached = { ...cached, checkedAt: now };
      }
      if (writesBefore === localWrites) {
        if (listCache.size >= LIST_CACHE_ORGANIZATIONS) listCache.clear();
        listCache.set(orgId, cached);
      }
    }
    // Already JSON of the route's response type, serialized when it was cached.
    const body = region === undefined
      ? cached.body
      : JSON.stringify({ sets: cached.sets.filter((set) => set.region === region) });
    return c.body(body, 200, {
      "content-type": "application/json",
    }) as unknown as TypedResponse<
      ListSecretSetsResponse,
      200,
      "json"
    >;
  });

  api.openapi(routes.getSecretSet, async (c) => {
    const { setName: name } = c.req.valid("param");
    const orgId = c.get("orgId");
    const detail = await storage.getSet(orgId, name);
    if (!detail) throw notFound(`No set named "${name}".`);
    const { values, ...stored } = detail;
    const set = { ...stored, secrets: stored.keys.map((fieldName) => ({ fieldName })) };
    if (set.type !== "secret") return c.json({ ...set, keyDetails: [] }, 200);
    const { fingerprints, fingerprintKey } = await fingerprintsOf(orgId, name, values);
    const keyDetails = values.map(({ key, writtenAt }, i) => ({
      key,
      writtenAt: new Date(writtenAt).toISOString(),
      fingerprint: fingerprints[i],
    }));
    return c.json({ ...set, keyDetails, fingerprintKey }, 200);
  });

  /**
   * The fingerprint of each sealed value, in order, and the organization's fingerprint key as the
   * API sends it. Computed here, from the opened values: no fingerprint is ever stored.
   */
  async function fingerprintsOf(
    orgId: string,
    name: string,
    values: { key: string; sealed: Uint8Array }[],
  ): Promise<{ fingerprints: string[]; fingerprintKey: string }> {
    const rawKey = vault.fingerprintKey(orgId);
    const hmacKey = await importFingerprintKey(rawKey);
    const fingerprints = await Promise.all(
      values.map(({ key, sealed }) =>
        fingerprint(hmacKey, vault.openSync(sealed, valueContext(orgId, name, key)))
      ),
    );
    const fingerprintKey = rawKey.toBase64({ alphabet: "base64url", omitPadding: true });
    return { fingerprints, fingerprintKey };
  }

  api.openapi(routes.putSecretSet, async (c) => {
    const { setName: name } = c.req.valid("param");
    const body = c.req.valid("json");
    const problems = bodyProblems(c.get("jsonBody"));
    if (problems.length) throw validationError("The request is not valid.", problems);
    const orgId = c.get("orgId");
    const write = putWrite(body);
    const outcome = write.type === "secret"
      ? await putSecrets(orgId, name, write, authorOf(c))
      : await putImagePullSecret(orgId, name, write, authorOf(c));
    wrote(orgId);
    const { setCreated, removed: _removed, ...report } = outcome;
    const response = { status: "OK" as const, region: report.set.region, ...report };
    // The documented bodies are answered as documented; ours as they always were.
    return c.json(response, write.documented ? 202 : setCreated ? 201 : 200);
  });

  async function putSecrets(
    orgId: string,
    name: string,
    body: Extract<PutWrite, { type: "secret" }>,
    author: Author,
  ): Promise<WriteOutcome> {
    const entries = body.secrets;
    const given = new Map(entries);
    const oversized = entries.filter(([, value]) => utf8Length(value) > limits.maxValueBytes);
    if (oversized.length) {
      throw tooLarge(
        `A value is over ${limits.maxValueBytes} bytes.`,
        oversized.map(([key]) => ({
          field: `secrets.${key}`,
          message: `is over ${limits.maxValueBytes} bytes`,
        })),
      );
    }
    const values = await Promise.all(
      entries.map(async ([key, value]): Promise<[string, Uint8Array]> => [
        key,
        await vault.seal(value, valueContext(orgId, name, key)),
      ]),
    );
    // Values are sealed with a fresh nonce: only opening a stored one tells an unchanged key.
    const holds = (key: string, sealed: Uint8Array) =>
      vault.holds(sealed, valueContext(orgId, name, key), given.get(key)!);
    return await storage.putSecrets(
      orgId,
      { name, region: body.region, values, replace: body.replace, holds, author },
      writeRules(),
    );
  }

  async function putImagePullSecret(
    orgId: string,
    name: string,
    body: Extract<PutWrite, { type: "imagePullSecret" }>,
    author: Author,
  ): Promise<WriteOutcome> {
    if (utf8Length(body.credentials) > limits.maxValueBytes) {
      throw tooLarge(`The credentials are over ${limits.maxValueBytes} bytes.`, [{
        field: body.documented ? "secretValue" : "credentials",
        message: `is over ${limits.maxValueBytes} bytes`,
      }]);
    }
    const credentials = await vault.seal(body.credentials, credentialsContext(orgId, name));
    return await storage.putImagePullSecret(
      orgId,
      { name, region: body.region, host: body.host, credentials, author },
      writeRules(),
    );
  }

  for (const route of [routes.deleteSecretFromSet, routes.deleteSecretSetKey]) {
    api.openapi(route, async (c) => {
      const { setName, secretKey } = c.req.valid("param");
      const set = await storage.deleteKey(
        c.get("orgId"),
        setName,
        secretKey,
        clock(),
        authorOf(c),
      );
      wrote(c.get("orgId"));
      return c.json({ status: "OK" as const, set }, 200);
    });
  }

  api.openapi(routes.deleteSecretSet, async (c) => {
    const { setName } = c.req.valid("param");
    const deleted = await storage.deleteSet(c.get("orgId"), setName, authorOf(c));
    wrote(c.get("orgId"));
    if (!deleted) throw notFound(`No set named "${setName}".`);
    return c.json({ status: "OK" as const }, 200);
  });

  api.openapi(routes.listSecretSetVersions, async (c) => {
    const { setName: name } = c.req.valid("param");
    const versions = await storage.listVersions(c.get("orgId"), name);
    if (!versions) throw notFound(`No set named "${name}".`);
    return c.json({ versions: versions.map(versionSummary) }, 200);
  });

  api.openapi(routes.getSecretSetVersion, async (c) => {
    const { setName: name, version } = c.req.valid("param");
    const orgId = c.get("orgId");
    const stored = await storage.getVersion(orgId, name, version);
    if (!stored) throw notFound(`Set "${name}" has no version ${version} (or no such set).`);
    const { fingerprints, fingerprintKey } = await fingerprintsOf(orgId, name, stored.values);
    return c.json({
      ...versionSummary(stored),
      keys: stored.values.map(({ key }) => key),
      keyDetails: stored.values.map(({ key }, i) => ({ key, fingerprint: fingerprints[i] })),
      fingerprintKey,
    }, 200);
  });

  api.openapi(routes.rollbackSecretSet, async (c) => {
    const { setName: name } = c.req.valid("param");
    const { version } = c.req.valid("json");
    const orgId = c.get("orgId");
    const target = await storage.getVersion(orgId, name, version);
    if (!target) throw notFound(`Set "${name}" has no version ${version} (or no such set).`);
    // The version's own sealed values go back in place (they were sealed for this very place);
    // a stored key holding the same value is told by opening both.
    const wanted = new Map(target.values.map(({ key, sealed }) => [key, sealed]));
    const holds = (key: string, stored: Uint8Array) => {
      const context = valueContext(orgId, name, key);
      return vault.holds(stored, context, vault.openSync(wanted.get(key)!, context));
    };
    const outcome = await storage.putSecrets(orgId, {
      name,
      region: undefined,
      values: [...wanted],
      replace: true,
      holds,
      author: authorOf(c),
      rollbackOf: version,
    }, writeRules());
    wrote(orgId);
    const { setCreated: _created, ...report } = outcome;
    return c.json({
      status: "OK" as const,
      region: report.set.region,
      ...report,
      version: report.version!,
    }, 200);
  });

  api.openapi(routes.purgeSecretSetVersions, async (c) => {
    const { setName: name } = c.req.valid("param");
    const purged = await storage.purgeVersions(c.get("orgId"), name, authorOf(c));
    if (purged === undefined) throw notFound(`No set named "${name}".`);
    return c.json({ status: "OK" as const, purged }, 200);
  });

  api.openapi(routes.listAuditEvents, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const before = cursor === undefined ? undefined : Number(cursor);
    const events = await storage.listAudit(c.get("orgId"), limit + 1, before);
    const page = events.slice(0, limit).map(auditEventBody);
    const body: AuditEventsResponse = { events: page };
    if (events.length > limit) body.nextCursor = String(events[limit - 1].id);
    return c.json(body, 200);
  });

  api.openapi(routes.listRegions, (c) => c.json(regionsBody, 200));

  api.openapi(routes.getMe, (c) => {
    const { organization, keyId } = c.get("caller");
    return c.json({ organization, keyId }, 200);
  });

  api.openapi(routes.getRuntimeSecretSet, async (c) => {
    const { setName: name } = c.req.valid("param");
    const { keyId, orgId } = c.get("caller");
    const set = await storage.getBoundSet(keyId, name);
    // The same answer for a set that does not exist and one the key may not read: no oracle.
    if (!set || set.type !== "secret") {
      throw notFound(`This key reads no secret set named "${name}".`);
    }
    if (set.status !== "ready") {
      const failed = set.status === "failed";
      throw new ApiError(
        409,
        "NOT_READY",
        failed
          ? `"${name}" failed to provision; it is readable once written again and ready.`
          : `"${name}" is still being provisioned; retry shortly.`,
        undefined,
        { "Retry-After": String(failed ? FAILED_RETRY_SECONDS : PENDING_RETRY_SECONDS) },
        failed ? { status: "failed", errorMessage: set.errorMessage! } : { status: "pending" },
      );
    }
    const tag = runtimeEntityTag(set.region, set.values);
    c.header("ETag", tag);
    // Unchanged since the caller's last read: nothing to send, and nothing read to record.
    if (matchesEntityTag(c.req.valid("header")["if-none-match"], tag)) return c.body(null, 304);
    const secrets = await Promise.all(set.values.map(async ({ key, sealed }) => ({
      secretKey: key,
      secretValue: await vault.open(sealed, valueContext(orgId, name, key)),
    })));
    // Who read which set, when: names only. A read changes nothing, so it is recorded after it.
    await storage.recordAudit({
      orgId,
      at: clock(),
      author: authorOf(c),
      action: "runtime.read",
      setName: name,
      keys: set.keys,
    });
    return c.json({ name, region: set.region, status: "ready" as const, secrets }, 200);
  });

  const app = new Hono<Env>();

  // Outermost: every response, errors and 404s included, carries the request id and is logged.
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    if (c.req.path.startsWith("/v1/")) c.res.headers.set("Voicebot-Extensions", EXTENSIONS);
    // Values, or whether a set is readable: never for a cache to keep, errors included.
    if (c.req.path.startsWith(RUNTIME_PREFIX)) c.res.headers.set("Cache-Control", "no-store");
    // hono answers HEAD with the GET response minus its body; the length must stay the GET's.
    if (c.req.raw.method === "HEAD") {
      const length = (await c.res.clone().arrayBuffer()).byteLength;
      c.res.headers.set("Content-Length", String(length));
    }
    const route = matchedRoutes(c).findLast((matched) => !matched.path.endsWith("*"))?.path;
    logger({
      level: "info",
      msg: "request",
      method: c.req.method,
      // The route's template when one matched; otherwise the path, which a caller controls.
      path: route ?? redactApiKeys(c.req.path).slice(0, 256),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      requestId,
      orgId: c.get("orgId"),
    });
  });

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.route("/v1", api);

  const knownPaths = [
    ...routes.ROUTES.map((route) => ({
      pattern: pathPattern(`/v1${route.path}`),
      method: route.method.toUpperCase(),
    })),
    { pattern: /^\/healthz$/, method: "GET" },
  ];
  // Returns rather than throws: a throw from here would skip the request-id middleware.
  app.notFound((c) => {
    // HEAD answers as GET would, the length of its body included: the message names GET.
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const allowed = knownPaths.filter(({ pattern }) => pattern.test(c.req.path)).map(({ method }) =>
      method
    );
    if (allowed.length === 0) {
      return errorResponse(
        c,
        new ApiError(
          404,
          "ROUTE_NOT_FOUND",
          `No route ${method} ${redactApiKeys(c.req.path).slice(0, 256)}.`,
        ),
      );
    }
    if (allowed.includes("GET")) allowed.push("HEAD");
    const message = `${method} is not allowed here; use ${allowed.join(", ")}.`;
    return errorResponse(
      c,
      new ApiError(405, "METHOD_NOT_ALLOWED", message, undefined, { Allow: allowed.join(", ") }),
    );
  });

  app.onError((error, c) => {
    const apiError = toApiError(error);
    if (apiError.status === 500) {
      // Name and message only: no stack, and nothing from the request.
      logger({
        level: "error",
        msg: "unexpected error",
        requestId: c.get("requestId"),
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    }
    return errorResponse(c, apiError);
  });

  return app;
}

/** What a 400 says of a host that names no registry; never the host itself. */
const HOST_REFUSALS: Record<RegistryHostRefusal, (credentialsField: string) => string> = {
  "user-information": (field) =>
    `must not hold user information (user:password@); send it in \`${field}\``,
  scheme: () => "must be host[:port] or an http:// or https:// URL (no other scheme)",
  query: () => "must not hold a query (?...): a registry is named by its host and path",
  fragment: () => "must not hold a fragment (#...): a registry is named by its host and path",
};

/** A PUT body of either shape, documented or ours, as the one write it asks for. */
type PutWrite =
  & { documented: boolean; region: string | undefined }
  & (
    | { type: "secret"; secrets: [string, string][]; replace: boolean }
    | { type: "imagePullSecret"; host: string; credentials: string }
  );

function putWrite(body: PutSecretSetRequest): PutWrite {
  const { region } = body;
  if ("isImagePullSecret" in body && body.isImagePullSecret) {
    return {
      documented: true,
      region,
      type: "imagePullSecret",
      host: normalizeRegistryHost(body.host),
      credentials: body.secretValue,
    };
  }
  if (!("type" in body)) {
    const secrets = body.secrets.map(({ secretKey, secretValue }): [string, string] => [
      secretKey,
      secretValue,
    ]);
    return { documented: true, region, type: "secret", secrets, replace: false };
  }
  if (body.type === "imagePullSecret") {
    const { host, credentials } = body;
    return {
      documented: false,
      region,
      type: "imagePullSecret",
      host: normalizeRegistryHost(host),
      credentials,
    };
  }
  const secrets = Object.entries(body.secrets);
  return { documented: false, region, type: "secret", secrets, replace: body.replace ?? false };
}

/** A PUT body's keys and values as sent, in either shape, before validation. */
function sentSecrets(secrets: unknown): [string, unknown][] {
  if (Array.isArray(secrets)) {
    return secrets.flatMap((item): [string, unknown][] => {
      const { secretKey, secretValue } = (item ?? {}) as Record<string, unknown>;
      return typeof secretKey === "string" ? [[secretKey, secretValue]] : [];
    });
  }
  return typeof secrets === "object" && secrets !== null ? Object.entries(secrets) : [];
}

const errorResponse = (c: Context, error: ApiError) =>
  c.json(error.toBody(), error.status, error.headers);

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    // hono's own: malformed JSON from its validator, a media type its gate refused.
    if (error.status === 415) {
      return new ApiError(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "The request body must be `application/json`.",
      );
    }
    if (error.status === 413) return tooLarge("The request body is too large.");
    if (error.status < 500) {
      return new ApiError(400, "VALIDATION_ERROR", "The request is not valid.");
    }
  }
  return new ApiError(500, "INTERNAL_ERROR", "Internal server error.");
}

/** `/v1/secrets/{name}` as a pattern that matches one path segment per parameter. */
function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replaceAll(".", "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);
}

/** A version as the API shows it: ISO time, the writing key's id. */
function versionSummary(info: VersionInfo): VersionSummary {
  const summary: VersionSummary = {
    version: info.version,
    createdAt: new Date(info.createdAt).toISOString(),
    keyId: info.actor,
    created: info.created,
    updated: info.updated,
    removed: info.removed,
  };
  if (info.rollbackOf !== undefined) summary.rollbackOf = info.rollbackOf;
  return summary;
}

/** Who makes this request's changes: its API key, and its request id. */
function authorOf(c: Context<Env>): Author {
  return { actor: c.get("caller").keyId, requestId: c.get("requestId") };
}

/** An event as GET /audit shows it: ISO time, the actor's key id, names and counts only. */
function auditEventBody(event: AuditEvent): AuditEventBody {
  const body: AuditEventBody = {
    id: String(event.id),
    at: new Date(event.at).toISOString(),
    keyId: event.actor,
    action: event.action,
    keys: event.keys,
  };
  if (event.setName !== undefined) body.set = event.setName;
  if (event.requestId !== undefined) body.requestId = event.requestId;
  if (event.detail !== undefined) body.detail = event.detail;
  return body;
}
