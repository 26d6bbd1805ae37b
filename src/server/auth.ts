/**
 * Bearer API keys: the header is parsed, the key's public id finds its stored hash, and the
 * presented key is checked against it in constant time, on every request. Every failure is the same
 * 401 to the caller apart from its message; none echoes the key.
 */
import { unauthorized } from "./errors.ts";
import { apiKeyId, hashApiKey, sameHash, sameText } from "./crypto.ts";
import type { NowOrLater } from "./now_or_later.ts";
import type { ApiKeyKind, ApiKeyRecord, Storage } from "./storage/types.ts";

/**
 * A found key's record (its hash and organization) is remembered this long, which saves a
 * database round trip on the hot path. It bounds how long a key revoked by any process is still
 * accepted by this one. Within it, a key already verified against the stored hash is compared
 * with the presented one in constant time instead of being hashed again (a third of a GET).
 */
export const AUTH_CACHE_MS = 2_000;
/** A key's "last used" is written at most this often by one process. */
export const LAST_USED_PRECISION_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;

export interface Caller {
  orgId: string;
  /** The organization's name. */
  organization: string;
  keyId: string;
  kind: ApiKeyKind;
}

export class Authenticator {
  private readonly cache = new Map<string, CachedKey>();
  private readonly lastTouched = new Map<string, number>();
  /** The database reads of keys under way, by key id. */
  private readonly finding = new Map<string, Promise<CachedKey | undefined>>();

  constructor(private readonly storage: Storage, private readonly clock: () => number) {}

  /** The caller, at once when the key's record is cached; else after the database's answer. */
  authenticate(authorization: string | undefined): NowOrLater<Caller> {
    const { key, keyId } = presentedKey(authorization);
    const cached = this.cache.get(keyId);
    if (cached && cached.expires > this.clock()) return this.callerOf(cached, key, keyId);
    return this.lookup(keyId).then((found) => this.callerOf(found, key, keyId));
  }

  /** The caller `key` belongs to if `cached` is its record and it has not expired; else throws. */
  private callerOf(cached: CachedKey | undefined, key: string, keyId: string): Caller {
    if (!cached || !this.verify(cached, key)) throw unauthorized("Invalid API key.");
    const { record } = cached;
    if (record.expiresAt !== null && record.expiresAt <= this.clock()) {
      throw unauthorized(`This API key expired at ${new Date(record.expiresAt).toISOString()}.`);
    }
    this.touch(keyId);
    const { orgId, organization, kind } = record;
    return { orgId, organization, keyId, kind };
  }

  /** The key's record from the database; requests that miss the cache together share one read. */
  private lookup(keyId: string): Promise<CachedKey | undefined> {
    let finding = this.finding.get(keyId);
    if (!finding) {
      finding = this.find(keyId, this.clock()).finally(() => this.finding.delete(keyId));
      this.finding.set(keyId, finding);
    }
    return finding;
  }

  private async find(keyId: string, now: number): Promise<CachedKey | undefined> {
    const record = await this.storage.findApiKey(keyId);
    // Only keys that exist are cached, so unknown ids cannot fill the cache.
    if (!record) {
      this.cache.delete(keyId);
      return undefined;
    }
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    const entry = { record, expires: now + AUTH_CACHE_MS };
    this.cache.set(keyId, entry);
    return entry;
  }

  /** Whether `key` is the key of the record: the one verified before, or its hash the stored one. */
  private verify(cached: CachedKey, key: string): boolean {
    if (cached.verified !== undefined && sameText(cached.verified, key)) return true;
    if (!sameHash(hashApiKey(key), cached.record.hash)) return false;
    cached.verified = key;
    return true;
  }

  /** Records the use in the background, at most once a LAST_USED_PRECISION_MS per key. */
  private touch(keyId: string) {
    const now = this.clock();
    if (now - (this.lastTouched.get(keyId) ?? -Infinity) < LAST_USED_PRECISION_MS) return;
    if (this.lastTouched.size >= CACHE_MAX_ENTRIES) this.lastTouched.clear();
    this.lastTouched.set(keyId, now);
    // A lost "last used" is not worth failing the request for.
    this.storage.touchApiKey(keyId, now).catch(() => {});
  }
}

/** The key in a `Bearer <key>` header, and its public id; else throws. */
function presentedKey(authorization: string | undefined): { key: string; keyId: string } {
  if (!authorization) {
    throw unauthorized(
      "Missing API key: send the header `Authorization: Bearer <private API key>`.",
    );
  }
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization);
  if (!match || match[1].toLowerCase() !== "bearer") {
    throw unauthorized("The Authorization header must be `Bearer <private API key>`.");
  }
  const key = match[2];
  const keyId = apiKeyId(key);
  if (!keyId) throw unauthorized("Malformed API key.");
  return { key, keyId };
}

interface CachedKey {
  record: ApiKeyRecord;
  expires: number;
  /** The presented key that matched the stored hash, held only as long as the record is. */
  verified?: string;
}
