/**
 * What the `set`, `diff` and `image-pull-secret` commands need from around them: the API client
 * for the chosen organization, and prompts that only run on a terminal.
 *
 * TEMPORARY seam until the shared client and prompter land: reads VOICEBOT_API_URL and
 * VOICEBOT_API_KEY only.
 */
import { AuthError, CancelledError, UsageError, VoicebotError } from "../../errors.ts";
import type { SecretsApi } from "../../secrets/set.ts";

export async function openSecretsApi(_organization: string | undefined): Promise<SecretsApi> {
  const { PutSecretSetResponse, RegionsResponse, SecretSetDetail } = await import(
    "../../secrets/schemas.ts"
  );
  const base = Deno.env.get("VOICEBOT_API_URL");
  const key = Deno.env.get("VOICEBOT_API_KEY");
  if (!base || !key) throw new AuthError("not logged in.");
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    return { status: response.status, json };
  };
  return {
    async getSet(name) {
      const { status, json } = await call("GET", `/secrets/${name}`);
      if (status === 404) return undefined;
      if (status !== 200) throw new VoicebotError(json.error);
      return SecretSetDetail.parse(json);
    },
    async regions() {
      const { json } = await call("GET", "/regions");
      return RegionsResponse.parse(json);
    },
    async putSet(name, body) {
      const { status, json } = await call("PUT", `/secrets/${name}`, body);
      if (status >= 400) throw new VoicebotError(json.error);
      return PutSecretSetResponse.parse(json);
    },
  };
}

export function isInteractive(): boolean {
  return Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
}

export async function confirm(message: string): Promise<boolean> {
  const clack = await import("@clack/prompts");
  const { stderr: output } = await import("node:process");
  // On stderr, so that stdout carries only data (one JSON document with --json).
  const answer = await clack.confirm({ message, initialValue: false, output });
  if (clack.isCancel(answer)) throw new CancelledError();
  return answer;
}

export async function password(message: string): Promise<string> {
  const clack = await import("@clack/prompts");
  // No mask either: a hidden prompt echoes nothing, not even the length.
  const { stderr: output } = await import("node:process");
  const answer = await clack.password({ message, mask: "", output });
  if (clack.isCancel(answer)) throw new CancelledError();
  return answer;
}

export async function text(message: string): Promise<string> {
  const clack = await import("@clack/prompts");
  const { stderr: output } = await import("node:process");
  const answer = await clack.text({ message, output });
  if (clack.isCancel(answer)) throw new CancelledError();
  return answer;
}

export { UsageError };
