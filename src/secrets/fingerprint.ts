/**
 * Value fingerprints: what lets `voicebot cloud secrets diff` and `list NAME` tell whether a
 * stored value equals a local one without the value, or the local one, crossing the wire.
 *
 * fingerprint = the first 16 hex digits (64 bits) of HMAC-SHA256(fingerprint key, UTF-8 value).
 * The server derives one fingerprint key per organization from its master key and hands it, in
 * `GET /secrets/{name}`, to callers holding that organization's API key; the client fingerprints
 * its local values with it and compares. docs/API.md says what this reveals and what it does not.
 *
 * WebCrypto only: the client loads this module too.
 *
 * @module
 */

/** Hex digits kept: short enough to read, long enough that two values never collide by chance. */
export const FINGERPRINT_HEX_DIGITS = 16;

const encoder = new TextEncoder();

/** Imports a fingerprint key (raw bytes, or base64url as the API sends it) for HMAC. */
export async function importFingerprintKey(key: Uint8Array | string): Promise<CryptoKey> {
  const raw = typeof key === "string" ? Uint8Array.fromBase64(key, { alphabet: "base64url" }) : key;
  return await crypto.subtle.importKey(
    "raw",
    raw as BufferSource,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

export async function fingerprint(key: CryptoKey, value: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(value));
  return new Uint8Array(mac).toHex().slice(0, FINGERPRINT_HEX_DIGITS);
}
