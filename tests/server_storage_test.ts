/** The storage suite: every backend behind the Storage interface passes the same tests. */
import assert from "node:assert/strict";
import { ApiError } from "../src/server/errors.ts";
import { openStorage } from "../src/server/storage/open.ts";
import type {
  ImagePullSecretWrite,
  ProvisionResult,
  SecretsWrite,
  Storage,
  WriteRules,
} from "../src/server/storage/types.ts";
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from "../src/server/storage/migrations.ts";
import { addKey, backendTest, ORPHAN_KEYS, rawSql } from "./helpers_server.ts";

const rules = (overrides: Partial<WriteRules> = {}): WriteRules => ({
  defaultRegion: "us-west",
  maxKeysPerSet: 200,
  maxSetsPerOrganization: 1000,
  now: Date.now(),
  ...overrides,
});

const bytes = (text: string) => new TextEncoder().encode(text);
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** A key/value write; storage takes the values as opaque sealed bytes. */
const secretsWrite = (
  name: string,
  values: [string, Uint8Array][],
  options: { region?: string; replace?: boolean } = {},
): SecretsWrite => ({ name, region: options.region, values, replace: options.replace ?? false });

/** An image pull secret write. */
const registry = (
  name: string,
  host: string,
  credentials: string,
  region?: string,
): ImagePullSecretWrite => ({
  name,
  region,
  host,
  credentials: bytes(credentials),
});

/** A fresh database of the backend with one organization; returns its id. */
async function withStorage(
  backend: Parameters<Parameters<typeof backendTest>[1]>[0],
  fn: (storage: Storage, orgId: string) => Promise<void>,
) {
  await using database = await backend.database();
  const storage = await openStorage(database.spec);
  try {
    const key = await addKey(storage, "acme");
    const orgId = (await storage.findApiKey(key.split("_")[2]))!.orgId;
    await fn(storage, orgId);
  } finally {
    await storage.close();
  }
}

async function rejectsWith(promise: Promise<unknown>, status: number, code: string) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    return true;
  });
}

backendTest("migrations run once: reopening keeps the data", async (backend) => {
  await using database = await backend.database();
  const first = await openStorage(database.spec);
  await addKey(first, "acme");
  await first.close();
  const second = await openStorage(database.spec);
  try {
    assert.equal(
      await second.addApiKey("other", { id: "0".repeat(16), hash: bytes("h"), now: 1 }, {
        onlyIfNew: true,
      }),
      false,
    );
  } finally {
    await second.close();
  }
});

backendTest("migration 4 gives keys written before it their set's last write", async (backend) => {
  await using database = await backend.database();
  const all = backend.name === "sqlite" ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS;
  const old = all.filter((migration) => migration.version <= 2);
  // A database as voicebot left it at schema version 2, with one key.
  await execOn(database.spec, backend.name, [
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
    ...old.map((migration) => migration.sql),
    ...old.map((m) => `INSERT INTO schema_migrations VALUES (${m.version}, 0)`),
    "INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'acme', 0)",
    `INSERT INTO secret_sets (org_id, name, type, region, status, generation, created_at, updated_at)
     VALUES ('org_1', 'app', 'secret', 'us-west', 'ready', 1, 100, 4242)`,
    `INSERT INTO secret_values (org_id, set_name, key, value) VALUES ('org_1', 'app', 'A', ${
      backend.name === "sqlite" ? "x'01'" : "'\\x01'"
    })`,
  ]);
  const storage = await openStorage(database.spec);
  try {
    const values = (await storage.getSet("org_1", "app"))!.values;
    assert.deepEqual(values.map((v) => [v.key, v.writtenAt]), [["A", 4242]]);
  } finally {
    await storage.close();
  }
});

