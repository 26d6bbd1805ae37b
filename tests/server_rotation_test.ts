/**
 * Master-key rotation on every backend: a keyring opens what each of its keys sealed, the real
 * `voicebot cloud serve rotate-master-key` re-seals it all with the newest while a server serves,
 * `kill -9` at any point leaves every value readable and a second run finishes, and a server
 * refuses to start with a keyring that lacks a key the database needs.
 */
import assert from "node:assert/strict";
import { createApp } from "../src/server/app.ts";
import {
  apiKeyId,
  credentialsContext,
  FINGERPRINT_ROOT_CONTEXT,
  fingerprintRootOf,
  KEY_CHECK_CONTEXT,
  KEY_CHECK_PLAINTEXT,
  masterKeyId,
  sealedHead,
  valueContext,
  Vault,
} from "../src/server/crypto.ts";
import { silentLogger } from "../src/server/log.ts";
import { FINGERPRINT_ROOT, KEY_CHECK, unlock } from "../src/server/master_key.ts";
import { rotateMasterKey } from "../src/server/rotation.ts";
import { openStorage } from "../src/server/storage/open.ts";
import type { Storage } from "../src/server/storage/types.ts";
import { DENO_DIR, ENTRY, tempDir, voicebot } from "./helpers.ts";
import {
  addKey,
  addRuntimeKey,
  api,
  backendTest,
  databaseArgs,
  documented,
  MASTER_KEY,
  spawnServer,
  withDeadline,
} from "./helpers_server.ts";

const K1 = Uint8Array.fromBase64(MASTER_KEY);
const RULES = {
  defaultRegion: "us-west",
  maxKeysPerSet: 200,
  maxSetsPerOrganization: 1000,
  now: 1,
};
const newKey = () => crypto.getRandomValues(new Uint8Array(32));
const ring = (...keys: Uint8Array[]) => keys.map((key) => key.toBase64()).join(",");

/** `value-<set>-<i>` with a little of everything UTF-8, so that a wrong open cannot pass. */
const valueOf = (set: string, i: number) => `välue-${set}-${i}-${"x".repeat(i % 7)}`;

/** What a test wrote: the organization's id, and each set's keys and values. */
interface Written {
  orgId: string;
  sets: Map<string, Map<string, string>>;
}

/** The organization of an API key made by `addKey`. */
async function orgOf(storage: Storage, key: string): Promise<string> {
  return (await storage.findApiKey(apiKeyId(key)!))!.orgId;
}

