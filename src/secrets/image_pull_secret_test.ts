import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { checkImagePullSecretInput, encodeCredentials } from "./image_pull_secret.ts";
import { DOCUMENTED_LIMITS } from "./limits.ts";
import { isRegistryHost } from "./registry.ts";

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

Deno.test("host: refused before sending exactly when the provisioner would fail it", () => {
  const hosts = [
    "ghcr.io",
    "registry.example.com:5000",
    "10.0.0.1:443",
    "https://ghcr.io",
    "ghcr.io/v2/",
    "robot:zq9x@ghcr.io",
    "robot:zq9x",
    "ghcr.io:0",
    "not a host",
    "",
  ];
  for (const host of hosts) {
    let refused: UsageError | undefined;
    try {
      checkImagePullSecretInput("reg", host);
    } catch (error) {
      assert.ok(error instanceof UsageError);
      refused = error;
    }
    assert.equal(refused === undefined, isRegistryHost(host), host);
    if (refused && host) assert.ok(!refused.message.includes(host), host);
    if (refused) assert.ok(!`${refused.message} ${refused.hint}`.includes("zq9x"), host);
  }
});

Deno.test("credentials over the API's limit for one value are refused before sending", () => {
  const password = "p".repeat(DOCUMENTED_LIMITS.maxValueBytes);
  assert.throws(
    () => encodeCredentials(`robot:${password}`, true),
    (error: Error) => {
      assert.match(error.message, /are 87,392 bytes once encoded, over the API's limit of 65,536/);
      assert.ok(!error.message.includes("ppp"));
      return true;
    },
  );
});
