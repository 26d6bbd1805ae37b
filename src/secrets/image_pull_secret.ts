/**
 * `voicebot cloud secrets image-pull-secret`: registry credentials, checked to be
 * `username:password` before anything is sent, then written in one PUT (in place when the set
 * exists, as SPEC 4.3 requires).
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { DOCUMENTED_LIMITS, formatCount, utf8Length } from "./limits.ts";
import {
  isEncodedUserPassword,
  isRegistryHost,
  normalizeRegistryHost,
  registryHostRefusal,
} from "./registry.ts";
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
    host: hostToSend(input.host, api.offers("registry-host")),
    secretValue: input.credentials,
  });
  const set = setAfterWrite(input.name, "imagePullSecret", outcome);
  return { set, updated: existing !== undefined };
}

/**
 * The host as sent: a URL's scheme in lower case (the form the server stores); a host alone as
 * given to a server that takes it (voicebot's `registry-host`), else as the URL the documentation
 * takes (`https://HOST`).
 */
function hostToSend(host: string, bareTaken: boolean): string {
  const normalized = normalizeRegistryHost(host);
  return bareTaken || /^https?:\/\//.test(normalized) ? normalized : `https://${normalized}`;
}

/**
 * The problems with the name and host, before any request. The host must be what the provisioner
 * accepts (`isRegistryHost`, the server's own rule): `host[:port]`, or the registry's http(s) URL
 * without user information, query or fragment. It is not quoted: what was typed there may be
 * credentials (NAME HOST in the wrong order, or `user:password@host`).
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
  switch (registryHostRefusal(host)) {
    case "user-information":
      return `${what}: it holds user information (user@ or user:password@); ` +
        "the credentials go apart, as the third argument or on stdin";
    case "scheme":
      return `${what}: a URL must be http:// or https://` + hostAlone(host);
    case "query":
      return `${what}: a URL must have no query (?...)` + hostAlone(host);
    case "fragment":
      return `${what}: a URL must have no fragment (#...)` + hostAlone(host);
  }
  if (/^https?:\/\//i.test(host)) {
    return `${what}: a URL must name a host (DNS labels, an IPv4 address or [IPv6]) with an ` +
      "optional :port, then a path or nothing";
  }
  if (host.includes("/")) return `${what}: drop the path after the host`;
  if (host.includes(":") && !host.startsWith("[")) {
    return `${what}: what follows ":" is not a port (the host comes before the credentials: ` +
      "NAME HOST [username:password])";
  }
  return `${what}: use DNS labels or an IPv4 address ([IPv6] in brackets), with an optional :port`;
}

/** ` (or give the host alone: HOST)`, when the URL's host is one: never user information. */
function hostAlone(url: string): string {
  let bare: string | undefined;
  try {
    bare = new URL(url).host;
  } catch {
    bare = undefined;
  }
  return bare && isRegistryHost(bare) ? ` (or give the host alone: ${bare})` : "";
}