backendTest("migration 6 makes each secret set's state its version 1", async (backend) => {
  await using database = await backend.database();
  const all = backend.name === "sqlite" ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS;
  const old = all.filter((migration) => migration.version <= 5);
  const blob = (hex: string) => backend.name === "sqlite" ? `x'${hex}'` : `'\\x${hex}'`;
  await execOn(database.spec, backend.name, [
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
    ...old.map((migration) => migration.sql),
    ...old.map((m) => `INSERT INTO schema_migrations VALUES (${m.version}, 0)`),
    "INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'acme', 0)",
    `INSERT INTO secret_sets (org_id, name, type, region, status, generation, created_at, updated_at)
     VALUES ('org_1', 'app', 'secret', 'us-west', 'ready', 1, 100, 4242),
            ('org_1', 'reg', 'imagePullSecret', 'us-west', 'ready', 1, 100, 4242)`,
    `INSERT INTO secret_values (org_id, set_name, key, value, written_at)
     VALUES ('org_1', 'app', 'A', ${blob("01")}, 1), ('org_1', 'app', 'B', ${blob("02")}, 2)`,
  ]);
  const storage = await openStorage(database.spec);
  try {
    const versions = await storage.listVersions("org_1", "app");
    assert.deepEqual(versions, [{
      version: 1,
      createdAt: 4242,
      actor: "migration",
      created: [],
      updated: [],
      removed: [],
    }]);
    const first = (await storage.getVersion("org_1", "app", 1))!;
    assert.deepEqual(
      first.values.map(({ key, sealed }) => [key, [...new Uint8Array(sealed)]]),
      [["A", [1]], ["B", [2]]],
    );
    assert.deepEqual(await storage.listVersions("org_1", "reg"), []);
  } finally {
    await storage.close();
  }
});

/** Runs raw SQL on a test database, outside the storage layer. */
async function execOn(spec: string, kind: "sqlite" | "postgres", statements: string[]) {
  if (kind === "sqlite") {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(spec);
    for (const statement of statements) db.exec(statement);
    db.close();
    return;
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(spec, { max: 1, onnotice: () => {} });
  try {
    for (const statement of statements) await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

backendTest("bootstrap happens only on an empty database, even when two race", async (backend) => {
  await using database = await backend.database();
  const storage = await openStorage(database.spec);
  try {
    const attempts = await Promise.all(
      ["a", "b", "c"].map((suffix) =>
        storage.addApiKey("default", { id: suffix.repeat(16), hash: bytes(suffix), now: 1 }, {
          onlyIfNew: true,
        })
      ),
    );
    assert.deepEqual(attempts.filter(Boolean).length, 1);
  } finally {
    await storage.close();
  }
});

backendTest(
  "bootstrap only on a truly new database: not after create-key, not once organizations are gone",
  async (backend) => {
    const key = (suffix: string) => ({ id: suffix.repeat(16), hash: bytes(suffix), now: 1 });
    await using created = await backend.database();
    let storage = await openStorage(created.spec);
    try {
      await storage.addApiKey("acme", key("a"));
      assert.equal(await storage.addApiKey("default", key("b"), { onlyIfNew: true }), false);
    } finally {
      await storage.close();
    }

    await using emptied = await backend.database();
    storage = await openStorage(emptied.spec);
    try {
      assert.equal(await storage.addApiKey("default", key("c"), { onlyIfNew: true }), true);
      await rawSql(emptied.spec, [...ORPHAN_KEYS, "DELETE FROM api_keys"]);
      assert.equal(await storage.addApiKey("default", key("d"), { onlyIfNew: true }), false);
    } finally {
      await storage.close();
    }
  },
);

backendTest("a key whose organization is gone is not found, and cannot write", async (backend) => {
  await using database = await backend.database();
  const storage = await openStorage(database.spec);
  try {
    const key = await addKey(storage, "acme");
    const keyId = key.split("_")[2];
    const orgId = (await storage.findApiKey(keyId))!.orgId;
    await rawSql(database.spec, ORPHAN_KEYS);
    assert.equal(await storage.findApiKey(keyId), undefined);
    await rejectsWith(
      storage.putSecrets(orgId, secretsWrite("app", [["A", bytes("1")]]), rules()),
      401,
      "UNAUTHORIZED",
    );
  } finally {
    await storage.close();
  }
});

backendTest(
  "API keys are listed, touched and revoked; never a hash in the list",
  async (backend) => {
    await withStorage(backend, async (storage) => {
      assert.equal(await storage.listApiKeys("nobody"), undefined);
      await storage.addApiKey("acme", { id: "1".repeat(16), hash: bytes("h1"), now: 5 });
      await storage.touchApiKey("1".repeat(16), 42);
      const listed = (await storage.listApiKeys("acme"))!;
      assert.equal(listed.length, 2);
      assert.deepEqual(listed.find((k) => k.id === "1".repeat(16)), {
        id: "1".repeat(16),
        kind: "private",
        createdAt: 5,
        lastUsedAt: 42,
        expiresAt: null,
        sets: [],
      });
      assert.equal(listed.find((k) => k.id !== "1".repeat(16))!.lastUsedAt, null);
      assert.equal(await storage.revokeApiKey("1".repeat(16)), true);
      assert.equal(await storage.findApiKey("1".repeat(16)), undefined);
      assert.equal(await storage.revokeApiKey("1".repeat(16)), false);
      assert.equal((await storage.listApiKeys("acme"))!.length, 1);
    });
  },
);

backendTest("API keys are found by id and belong to one organization", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    await storage.addApiKey("acme", { id: "1".repeat(16), hash: bytes("second"), now: 1 });
    await storage.addApiKey("globex", { id: "2".repeat(16), hash: bytes("third"), now: 1 });
    const second = await storage.findApiKey("1".repeat(16));
    const third = await storage.findApiKey("2".repeat(16));
    assert.equal(second?.orgId, orgId);
    assert.notEqual(third?.orgId, orgId);
    assert.deepEqual(new Uint8Array(second!.hash), bytes("second"));
    assert.equal(await storage.findApiKey("f".repeat(16)), undefined);
  });
});

