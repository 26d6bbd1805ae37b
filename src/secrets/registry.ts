/**
 * What the API takes of an image pull secret: the registry host and the credentials. One rule,
 * shared by the server and the client (`voicebot cloud secrets image-pull-secret`):
 *
 * - `registryHostRefusal`: a host whose form names no registry at all (user information, a scheme
 *   other than http or https, a query, a fragment). The server refuses it when it is written
 *   (400, field `host`), the client before sending it.
 * - `isRegistryHost`: what the provisioner accepts (it fails a set by it); the client refuses the
 *   rest before sending it too.
 * - `normalizeRegistryHost`: the form the server stores and the client sends (the scheme in
 *   lower case), which the provisioner accepts whenever it accepts the host as written.
 *
 * No dependencies, so that the client checks before classic zod or the network.
 *
 * @module
 */

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** `scheme://`, as RFC 3986 spells a scheme; matched before anything else is read. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/** An http(s) URL: the scheme (either case), the authority, then a path or nothing. */
const HTTP_URL = /^https?:\/\/([^/]*)(\/[A-Za-z0-9._~\/-]*)?$/i;

/** Why a host names no registry, whatever its name: see `registryHostRefusal`. */
export type RegistryHostRefusal = "user-information" | "scheme" | "query" | "fragment";

/**
 * What makes a host name no registry by its form alone, or undefined. Each side says it in its
 * own words, never quoting the host (`user:password@registry` holds a credential).
 */
export function registryHostRefusal(value: string): RegistryHostRefusal | undefined {
  if (value.includes("@")) return "user-information";
  const scheme = SCHEME.exec(value)?.[1];
  if (scheme !== undefined && !/^https?$/i.test(scheme)) return "scheme";
  if (value.includes("?")) return "query";
  if (value.includes("#")) return "fragment";
  return undefined;
}

/**
 * `host[:port]`, as a registry is named in an image reference (DNS labels, an IPv4 address, or an
 * IPv6 address in brackets), or the registry's URL, as Docker's own configuration names it and
 * the platform's documentation shows (`https://index.docker.io/v1/`): http or https in either
 * case, that host, a path, no user information, query or fragment.
 */
export function isRegistryHost(value: string): boolean {
  if (registryHostRefusal(value) !== undefined) return false;
  const url = HTTP_URL.exec(value);
  const match = /^(\[[^\]]*\]|[^:/[\]]+)(?::(\d{1,5}))?$/.exec(url ? url[1] : value);
  if (!match) return false;
  const [, host, port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  if (host.startsWith("[")) return isIPv6(host.slice(1, -1));
  return host.length <= 253 && host.split(".").every((label) => LABEL.test(label));
}

/** The form to store and send: an http(s) URL's scheme in lower case; anything else as given. */
export function normalizeRegistryHost(value: string): string {
  return value.replace(/^https?(?=:\/\/)/i, (scheme) => scheme.toLowerCase());
}

/** An IPv6 address as URLs write it inside brackets (no zone), checked by the URL parser. */
function isIPv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(":")) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/** Base64 of `username:password`, both non-empty. */
export function isEncodedUserPassword(credentials: string): boolean {
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.fromBase64(credentials.trim(), { lastChunkHandling: "strict" }),
    );
  } catch {
    return false;
  }
  const colon = decoded.indexOf(":");
  return colon > 0 && colon < decoded.length - 1;
}
