import assert from "node:assert/strict";
import fc from "fast-check";
import { type RequestEntry, requestLine } from "./log.ts";

Deno.test("an access line is what JSON.stringify writes for its entry, whatever its text holds", () => {
  // Any text at all (quotes, backslashes, control characters, lone surrogates, emoji), and the
  // ordinary one, which takes the path that skips JSON.stringify.
  const text = fc.oneof(
    fc.string({ unit: "binary" }),
    fc.string({ unit: "grapheme-ascii" }),
    fc.constantFrom("GET", "/secrets/{setName}", "org_3f9a8b7c6d5e4f3a", ""),
  );
  const entry = fc.record({
    method: text,
    path: text,
    status: fc.integer({ min: 100, max: 599 }),
    durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }).map((ms) =>
      Math.round(ms * 100) / 100
    ),
    requestId: text,
    orgId: fc.option(text, { nil: undefined }),
  });
  fc.assert(
    fc.property(entry, ({ method, path, status, durationMs, requestId, orgId }) => {
      const full: RequestEntry = {
        level: "info",
        msg: "request",
        method,
        path,
        status,
        durationMs,
        requestId,
        orgId,
      };
      const time = "2026-11-27T00:00:00.000Z";
      assert.equal(requestLine(time, full), `{"time":"${time}",${JSON.stringify(full).slice(1)}`);
    }),
    { numRuns: 2000 },
  );
});
