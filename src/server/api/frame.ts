/**
 * What every answer carries, whichever way it was made (hono's routes, or app.ts's list ahead of
 * them): the request id and this server's headers, an error written as the API writes one, and
 * one access line in the log.
 */
import { HTTPException } from "hono/http-exception";
import { redactApiKeys } from "../crypto.ts";
import { ApiError, tooLarge } from "../errors.ts";
import { type DatabaseHealth, RETRY_AFTER_SECONDS } from "../health.ts";
import { errorText, type Logger, type RequestEntry } from "../log.ts";
import { RUNTIME_PREFIX } from "./gate.ts";

/**
 * What this server offers beyond the platform's documented API, named on every /v1 response so
 * that a client learns it from whatever it asked first: `replace` (voicebot's own PUT bodies,
 * `replace` among them), `fingerprints` (`keyDetails` and `fingerprintKey` in a set's detail),
 * `me` (`GET /me`), `registry-host` (an image pull secret's `host` may be `host[:port]`, where
 * the documentation takes a URL), `runtime` (runtime keys and `GET /runtime/secrets/{setName}`),
 * `versions` (a secret set's versions, rollback and purge), `audit` (`GET /audit`).
 */
export const EXTENSIONS = "replace, fingerprints, me, registry-host, runtime, versions, audit";

/** Adds this server's headers to the answer to a request for `path`. */
export function stamp(headers: Headers, path: string, requestId: string): void {
  headers.set("X-Request-Id", requestId);
  if (path.startsWith("/v1/")) headers.set("Voicebot-Extensions", EXTENSIONS);
  // Values, or whether a set is readable: never for a cache to keep, errors included.
  if (path.startsWith(RUNTIME_PREFIX)) headers.set("Cache-Control", "no-store");
}

/**
 * The answer to a request that failed with `error`: the database unreachable is a 503 (its outage
 * logged once, by `health`); anything else unexpected is logged, as a 500.
 */
export function errorAnswer(
  error: unknown,
  requestId: string,
  logger: Logger,
  health: DatabaseHealth,
): Response {
  const apiError = health.unavailable(error) ? unavailable() : toApiError(error);
  if (apiError.status === 500) {
    // Name and message only: no stack, and nothing from the request.
    logger({
      level: "error",
      msg: "unexpected error",
      requestId,
      error: errorText(error),
    });
  }
  return errorResponse(apiError);
}

/** The 503 of a request that needs the database while it cannot be reached. */
export const unavailable = () =>
  new ApiError(
    503,
    "SERVICE_UNAVAILABLE",
    `The database cannot be reached now; retry in ${RETRY_AFTER_SECONDS} s.`,
    undefined,
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );

/** An ApiError as the response the API writes for it. */
export const errorResponse = (error: ApiError): Response =>
  new Response(JSON.stringify(error.toBody()), {
    status: error.status,
    headers: { "content-type": "application/json", ...error.headers },
  });

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    // hono's own, from a route's validator or media-type gate (our JSON bodies use neither).
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

/** The access line of a request answered `status`, `started` at that `performance.now()`. */
export function accessEntry(
  request: { method: string; route: string | undefined; path: string },
  status: number,
  started: number,
  requestId: string,
  orgId: string | undefined,
): RequestEntry {
  return {
    level: "info",
    msg: "request",
    method: request.method,
    // The route's template when one matched; otherwise the path, which a caller controls.
    path: request.route ?? redactApiKeys(request.path).slice(0, 256),
    status,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    requestId,
    orgId,
  };
}
