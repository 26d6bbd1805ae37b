/** The API client as the `set`, `diff` and `image-pull-secret` cores use it. */
import { NotFoundError } from "../../../errors.ts";
import type { SecretsClient } from "../../../secrets/client.ts";
import type { SecretsApi } from "../../../secrets/set.ts";
import { connect, type ConnectionValues } from "../connect.ts";

export async function connectApi(values: ConnectionValues): Promise<SecretsApi> {
  return secretsApi((await connect(values)).client);
}

/** A missing set is `undefined` rather than an error: the cores decide what it means. */
export function secretsApi(client: SecretsClient): SecretsApi {
  return {
    getSet: async (name) => {
      try {
        return await client.getSet(name);
      } catch (error) {
        // The route exists (a wrong base URL is not a NotFoundError): the set does not.
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    },
    regions: () => client.regions(),
    putSet: (name, body) => client.putSet(name, body),
    offers: (extension) => client.offers(extension),
  };
}