backendTest(
  "a secret set is created pending, merged, replaced, and its keys listed sorted",
  async (backend) => {
    await withStorage(backend, async (storage, orgId) => {
      const created = await storage.putSecrets(
        orgId,
        secretsWrite("app", [["b", bytes("1")], ["A", bytes("2")]]),
        rules(),
      );
      assert.deepEqual(created, {
        set: { name: "app", type: "secret", region: "us-west", status: "pending" },
        setCreated: true,
        created: ["A", "b"],
        updated: [],
        unchanged: [],
        removed: [],
        version: 1,
      });
      const merged = await storage.putSecrets(
        orgId,
        secretsWrite("app", [["b", bytes("3")], ["C", bytes("4")]], { region: "us-west" }),
        rules(),
      );
      assert.deepEqual([merged.setCreated, merged.created, merged.updated], [false, ["C"], ["b"]]);
      assert.deepEqual((await storage.getSet(orgId, "app"))?.keys, ["A", "C", "b"]);

      const replaced = await storage.putSecrets(
        orgId,
        secretsWrite("app", [["C", bytes("5")], ["D", bytes("6")]], { replace: true }),
        rules(),
      );
      assert.deepEqual([replaced.created, replaced.updated], [["D"], ["C"]]);
      assert.deepEqual((await storage.getSet(orgId, "app"))?.keys, ["C", "D"]);
    });
  },
);

backendTest(
  "a key whose stored value holds the one written is unchanged, and kept as it was",
  async (backend) => {
    await withStorage(backend, async (storage, orgId) => {
      // Storage takes values as opaque bytes: here the "sealed" bytes are the text itself, and
      // `holds` compares the text that the transaction reads with the value the write gives.
      const write = (values: Record<string, string>, now: number) =>
        storage.putSecrets(
          orgId,
          {
            ...secretsWrite("app", Object.entries(values).map(([k, v]) => [k, bytes(v)])),
            holds: (key, sealed) => new TextDecoder().decode(sealed) === values[key],
          },
          rules({ now }),
        );
      await write({ A: "a1", B: "b1" }, 1_000);
      await write({ B: "b2" }, 2_000);
      const outcome = await write({ A: "a1", B: "b1", C: "c" }, 3_000);
      assert.deepEqual([outcome.created, outcome.updated, outcome.unchanged], [["C"], ["B"], [
        "A",
      ]]);
      const stored = (await storage.getSet(orgId, "app"))!.values;
      assert.deepEqual(
        stored.map((v) => [v.key, v.writtenAt, new TextDecoder().decode(v.sealed)]),
        [["A", 1_000, "a1"], ["B", 3_000, "b1"], ["C", 3_000, "c"]],
      );
    });
  },
);

