import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import {
  checkImagePullSecretInput,
  encodeCredentials,
  writeImagePullSecret,
} from "./image_pull_secret.ts";
import { DOCUMENTED_LIMITS } from "./limits.ts";
import { isRegistryHost } from "./registry.ts";
import type { PutBody } from "./client.ts";
import type { SecretsApi } from "./set.ts";

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
    "HTTPS://GHCR.IO/",
    "https://[::1]:5000/",
    "[::1]:5000",
    "oci://registry.example.com",
    "https://ghcr.io/v2/?x=1",
    "https://ghcr.io/v2/#x",
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

Deno.test("host: sent as the server stores it; alone only to a server that takes it so", async () => {
  const sent = async (host: string, bareTaken: boolean) => {
    const bodies: PutBody[] = [];
    const api: SecretsApi = {
      getSet: () => Promise.resolve(undefined),
      regions: () => Promise.resolve({ regions: [{ code: "us-west", name: "US West" }] }),
      putSet: (
        _name,
        body,
      ) => (bodies.push(body), Promise.resolve({ status: "OK", region: "us-west" })),
      offers: (extension) => bareTaken && extension === "registry-host",
    };
    await writeImagePullSecret(api, { name: "reg", host, credentials: btoa("robot:pass") });
    return (bodies[0] as { host: string }).host;
  };
  for (const bareTaken of [false, true]) {
    assert.equal(await sent("HTTPS://GHCR.IO/", bareTaken), "https://GHCR.IO/");
    assert.equal(await sent("Http://[::1]:5000/v1/", bareTaken), "http://[::1]:5000/v1/");
    assert.equal(
      await sent("https://index.docker.io/v1/", bareTaken),
      "https://index.docker.io/v1/",
    );
  }
  assert.equal(await sent("ghcr.io", false), "https://ghcr.io");
  assert.equal(await sent("[::1]:5000", false), "https://[::1]:5000");
  assert.equal(await sent("ghcr.io", true), "ghcr.io");
});
