/**
 * `voicebot cloud secrets image-pull-secret`: registry credentials, checked to be
 * `username:password` before anything is sent, then written in one PUT (in place when the set
 * exists, as SPEC 4.3 requires).
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { DOCUMENTED_LIMITS, formatCount, utf8Length } from "./limits.ts";
import { isEncodedUserPassword, isRegistryHost } from "./registry.ts";
import { placeSet, type SecretsApi, setAfterWrite, setNameProblem } from "./set.ts";
import type { SecretSetSummary } from "./responses.ts";

/**
 * The credentials as the API takes them: base64 of `username:password`. With `encode`, the
 * input is `username:password` and is encoded here; without, it must already be that base64.
 * The error never quotes the input.
 */
export function encodeCredentials(credentials: string, encode: boolean): string {
  const encoded = toBase64Credentials(credentials, encode);
  const bytes = utf8Length(encoded);
  if (bytes > DOCUMENTED_LIMITS.maxValueBytes) {
    throw new UsageError(
      `the credentials are ${formatCount(bytes)} bytes once encoded, over the API's limit of ` +
        `${formatCount(DOCUMENTED_LIMITS.maxValueBytes)} bytes; nothing was sent.`,
    );
  }
  return encoded;
}

function toBase64Credentials(credentials: string, encode: boolean): string {
  if (encode) {
    if (!isUserPassword(credentials)) {
      throw new UsageError("the credentials are not username:password; nothing was sent.", {
        hint: "give them as username:password (both non-empty), or use --no-encode for base64.",
      });
    }
    return new TextEncoder().encode(credentials).toBase64();
  }
  const encoded = credentials.trim();
  if (!isEncodedUserPassword(encoded)) {
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
  /** The set as the write left it. */
  set: SecretSetSummary;
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
  const outcome = await api.putSet(input.name, {
    isImagePullSecret: true,
    ...(region === undefined ? {} : { region }),
    // The documentation takes the registry as a URL; voicebot's server also as host[:port].
    host: api.offers("registry-host") || /^https?:\/\//.test(input.host)
      ? input.host
      : `https://${input.host}`,
    secretValue: input.credentials,
  });
  const set = setAfterWrite(input.name, "imagePullSecret", outcome);
  return { set, updated: existing !== undefined };
}

/**
 * The problems with the name and host, before any request. The host must be what the provisioner
 * accepts (`isRegistryHost`, the server's own rule): `host[:port]`, or the registry's http(s) URL,
 * without user information. It is not quoted: what was typed there may be credentials (NAME HOST in the wrong
 * order, or `user:password@host`).
 */
export function checkImagePullSecretInput(name: string, host: string): void {
  const problems = [setNameProblem(name), hostProblem(host)]
    .filter((p): p is string => p !== undefined);
  if (problems.length) {
    throw new UsageError(
      problems.length === 1 ? problems[0] + "; nothing was sent." : "the arguments are not valid.",
      {
        ...(problems.length === 1 ? {} : { problems }),
        hint: "give the registry as host[:port], as in an image name (ghcr.io, " +
          "registry.example.com:5000), or as its URL (https://index.docker.io/v1/).",
      },
    );
  }
}

function hostProblem(host: string): string | undefined {
  if (isRegistryHost(host)) return undefined;
  const what = "argument 2 is not a registry host";
  if (host.trim() === "") return `${what}: it is empty`;
  if (host.includes("@")) {
    return `${what}: it holds user information (user@ or user:password@); ` +
      "the credentials go apart, as the third argument or on stdin";
  }
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(host);
  if (scheme) {
    let bare: string | undefined;
    try {
      bare = new URL(host).host;
    } catch {
      bare = undefined;
    }
    return `${what}: a URL must be http:// or https://, with no query or fragment` +
      (bare && isRegistryHost(bare) ? ` (or give the host alone: ${bare})` : "");
  }
  if (host.includes("/")) return `${what}: drop the path after the host`;
  if (host.includes(":")) {
    return `${what}: what follows ":" is not a port (the host comes before the credentials: ` +
      "NAME HOST [username:password])";
  }
  return `${what}: use DNS labels or an IPv4 address, with an optional :port`;
}
