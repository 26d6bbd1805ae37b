/**
 * The secrets API client: one class, one private `request` method that owns every request.
 *
 * - Base URL (`scheme://host[:port]/v1`), `Authorization: Bearer`, `User-Agent: voicebot/<version>`,
 *   `Accept: application/json`, and an `X-Request-Id` of our own that the server echoes.
 * - A timeout per attempt (default 30 s; `VOICEBOT_API_TIMEOUT` in seconds, read by the caller).
 * - Retries with exponential backoff and jitter on connection errors, 5xx and 429, honouring
 *   `Retry-After` up to a bound. Every route here is idempotent, PUT included: a PUT names the
 *   whole outcome (these keys hold these values, or with `replace` exactly these keys), so sending
 *   it twice leaves the same state. What a retry answers after an attempt whose answer was lost
 *   (it may have been applied) describes the state that attempt left: a PUT's answer is marked
 *   `replayed` (its created/updated/unchanged split is then not this write's), and a DELETE's 404
 *   is `alreadyGone`, not an error. For that, a PUT or DELETE goes on a connection of its own:
 *   on a reused keep-alive connection that closes under it, the HTTP stack would resend it
 *   silently, and its answer would be taken for the first.
 * - The platform's documented API first: every request here is a documented one (paths, bodies),
 *   and every answer is read as the documentation allows it (responses.ts), so that this client
 *   works with any server that implements the documentation. What voicebot's server adds (the
 *   write report, fingerprints, `GET /me`, `replace`, versions, the audit trail) is used when
 *   present, and its own routes are asked only of a server that named them; a server names its
 *   extensions in a `Voicebot-Extensions` header on every answer, which `offers` reads from the
 *   last answer, so that a command learns them from a request it makes anyway.
 * - Every response body is parsed with the zod/mini twins of the wire schemas (responses.ts, held
 *   to schemas.ts and to the documentation by a test); errors are decoded with ErrorResponse
 *   into the typed errors of src/errors.ts, which keep status, code and the request id.
 *
 * Never does an error message carry the API key or a value: only the URL, the method and what
 * the server said (which never holds a value either).
 *
 * @module
 */
import type * as z from "zod/mini";
import {
  ApiUnreachable,
  AuthError,
  ConflictError,
  NotFoundError,
  UsageError,
  VoicebotError,
  type VoicebotErrorOptions,
} from "../errors.ts";
import { VERSION } from "../version.ts";
import type {
  ImagePullSecretRequest,
  PutSecretsRequest,
  RegularSecretsRequest,
} from "./schemas.ts";
// The answers are read with zod/mini twins of the wire schemas (see responses.ts).
import {
  AuditEventsResponse,
  DeleteKeyResponse,
  ErrorResponse,
  ListSecretSetsResponse,
  ListVersionsResponse,
  MeResponse,
  NotReadyResponse,
  PurgeVersionsResponse,
  PutSecretSetResponse,
  RegionsResponse,
  RollbackResponse,
  RuntimeSecretSetResponse,
  SecretSetDetail,
  type SecretSetSummary,
  VersionDetail,
  type VersionSummary,
} from "./responses.ts";

