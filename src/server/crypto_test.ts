import assert from "node:assert/strict";
import {
  apiKeyId,
  credentialsContext,
  generateApiKey,
  hashApiKey,
  redactApiKeys,
  sameHash,
  valueContext,
  Vault,
} from "./crypto.ts";

const randomKey = () => crypto.getRandomValues(new Uint8Array(32));

Deno.test("a sealed value opens only with its key and in its own place", async () => {
  const vault = await Vault.fromRawKey(randomKey());
  const here = valueContext("org_1", "app", "TOKEN");
  const sealed = await vault.seal("s3cret", here);
  assert.equal(await vault.open(sealed, here), "s3cret");
  assert.ok(!new TextDecoder("latin1").decode(sealed).includes("s3cret"));

  // Moved to another key, set or organization, or opened with another master key: refused.
  for (
    const elsewhere of [
      valueContext("org_1", "app", "OTHER"),
      valueContext("org_2", "app", "TOKEN"),
      credentialsContext("org_1", "app"),
    ]
  ) {
    await assert.rejects(vault.open(sealed, elsewhere));
  }
  await assert.rejects((await Vault.fromRawKey(randomKey())).open(sealed, here));
  const tampered = sealed.slice();
  tampered[tampered.length - 1] ^= 1;
  await assert.rejects(vault.open(tampered, here));
});

Deno.test("the same value sealed twice differs: a fresh IV each time", async () => {
  const vault = await Vault.fromRawKey(randomKey());
  const [a, b] = await Promise.all([vault.seal("same", "c"), vault.seal("same", "c")]);
  assert.notDeepEqual(a, b);
});

Deno.test("a master key must be 32 bytes", async () => {
  await assert.rejects(Vault.fromRawKey(new Uint8Array(16)), /32 bytes/);
});

Deno.test("API keys: recognizable, unique, found by id, matched by hash only", () => {
  const { key, id, hash } = generateApiKey();
  assert.match(key, /^vb_sk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  assert.equal(apiKeyId(key), id);
  assert.ok(sameHash(hashApiKey(key), hash));
  assert.ok(!sameHash(hashApiKey(key + "x"), hash));
  assert.ok(!sameHash(hash.subarray(1), hash));
  assert.notEqual(generateApiKey().key, key);
  for (
    const malformed of [
      "",
      "vb_sk_",
      `${key}x`,
      key.replace("vb_sk_", "vb_pk_"),
      `vb_sk_${"g".repeat(16)}_${"a".repeat(43)}`,
    ]
  ) {
    assert.equal(apiKeyId(malformed), undefined, malformed);
  }
});

Deno.test("anything shaped like an API key is redacted from text bound for logs", () => {
  const { key } = generateApiKey();
  assert.equal(redactApiKeys(`/v1/x/${key}/y`), "/v1/x/vb_sk_[redacted]/y");
});

Deno.test("vault: holds tells the sealed value's own plaintext, in its own context, and nothing else", async () => {
  const vault = await Vault.fromRawKey(crypto.getRandomValues(new Uint8Array(32)));
  const sealed = await vault.seal("s3cret-välue", "value:org:set:A");
  assert.ok(vault.holds(sealed, "value:org:set:A", "s3cret-välue"));
  assert.ok(!vault.holds(sealed, "value:org:set:A", "s3cret-välud"), "same length, other value");
  assert.ok(!vault.holds(sealed, "value:org:set:A", "s3cret"), "other length");
  assert.ok(!vault.holds(sealed, "value:org:set:B", "s3cret-välue"), "another row's context");
  const tampered = sealed.slice();
  tampered[tampered.length - 1] ^= 1;
  assert.ok(!vault.holds(tampered, "value:org:set:A", "s3cret-välue"), "a bad tag");
  const other = await Vault.fromRawKey(crypto.getRandomValues(new Uint8Array(32)));
  assert.ok(!other.holds(sealed, "value:org:set:A", "s3cret-välue"), "another master key");
  assert.ok(vault.holds(await vault.seal("", "c"), "c", ""), "the empty value");
});
