/**
 * Bearer API keys: the header is parsed, the key's public id finds its stored hash, and the hash
 * of the presented key is compared in constant time. Every failure is the same 401 to the
 * caller apart from its message; none echoes the key.
 */
import { ApiError } from "./errors.ts";
import { apiKeyId, hashApiKey, sameHash } from "./crypto.ts";
import type { ApiKeyRecord, Storage } from "./storage/types.ts";

/** Found keys are remembered this long, which saves a database round trip on the hot path. */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;

export interface Caller {
  orgId: string;
  keyId: string;
}

const unauthorized = (message: string) =>
  new ApiError(401, "UNAUTHORIZED", message, undefined, {
    "WWW-Authenticate": 'Bearer realm="voicebot"',
  });

export class Authenticator {
  private readonly cache = new Map<string, { record: ApiKeyRecord; expires: number }>();

  constructor(private readonly storage: Storage, private readonly clock: () => number) {}

  async authenticate(authorization: string | undefined): Promise<Caller> {
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
    const record = await this.lookup(keyId);
    if (!record || !sameHash(hashApiKey(key), record.hash)) throw unauthorized("Invalid API key.");
    return { orgId: record.orgId, keyId };
  }

  private async lookup(keyId: string): Promise<ApiKeyRecord | undefined> {
    const now = this.clock();
    const cached = this.cache.get(keyId);
    if (cached && cached.expires > now) return cached.record;
    const record = await this.storage.findApiKey(keyId);
    // Only keys that exist are cached, so unknown ids cannot fill the cache.
    if (record) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
      this.cache.set(keyId, { record, expires: now + CACHE_TTL_MS });
    }
    return record;
  }
}
