import assert from "node:assert/strict";
import fc from "fast-check";
import {
  isEncodedUserPassword,
  isRegistryHost,
  normalizeRegistryHost,
  registryHostRefusal,
} from "./registry.ts";

Deno.test("registry hosts: DNS names, IPv4 or [IPv6], with an optional port, or their URL", () => {
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
      // A scheme in any case, as URLs allow; an IPv6 literal, with a port or without.
      "HTTPS://GHCR.IO/",
      "Http://registry.example.com:5000/v1/",
      "https://[::1]:5000/",
      "https://[2001:db8::1]/v2/",
      "[::1]:5000",
      "[2001:db8::1]",
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
      "oci://registry.example.com",
      "https://[::1]:5000/?x",
      "https://[::1",
      "https://[::1]:0/",
      "https://[fe80::1%25eth0]/",
      "https://[1.2.3.4]/",
      "[not-v6]:5000",
      "::1",
    ]
  ) {
    assert.ok(!isRegistryHost(host), host);
  }
});

Deno.test("registry hosts: what names no registry by its form is refused, and says why", () => {
  const cases: [string, ReturnType<typeof registryHostRefusal>][] = [
    ["oci://registry.example.com", "scheme"],
    ["ftp://ghcr.io", "scheme"],
    ["docker://ghcr.io/v2/", "scheme"],
    ["https://ghcr.io/v2/?service=x", "query"],
    ["ghcr.io?x", "query"],
    ["https://ghcr.io/#top", "fragment"],
    ["https://robot:zq9x@ghcr.io/", "user-information"],
    ["robot@ghcr.io", "user-information"],
    // Named by form, not refused here: the provisioner checks the name (and fails the set).
    ["HTTPS://GHCR.IO/", undefined],
    ["https://[::1]:5000/", undefined],
    ["registry.example.com:5000", undefined],
    ["not a host", undefined],
    ["ghcr.io/v2", undefined],
  ];
  for (const [host, refusal] of cases) assert.equal(registryHostRefusal(host), refusal, host);
});

Deno.test("registry hosts: stored with the scheme in lower case, which the provisioner accepts", () => {
  assert.equal(normalizeRegistryHost("HTTPS://GHCR.IO/"), "https://GHCR.IO/");
  assert.equal(normalizeRegistryHost("Http://[::1]:5000/v1/"), "http://[::1]:5000/v1/");
  assert.equal(normalizeRegistryHost("https://index.docker.io/v1/"), "https://index.docker.io/v1/");
  assert.equal(normalizeRegistryHost("ghcr.io:443"), "ghcr.io:443");

  // Hosts made of the pieces above, in every combination: a refused one is never a host; an
  // accepted one is accepted again once normalized, which changes nothing more the second time.
  const scheme = fc.constantFrom("", "https://", "HTTPS://", "Http://", "oci://", "ftp://");
  const name = fc.constantFrom(
    "ghcr.io",
    "GHCR.IO",
    "10.0.0.1",
    "[::1]",
    "[2001:DB8::1]",
    "[::1",
    "-bad.io",
    "robot:zq9x@ghcr.io",
    "",
  );
  const port = fc.constantFrom("", ":5000", ":0", ":65536", ":x");
  const rest = fc.constantFrom("", "/", "/v1/", "/v2", "?x=1", "/#f", " ");
  fc.assert(
    fc.property(scheme, name, port, rest, (s, n, p, r) => {
      const host = s + n + p + r;
      const refusal = registryHostRefusal(host);
      if (refusal !== undefined) assert.ok(!isRegistryHost(host), host);
      if (/[@?#]/.test(host) || /^(oci|ftp):/.test(host)) assert.notEqual(refusal, undefined, host);
      if (isRegistryHost(host)) {
        const stored = normalizeRegistryHost(host);
        assert.ok(isRegistryHost(stored), host);
        assert.equal(normalizeRegistryHost(stored), stored, host);
        assert.doesNotMatch(stored, /^(?!https?:\/\/)[A-Za-z]+:\/\//, host);
      }
      // Only the scheme's case may change.
      assert.equal(normalizeRegistryHost(host).toLowerCase(), host.toLowerCase(), host);
    }),
  );
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
