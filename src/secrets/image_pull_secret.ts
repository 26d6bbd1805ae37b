/**
 * `voicebot cloud secrets image-pull-secret`: registry credentials, checked to be
 * `username:password` before anything is sent, then written in one PUT (in place when the set
 * exists, as SPEC 4.3 requires).
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { placeSet, type SecretsApi, setNameProblem } from "./set.ts";
import type { PutSecretSetResponse } from "./schemas.ts";

/**
 * The credentials as the API takes them: base64 of `username:password`. With `encode`, the
 * input is `username:password` and is encoded here; without, it must already be that base64.
 * The error never quotes the input.
 */
export function encodeCredentials(credentials: string, encode: boolean): string {
  if (encode) {
    if (!isUserPassword(credentials)) {
      throw new UsageError("the credentials are not username:password; nothing was sent.", {
        hint: "give them as username:password (both non-empty), or use --no-encode for base64.",
      });
    }
    return new TextEncoder().encode(credentials).toBase64();
  }
  const encoded = credentials.trim();
  let decoded: string | undefined;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.fromBase64(encoded, { lastChunkHandling: "strict" }),
    );
  } catch {
    decoded = undefined;
  }
  if (decoded === undefined || !isUserPassword(decoded)) {
    throw new UsageError(
      "with --no-encode the credentials must be base64 of username:password; nothing was sent.",
      { hint: "drop --no-encode to give username:password as it is." },
    );
  }
  return encoded;
}

function isUserPassword(text: string): boolean {
  const colon = text.indexOf(":");
  return colon > 0 && colon < text.length - 1;
}

export interface ImagePullSecretOutcome {
  response: PutSecretSetResponse;
  /** True when a set of that name existed and was updated in place. */
  updated: boolean;
}

/** Writes the credentials; the region rules are those of `set` (see `placeSet`). */
export async function writeImagePullSecret(
  api: SecretsApi,
  input: { name: string; host: string; credentials: string; region?: string },
): Promise<ImagePullSecretOutcome> {
  const existing = await api.getSet(input.name);
  const region = await placeSet(api, input.name, "imagePullSecret", existing, input.region);
  const response = await api.putSet(input.name, {
    type: "imagePullSecret",
    region,
    host: input.host,
    credentials: input.credentials,
  });
  return { response, updated: existing !== undefined };
}

/** The problems with the name and host, before any request. */
export function checkImagePullSecretInput(name: string, host: string): void {
  const problems = [
    setNameProblem(name),
    host.trim() === "" ? "host: must not be empty" : undefined,
  ]
    .filter((p): p is string => p !== undefined);
  if (problems.length) {
    throw new UsageError(
      problems.length === 1 ? problems[0] + "." : "the arguments are not valid.",
      problems.length === 1 ? {} : { problems },
    );
  }
}
