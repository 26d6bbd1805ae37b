import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { encodeCredentials } from "./image_pull_secret.ts";

Deno.test("credentials: user:password is encoded; --no-encode takes base64 of it as is", () => {
  assert.equal(encodeCredentials("robot:pa:ss", true), btoa("robot:pa:ss"));
  assert.equal(encodeCredentials(btoa("robot:pass"), false), btoa("robot:pass"));
});

Deno.test("credentials that are not user:password are refused without being echoed", () => {
  const cases: [string, boolean][] = [
    ["tokenonly", true],
    [":zq9x", true],
    ["zq8x:", true],
    ["robot:pass", false], // not base64
    [btoa("tokenonly"), false],
  ];
  for (const [credentials, encode] of cases) {
    assert.throws(() => encodeCredentials(credentials, encode), (error) => {
      assert.ok(error instanceof UsageError);
      assert.ok(!`${error.message} ${error.hint}`.includes(credentials), credentials);
      return true;
    });
  }
});