backendTest(
  "a write that changes no key leaves the set as it is, unless it failed",
  async (backend) => {
    await withStorage(backend, async (storage, orgId) => {
      await storage.putSecrets(orgId, secretsWrite("app", [["A", bytes("1")]]), rules());
      const sealed = (await storage.getSet(orgId, "app"))!.values[0].sealed;
      const provision = async (result: ProvisionResult) => {
        const [set] = await storage.pendingSets(Date.now() + 1, 10);
        await storage.finishProvisioning([{ set, result }]);
      };
      await provision({ status: "ready" });
      const again = () =>
        storage.putSecrets(
          orgId,
          {
            ...secretsWrite("app", [["A", bytes("1")]]),
            holds: (_, stored) => sameBytes(stored, sealed),
          },
          rules(),
        );
      const outcome = await again();
      assert.deepEqual(outcome, {
        set: { name: "app", type: "secret", region: "us-west", status: "ready" },
        setCreated: false,
        created: [],
        updated: [],
        unchanged: ["A"],
        removed: [],
        version: 1,
      });
      assert.deepEqual(await storage.pendingSets(Date.now() + 1, 10), []);
      // A failed set is provisioned again: writing it again is how a user retries.
      await storage.putSecrets(orgId, secretsWrite("app", [["B", bytes("2")]]), rules());
      await provision({ status: "failed", errorMessage: "no capacity" });
      const retried = await again();
      assert.deepEqual([retried.set.status, retried.unchanged], ["pending", ["A"]]);
    });
  },
);

backendTest("each key keeps its sealed value and when it was last written", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    const write = (values: [string, Uint8Array][], now: number, replace = false) =>
      storage.putSecrets(orgId, secretsWrite("app", values, { replace }), rules({ now }));
    await write([["A", bytes("1")], ["B", bytes("2")]], 1_000);
    await write([["B", bytes("3")]], 2_000);
    const values = (await storage.getSet(orgId, "app"))!.values;
    assert.deepEqual(
      values.map((v) => [v.key, v.writtenAt, new TextDecoder().decode(v.sealed)]),
      [["A", 1_000, "1"], ["B", 2_000, "3"]],
    );
    await write([["A", bytes("4")]], 3_000, true);
    assert.deepEqual(
      (await storage.getSet(orgId, "app"))!.values.map((v) => [v.key, v.writtenAt]),
      [["A", 3_000]],
    );
  });
});

backendTest("a name keeps its type and region", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    await storage.putSecrets(
      orgId,
      secretsWrite("app", [["A", bytes("1")]], { region: "eu-central" }),
      rules(),
    );
    await storage.putImagePullSecret(orgId, registry("reg", "r.io", "c"), rules());
    await rejectsWith(
      storage.putImagePullSecret(orgId, registry("app", "r.io", "c"), rules()),
      400,
      "GENERIC_BAD_REQUEST",
    );
    await rejectsWith(
      storage.putSecrets(orgId, secretsWrite("reg", [["A", bytes("1")]]), rules()),
      400,
      "GENERIC_BAD_REQUEST",
    );
    await rejectsWith(
      storage.putSecrets(
        orgId,
        secretsWrite("app", [["A", bytes("1")]], { region: "us-west" }),
        rules(),
      ),
      400,
      "GENERIC_BAD_REQUEST",
    );
    // No region on an update means the set's own.
    const updated = await storage.putSecrets(
      orgId,
      secretsWrite("app", [["B", bytes("1")]]),
      rules(),
    );
    assert.equal(updated.set.region, "eu-central");
  });
});

backendTest(
  "an image pull secret is updated in place and shows its host, no keys",
  async (backend) => {
    await withStorage(backend, async (storage, orgId) => {
      await storage.putImagePullSecret(orgId, registry("reg", "a.io", "1"), rules());
      const second = await storage.putImagePullSecret(orgId, registry("reg", "b.io", "2"), rules());
      assert.equal(second.setCreated, false);
      assert.deepEqual(await storage.getSet(orgId, "reg"), {
        name: "reg",
        type: "imagePullSecret",
        region: "us-west",
        status: "pending",
        keys: [],
        host: "b.io",
        values: [],
      });
      const [pending] = await storage.pendingSets(Date.now() + 1000, 10);
      assert.deepEqual(new Uint8Array(pending.credentials!), bytes("2"));
    });
  },
);

