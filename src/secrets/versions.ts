/**
 * What rolling a secret set back to a kept version would change, told by key without a value
 * leaving the server: the fingerprints of the set as it is and of the version, made with the same
 * organization key, are compared. Versions are an extension of voicebot's server.
 *
 * @module
 */
import { NotFoundError, UsageError } from "../errors.ts";
import type { SecretsClient, SetDetail } from "./client.ts";

/** A rollback as keys: what it creates, overwrites, leaves and removes. Names only. */
export interface RollbackPlan {
  name: string;
  region?: string;
  version: number;
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

/**
 * Given the set as it is (just read, so that the client knows what the server offers), makes
 * sure the server keeps versions, before anything is written; then reads the version and
 * compares the two by fingerprint.
 */
export async function planRollback(
  client: SecretsClient,
  name: string,
  current: SetDetail,
  version: number,
): Promise<RollbackPlan> {
  client.requireExtension("versions", "rollback");
  if (current.type === "imagePullSecret") {
    throw new UsageError(`"${name}" is an image pull secret, which keeps no versions.`, {
      hint: "write its credentials again with `voicebot cloud secrets image-pull-secret`.",
    });
  }
  const target = await client.getVersion(name, version).catch((error) => {
    if (!(error instanceof NotFoundError)) throw error;
    throw new NotFoundError(`set "${name}" keeps no version ${version}.`, {
      hint: `see the versions kept with \`voicebot cloud secrets history ${name}\`.`,
      api: error.api,
    });
  });
  const now = new Map((current.keyDetails ?? []).map(({ key, fingerprint }) => [key, fingerprint]));
  const then = new Map(target.keyDetails.map(({ key, fingerprint }) => [key, fingerprint]));
  const sorted = (keys: Iterable<string>) => [...keys].sort();
  return {
    name,
    region: current.region,
    version,
    created: sorted([...then.keys()].filter((key) => !now.has(key))),
    updated: sorted(
      [...then].filter(([key, print]) => now.has(key) && now.get(key) !== print)
        .map(([key]) => key),
    ),
    unchanged: sorted(
      [...then].filter(([key, print]) => now.get(key) === print).map(([key]) => key),
    ),
    removed: sorted([...now.keys()].filter((key) => !then.has(key))),
  };
}

/** Whether the rollback changes anything at all. */
export function changes(plan: RollbackPlan): boolean {
  return plan.created.length + plan.updated.length + plan.removed.length > 0;
}
