/**
 * `voicebot cloud secrets diff`: compare local secrets with a stored set by key, using the
 * fingerprints of `GET /secrets/{name}`. No value is sent: the local values are fingerprinted
 * here with the organization's fingerprint key (see docs/API.md, "Value fingerprints").
 *
 * @module
 */
import { NotFoundError, UsageError } from "../errors.ts";
import { fingerprint, importFingerprintKey } from "./fingerprint.ts";
import type { SetDetail as SecretSetDetail } from "./client.ts";

export type KeyState = "only-local" | "only-remote" | "same" | "different";

export interface KeyComparison {
  key: string;
  state: KeyState;
}

export interface SetDiff {
  name: string;
  region?: string;
  keys: KeyComparison[];
}

/** By key, sorted; throws NotFoundError for a missing set. */
export async function diffSet(
  getSet: (name: string) => Promise<SecretSetDetail | undefined>,
  name: string,
  local: ReadonlyMap<string, string>,
): Promise<SetDiff> {
  const set = await getSet(name);
  if (!set) {
    throw new NotFoundError(`No set named "${name}".`, {
      hint: "every key is only local; create the set with `voicebot cloud secrets set`.",
    });
  }
  if (set.type === "imagePullSecret") {
    throw new UsageError(`"${name}" is an image pull secret; diff compares secret sets.`);
  }
  if (!set.fingerprintKey || !set.keyDetails) {
    throw new UsageError(
      "this server does not offer value fingerprints (the platform's documented API has none), " +
        "so no value can be compared; nothing was compared.",
      { hint: "`voicebot cloud secrets list NAME` shows the set's keys." },
    );
  }
  const comparisons = await compareWithSet(set, local);
  return { name, region: set.region, keys: comparisons };
}

/**
 * Each key of either side, sorted, with its state. Without fingerprints (a server from before
 * them) a key on both sides counts as different.
 */
export async function compareWithSet(
  set: SecretSetDetail,
  local: ReadonlyMap<string, string>,
): Promise<KeyComparison[]> {
  const hmacKey = set.fingerprintKey ? await importFingerprintKey(set.fingerprintKey) : undefined;
  const remote = new Map<string, string | undefined>(set.keys.map((key) => [key, undefined]));
  for (const detail of set.keyDetails ?? []) remote.set(detail.key, detail.fingerprint);
  const keys = [...new Set([...local.keys(), ...remote.keys()])].sort();
  return await Promise.all(keys.map(async (key): Promise<KeyComparison> => {
    const localValue = local.get(key);
    if (localValue === undefined) return { key, state: "only-remote" };
    if (!remote.has(key)) return { key, state: "only-local" };
    const remoteFingerprint = remote.get(key);
    const same = hmacKey !== undefined && remoteFingerprint !== undefined &&
      await fingerprint(hmacKey, localValue) === remoteFingerprint;
    return { key, state: same ? "same" : "different" };
  }));
}