backendTest("keys per set and sets per organization stop exactly at the limit", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    const limited = rules({ maxKeysPerSet: 3, maxSetsPerOrganization: 2 });
    const values = (n: number, prefix = "K"): [string, Uint8Array][] =>
      Array.from({ length: n }, (_, i) => [`${prefix}${i}`, bytes("v")]);
    await storage.putSecrets(orgId, secretsWrite("a", values(3)), limited);
    await rejectsWith(
      storage.putSecrets(orgId, secretsWrite("a", values(1, "X")), limited),
      400,
      "VALIDATION_ERROR",
    );
    // Replacing with as many keys as the limit is fine; updating existing keys adds none.
    await storage.putSecrets(orgId, secretsWrite("a", values(3, "Y"), { replace: true }), limited);
    await storage.putSecrets(orgId, secretsWrite("a", values(3, "Y")), limited);

    await storage.putImagePullSecret(orgId, registry("b", "r.io", "c"), limited);
    await rejectsWith(
      storage.putSecrets(
        orgId,
        secretsWrite("c", values(1)),
        limited,
      ),
      400,
      "VALIDATION_ERROR",
    );
    assert.equal((await storage.listSets(orgId)).length, 2);
  });
});

backendTest("deleting a key and a set; 404 for what is not there", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    await storage.putSecrets(
      orgId,
      secretsWrite("a", [["A", bytes("1")], ["B", bytes("2")]]),
      rules(),
    );
    assert.deepEqual(await storage.deleteKey(orgId, "a", "A", Date.now()), {
      name: "a",
      type: "secret",
      region: "us-west",
      status: "pending",
    });
    assert.deepEqual((await storage.getSet(orgId, "a"))?.keys, ["B"]);
    await rejectsWith(storage.deleteKey(orgId, "a", "A", Date.now()), 404, "NOT_FOUND");
    await rejectsWith(storage.deleteKey(orgId, "nope", "A", Date.now()), 404, "NOT_FOUND");
    assert.equal(await storage.deleteSet(orgId, "a"), true);
    assert.equal(await storage.deleteSet(orgId, "a"), false);
    assert.equal(await storage.getSet(orgId, "a"), undefined);
    // The name is free again, for either type.
    await storage.putImagePullSecret(orgId, registry("a", "r.io", "c"), rules());
  });
});

backendTest("provisioning results apply only to the generation that was read", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    const now = Date.now();
    await storage.putSecrets(orgId, secretsWrite("a", [["A", bytes("1")]]), rules({ now }));
    assert.deepEqual(await storage.pendingSets(now - 1, 10), [], "not due yet");
    const [stale] = await storage.pendingSets(now, 10);
    await storage.putSecrets(orgId, secretsWrite("a", [["B", bytes("1")]]), rules({ now }));
    assert.equal(
      await storage.finishProvisioning([{
        set: stale,
        result: { status: "failed", errorMessage: "stale" },
      }]),
      0,
    );
    assert.equal((await storage.listSets(orgId))[0].status, "pending");

    const [fresh] = await storage.pendingSets(now, 10);
    assert.equal(
      await storage.finishProvisioning([{
        set: fresh,
        result: { status: "failed", errorMessage: "Broken." },
      }]),
      1,
    );
    assert.deepEqual(await storage.listSets(orgId), [
      { name: "a", type: "secret", region: "us-west", status: "failed", errorMessage: "Broken." },
    ]);
    // A later write clears the failure.
    await storage.putSecrets(orgId, secretsWrite("a", [["A", bytes("2")]]), rules());
    assert.deepEqual(await storage.listSets(orgId), [{
      name: "a",
      type: "secret",
      region: "us-west",
      status: "pending",
    }]);
  });
});

