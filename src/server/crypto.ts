/**
 * Encryption at rest and API keys.
 *
 * Values and registry credentials are sealed with AES-256-GCM under a master key, with a random
 * 12-byte IV each, and bound to where they live (organization, set, key) as additional data: a
 * ciphertext copied to another row does not decrypt. The master keys form a keyring, newest
 * first: the first seals, every one opens what it sealed, and a sealed value names the key that
 * sealed it, so that an operator can rotate keys while servers run (rotation.ts). API keys are
 * stored only as their SHA-256 hash, found by a short public id and compared in constant time.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hash } from "node:crypto";

/** Before keyrings: version byte, IV, ciphertext with its tag; sealed by the database's first key. */
const LEGACY_FORMAT = 1;
/** Version byte, the sealing key's id, IV, ciphertext with its 16-byte tag. */
export const SEALED_FORMAT = 2;
const FORMAT = SEALED_FORMAT;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What a sealed value starts with that names its key: the version and the key's id. */
export const SEALED_HEAD_BYTES = 1 + KEY_ID_BYTES;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * What names the key of a sealed value: its version and key id, or for the legacy format (whose
 * key is not named) its version byte alone. Storage groups by the same bytes (countSealedByHead).
 */
export function sealedHead(stored: Uint8Array): Uint8Array {
  return stored.subarray(0, stored[0] === FORMAT ? SEALED_HEAD_BYTES : 1);
}

/** A master key and its id: not secret, derived one way from the key, shown to operators. */
interface MasterKey {
  /** 16 hex digits. */
  id: string;
  raw: Uint8Array;
  /** The head of what this key seals: FORMAT, then the id's bytes. */
  head: Uint8Array;
}

/** Thrown when a value was sealed by a key that is not in the keyring. */
export class KeyNotInKeyring extends Error {
  constructor(readonly keyId: string) {
    super(`sealed with master key ${keyId}, which is not in the keyring`);
    this.name = "KeyNotInKeyring";
  }
}

/** The id of a master key: the first 8 bytes of an HMAC of a fixed label, as 16 hex digits. */
export function masterKeyId(raw: Uint8Array): string {
  return new Uint8Array(createHmac("sha256", raw).update("voicebot master key id").digest())
    .subarray(0, KEY_ID_BYTES).toHex();
}

/**
 * The root the organizations' fingerprint keys are derived from: HKDF-SHA256's extract step of a
 * master key (zero salt). Stored sealed in the database, so that fingerprints do not change when
 * the master key does; taken from the key the database was created with, so that they stay the
 * ones it gave before keyrings, when that key was the HKDF input.
 */
export function fingerprintRootOf(raw: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", new Uint8Array(32)).update(raw).digest());
}

/** Seals and opens values under a keyring of master keys, newest first. */
export class Vault {
  private readonly byId: Map<string, MasterKey>;
  /** The key that sealed legacy-format values, once known (see `knowLegacyKey`); else each is tried. */
  private legacyKey: MasterKey | undefined;

