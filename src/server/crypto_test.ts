import assert from "node:assert/strict";
import {
  apiKeyId,
  credentialsContext,
  fingerprintRootOf,
  generateApiKey,
  hashApiKey,
  KeyNotInKeyring,
  masterKeyId,
  redactApiKeys,
  sameHash,
  sealedHead,
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

Deno.test("keyring: the newest key seals and names itself; each key opens its own; a missing one is named by id", async () => {
  const [older, newer] = [randomKey(), randomKey()];
  const here = valueContext("org_1", "app", "TOKEN");
  const sealedByOlder = (await Vault.fromRawKey(older)).sealSync("s3cret", here);
  const ring = await Vault.fromRawKeys([newer, older]);
  assert.deepEqual(ring.keyIds, [masterKeyId(newer), masterKeyId(older)]);
  assert.equal(ring.openSync(sealedByOlder, here), "s3cret");
  assert.ok(ring.holds(sealedByOlder, here, "s3cret"));

  const resealed = ring.reseal(sealedByOlder, here);
  assert.deepEqual(sealedHead(resealed), ring.currentHead);
  assert.equal(ring.keyIdOfHead(sealedHead(resealed)), masterKeyId(newer));
  assert.throws(() => ring.reseal(sealedByOlder, valueContext("org_1", "app", "OTHER")));

  const newerOnly = await Vault.fromRawKey(newer);
  assert.equal(newerOnly.openSync(resealed, here), "s3cret");
  assert.throws(
    () => newerOnly.openSync(sealedByOlder, here),
    (error: unknown) => error instanceof KeyNotInKeyring && error.keyId === masterKeyId(older),
  );
  assert.ok(!newerOnly.holds(sealedByOlder, here, "s3cret"));
  // An id reveals nothing of its key: not its bytes, nor a prefix of them.
  assert.ok(!older.toHex().includes(masterKeyId(older)));
});

Deno.test("fingerprint keys: the stored root's expand step is HKDF-SHA256 of the key they came from", async () => {
  const raw = randomKey();
  const vault = await Vault.fromRawKey(raw);
  const hkdf = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveBits"]);
  const expected = new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: new Uint8Array(32),
        info: new TextEncoder().encode("fingerprint-key:org_1"),
      },
      hkdf,
      256,
    ),
  );
  assert.deepEqual(vault.fingerprintKey("org_1"), expected);
  // Another key's vault told to use this root gives the same keys: a rotation changes none.
  const other = await Vault.fromRawKey(randomKey());
  other.useFingerprintRoot(fingerprintRootOf(raw));
  assert.deepEqual(other.fingerprintKey("org_1"), expected);
  assert.notDeepEqual(vault.fingerprintKey("org_2"), expected);
});