backendTest("organizations never see each other's sets", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    const otherKey = await addKey(storage, "globex");
    const otherOrg = (await storage.findApiKey(otherKey.split("_")[2]))!.orgId;
    await storage.putSecrets(orgId, secretsWrite("same", [["A", bytes("1")]]), rules());
    await storage.putSecrets(
      otherOrg,
      secretsWrite("same", [["Z", bytes("1")]], { region: "us-east" }),
      rules(),
    );
    assert.deepEqual((await storage.getSet(orgId, "same"))?.keys, ["A"]);
    assert.deepEqual((await storage.getSet(otherOrg, "same"))?.keys, ["Z"]);
    await rejectsWith(storage.deleteKey(otherOrg, "same", "A", Date.now()), 404, "NOT_FOUND");
    assert.equal(await storage.deleteSet(otherOrg, "same"), true);
    assert.equal((await storage.listSets(orgId)).length, 1);
  });
});

backendTest("sets list sorted by byte order on every backend", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    for (const name of ["b", "B", "a-1", "a", "A9", "10"]) {
      await storage.putSecrets(orgId, secretsWrite(name, [["K", bytes("1")]]), rules());
    }
    assert.deepEqual((await storage.listSets(orgId)).map((set) => set.name), [
      "10",
      "A9",
      "B",
      "a",
      "a-1",
      "b",
    ]);
  });
});

backendTest("concurrent merges into one set lose no key", async (backend) => {
  await withStorage(backend, async (storage, orgId) => {
    const writers = 40;
    await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        storage.putSecrets(
          orgId,
          secretsWrite("shared", [[`K${i}`, bytes(String(i))]]),
          rules(),
        )),
    );
    assert.equal((await storage.getSet(orgId, "shared"))?.keys.length, writers);
  });
});

backendTest(
  "the list version moves with every write and provisioning result, not with reads",
  async (backend) => {
    await withStorage(backend, async (storage, orgId) => {
      const versions = [await storage.setsVersion(orgId)];
      const step = async (action: () => Promise<unknown>) => {
        await action().catch(() => {});
        versions.push(await storage.setsVersion(orgId));
      };
      const write = secretsWrite("a", [["A", bytes("1")]]);
      await step(() => storage.putSecrets(orgId, write, rules()));
      await step(() => storage.listSets(orgId));
      await step(async () => {
        const pending = await storage.pendingSets(Date.now() + 1000, 10);
        await storage.finishProvisioning(
          pending.map((set) => ({ set, result: { status: "ready" } })),
        );
      });
      await step(() => storage.deleteKey(orgId, "a", "A", Date.now()));
      await step(() => storage.deleteSet(orgId, "a"));
      const moved = versions.slice(1).map((version, i) => version > versions[i]);
      assert.deepEqual(moved, [true, false, true, true, true]);
    });
  },
);

backendTest(
  "a write that fails among concurrent ones leaves no trace and takes none down",
  async (backend) => {
    await withStorage(backend, async (storage, orgId) => {
      await storage.putImagePullSecret(orgId, registry("reg", "r.io", "c"), rules());
      const before = await storage.setsVersion(orgId);
      const results = await Promise.allSettled([
        storage.putSecrets(orgId, secretsWrite("a", [["A", bytes("1")]]), rules()),
        storage.putSecrets(orgId, secretsWrite("reg", [["X", bytes("1")]]), rules()),
        storage.deleteKey(orgId, "a", "MISSING", Date.now()),
        storage.putSecrets(orgId, secretsWrite("b", [["B", bytes("1")]]), rules()),
      ]);
      assert.deepEqual(results.map((result) => result.status), [
        "fulfilled",
        "rejected",
        "rejected",
        "fulfilled",
      ]);
      assert.deepEqual((await storage.listSets(orgId)).map((set) => set.name), ["a", "b", "reg"]);
      assert.deepEqual((await storage.getSet(orgId, "reg"))?.keys, []);
      const after = await storage.setsVersion(orgId);
      assert.ok(after > before, "the writes that succeeded move the list version on");
      // Writes that all fail move it not at all.
      await Promise.allSettled([
        storage.putSecrets(orgId, secretsWrite("reg", [["X", bytes("1")]]), rules()),
        storage.deleteKey(orgId, "a", "MISSING", Date.now()),
      ]);
      assert.equal(await storage.setsVersion(orgId), after, "failed writes moved the version");
    });
  },
);
