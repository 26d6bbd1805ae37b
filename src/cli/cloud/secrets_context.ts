/**
 * What the `set`, `diff` and `image-pull-secret` commands need from around them: the API client
 * for the chosen organization, and the prompter.
 *
 * TEMPORARY until the credentials land: reads VOICEBOT_API_URL and VOICEBOT_API_KEY only.
 */
import { AuthError, NotFoundError } from "../../errors.ts";
import type { SecretsClient } from "../../secrets/client.ts";
import type { SecretsApi } from "../../secrets/set.ts";

export async function openSecretsApi(_organization: string | undefined): Promise<SecretsApi> {
  const { SecretsClient } = await import("../../secrets/client.ts");
  const baseUrl = Deno.env.get("VOICEBOT_API_URL");
  const apiKey = Deno.env.get("VOICEBOT_API_KEY");
  if (!baseUrl || !apiKey) {
    throw new AuthError("no API URL and key.", {
      hint: "set VOICEBOT_API_URL and VOICEBOT_API_KEY.",
    });
  }
  return secretsApi(new SecretsClient({ baseUrl, apiKey }));
}

/** The client as the cores use it: a missing set is `undefined`, not an error. */
export function secretsApi(client: SecretsClient): SecretsApi {
  return {
    getSet: async (name) => {
      try {
        return await client.getSet(name);
      } catch (error) {
        if (error instanceof NotFoundError && error.api?.code === "NOT_FOUND") return undefined;
        throw error;
      }
    },
    regions: () => client.regions(),
    putSet: (name, body) => client.putSet(name, body),
  };
}

export { confirm, isInteractive, password } from "../prompt.ts";
