/**
 * The secrets API as a fetch handler: `createApp(storage, options).fetch` is served by
 * `Deno.serve`, and tests call `.request()` on it in process.
 *
 * This file is the list of mounts: each resource's routes are a module of their own under api/
 * (sets, versions, audit, account, runtime), mounted on `/v1` behind the authentication that
 * every one of them shares; the request id, the log line and the error answers wrap them all.
 *
 * Order of checks on a request: under /v1 (but for the OpenAPI document) the API key (401) and
 * its rate limit (429); then the route (404, 405); for PUT the body (415, 413, 400); the name
 * and body shape (400); then the operation (404, 400, 413).
 */
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { matchedRoutes } from "hono/route";
import { OpenAPIHono } from "@hono/zod-openapi";
import { Authenticator } from "./auth.ts";
import {
  DEFAULT_LIMITS,
  DEFAULT_REGION,
  DEFAULT_REGIONS,
  type Limits,
  type RateLimit,
} from "./config.ts";
import { redactApiKeys, type Vault } from "./crypto.ts";
import { ApiError, tooLarge, unauthorized } from "./errors.ts";
import type { Logger, RequestEntry } from "./log.ts";
import { RateLimiter } from "./rate_limit.ts";
import { BODY_READ_TIMEOUT_MS, requestIdFor } from "./request.ts";
import * as routes from "./routes.ts";
import type { Storage } from "./storage/types.ts";
import type { ApiContext, Env } from "./api/context.ts";
import { accountApi } from "./api/account.ts";
import { auditApi } from "./api/audit.ts";
import { ListCache } from "./api/list_cache.ts";
import { runtimeApi } from "./api/runtime.ts";
import { setsApi } from "./api/sets.ts";
import { versionsApi } from "./api/versions.ts";

export { LIST_FRESHNESS_MS } from "./api/list_cache.ts";
export { FAILED_RETRY_SECONDS, PENDING_RETRY_SECONDS } from "./api/runtime.ts";

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
  /** How long a request body may take to arrive whole; BODY_READ_TIMEOUT_MS when not given. */
  bodyReadTimeoutMs?: number;
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

/** Where runtime keys read values; every other /v1 route is for private keys. */
const RUNTIME_PREFIX = "/v1/runtime/";

export function createApp(storage: Storage, options: AppOptions): Hono<Env> {
  const regionCodes = options.regions ?? DEFAULT_REGIONS;
  const defaultRegion = options.defaultRegion ?? (options.regions?.[0] ?? DEFAULT_REGION);
  if (!regionCodes.includes(defaultRegion)) {
    throw new Error(
      `the default region ${defaultRegion} is not one of the regions ${regionCodes.join(", ")}`,
    );
  }
  const clock = options.clock ?? Date.now;
  const lists = new ListCache(storage);
  const context: ApiContext = {
    storage,
    vault: options.vault,
    clock,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    bodyReadTimeoutMs: options.bodyReadTimeoutMs ?? BODY_READ_TIMEOUT_MS,
    regionCodes,
    defaultRegion,
    lists,
    wrote: (orgId) => {
      lists.drop(orgId);
      options.onWrite?.();
    },
  };
  const { logger } = options;
  const authenticator = new Authenticator(storage, clock);
  const limiter = options.rateLimit && new RateLimiter(options.rateLimit, clock);

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
        { "Retry-After": String(waitSeconds) },
      );
    }
    c.set("orgId", caller.orgId);
    c.set("caller", caller);
    await next();
  };

  const api = new OpenAPIHono<Env>();
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
  api.route("/", setsApi(context));
  api.route("/", versionsApi(context));
  api.route("/", auditApi(context));
  api.route("/", accountApi(context));
  api.route("/", runtimeApi(context));

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
    const entry: RequestEntry = {
      level: "info",
      msg: "request",
      method: c.req.method,
      // The route's template when one matched; otherwise the path, which a caller controls.
      path: route ?? redactApiKeys(c.req.path).slice(0, 256),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      requestId,
      orgId: c.get("orgId"),
    };
    logger(entry);
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
