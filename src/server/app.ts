/**
 * The secrets API as a fetch handler: `createApp(storage, options).fetch` is served by
 * `Deno.serve`, and tests call `.request()` on it in process.
 *
 * This file is the list of mounts: each resource's routes are a module of their own under api/
 * (sets, versions, audit, account, runtime), mounted on `/v1` behind the gate that every one of
 * them shares (api/gate.ts: the key, its kind, its rate); the request id, the log line and the
 * error answers (api/frame.ts) wrap them all. One read, the plain list of sets, is answered
 * ahead of hono, through the same gate and frame (at the end of createApp).
 *
 * Order of checks on a request: under /v1 (but for the OpenAPI document) the API key (401) and
 * its rate limit (429); then the route (404, 405); for PUT the body (415, 413, 400); the name
 * and body shape (400); then the operation (404, 400, 413).
 */
import { Hono } from "hono";
import { matchedRoutes } from "hono/route";
import { OpenAPIHono } from "@hono/zod-openapi";
import {
  DEFAULT_LIMITS,
  DEFAULT_REGION,
  DEFAULT_REGIONS,
  type Limits,
  type RateLimit,
} from "./config.ts";
import { redactApiKeys, type Vault } from "./crypto.ts";
import { ApiError, notFound } from "./errors.ts";
import { DatabaseHealth } from "./health.ts";
import type { Logger } from "./log.ts";
import { andThen, type NowOrLater } from "./now_or_later.ts";
import { BODY_READ_TIMEOUT_MS, requestIdFor } from "./request.ts";
import * as routes from "./routes.ts";
import type { Storage } from "./storage/types.ts";
import type { ApiContext } from "./api/context.ts";
import type { Env } from "./api/env.ts";
import { accountApi } from "./api/account.ts";
import { auditApi } from "./api/audit.ts";
import { accessEntry, errorAnswer, errorResponse, stamp, unavailable } from "./api/frame.ts";
import { Gate } from "./api/gate.ts";
import { ListCache } from "./api/list_cache.ts";
import { runtimeApi } from "./api/runtime.ts";
import { listAnswer, setsApi } from "./api/sets.ts";
import { versionsApi } from "./api/versions.ts";

export { EXTENSIONS } from "./api/frame.ts";
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
  /** Whether the database answers; one of the app's own (over `storage`) when not given. */
  health?: DatabaseHealth;
}

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
  const health = options.health ?? new DatabaseHealth(storage, logger, clock);
  const gate = new Gate(storage, clock, options.rateLimit);

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
  api.use("*", async (c, next) => {
    if (c.req.path !== "/v1/openapi.json") {
      const caller = await gate.admit(c.req.header("authorization"), c.req.path);
      c.set("orgId", caller.orgId);
      c.set("caller", caller);
    }
    await next();
  });
  // The platform CLI's paths name the organization: any but the key's is a 404, as a set that
  // does not exist is, the same whether that organization exists or not, before anything is read.
  api.use("/organizations/:organization/*", async (c, next) => {
    const { organization } = c.get("caller");
    if (c.req.param("organization") !== organization) {
      throw notFound(
        `This API key is for the organization "${organization}", not the one in the path.`,
      );
    }
    await next();
  });
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
    stamp(c.res.headers, c.req.path, requestId);
    // hono answers HEAD with the GET response minus its body; the length must stay the GET's.
    if (c.req.raw.method === "HEAD") {
      const length = (await c.res.clone().arrayBuffer()).byteLength;
      c.res.headers.set("Content-Length", String(length));
    }
    const route = matchedRoutes(c).findLast((matched) => !matched.path.endsWith("*"))?.path;
    const request = { method: c.req.method, route, path: c.req.path };
    logger(accessEntry(request, c.res.status, started, requestId, c.get("orgId")));
  });

  // Liveness: the process serves. Readiness: the database answers too, so that a load balancer
  // sends requests elsewhere while it does not.
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get(
    "/readyz",
    async (c) => await health.ready() ? c.json({ status: "ready" }) : errorResponse(unavailable()),
  );
  app.route("/v1", api);

  const knownPaths = [
    ...routes.ROUTES.map((route) => ({
      pattern: pathPattern(`/v1${route.path}`),
      method: route.method.toUpperCase(),
    })),
    { pattern: /^\/healthz$/, method: "GET" },
    { pattern: /^\/readyz$/, method: "GET" },
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
      new ApiError(405, "METHOD_NOT_ALLOWED", message, undefined, { Allow: allowed.join(", ") }),
    );
  });

  app.onError((error, c) => errorAnswer(error, c.get("requestId"), logger, health));

  // GET /v1/secrets, the read clients repeat most, is answered ahead of hono's dispatch, which
  // took about a quarter of its CPU time (`deno task bench server`): through the same gate, with
  // the same list, in the same frame; in the same turn when the key and the list are cached. With
  // a query, or as HEAD, it goes through hono as all else.
  const answerList = (request: Request): NowOrLater<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(request.headers.get("x-request-id") ?? undefined);
    let orgId: string | undefined;
    const framed = (response: Response) => {
      stamp(response.headers, LIST_PATH, requestId);
      logger(accessEntry(LIST_REQUEST, response.status, started, requestId, orgId));
      return response;
    };
    let answer: NowOrLater<Response>;
    try {
      const authorization = request.headers.get("authorization") ?? undefined;
      answer = andThen(gate.admit(authorization, LIST_PATH), (caller) => {
        orgId = caller.orgId;
        return listAnswer(context, orgId);
      });
    } catch (error) {
      answer = errorAnswer(error, requestId, logger, health);
    }
    return answer instanceof Promise
      ? answer.then(framed, (error) => framed(errorAnswer(error, requestId, logger, health)))
      : framed(answer);
  };
  const dispatch = app.fetch;
  app.fetch = (request, ...rest) =>
    request.method === "GET" && isListUrl(request.url)
      ? answerList(request)
      : dispatch(request, ...rest);

  return app;
}

const LIST_PATH = "/v1/secrets";
/** The list's request as its access line names it. */
const LIST_REQUEST = { method: "GET", route: LIST_PATH, path: LIST_PATH };

/** Whether `url`'s path is LIST_PATH itself: no query, nothing for hono to decode. */
const isListUrl = (url: string) =>
  url.endsWith(LIST_PATH) &&
  url.indexOf("/", url.indexOf("://") + 3) === url.length - LIST_PATH.length;

/** `/v1/secrets/{name}` as a pattern that matches one path segment per parameter. */
function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replaceAll(".", "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);
}
