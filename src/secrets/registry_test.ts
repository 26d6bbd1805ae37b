import assert from "node:assert/strict";
import { isEncodedUserPassword, isRegistryHost } from "./registry.ts";

Deno.test("registry hosts: DNS names or IPv4, with an optional port", () => {
  for (
    const host of [
      "ghcr.io",
      "registry.example.com:5000",
      "localhost",
      "10.0.0.1:443",
      "123456789012.dkr.ecr.us-west-2.amazonaws.com",
      // The URL forms: the platform's documented example, and Docker's config.json keys.
      "https://index.docker.io/v1/",
      "https://ghcr.io",
      "http://10.0.0.1:5000/v2",
    ]
  ) {
    assert.ok(isRegistryHost(host), host);
  }
  for (
    const host of [
      "",
      "not a host",
      "ghcr.io/path",
      "ftp://ghcr.io",
      "https://",
      "https://ghcr.io?x=1",
      "https://ghcr.io#x",
      "https://user@ghcr.io",
      "https://ghcr.io:0/",
      "-bad.io",
      "bad-.io",
      "a..b",
      "ghcr.io:0",
      "ghcr.io:65536",
      "x".repeat(64) + ".io",
    ]
  ) {
    assert.ok(!isRegistryHost(host), host);
  }
});

Deno.test("credentials: base64 of username:password, both present", () => {
  assert.ok(isEncodedUserPassword(btoa("robot:pass")));
  assert.ok(isEncodedUserPassword(btoa("robot:pa:ss")), "a password may hold a colon");
  for (
    const bad of [
      btoa("nocolon"),
      btoa(":pass"),
      btoa("user:"),
      "robot:pass",
      "not base64!",
      btoa("a:b").slice(0, -1),
    ]
  ) {
    assert.ok(!isEncodedUserPassword(bad), bad);
  }
});