/** The set names a server that follows the documentation takes (its `setName` pattern). */
export const DOCUMENTED_SET_NAME =
  /^(?=.{3,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DOCUMENTED_SET_NAME_RULE = "servers that follow the platform's documented API take set " +
  "names of 3 to 63 lower-case letters, digits, hyphens and dots; try a name such as my-bot-secrets";

/** A set's detail with its key names, from `keys` (voicebot's) or `secrets` (documented). */
export type SetDetail = SecretSetDetail & { keys: string[] };

/** The organization's regions; `default` only from a server that says which it is. */
export interface Regions {
  regions: { code: string; name: string }[];
  default?: string;
}

/** What voicebot's server offers beyond the documentation (docs/API.md). */
export type Extension =
  | "replace"
  | "fingerprints"
  | "me"
  | "registry-host"
  | "runtime"
  | "versions"
  | "audit";

/** The bodies this client sends: the documented two, and voicebot's for `replace`. */
export type PutBody = RegularSecretsRequest | ImagePullSecretRequest | PutSecretsRequest;

/** A runtime read: the set's values, or why they cannot be read yet. */
export type RuntimeRead =
  | {
    ready: true;
    name: string;
    region: string;
    secrets: [string, string][];
    /** The answer's ETag, for asking later whether the set changed (`readRuntimeSetIfChanged`). */
    tag?: string;
  }
  | {
    ready: false;
    status: NotReadyResponse["status"];
    errorMessage?: string;
    /** The server's Retry-After, when it sent one. */
    retryAfterMs?: number;
  };

/** What `readRuntimeSetIfChanged` answers for a set that is as it was. */
export const UNCHANGED = Symbol("unchanged");

/** A 304: the entity named by If-None-Match is unchanged. */
class NotModified extends Error {}

/** A 409 NOT_READY: what the runtime route says of a set that is pending or failed. */
class NotReady extends ConflictError {
  constructor(
    message: string,
    readonly detail: Omit<Extract<RuntimeRead, { ready: false }>, "ready">,
    options: VoicebotErrorOptions,
  ) {
    super(message, options);
  }
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Attempts per request, the first included. */
export const DEFAULT_ATTEMPTS = 3;
/** A Retry-After longer than this is not waited for: the error says when to try again. */
export const MAX_RETRY_AFTER_MS = 10_000;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 4_000;

export type Fetch = (input: Request) => Response | Promise<Response>;

/** A PUT's answer; `replayed`: an earlier attempt whose answer was lost may have been applied. */
export type PutOutcome = PutSecretSetResponse & { replayed?: true };

/** A DELETE's answer, or `alreadyGone`: the 404 of a retry after an attempt whose answer was lost. */
export type DeleteOutcome<T> = { alreadyGone: false; response: T } | { alreadyGone: true };

export interface ClientOptions {
  /** `scheme://host[:port]/v1`; see `normalizeApiUrl`. */
  baseUrl: string;
  apiKey: string;
  /** Defaults to the global fetch; tests pass the app's `request`. */
  fetch?: Fetch;
  timeoutMs?: number;
  attempts?: number;
  /** Waits between attempts; tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** How to log in, for the hint of a 401. */
  loginHint?: string;
  /** Allow http:// to a host other than loopback, where the key would travel unencrypted. */
  insecure?: boolean;
  /** Ends every request in flight, and every one after: for a client no longer needed. */
  signal?: AbortSignal;
}

/**
 * `http://host:8787` and `http://host:8787/` mean `http://host:8787/v1`; any other path is kept
 * as given, without its trailing slash. Throws UsageError for what is not an http(s) URL.
 */
export function normalizeApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`the API URL "${raw}" is not a URL.`, {
      hint: "use the form http://127.0.0.1:8787/v1.",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`the API URL "${raw}" is not http or https.`, {
      hint: "use the form http://127.0.0.1:8787/v1.",
    });
  }
  if (url.username || url.password) {
    throw new UsageError("the API URL must not hold a user name or password.", {
      hint: "the API key goes to `voicebot cloud auth login`, which reads it at a hidden prompt.",
    });
  }
  url.search = "";
  url.hash = "";
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path === "" ? "/v1" : path}`;
}

/** Whether http:// to this URL stays on this machine: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Every request carries the API key: over http:// to another host, it would travel in clear. */
function refuseCleartext(baseUrl: string) {
  if (baseUrl.startsWith("https:") || isLoopback(baseUrl)) return;
  throw new UsageError(
    `the API URL ${baseUrl} is http:// to another host: the API key, and every value sent, ` +
      "would cross the network unencrypted; nothing was sent.",
    { hint: "use https://, or add --insecure on a network you trust with them." },
  );
}

