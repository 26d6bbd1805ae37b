import assert from "node:assert/strict";
import fc from "fast-check";
import { ApiError } from "./errors.ts";
import { duplicateMembers, readJsonBody } from "./request.ts";

/**
 * JSON texts whose objects often give a member twice, also spelled with an escape (`\u0041` is
 * `A`), with colons in member names and string values, nested in objects and arrays.
 */
const jsonText = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("1", "true", "null", '"x"', '"a:b"', '"https://h:1/"', "[]", "{}"),
    tie("object"),
    tie("array"),
  ),
  object: fc.array(
    fc.tuple(
      fc.constantFrom('"A"', '"B"', '"\\u0041"', '"a:b"', '"secrets"', '"__proto__"'),
      tie("value"),
    ),
    { maxLength: 4 },
  ).map((members) => `{${members.map(([name, value]) => `${name}:${value}`).join(",")}}`),
  array: fc.array(tie("value"), { maxLength: 3 }).map((items) => `[ ${items.join(" , ")} ]`),
})).object as fc.Arbitrary<string>;

const put = (text: string) =>
  new Request("http://localhost/", {
    method: "PUT",
    body: text,
    headers: { "content-type": "application/json" },
  });

Deno.test("a body is refused exactly when one of its objects gives a member twice, however it is nested", async () => {
  // The cheap count that skips the scan must never skip one that finds a member twice.
  await fc.assert(
    fc.asyncProperty(jsonText, async (text) => {
      const duplicates = duplicateMembers(text);
      const read = await readJsonBody(put(text), 65_536, 10_000).catch((error) => error);
      if (duplicates.length) {
        assert.ok(read instanceof ApiError, text);
        assert.equal(read.status, 400);
        assert.deepEqual(read.details, duplicates);
      } else {
        assert.deepEqual(read, JSON.parse(text), text);
      }
    }),
    { numRuns: 3_000 },
  );
});
