/**
 * What the `set`, `diff` and `image-pull-secret` commands need from around them: the API client
 * for the chosen organization, and the prompter.
 *
 * TEMPORARY seam until the shared client and prompter land: reads VOICEBOT_API_URL and
 * VOICEBOT_API_KEY only.
 */
import {
  AuthError,
  ConflictError,
  NotFoundError,
  UsageError,
  VoicebotError,
} from "../../errors.ts";
import type { SecretsApi } from "../../secrets/set.ts";

export async function openSecretsApi(_organization: string | undefined): Promise<SecretsApi> {
  const { ErrorResponse, PutSecretSetResponse, RegionsResponse, SecretSetDetail } = await import(
    "../../secrets/schemas.ts"
  );
  const base = Deno.env.get("VOICEBOT_API_URL");
  const key = Deno.env.get("VOICEBOT_API_KEY");
  if (!base || !key) {
    throw new AuthError("no API URL and key.", {
      hint: "set VOICEBOT_API_URL and VOICEBOT_API_KEY.",
    });
  }
  const call = async (method: string, path: string, body?: unknown) => {
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new VoicebotError(`cannot reach ${base}: ${(error as Error).message}`);
    }
    const json = await response.json().catch(() => undefined);
    if (response.ok || (response.status === 404 && method === "GET")) {
      return { status: response.status, json };
    }
    const parsed = ErrorResponse.safeParse(json);
    const message = parsed.success ? parsed.data.error : `HTTP ${response.status}`;
    const problems = parsed.success
      ? (parsed.data.details ?? []).map((d) => `${d.field}: ${d.message}`)
      : [];
    const requestId = response.headers.get("x-request-id");
    const options = { problems, hint: requestId ? `request id ${requestId}` : undefined };
    if (response.status === 401) throw new AuthError(message, options);
    if (response.status === 404) throw new NotFoundError(message, options);
    if (response.status === 409) throw new ConflictError(message, options);
    if (response.status === 400) throw new UsageError(message, options);
    throw new VoicebotError(message, options);
  };
  return {
    async getSet(name) {
      const { status, json } = await call("GET", `/secrets/${encodeURIComponent(name)}`);
      return status === 404 ? undefined : SecretSetDetail.parse(json);
    },
    async regions() {
      return RegionsResponse.parse((await call("GET", "/regions")).json);
    },
    async putSet(name, body) {
      const { json } = await call("PUT", `/secrets/${encodeURIComponent(name)}`, body);
      return PutSecretSetResponse.parse(json);
    },
  };
}

export { confirm, isInteractive, password } from "../prompt.ts";