export class SecretsClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: Fetch;
  readonly #timeoutMs: number;
  readonly #attempts: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #loginHint: string;
  readonly #signal: AbortSignal | undefined;
  /** From the last answer's Voicebot-Extensions header. */
  #extensions = new Set<string>();

  constructor(options: ClientOptions) {
    this.baseUrl = normalizeApiUrl(options.baseUrl);
    if (!options.insecure) refuseCleartext(this.baseUrl);
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? globalFetch();
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#loginHint = options.loginHint ?? "log in with `voicebot cloud auth login`.";
    this.#signal = options.signal;
  }

  /** Whether the server's last answer named this extension (see the module's comment). */
  offers(extension: Extension): boolean {
    return this.#extensions.has(extension);
  }

  /**
   * Refuses what the server's last answer did not name among its extensions: `what` is not in
   * the platform's documented API. Asked after a read, before anything is written.
   */
  requireExtension(extension: Extension, what: string): void {
    if (this.offers(extension)) return;
    throw new UsageError(
      `${what} is not offered by the API at ${this.baseUrl}; nothing was changed.`,
      {
        hint:
          `it is an extension of voicebot's own server (\`voicebot cloud serve\`), which this server does not name (\`${extension}\`).`,
      },
    );
  }

  /** GET /secrets/{name}/versions (voicebot's `versions`): newest first; never a value. */
  async listVersions(name: string): Promise<VersionSummary[]> {
    const path = `${setPath(name)}/versions`;
    return (await this.#forSet(name, this.#request("GET", path, ListVersionsResponse))).versions;
  }

  /** GET /secrets/{name}/versions/{version}: its keys and their values' fingerprints. */
  getVersion(name: string, version: number): Promise<VersionDetail> {
    return this.#forSet(
      name,
      this.#request("GET", `${setPath(name)}/versions/${version}`, VersionDetail),
    );
  }

  /**
   * POST /secrets/{name}/rollback: the version's keys and values become the set's, as a new write.
   * Safe to repeat: a second one finds them in place and changes nothing.
   */
  async rollback(name: string, version: number): Promise<RollbackResponse & { replayed?: true }> {
    const attempts = { lost: false };
    const response = await this.#forSet(
      name,
      this.#request("POST", `${setPath(name)}/rollback`, RollbackResponse, { version }, attempts),
    );
    return attempts.lost ? { ...response, replayed: true } : response;
  }

  /** POST /secrets/{name}/versions/purge: drops every version but the current one; how many. */
  async purgeVersions(name: string): Promise<number> {
    const path = `${setPath(name)}/versions/purge`;
    return (await this.#forSet(name, this.#request("POST", path, PurgeVersionsResponse))).purged;
  }

  /** GET /audit (voicebot's `audit`): a page of the organization's events, newest first. */
  listAudit(limit: number, cursor?: string): Promise<AuditEventsResponse> {
    const query = `?limit=${limit}${cursor === undefined ? "" : `&cursor=${cursor}`}`;
    return this.#request("GET", `/audit${query}`, AuditEventsResponse);
  }

  /** GET /secrets: every set of the organization (of one region), image pull secrets included. */
  async listSets(region?: string): Promise<SecretSetSummary[]> {
    const query = region === undefined ? "" : `?region=${encodeURIComponent(region)}`;
    const sets = (await this.#request("GET", `/secrets${query}`, ListSecretSetsResponse)).sets;
    // A server that ignores the filter shows no other region.
    return (sets ?? []).filter((set) => region === undefined || set.region === region);
  }

  /**
   * GET /secrets/{name}: the summary plus key names (never values). The documented answer does
   * not say the set's name or type; the list does, and is asked for them then.
   */
  async getSet(name: string): Promise<SetDetail> {
    const set = await this.#forSet(
      name,
      this.#request("GET", setPath(name), SecretSetDetail),
    );
    const keys = set.keys ??
      (set.secrets ?? []).flatMap(({ fieldName }) => fieldName === undefined ? [] : [fieldName])
        .sort();
    if (set.type !== undefined) return { ...set, keys };
    const summary = (await this.listSets()).find((listed) => listed.name === name);
    return { name, type: summary?.type, ...set, keys };
  }

  /** PUT /secrets/{name}: one atomic write of keys, or of registry credentials. */
  async putSet(name: string, body: PutBody): Promise<PutOutcome> {
    const attempts = { lost: false };
    const response = await this.#forSet(
      name,
      this.#request("PUT", setPath(name), PutSecretSetResponse, body, attempts),
    );
    return attempts.lost ? { ...response, replayed: true } : response;
  }

  /** DELETE /secrets/{name}/{key}. */
  deleteKey(name: string, key: string): Promise<DeleteOutcome<DeleteKeyResponse>> {
    const path = `${setPath(name)}/${encodeURIComponent(key)}`;
    return this.#forSet(name, this.#delete(path, DeleteKeyResponse));
  }

  /** DELETE /secrets/{name}: irreversible. */
  async deleteSet(name: string): Promise<{ alreadyGone: boolean }> {
    const { alreadyGone } = await this.#forSet(name, this.#delete(setPath(name), null));
    return { alreadyGone };
  }

  /**
   * GET /runtime/secrets/{name}, with a runtime key (voicebot's `runtime` extension): the values of
   * a ready set, or its status. The values go to the caller only: never into an error.
   */
  async readRuntimeSet(name: string): Promise<RuntimeRead> {
    // Asked without a tag, the answer is never UNCHANGED.
    return await this.readRuntimeSetIfChanged(name, undefined) as RuntimeRead;
  }

  /**
   * A runtime read that sends `tag` (from an earlier read) as If-None-Match: UNCHANGED when the
   * server answers 304, the set being as it was. A server without tags answers in full.
   */
  async readRuntimeSetIfChanged(
    name: string,
    tag: string | undefined,
  ): Promise<RuntimeRead | typeof UNCHANGED> {
    let answeredTag: string | undefined;
    try {
      const set = await this.#request(
        "GET",
        `/runtime${setPath(name)}`,
        RuntimeSecretSetResponse,
        undefined,
        undefined,
        { ifNoneMatch: tag, onAnswer: (headers) => answeredTag = headers.get("etag") ?? undefined },
      );
      const secrets = set.secrets.map(({ secretKey, secretValue }): [string, string] => [
        secretKey,
        secretValue,
      ]);
      const read: RuntimeRead = { ready: true, name: set.name, region: set.region, secrets };
      if (answeredTag) read.tag = answeredTag;
      return read;
    } catch (error) {
      if (error instanceof NotReady) return { ready: false, ...error.detail };
      if (error instanceof NotModified) return UNCHANGED;
      throw error;
    }
  }

  /**
   * A request about one set. A server that follows the documentation refuses (400) set names the
   * SPEC allows (upper case, fewer than 3 characters): its answer then gets that rule as the hint.
   * Not voicebot's server (it names its extensions), whose rule is the SPEC's: its 400 is another.
   */
  async #forSet<T>(name: string, request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (
        error instanceof UsageError && error.api?.status === 400 &&
        !DOCUMENTED_SET_NAME.test(name) && !this.offers("replace")
      ) {
        throw new UsageError(error.message, {
          problems: error.problems,
          api: error.api,
          hint: `${DOCUMENTED_SET_NAME_RULE}.`,
        });
      }
      throw error;
    }
  }

  /** A DELETE whose 404 after an attempt with a lost answer means that attempt deleted it. */
  async #delete<S extends z.ZodMiniType>(
    path: string,
    schema: S | null,
  ): Promise<DeleteOutcome<z.infer<S>>> {
    const attempts = { lost: false };
    try {
      const response = await this.#request("DELETE", path, schema, undefined, attempts);
      return { alreadyGone: false, response };
    } catch (error) {
      if (error instanceof NotFoundError && attempts.lost) return { alreadyGone: true };
      throw error;
    }
  }

  /**
   * GET /me: the organization the key belongs to, and the key's id. Undefined from a server that
   * has no such route (the platform's documented API has none): then the caller falls back.
   */
  async me(): Promise<MeResponse | undefined> {
    try {
      return await this.#request("GET", "/me", MeResponse);
    } catch (error) {
      if (error instanceof VoicebotError && error.api?.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * Learns the server's extensions (`offers`) without sending the API key: one `GET /secrets`
   * without `Authorization`, whose answer (a 401 from voicebot's server, as from any server of
   * the documentation) names them in its `Voicebot-Extensions` header. For what must not go to a
   * server that does not offer it: `secrets run`'s runtime key. An answer that says nothing
   * about the server (no connection, 429, 5xx) is thrown as any request's would be.
   */
  async discoverExtensions(): Promise<void> {
    try {
      await this.#request("GET", "/secrets", null, undefined, undefined, { anonymous: true });
    } catch (error) {
      const status = error instanceof VoicebotError ? error.api?.status : undefined;
      if (status !== undefined && status !== 429 && status < 500) return;
      throw error;
    }
  }

  /** GET /regions: the organization's regions, and its default when the server says it. */
  async regions(): Promise<Regions> {
    const answer = await this.#request("GET", "/regions", RegionsResponse);
    const regions = (answer.regions ?? []).map(({ code, display_name, name }) => ({
      code,
      name: display_name ?? name ?? code,
    }));
    return { regions, ...(answer.default === undefined ? {} : { default: answer.default }) };
  }

  /**
   * One request, retried as the module says. `attempts.lost` is set when an attempt may have
   * reached the server but its answer never came back (a connection lost after sending, or a
   * timeout), so that a later attempt's answer may describe what that one did. `anonymous`: the
   * request goes without the API key.
   */
  async #request<S extends z.ZodMiniType>(
    method: "GET" | "PUT" | "POST" | "DELETE",
    path: string,
    schema: S | null,
    body?: unknown,
    attempts: { lost: boolean } = { lost: false },
    { anonymous = false, ifNoneMatch, onAnswer }: {
      anonymous?: boolean;
      /** An entity tag: a 304 answer throws NotModified. */
      ifNoneMatch?: string;
      onAnswer?: (headers: Headers) => void;
    } = {},
  ): Promise<z.infer<S>> {
    const url = this.baseUrl + path;
    const requestId = crypto.randomUUID();
    const headers: Record<string, string> = {
      ...(anonymous ? {} : { "Authorization": `Bearer ${this.#apiKey}` }),
      "User-Agent": `voicebot/${VERSION}`,
      "Accept": "application/json",
      "X-Request-Id": requestId,
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    if (ifNoneMatch !== undefined) headers["If-None-Match"] = ifNoneMatch;

    for (let attempt = 1;; attempt++) {
      const last = attempt >= this.#attempts;
      let response: Response;
      try {
        const request = new Request(url, {
          method,
          headers,
          body: payload,
          signal: this.#signal
            ? AbortSignal.any([AbortSignal.timeout(this.#timeoutMs), this.#signal])
            : AbortSignal.timeout(this.#timeoutMs),
        });
        response = await this.#fetch(request);
        this.#extensions = new Set(
          (response.headers.get("voicebot-extensions") ?? "").split(",").map((token) =>
            token.trim()
          ),
        );
      } catch (error) {
        if (last || this.#signal?.aborted) throw this.#connectionError(method, url, error);
        if (!neverSent(error)) attempts.lost = true;
        await this.#sleep(backoff(attempt));
        continue;
      }

      onAnswer?.(response.headers);
      if (response.status === 304 && ifNoneMatch !== undefined) {
        await response.body?.cancel();
        throw new NotModified();
      }
      if (response.ok) {
        return schema === null
          ? (await response.body?.cancel(), undefined as z.infer<S>)
          : await this.#parse(response, schema, method, url);
      }

      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && !last) {
        const wait = retryAfter(response.headers.get("retry-after")) ?? backoff(attempt);
        if (wait <= MAX_RETRY_AFTER_MS) {
          await response.body?.cancel();
          await this.#sleep(wait);
          continue;
        }
      }
      throw await this.#apiError(response, requestId);
    }
  }

  async #parse<S extends z.ZodMiniType>(
    response: Response,
    schema: S,
    method: string,
    url: string,
  ): Promise<z.infer<S>> {
    const requestId = response.headers.get("x-request-id") ?? undefined;
    let json: unknown;
    try {
      json = await response.json();
    } catch (cause) {
      throw new VoicebotError(
        `${method} ${url} answered ${response.status} with a body that is not JSON.`,
        {
          hint:
            "is this URL a voicebot secrets API? Check --api-url or `voicebot cloud auth status`.",
          cause,
        },
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new VoicebotError(
        `${method} ${url} answered a body this voicebot does not understand.`,
        {
          problems: parsed.error.issues.slice(0, 5).map((issue) =>
            `${issue.path.join(".") || "(body)"}: ${issue.message}`
          ),
          hint: "the server may be of another version; check --api-url.",
          api: { status: response.status, code: "UNEXPECTED_RESPONSE", requestId },
        },
      );
    }
    return parsed.data;
  }

  /** The ErrorResponse as one of our typed errors, with status, code and request id. */
  async #apiError(response: Response, sentRequestId: string): Promise<VoicebotError> {
    const requestId = response.headers.get("x-request-id") ?? sentRequestId;
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      // Not JSON: described by its status below.
    }
    const decoded: ErrorResponse | undefined = ErrorResponse.safeParse(json).data;
    const status = response.status;
    const code = decoded?.code ?? `HTTP_${status}`;
    const message = decoded?.error ?? `the API answered ${status} ${response.statusText}`.trim();
    const options: VoicebotErrorOptions = {
      api: { status, code, requestId },
      problems: decoded?.details?.map((d) => `${d.field}: ${d.message}`),
    };
    switch (status) {
      case 400:
        return new UsageError(message, options);
      case 401:
        return new AuthError(message, { ...options, hint: this.#loginHint });
      case 404:
        // No such route (or not the API at all): the URL is wrong, not the set or key.
        if (code === "ROUTE_NOT_FOUND" || !decoded) {
          return new VoicebotError(message, {
            ...options,
            hint: `is ${this.baseUrl} the API's base URL? It ends in /v1, as in ` +
              "http://127.0.0.1:8787/v1; check --api-url or `voicebot cloud auth status`.",
          });
        }
        return new NotFoundError(message, options);
      case 409: {
        const notReady = code === "NOT_READY" ? NotReadyResponse.safeParse(json).data : undefined;
        if (notReady) {
          const { status, errorMessage } = notReady;
          const retryAfterMs = retryAfter(response.headers.get("retry-after"));
          return new NotReady(message, { status, errorMessage, retryAfterMs }, options);
        }
        return new ConflictError(message, options);
      }
      case 429: {
        const after = response.headers.get("retry-after");
        return new VoicebotError(message, {
          ...options,
          hint: `too many requests; try again${after ? ` in ${after} s` : " later"}.`,
        });
      }
      default:
        return new VoicebotError(message, options);
    }
  }

  #connectionError(method: string, url: string, error: unknown): VoicebotError {
    const timedOut = error instanceof DOMException &&
      (error.name === "TimeoutError" || error.name === "AbortError");
    const reason = timedOut
      ? `no answer within ${Math.round(this.#timeoutMs / 100) / 10} s`
      : describeConnectionFailure(error);
    return new ApiUnreachable(`cannot reach the voicebot API at ${url} (${method}): ${reason}.`, {
      hint: timedOut
        ? "raise the timeout with VOICEBOT_API_TIMEOUT=SECONDS, or check the server."
        : "is the server running? Check the URL with `voicebot cloud auth status` or pass --api-url.",
      cause: error,
    });
  }
}

const setPath = (name: string) => `/secrets/${encodeURIComponent(name)}`;

/** The global fetch, sending writes (PUT, POST, DELETE) on connections never reused (see above). */
function globalFetch(): Fetch {
  let writes: Deno.HttpClient | undefined;
  return (request) => {
    if (request.method === "GET") return fetch(request);
    writes ??= Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    return fetch(request, { client: writes });
  };
}

/** Exponential backoff with full jitter: attempt 1 waits up to 250 ms, then 500, 1000... capped. */
function backoff(attempt: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or bad. */
export function retryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The messages of an error and its causes (Deno's "fetch failed" wraps the real one). */
function errorMessages(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error, depth = 0; e !== undefined && depth < 5; depth++) {
    messages.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return messages;
}

const REFUSED = /connection refused|ECONNREFUSED/i;
const UNRESOLVED = /dns error|failed to lookup|name or service not known/i;

/** Whether a failed attempt surely never reached the server: refused, or no such host. */
function neverSent(error: unknown): boolean {
  const message = errorMessages(error).join(" / ");
  return REFUSED.test(message) || UNRESOLVED.test(message);
}

/** The reason alone, from the error and its causes. */
function describeConnectionFailure(error: unknown): string {
  const messages = errorMessages(error);
  const message = messages.join(" / ");
  if (REFUSED.test(message)) return "connection refused";
  if (UNRESOLVED.test(message)) return "the host name does not resolve";
  if (/certificate|tls/i.test(message)) return "TLS failed";
  if (/connection reset|ECONNRESET/i.test(message)) return "connection reset";
  return messages.at(-1)!.split("\n")[0].slice(0, 200);
}