  private constructor(private readonly keys: MasterKey[], private fingerprintRoot: Uint8Array) {
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  /** Each key must be exactly 32 bytes (AES-256); the first seals. */
  static fromRawKeys(raws: Uint8Array[]): Promise<Vault> {
    try {
      if (raws.length === 0) throw new Error("a keyring needs at least one master key");
      const keys = raws.map((raw) => {
        if (raw.length !== 32) throw new Error(`master key must be 32 bytes, got ${raw.length}`);
        const id = masterKeyId(raw);
        const head = new Uint8Array(SEALED_HEAD_BYTES);
        head[0] = FORMAT;
        head.set(Uint8Array.fromHex(id), 1);
        return { id, raw: raw.slice(), head };
      });
      return Promise.resolve(new Vault(keys, fingerprintRootOf(keys[0].raw)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  static fromRawKey(raw: Uint8Array): Promise<Vault> {
    return Vault.fromRawKeys([raw]);
  }

  /** The keys' ids, newest (the sealing one) first. */
  get keyIds(): string[] {
    return this.keys.map((key) => key.id);
  }

  /** What everything the newest key sealed starts with. */
  get currentHead(): Uint8Array {
    return this.keys[0].head;
  }

  /**
   * The id of the key that sealed the value this head (`sealedHead`) is of: undefined for the
   * legacy format, unless the ring knows which key sealed those (`knowLegacyKey`).
   */
  keyIdOfHead(head: Uint8Array): string | undefined {
    if (head[0] === FORMAT && head.length === SEALED_HEAD_BYTES) return head.subarray(1).toHex();
    return head[0] === LEGACY_FORMAT ? this.legacyKey?.id : undefined;
  }

  /** Whether this is a legacy-format value, whose key it does not name. */
  isLegacy(stored: Uint8Array): boolean {
    return stored[0] === LEGACY_FORMAT;
  }

  /** Whether the key of this id is in the ring. */
  hasKey(id: string): boolean {
    return this.byId.has(id);
  }

  /** Records which key of the ring sealed legacy-format values (found by the key check). */
  knowLegacyKey(id: string) {
    this.legacyKey = this.byId.get(id);
  }

  /** The fingerprint keys' root, as the database stores it (see `fingerprintRootOf`). */
  useFingerprintRoot(root: Uint8Array) {
    this.fingerprintRoot = root.slice();
  }

  seal(plaintext: string, context: string): Promise<Uint8Array> {
    return Promise.resolve(this.sealSync(plaintext, context));
  }

  /** Layout: FORMAT, key id, IV, ciphertext with its tag. */
  sealSync(plaintext: string, context: string): Uint8Array {
    const key = this.keys[0];
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const cipher = createCipheriv("aes-256-gcm", key.raw, iv);
    cipher.setAAD(encoder.encode(context));
    const body = cipher.update(encoder.encode(plaintext));
    cipher.final();
    const tag = cipher.getAuthTag();
    const sealed = new Uint8Array(SEALED_HEAD_BYTES + IV_BYTES + body.length + TAG_BYTES);
    sealed.set(key.head);
    sealed.set(iv, SEALED_HEAD_BYTES);
    sealed.set(body, SEALED_HEAD_BYTES + IV_BYTES);
    sealed.set(tag, sealed.length - TAG_BYTES);
    return sealed;
  }

  /**
   * Throws when the context is not the one the value was sealed in, or its key is not in the
   * ring (KeyNotInKeyring).
   */
  open(stored: Uint8Array, context: string): Promise<string> {
    try {
      return Promise.resolve(this.openSync(stored, context));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Synchronous, so that a write can open inside its transaction (`holds`, `reseal`). */
  openSync(stored: Uint8Array, context: string): string {
    return decoder.decode(this.openBytes(stored, context));
  }

  private openBytes(stored: Uint8Array, context: string): Uint8Array {
    if (stored[0] === LEGACY_FORMAT) {
      for (const key of this.legacyKey ? [this.legacyKey] : this.keys) {
        const opened = decrypt(key.raw, stored.subarray(1), context);
        if (opened) return opened;
      }
      throw new Error("the value does not open with any key of the keyring");
    }
    if (stored[0] !== FORMAT) throw new Error("unknown ciphertext format");
    const id = stored.subarray(1, SEALED_HEAD_BYTES).toHex();
    const key = this.byId.get(id);
    if (!key) throw new KeyNotInKeyring(id);
    const opened = decrypt(key.raw, stored.subarray(SEALED_HEAD_BYTES), context);
    if (!opened) throw new Error("the value does not open in this place with its key");
    return opened;
  }

  /**
   * Whether `stored` holds exactly `plaintext` (sealed under `context`). Synchronous, so that a
   * write can tell an unchanged value inside its transaction; false for anything that does not
   * open. A value of another length is told without decrypting.
   */
  holds(stored: Uint8Array, context: string, plaintext: string): boolean {
    const bytes = encoder.encode(plaintext);
    const head = stored[0] === FORMAT ? SEALED_HEAD_BYTES : 1;
    if (stored.length !== head + IV_BYTES + bytes.length + TAG_BYTES) return false;
    try {
      return sameHash(this.openBytes(stored, context), bytes);
    } catch {
      return false;
    }
  }

  /** `stored` opened and sealed again by the newest key, in the same place. */
  reseal(stored: Uint8Array, context: string): Uint8Array {
    return this.sealSync(this.openSync(stored, context), context);
  }

  /**
   * The organization's fingerprint key (32 bytes): HKDF-SHA256's expand step of the fingerprint
   * root with the organization's id as info. The same in every server process, unrelated across
   * organizations and to the encryption keys, and unchanged by a rotation of the master key.
   */
  fingerprintKey(orgId: string): Uint8Array {
    const info = encoder.encode(`fingerprint-key:${orgId}`);
    const block = new Uint8Array(info.length + 1);
    block.set(info);
    block[info.length] = 1;
    return new Uint8Array(createHmac("sha256", this.fingerprintRoot).update(block).digest());
  }
}

/** `body` is IV, ciphertext and tag; undefined when the tag does not verify. */
function decrypt(raw: Uint8Array, body: Uint8Array, context: string): Uint8Array | undefined {
  if (body.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", raw, body.subarray(0, IV_BYTES));
    decipher.setAAD(encoder.encode(context));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    // AES-GCM yields every byte from update; final only checks the tag (it throws on a bad one).
    const opened = decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES));
    decipher.final();
    return new Uint8Array(opened);
  } catch {
    return undefined;
  }
}

/** Additional data for one value: names cannot contain ":" or "#", so contexts never collide. */
export const valueContext = (orgId: string, setName: string, key: string) =>
  `value:${orgId}:${setName}:${key}`;
export const credentialsContext = (orgId: string, setName: string) =>
  `credentials:${orgId}:${setName}`;
/** A sealed constant stored in the database, to tell a wrong master key at start. */
export const KEY_CHECK_CONTEXT = "key-check";
export const KEY_CHECK_PLAINTEXT = "voicebot master key check";
/** Additional data of the stored fingerprint root (see `fingerprintRootOf`). */
export const FINGERPRINT_ROOT_CONTEXT = "fingerprint-root";

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
  // The one-shot hash, as hex: in Deno about half the cost of createHash, on every request.
  return Uint8Array.fromHex(hash("sha256", key));
}

/**
 * The entity tag of a set's runtime answer: a digest of what the answer is made of as stored
 * (region, keys, sealed values), never of a plaintext value, so the tag says nothing of one. A
 * write that changes no value leaves the sealed bytes, and so the tag, as they were; a master key
 * rotation reseals them, and a client told of a change finds the same values.
 */
export function runtimeEntityTag(
  region: string,
  values: { key: string; sealed: Uint8Array }[],
): string {
  const digest = createHash("sha256").update(region).update("\0");
  for (const { key, sealed } of values) {
    digest.update(key).update("\0").update(String(sealed.length)).update("\0").update(sealed);
  }
  return `"${digest.digest("base64url").slice(0, 27)}"`;
}

/** Constant time for equal lengths: every byte is looked at whatever the first difference. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

/** The same for text (an API key, as presented): every character is looked at. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** Replaces anything shaped like an API key, for text that may reach a log. */
export function redactApiKeys(text: string): string {
  return text.replace(/(vb_[sr]k_)[A-Za-z0-9_-]*/g, "$1[redacted]");
}
