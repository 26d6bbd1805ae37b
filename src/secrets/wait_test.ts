import assert from "node:assert/strict";
import type { SetDetail as SecretSetDetail } from "./client.ts";
import { waitForSet } from "./wait.ts";

const set = (status: SecretSetDetail["status"]): SecretSetDetail => ({
  name: "app",
  type: "secret",
  region: "us-west",
  status,
  keys: [],
});

Deno.test("wait: polls until the set leaves pending", async () => {
  const statuses = ["pending", "pending", "failed"] as const;
  let calls = 0;
  const result = await waitForSet(() => Promise.resolve(set(statuses[calls++])), "app", {
    sleep: () => Promise.resolve(),
  });
  assert.equal(result.status, "failed");
  assert.equal(calls, 3);
});

Deno.test("wait: gives up at the deadline with a hint", async () => {
  let now = 0;
  await assert.rejects(
    waitForSet(() => Promise.resolve(set("pending")), "app", {
      timeoutMs: 2_000,
      now: () => now,
      sleep: (ms) => Promise.resolve(void (now += ms)),
    }),
    /still pending after 2 s/,
  );
});

Deno.test("wait: an aborted signal ends the wait at once, timer and all", async () => {
  const controller = new AbortController();
  const reason = new Error("stopped");
  let calls = 0;
  const waiting = waitForSet(
    () => {
      calls++;
      return Promise.resolve(set("pending"));
    },
    "app",
    { timeoutMs: 60_000, pollMs: 30_000, signal: controller.signal },
  );
  await new Promise((r) => setTimeout(r, 10));
  controller.abort(reason);
  // Without the abort this would sleep 30 s (the test would then fail on its leaked timer).
  await assert.rejects(waiting, (error) => error === reason);
  assert.equal(calls, 1);
});
