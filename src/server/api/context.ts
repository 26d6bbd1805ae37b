/**
 * What every route module of the API shares: the storage and the vault, the organization's rules,
 * the router every module builds on (its 400s report every problem), the body reader and who
 * makes a change. app.ts makes one context per app and mounts each resource's module on it.
 */
import type { Context } from "hono";
import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { ErrorDetail } from "../../secrets/schemas.ts";
import { fingerprint, importFingerprintKey } from "../../secrets/fingerprint.ts";
import type { Limits } from "../config.ts";
import { valueContext, type Vault } from "../crypto.ts";
import { readJsonBody } from "../request.ts";
import type { Author, Storage, WriteRules } from "../storage/types.ts";
import type { ListCache } from "./list_cache.ts";
import type { Env } from "./env.ts";
import { reportAllProblems } from "./validation.ts";

/** What the middleware sets on a request for the handlers. */

export interface ApiContext {
  storage: Storage;
  vault: Vault;
  /** Milliseconds since the epoch. */
  clock: () => number;
  limits: Limits;
  /** How long a request body may take to arrive whole. */
  bodyReadTimeoutMs: number;
  /** The organization's region codes; `defaultRegion` is one of them. */
  regionCodes: string[];
  defaultRegion: string;
  /** Every organization's lists of sets, as GET /secrets last read them. */
  lists: ListCache;
  /** Called after every write through this app: its list is read again, the provisioner woken. */
  wrote(orgId: string): void;
}

/** The rules a write is checked against, as of now. */
export const writeRules = (context: ApiContext): WriteRules => ({
  ...context.limits,
  defaultRegion: context.defaultRegion,
  now: context.clock(),
});

/** A 400 detail for a region that is not one of the organization's; none for any other value. */
export const regionProblem = (context: ApiContext, region: unknown): ErrorDetail[] =>
  typeof region === "string" && !context.regionCodes.includes(region)
    ? [{ field: "region", message: `must be one of: ${context.regionCodes.join(", ")}` }]
    : [];

/** The router each resource's module adds its routes to: a 400 names every problem at once. */
export function router(context: ApiContext): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({
    defaultHook: reportAllProblems((region) => regionProblem(context, region)),
  });
}

/**
 * Middleware for a route with a JSON body: reads it within the size limit (415, 413, 400) and
 * hands it on, as sent, to the handler (`c.get("jsonBody")`), which checks it (validation.ts).
 */
export function jsonBody(context: ApiContext) {
  return async (c: Context<Env>, next: () => Promise<void>) => {
    const body = await readJsonBody(
      c.req.raw,
      context.limits.maxBodyBytes,
      context.bodyReadTimeoutMs,
    );
    c.set("jsonBody", body);
    await next();
  };
}

/**
 * A route with a JSON body as hono is to see it: whole in the OpenAPI document, registered here,
 * but without its body, so that hono adds neither its media-type gate nor its body validator.
 * jsonBody reads the body and rules on its type; the handler checks it against the schema its
 * shape picks, once, instead of hono's validator parsing it again against every schema it may have.
 */
export function bodyCheckedByHandler<R extends RouteConfig & { request: { params: unknown } }>(
  api: OpenAPIHono<Env>,
  route: R,
): Omit<R, "request"> & { request: { params: R["request"]["params"] }; hide: true } {
  api.openAPIRegistry.registerPath(route);
  return { ...route, request: { params: route.request.params }, hide: true };
}

/**
 * Registers `handler` for `route` and for `twin`, the same route under
 * `/organizations/{organization}` (the platform CLI's path). app.ts has answered every organization
 * but the key's before either runs, so the twin needs nothing of its own: its parameters are the
 * route's and `organization`, which the handler does not read.
 */
export function withTwin<R extends RouteConfig, T extends RouteConfig>(
  api: OpenAPIHono<Env>,
  route: R,
  twin: T,
  handler: RouteHandler<R, Env>,
): void {
  api.openapi(route, handler);
  api.openapi(twin, handler as unknown as RouteHandler<T, Env>);
}

/** Who makes this request's changes: its API key, and its request id. */
export function authorOf(c: Context<Env>): Author {
  return { actor: c.get("caller").keyId, requestId: c.get("requestId") };
}

/**
 * The fingerprint of each sealed value, in order, and the organization's fingerprint key as the
 * API sends it. Computed from the opened values: no fingerprint is ever stored.
 */
export async function fingerprintsOf(
  vault: Vault,
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
