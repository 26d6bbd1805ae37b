/**
 * What the provisioner accepts of an image pull secret: the registry host and the credentials.
 * One rule, shared: the server's provisioner fails a set by it, and the client refuses the same
 * input before sending it (`voicebot cloud secrets image-pull-secret`).
 *
 * No dependencies, so that the client checks before classic zod or the network.
 *
 * @module
 */

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * `host[:port]`, as a registry is named in an image reference (DNS labels or an IPv4 address), or
 * the registry's URL, as Docker's own configuration names it and the platform's documentation
 * shows (`https://index.docker.io/v1/`): http or https, that host, a path, no query or fragment.
 */
export function isRegistryHost(value: string): boolean {
  const url = /^https?:\/\/([^/?#@]+)(\/[A-Za-z0-9._~\/-]*)?$/.exec(value);
  const match = /^([^:/]+)(?::(\d{1,5}))?$/.exec(url ? url[1] : value);
  if (!match) return false;
  const [, host, port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  return host.length <= 253 && host.split(".").every((label) => LABEL.test(label));
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
