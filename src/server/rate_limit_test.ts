import assert from "node:assert/strict";
import { RateLimiter } from "./rate_limit.ts";

Deno.test("a bucket allows its burst, then refills at the rate, per key", () => {
  let now = 0;
  const limiter = new RateLimiter({ perSecond: 4, burst: 2 }, () => now);
  assert.deepEqual([limiter.take("a"), limiter.take("a"), limiter.take("a")], [0, 0, 1]);
  assert.equal(limiter.take("b"), 0, "another key has its own bucket");
  now += 250;
  assert.equal(limiter.take("a"), 0, "a quarter second brings back one token at 4/s");
  assert.equal(limiter.take("a"), 1);
  now += 60_000;
  assert.deepEqual(
    [limiter.take("a"), limiter.take("a"), limiter.take("a")],
    [0, 0, 1],
    "never more than the burst",
  );
});

Deno.test("Retry-After rounds up to whole seconds at slow rates", () => {
  const limiter = new RateLimiter({ perSecond: 0.2, burst: 1 }, () => 0);
  assert.equal(limiter.take("a"), 0);
  assert.equal(limiter.take("a"), 5);
});
