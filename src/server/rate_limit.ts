/** A token bucket per API key, in memory: each server process limits on its own. */
import type { RateLimit } from "./config.ts";

interface Bucket {
  tokens: number;
  updated: number;
}

const MAX_BUCKETS = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly limit: RateLimit, private readonly clock: () => number) {}

  /** Takes one token; returns 0 when allowed, else the whole seconds to wait for one. */
  take(id: string): number {
    const now = this.clock();
    const bucket = this.refilled(id, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond));
  }

  private refilled(id: string, now: number): Bucket {
    let bucket = this.buckets.get(id);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.forgetFullBuckets(now);
      bucket = { tokens: this.limit.burst, updated: now };
      this.buckets.set(id, bucket);
      return bucket;
    }
    const elapsedSeconds = Math.max(0, now - bucket.updated) / 1000;
    bucket.tokens = Math.min(
      this.limit.burst,
      bucket.tokens + elapsedSeconds * this.limit.perSecond,
    );
    bucket.updated = now;
    return bucket;
  }

  /** A bucket that would be full again is the same as no bucket. */
  private forgetFullBuckets(now: number) {
    const refillMs = (this.limit.burst / this.limit.perSecond) * 1000;
    for (const [id, bucket] of this.buckets) {
      if (now - bucket.updated >= refillMs) this.buckets.delete(id);
    }
  }
}
