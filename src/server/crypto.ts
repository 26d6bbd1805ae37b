/**
 * Encryption at rest and API keys.
 *
 * Values and registry credentials are sealed with AES-256-GCM under the master key, with a
 * random 12-byte IV each, and bound to where they live (organization, set, key) as additional
 * data: a ciphertext copied to another row does not decrypt. API keys are stored only as their
 * SHA-256 hash, found by a short public id and compared in constant time.
 */
import { createDecipheriv, createHash } from "node:crypto";

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Seals and opens values under the master key. */
export class Vault {
  private constructor(
    private readonly key: CryptoKey,
    /** The master key again, as HKDF input: derives per-organization keys. */
    private readonly derivationKey: CryptoKey,
    /** The master key's bytes, for `holds`, which runs inside a database transaction. */
    private readonly raw: Uint8Array,
  ) {}

  /** `raw` must be exactly 32 bytes (AES-256). */
  static async fromRawKey(raw: Uint8Array): Promise<Vault> {
    if (raw.length !== 32) throw new Error(`master key must be 32 bytes, got ${raw.length}`);
    const key = await crypto.subtle.importKey("raw", raw as BufferSource, "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    const derivationKey = await crypto.subtle.importKey("raw", raw as BufferSource, "HKDF", false, [
      "deriveBits",
    ]);
    return new Vault(key, derivationKey, raw.slice());
  }

  /** Layout: version byte, IV, ciphertext with its 16-byte tag. */
  async seal(plaintext: string, context: string): Promise<Uint8Array> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const ciphertext = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
      this.key,
      encoder.encode(plaintext),
    );
    const sealed = new Uint8Array(1 + IV_BYTES + ciphertext.byteLength);
    sealed[0] = FORMAT_VERSION;
    sealed.set(iv, 1);
    sealed.set(new Uint8Array(ciphertext), 1 + IV_BYTES);
    return sealed;
  }

  /** 32 bytes derived from the master key for one purpose, named by `info`. */
  async derive(info: string): Promise<Uint8Array> {
    const bits = await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: encoder.encode(info) },
      this.derivationKey,
      256,
    );
    return new Uint8Array(bits);
  }

  /**
   * Whether `stored` holds exactly `plaintext` (sealed under this key and `context`). Synchronous,
   * so that a write can tell an unchanged value inside its transaction; false for anything that
   * does not open. A value of another length is told without decrypting.
   */
  holds(stored: Uint8Array, context: string, plaintext: string): boolean {
    const bytes = encoder.encode(plaintext);
    if (stored[0] !== FORMAT_VERSION || stored.length !== 1 + IV_BYTES + bytes.length + TAG_BYTES) {
      return false;
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.raw, stored.subarray(1, 1 + IV_BYTES));
      decipher.setAAD(encoder.encode(context));
      decipher.setAuthTag(stored.subarray(stored.length - TAG_BYTES));
      // AES-GCM yields every byte from update; final only checks the tag (it throws on a bad one).
      const opened = decipher.update(stored.subarray(1 + IV_BYTES, stored.length - TAG_BYTES));
      decipher.final();
      return sameHash(opened, bytes);
    } catch {
      return false;
    }
  }

  /** Throws when the key or the context is not the one the value was sealed with. */
  async open(stored: Uint8Array, context: string): Promise<string> {
    // Bytes from either database driver; WebCrypto's types want an ArrayBuffer-backed view.
    const sealed = stored as Uint8Array<ArrayBuffer>;
    if (sealed[0] !== FORMAT_VERSION) throw new Error("unknown ciphertext format");
    const plaintext = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: sealed.subarray(1, 1 + IV_BYTES),
        additionalData: encoder.encode(context),
      },
      this.key,
      sealed.subarray(1 + IV_BYTES),
    );
    return decoder.decode(plaintext);
  }
}

/**
 * The organization's fingerprint key (32 bytes): HKDF-SHA256 of the master key with the
 * organization's id as info. Nothing to store, the same in every server process, and unrelated
 * across organizations and to the encryption key.
 */
export async function fingerprintKey(vault: Vault, orgId: string): Promise<Uint8Array> {
  return await vault.derive(`fingerprint-key:${orgId}`);
}

/** Additional data for one value: names cannot contain ":" or "#", so contexts never collide. */
export const valueContext = (orgId: string, setName: string, key: string) =>
  `value:${orgId}:${setName}:${key}`;
export const credentialsContext = (orgId: string, setName: string) =>
  `credentials:${orgId}:${setName}`;
/** A sealed constant stored in the database, to tell a wrong master key at start. */
export const KEY_CHECK_CONTEXT = "key-check";
export const KEY_CHECK_PLAINTEXT = "voicebot master key check";

/**
 * `vb_sk_<id>_<secret>` (private) and `vb_rk_<id>_<secret>` (runtime): the prefix makes a leaked
 * key recognizable to secret scanners, and tells a runtime key from a private one at a glance.
 * The stored hash covers the prefix, so a key's kind cannot be changed by editing it.
 */
export const API_KEY_PREFIXES = { private: "vb_sk_", runtime: "vb_rk_" } as const;
const API_KEY_PATTERN = /^vb_[sr]k_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

export interface NewApiKey {
  /** The private key, shown once and never stored. */
  key: string;
  /** Public, non-secret id: finds the hash without scanning. */
  id: string;
  hash: Uint8Array;
}

export function generateApiKey(kind: keyof typeof API_KEY_PREFIXES = "private"): NewApiKey {
  const id = crypto.getRandomValues(new Uint8Array(8)).toHex();
  const secret = crypto.getRandomValues(new Uint8Array(32))
    .toBase64({ alphabet: "base64url", omitPadding: true });
  const key = `${API_KEY_PREFIXES[kind]}${id}_${secret}`;
  return { key, id, hash: hashApiKey(key) };
}

/** The key's public id, or undefined when the string is not shaped like one of our keys. */
export function apiKeyId(key: string): string | undefined {
  return API_KEY_PATTERN.exec(key)?.[1];
}

export function hashApiKey(key: string): Uint8Array {
  return createHash("sha256").update(key).digest();
}

/** Constant time for equal lengths: every byte is looked at whatever the first difference. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

/** Replaces anything shaped like an API key, for text that may reach a log. */
export function redactApiKeys(text: string): string {
  return text.replace(/(vb_[sr]k_)[A-Za-z0-9_-]*/g, "$1[redacted]");
}
