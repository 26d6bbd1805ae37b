/**
 * What every /v1 request but the OpenAPI document passes before its route: its API key (401), a
 * key of the right kind for the route (runtime keys read values, private keys do the rest), and
 * the key's rate limit (429). app.ts runs it as hono middleware, and ahead of hono for the list.
 */
import { Authenticator, type Caller } from "../auth.ts";
import type { RateLimit } from "../config.ts";
import { ApiError, unauthorized } from "../errors.ts";
import { andThen, type NowOrLater } from "../now_or_later.ts";
import { RateLimiter } from "../rate_limit.ts";
import type { Storage } from "../storage/types.ts";

/** Where runtime keys read values; every other /v1 route is for private keys. */
export const RUNTIME_PREFIX = "/v1/runtime/";

export class Gate {
  readonly #authenticator: Authenticator;
  readonly #limiter: RateLimiter | undefined;

  /** `rateLimit` undefined: no rate limiting. */
  constructor(storage: Storage, clock: () => number, rateLimit: RateLimit | undefined) {
    this.#authenticator = new Authenticator(storage, clock);
    this.#limiter = rateLimit && new RateLimiter(rateLimit, clock);
  }

  /**
   * The caller a request to `path` with this Authorization header comes from, at once when its
   * key is cached; else throws (or rejects).
   */
  admit(authorization: string | undefined, path: string): NowOrLater<Caller> {
    return andThen(this.#authenticator.authenticate(authorization), (caller) => {
      this.#permit(caller, path);
      return caller;
    });
  }

  /** Throws unless `caller` may ask for `path` now. */
  #permit(caller: Caller, path: string): void {
    const runtimeRoute = path.startsWith(RUNTIME_PREFIX);
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
    const waitSeconds = this.#limiter?.take(caller.keyId) ?? 0;
    if (waitSeconds > 0) {
      throw new ApiError(
        429,
        "RATE_LIMITED",
        `Too many requests for this API key; retry in ${waitSeconds} s.`,
        undefined,
        { "Retry-After": String(waitSeconds) },
      );
    }
  }
}