/** Sets of organization `acme` written through the app in process, sealed by `vault`. */
async function populate(
  storage: Storage,
  vault: Vault,
  sets: number,
  keysPerSet: number,
): Promise<Written> {
  const key = await addKey(storage, "acme");
  const app = createApp(storage, { vault, logger: silentLogger });
  const written = new Map<string, Map<string, string>>();
  for (let s = 0; s < sets; s++) {
    const name = `set-${s}`;
    const values = new Map(
      Array.from({ length: keysPerSet }, (_, i) => [`KEY_${i}`, valueOf(name, i)]),
    );
    const response = await app.request(`http://localhost/v1/secrets/${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(documented(Object.fromEntries(values))),
    });
    assert.equal(response.status, 202, await response.text());
    written.set(name, values);
  }
  return { orgId: await orgOf(storage, key), sets: written };
}

/** Opens every stored value with `vault` and compares it with what was written. */
async function assertReadable(storage: Storage, vault: Vault, { orgId: org, sets }: Written) {
  for (const [name, values] of sets) {
    const detail = (await storage.getSet(org, name))!;
    assert.deepEqual(detail.keys, [...values.keys()].sort());
    for (const { key, sealed } of detail.values) {
      assert.equal(vault.openSync(sealed, valueContext(org, name, key)), values.get(key));
    }
  }
}

/** How many sealed items the database holds under each head (hex). */
async function heads(storage: Storage): Promise<Map<string, number>> {
  return await storage.countSealedByHead();
}

const headOf = async (key: Uint8Array) => (await Vault.fromRawKey(key)).currentHead.toHex();

/** `rotate-master-key` as an operator runs it, in batches of 3, on `spec` with `keyring`. */
function spawnRotation(spec: string, keyring: string): Deno.ChildProcess {
  const database = databaseArgs(spec);
  return new Deno.Command(Deno.execPath(), {
    args: [
      ...["run", "-A", "--quiet", ENTRY, "cloud", "serve", "rotate-master-key"],
      ...["--batch-size", "3", "--json", ...database.args],
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_DIR, VOICEBOT_MASTER_KEY: keyring, ...database.env },
  }).spawn();
}

/**
 * Polls `done` (bounded) until it reaches `target`, then sends `signal` to `child`; returns the
 * last count, what the pass had done when it was stopped.
 */
async function stopAt(
  child: Deno.ChildProcess,
  signal: Deno.Signal,
  target: number,
  done: () => Promise<number>,
): Promise<number> {
  let count = 0;
  for (let i = 0; i < 3_000 && count < target; i++) {
    count = await done();
    if (count < target) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill(signal);
  return count;
}

backendTest(
  "a keyring opens what each of its keys sealed; rotation re-seals it all with the newest in batches, and the old key can then go",
  async (backend) => {
    await using database = await backend.database();
    const storage = await openStorage(database.spec);
    try {
      const k2 = newKey();
      const before = await unlock(storage, [K1]);
      const written = await populate(storage, before, 3, 30);
      const fingerprintKeyBefore = before.fingerprintKey(written.orgId);

      const both = await unlock(storage, [k2, K1]);
      await assertReadable(storage, both, written);
      // Batches of 7: many transactions, and a write between two of them.
      let batches = 0;
      const report = await rotateMasterKey(storage, both, {
        batchSize: 7,
        onProgress: () => void batches++,
      });
      assert.ok(batches > 10, `${batches} batches`);
      assert.equal(
        report.resealed,
        90 + 90 + 2,
        "every value, the versions' values, the fingerprint root and the key check",
      );
      assert.deepEqual(report.remaining, []);
      assert.deepEqual([...(await heads(storage)).keys()], [await headOf(k2)]);
      for (const meta of [KEY_CHECK, FINGERPRINT_ROOT]) {
        assert.equal(sealedHead((await storage.getMeta(meta))!).toHex(), await headOf(k2));
      }

      // The old key can go: the newest alone opens everything, and fingerprints did not move.
      const after = await unlock(storage, [k2]);
      await assertReadable(storage, after, written);
      assert.deepEqual(after.fingerprintKey(written.orgId), fingerprintKeyBefore);
      // A second run finds nothing to do.
      assert.equal((await rotateMasterKey(storage, after)).resealed, 0);
    } finally {
      await storage.close();
    }
  },
);

backendTest(
  "a database sealed before keyrings (one key, the legacy format) opens, keeps its fingerprints, and rotates",
  async (backend) => {
    await using database = await backend.database();
    const storage = await openStorage(database.spec);
    try {
      // The legacy format, as voicebot wrote it before keyrings: version 1, IV, ciphertext.
      const legacy = await legacySealer(K1);
      await storage.putMetaIfAbsent(
        KEY_CHECK,
        await legacy(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT),
      );
      const orgId = await orgOf(storage, await addKey(storage, "acme"));
      const values = { A: "alpha", B: "béta" };
      await storage.putSecrets(orgId, {
        name: "old",
        region: undefined,
        values: await Promise.all(
          Object.entries(values).map(async ([k, v]) =>
            [k, await legacy(v, valueContext(orgId, "old", k))] as [string, Uint8Array]
          ),
        ),
        replace: false,
      }, RULES);

      // Without its key, a legacy database is refused, not guessed at.
      await assert.rejects(unlock(storage, [newKey()]), /no key of the keyring is this database's/);
      // Fingerprint keys are those of before keyrings: HKDF-SHA256 of the master key itself.
      const opened = await unlock(storage, [K1]);
      assert.deepEqual(opened.fingerprintKey(orgId), await legacyFingerprintKey(K1, orgId));
      const root = (await storage.getMeta(FINGERPRINT_ROOT))!;
      assert.deepEqual(
        Uint8Array.fromBase64(opened.openSync(root, FINGERPRINT_ROOT_CONTEXT)),
        fingerprintRootOf(K1),
      );

      const k2 = newKey();
      const report = await rotateMasterKey(storage, await unlock(storage, [k2, K1]));
      assert.deepEqual(report.remaining, []);
      const rotated = await unlock(storage, [k2]);
      const detail = (await storage.getSet(orgId, "old"))!;
      for (const { key: name, sealed } of detail.values) {
        assert.equal(
          rotated.openSync(sealed, valueContext(orgId, "old", name)),
          values[name as "A"],
        );
      }
      assert.deepEqual(rotated.fingerprintKey(orgId), await legacyFingerprintKey(K1, orgId));
    } finally {
      await storage.close();
    }
  },
);

backendTest(
  "rotate-master-key killed with SIGKILL at several points, or stopped by SIGINT, leaves every value readable; run again, it finishes; a server then needs only the new key",
  async (backend) => {
    await using database = await backend.database();
    const k2 = newKey();
    let written: Written;
    {
      const storage = await openStorage(database.spec);
      try {
        const vault = await unlock(storage, [K1]);
        written = await populate(storage, vault, 8, 50);
        // An image pull secret's credentials are sealed too.
        await storage.putImagePullSecret(written.orgId, {
          name: "registry",
          region: undefined,
          host: "ghcr.io",
          credentials: vault.sealSync(
            btoa("robot:pass"),
            credentialsContext(written.orgId, "registry"),
          ),
        }, RULES);
      } finally {
        await storage.close();
      }
    }
    // Each set's 50 values, its first version's 50, and the registry's credentials.
    const total = 8 * 50 * 2 + 1;
    const oldHead = await headOf(K1);
    // A server on the keyring serves all along: writes made while the rotation runs must stay.
    const live = await spawnServer(database.spec, {
      args: ["--rate-limit", "0"],
      env: { VOICEBOT_MASTER_KEY: ring(k2, K1) },
    });
    const created = await voicebot(
      ["cloud", "serve", "create-key", "-o", "acme", ...databaseArgs(database.spec).args],
      { env: databaseArgs(database.spec).env },
    );
    assert.equal(created.code, 0, created.stderr);
    const apiKey = created.stdout.trim();
    const acknowledged = new Map<string, string>();
    let writes = 0;
    const writeWhile = async (running: () => boolean) => {
      while (running() && writes < 2_000) {
        const key = `LIVE_${writes % 5}`;
        const value = `live-${writes++}`;
        const put = await api(
          live.baseUrl,
          apiKey,
          "PUT",
          "/secrets/live",
          documented({ [key]: value }),
        );
        assert.equal(put.status, 202, JSON.stringify(put.body));
        acknowledged.set(key, value);
        const read = await api(live.baseUrl, apiKey, "GET", "/secrets/set-0");
        assert.equal(read.status, 200, JSON.stringify(read.body));
      }
    };

    const kills: number[] = [];
    let interrupted = 0;
    // SIGKILL (a crash) at three points, and once SIGINT (Ctrl-C), which stops after its batch.
    const stops: [number, Deno.Signal][] = [
      [0.1, "SIGKILL"],
      [0.5, "SIGKILL"],
      [0.7, "SIGINT"],
      [0.9, "SIGKILL"],
    ];
    for (const [fraction, signal] of stops) {
      const child = spawnRotation(database.spec, ring(k2, K1));
      let running = true;
      // Settled at once, rethrown below: a failed write fails the test, not the test runner.
      const writing = writeWhile(() => running).then(() => undefined, (error: unknown) => error);
      const watcher = await openStorage(database.spec);
      try {
        // Past `fraction` of the old key's items (the live writes add items under the new key,
        // so those are not counted).
        const done = await stopAt(
          child,
          signal,
          fraction * total,
          async () => total - ((await heads(watcher)).get(oldHead) ?? 0),
        );
        running = false;
        const failure = await writing;
        if (failure) throw failure;
        const output = await withDeadline(child.output(), 30_000);
        if (output.signal === "SIGKILL") kills.push(done);
        if (signal === "SIGINT") {
          const stderr = new TextDecoder().decode(output.stderr);
          assert.equal(output.code, 1, stderr);
          const report = JSON.parse(new TextDecoder().decode(output.stdout));
          assert.deepEqual([report.interrupted, report.complete], [true, false]);
          assert.match(stderr, /run it again to finish/);
          interrupted++;
        }

        // Every value opens with the keyring, and a server would start on it.
        const vault = await unlock(watcher, [k2, K1]);
        await assertReadable(watcher, vault, written);
      } finally {
        await watcher.close();
      }
    }
    await live.stop();
    written.sets.set("live", acknowledged);
    assert.equal(interrupted, 1);
    assert.ok(kills.length >= 2, `killed mid-way at ${kills.join(", ")} of ${total}`);
    assert.ok(kills.every((done) => done > 0 && done < total), kills.join(", "));

    // Without the old key now, a server refuses to start, naming what needs it (by id).
    const k1Id = masterKeyId(K1);
    const refused = await voicebot([
      "cloud",
      "serve",
      "--port",
      "0",
      ...databaseArgs(database.spec).args,
    ], {
      env: { VOICEBOT_MASTER_KEY: k2.toBase64(), ...databaseArgs(database.spec).env },
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /a master-key rotation of this database is unfinished/);
    assert.match(refused.stderr, new RegExp(`\\d+ sealed items need master key ${k1Id}`));
    assert.match(refused.stderr, /put the old key back in the keyring.*rotate-master-key/);
    assert.ok(!refused.stderr.includes(K1.toBase64()) && !refused.stderr.includes(k2.toBase64()));

    const finished = await voicebot(
      ["cloud", "serve", "rotate-master-key", "--json", ...databaseArgs(database.spec).args],
      { env: { VOICEBOT_MASTER_KEY: ring(k2, K1), ...databaseArgs(database.spec).env } },
    );
    assert.equal(finished.code, 0, finished.stderr);
    const report = JSON.parse(finished.stdout);
    assert.equal(report.complete, true);
    assert.equal(report.keyId, masterKeyId(k2));
    assert.deepEqual(report.remaining, []);
    assert.ok(report.resealed > 0 && report.resealed < total + 2, String(report.resealed));

    // The old key gone, a server starts, and every value, the live ones too, is as acknowledged.
    const server = await spawnServer(database.spec, {
      env: { VOICEBOT_MASTER_KEY: k2.toBase64() },
    });
    assert.equal((await api(server.baseUrl, apiKey, "GET", "/secrets/live")).status, 200);
    assert.equal((await server.stop()).code, 0);
    const storage = await openStorage(database.spec);
    try {
      await assertReadable(storage, await unlock(storage, [k2]), written);
    } finally {
      await storage.close();
    }
  },
);

backendTest(
  "a legacy-format database's rotation killed with SIGKILL at several points loses nothing: the legacy key check goes last, a server without the old key is told the rotation is unfinished, and a second run finishes",
  async (backend) => {
    await using database = await backend.database();
    const k2 = newKey();
    const legacy = await legacySealer(K1);
    const written: Written = { orgId: "", sets: new Map() };
    {
      const storage = await openStorage(database.spec);
      try {
        await storage.putMetaIfAbsent(
          KEY_CHECK,
          await legacy(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT),
        );
        written.orgId = await orgOf(storage, await addKey(storage, "acme"));
        for (let s = 0; s < 8; s++) {
          const name = `old-${s}`;
          const values = new Map(
            Array.from({ length: 40 }, (_, i) => [`KEY_${i}`, valueOf(name, i)]),
          );
          const sealed = await Promise.all(
            [...values].map(async ([key, value]): Promise<[string, Uint8Array]> => [
              key,
              await legacy(value, valueContext(written.orgId, name, key)),
            ]),
          );
          await storage.putSecrets(
            written.orgId,
            { name, region: undefined, values: sealed, replace: false },
            RULES,
          );
          written.sets.set(name, values);
        }
      } finally {
        await storage.close();
      }
    }
    const fingerprintKey = await legacyFingerprintKey(K1, written.orgId);
    const total = 8 * 40 * 2; // the values, and their first versions'
    const newHead = await headOf(k2);
    const kills: number[] = [];
    for (const fraction of [0.2, 0.5, 0.8]) {
      const child = spawnRotation(database.spec, ring(k2, K1));
      const watcher = await openStorage(database.spec);
      try {
        const done = await stopAt(
          child,
          "SIGKILL",
          fraction * total,
          async () => (await heads(watcher)).get(newHead) ?? 0,
        );
        const output = await withDeadline(child.output(), 30_000);
        if (output.signal === "SIGKILL") kills.push(done);
        // The key check is legacy still: it tells which key sealed the legacy values left.
        const vault = await unlock(watcher, [k2, K1]);
        await assertReadable(watcher, vault, written);
        assert.deepEqual(vault.fingerprintKey(written.orgId), fingerprintKey);
      } finally {
        await watcher.close();
      }
    }
    assert.ok(kills.length >= 2, `killed mid-way at ${kills.join(", ")} of ${total}`);
    assert.ok(kills.every((done) => done > 0 && done < total), kills.join(", "));

    const { args, env } = databaseArgs(database.spec);
    const refused = await voicebot(["cloud", "serve", "--port", "0", ...args], {
      env: { VOICEBOT_MASTER_KEY: k2.toBase64(), ...env },
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /a master-key rotation of this database is unfinished/);
    assert.match(refused.stderr, /items are under master key \S+ already/);
    assert.doesNotMatch(refused.stderr, /no key of the keyring/);

    const finished = await voicebot(["cloud", "serve", "rotate-master-key", "--json", ...args], {
      env: { VOICEBOT_MASTER_KEY: ring(k2, K1), ...env },
    });
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal(JSON.parse(finished.stdout).complete, true);
    const storage = await openStorage(database.spec);
    try {
      const after = await unlock(storage, [k2]);
      await assertReadable(storage, after, written);
      assert.deepEqual(after.fingerprintKey(written.orgId), fingerprintKey);
    } finally {
      await storage.close();
    }
  },
);

/** Seals as voicebot did before keyrings: version byte 1, IV, AES-GCM ciphertext and tag. */
async function legacySealer(raw: Uint8Array) {
  const key = await crypto.subtle.importKey("raw", raw as BufferSource, "AES-GCM", false, [
    "encrypt",
  ]);
  return async (plaintext: string, context: string) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ciphertext = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
      key,
      new TextEncoder().encode(plaintext),
    );
    return new Uint8Array([1, ...iv, ...new Uint8Array(ciphertext)]);
  };
}

/** The organization's fingerprint key as voicebot derived it before keyrings. */
async function legacyFingerprintKey(raw: Uint8Array, orgId: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", raw as BufferSource, "HKDF", false, [
    "deriveBits",
  ]);
  return new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: new Uint8Array(32),
        info: new TextEncoder().encode(`fingerprint-key:${orgId}`),
      },
      key,
      256,
    ),
  );
}

Deno.test("the SQLite key file is a keyring too: a new key on its first line, rotate, then the old line can go", async () => {
  await using dir = await tempDir();
  const database = `${dir.path}/voicebot.db`;
  const keyFile = `${database}.key`;
  const noEnv = { VOICEBOT_MASTER_KEY: "" };
  const first = await spawnServer(database, { env: noEnv });
  const key = first.bootstrapKey!;
  const put = await api(first.baseUrl, key, "PUT", "/secrets/app", documented({ A: "one" }));
  assert.equal(put.status, 202);
  const before = (await api(first.baseUrl, key, "GET", "/secrets/app")).body.keyDetails;
  assert.equal((await first.stop()).code, 0);

  const oldLine = (await Deno.readTextFile(keyFile)).trim();
  const newLine = newKey().toBase64();
  await Deno.writeTextFile(keyFile, `${newLine}\n${oldLine}\n`);
  const rotated = await voicebot(["cloud", "serve", "rotate-master-key", "--database", database], {
    env: noEnv,
  });
  assert.equal(rotated.code, 0, rotated.stderr);
  assert.match(
    rotated.stderr,
    new RegExp(`sealed with master key ${masterKeyId(Uint8Array.fromBase64(newLine))}`),
  );
  assert.ok(!rotated.stderr.includes(newLine) && !rotated.stderr.includes(oldLine));

  await Deno.writeTextFile(keyFile, `${newLine}\n`);
  const second = await spawnServer(database, { env: noEnv });
  const after = (await api(second.baseUrl, key, "GET", "/secrets/app")).body.keyDetails;
  assert.deepEqual(after, before, "the same value, the same fingerprint");
  assert.equal((await second.stop()).code, 0);
});

backendTest(
  "a runtime answer's ETag is no digest of its values: equal values in two sets tag apart, and a rotation changes the tag",
  async (backend) => {
    await using database = await backend.database();
    const storage = await openStorage(database.spec);
    try {
      const key = await addKey(storage, "acme");
      const readTags = async (vault: Vault) => {
        const app = createApp(storage, { vault, logger: silentLogger });
        const runtime = await addRuntimeKey(storage, "acme", ["one", "two"]);
        const tags: string[] = [];
        for (const name of ["one", "two"]) {
          const response = await app.request(`http://localhost/v1/runtime/secrets/${name}`, {
            headers: { authorization: `Bearer ${runtime}` },
          });
          assert.equal(response.status, 200, await response.clone().text());
          assert.deepEqual((await response.json()).secrets, [
            { secretKey: "A", secretValue: "the-same-value" },
          ]);
          tags.push(response.headers.get("etag")!);
        }
        return tags;
      };
      const before = await unlock(storage, [K1]);
      const app = createApp(storage, { vault: before, logger: silentLogger });
      for (const name of ["one", "two"]) {
        const response = await app.request(`http://localhost/v1/secrets/${name}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(documented({ A: "the-same-value" })),
        });
        assert.equal(response.status, 202, await response.text());
      }
      const pending = await storage.pendingSets(Number.MAX_SAFE_INTEGER, 100);
      await storage.finishProvisioning(
        pending.map((set) => ({ set, result: { status: "ready" } })),
      );

      // A digest of the plaintext (region, keys, values) would tag the two sets alike, and tell
      // whoever sees both tags that the values are equal.
      const [one, two] = await readTags(before);
      assert.notEqual(one, two, "equal values in two sets give different tags");
      assert.deepEqual(await readTags(before), [one, two], "a tag holds while nothing changes");

      // Re-sealed by a new master key, the same values read with a new tag (a plaintext digest
      // would keep it): a client that compares tags only is told of a change, and finds the
      // values it had.
      const both = await unlock(storage, [newKey(), K1]);
      assert.ok((await rotateMasterKey(storage, both)).resealed > 0);
      const [oneAfter, twoAfter] = await readTags(both);
      assert.notEqual(oneAfter, one, "a rotation changes the tag");
      assert.notEqual(twoAfter, two, "a rotation changes the tag");
    } finally {
      await storage.close();
    }
  },
);
