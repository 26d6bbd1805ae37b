/**
 * Backups of a live database: `voicebot cloud serve backup` for SQLite, `pg_dump` and
 * `pg_restore` for PostgreSQL, each taken while a server acknowledges a stream of writes, then
 * served with the same key. The copy is one moment of the database: every write acknowledged
 * before the backup began is in it, and writes that go together are in it together.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { apiKeyId, valueContext } from "../src/server/crypto.ts";
import { unlock } from "../src/server/master_key.ts";
import { openStorage } from "../src/server/serve.ts";
import { tempDir, voicebot } from "./helpers.ts";
import { skipped } from "./skips.ts";
import {
  api,
  BACKENDS,
  documented,
  MASTER_KEY,
  type SpawnedServer,
  spawnServer,
  withDeadline,
} from "./helpers_server.ts";

const sqlite = BACKENDS.find((backend) => backend.name === "sqlite")!;
const postgresBackend = BACKENDS.find((backend) => backend.name === "postgres")!;

/**
 * Writes n = 1, 2, ... until stopped: set `pair` gets A=n and B=n in one request, then set `next`
 * gets C=n. Remembers the last n whose writes were both acknowledged.
 */
function writeStream(server: SpawnedServer, key: string) {
  let stopped = false;
  let acknowledged = 0;
  const done = (async () => {
    for (let n = 1; !stopped && n <= 5_000; n++) {
      const pair = await api(
        server.baseUrl,
        key,
        "PUT",
        "/secrets/pair",
        documented({
          A: `${n}`,
          B: `${n}`,
        }),
      );
      assert.equal(pair.status, 202, JSON.stringify(pair.body));
      const next = await api(
        server.baseUrl,
        key,
        "PUT",
        "/secrets/next",
        documented({ C: `${n}` }),
      );
      assert.equal(next.status, 202, JSON.stringify(next.body));
      acknowledged = n;
    }
  })().then(() => undefined, (error: unknown) => error);
  return {
    /** The last n both of whose writes were acknowledged, so far. */
    acknowledged: () => acknowledged,
    async stop() {
      stopped = true;
      const failure = await withDeadline(done, 30_000);
      if (failure) throw failure;
      return acknowledged;
    },
  };
}

/** Waits (bounded) until the stream has acknowledged `count` writes. */
async function until(stream: ReturnType<typeof writeStream>, count: number) {
  for (let i = 0; i < 2_000 && stream.acknowledged() < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.ok(stream.acknowledged() >= count, "the write stream is moving");
}

/**
 * The restored database, served with the same key, is one moment of the stream: A and B agree,
 * C is A or the one before it, and nothing acknowledged before the backup began is missing.
 */
async function assertOneMoment(restored: string, key: string, ackedBefore: number) {
  await using server = await spawnServer(restored);
  const listed = await api(server.baseUrl, key, "GET", "/secrets");
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.sets.map((set: { name: string }) => set.name), ["next", "pair"]);
  const storage = await openStorage(restored, { create: false });
  try {
    const vault = await unlock(storage, [Uint8Array.fromBase64(MASTER_KEY)]);
    const orgId = (await storage.findApiKey(apiKeyId(key)!))!.orgId;
    const read = async (set: string) => {
      const detail = (await storage.getSet(orgId, set))!;
      return Object.fromEntries(
        detail.values.map(({ key, sealed }) => [
          key,
          Number(vault.openSync(sealed, valueContext(orgId, set, key))),
        ]),
      );
    };
    const { A, B } = await read("pair");
    const { C } = await read("next");
    assert.equal(A, B, "one request's keys are in the copy together");
    assert.ok(C === A || C === A - 1, `next.C=${C} beside pair.A=${A}: one moment`);
    assert.ok(
      C >= ackedBefore,
      `every write acknowledged before the backup (${ackedBefore}) is in`,
    );
  } finally {
    await storage.close();
  }
}

Deno.test("serve backup copies a live SQLite database at one moment, 0600, without its key; serving the copy gives that moment", async () => {
  await using database = await sqlite.database();
  await using dir = await tempDir();
  const server = await spawnServer(database.spec, { args: ["--rate-limit", "0"] });
  const key = server.bootstrapKey!;
  const stream = writeStream(server, key);
  await until(stream, 20);
  const ackedBefore = stream.acknowledged();
  const to = join(dir.path, "backups", "voicebot-backup.db");
  const backup = await voicebot([
    "cloud",
    "serve",
    "backup",
    "--to",
    to,
    "--database",
    database.spec,
  ]);
  await until(stream, ackedBefore + 20);
  await stream.stop();
  assert.equal((await server.stop()).code, 0);
  assert.equal(backup.code, 0, backup.stderr);
  assert.equal(backup.stdout, "");
  assert.match(backup.stderr, new RegExp(`^Database: ${database.spec}\\n`));
  assert.match(backup.stderr, /Wrote a consistent copy of the database to .* mode 0600/);

  assert.equal((await Deno.stat(to)).mode! & 0o777, 0o600);
  const bytes = await Deno.readFile(to);
  const raw = Uint8Array.fromBase64(MASTER_KEY);
  assert.ok(!new TextDecoder("latin1").decode(bytes).includes(MASTER_KEY), "no key, as text");
  assert.ok(!bytes.toHex().includes(raw.toHex()), "no key, as bytes");
  assert.deepEqual(
    [...Deno.readDirSync(join(dir.path, "backups"))].map((entry) => entry.name),
    ["voicebot-backup.db"],
    "nothing else is left beside it",
  );
  await assertOneMoment(to, key, ackedBefore);
});

Deno.test("serve backup never replaces a file, needs --to, makes nothing from a mistyped database, and points PostgreSQL at pg_dump", async () => {
  await using database = await sqlite.database();
  await using dir = await tempDir();
  await (await spawnServer(database.spec)).stop();
  const taken = join(dir.path, "taken.db");
  await Deno.writeTextFile(taken, "the user's own file");
  const clash = await voicebot([
    "cloud",
    "serve",
    "backup",
    "--to",
    taken,
    "--database",
    database.spec,
  ]);
  assert.equal(clash.code, 5, clash.stderr);
  assert.equal(await Deno.readTextFile(taken), "the user's own file");

  const noTo = await voicebot(["cloud", "serve", "backup", "--database", database.spec]);
  assert.equal(noTo.code, 2);
  assert.match(noTo.stderr, /backup needs --to FILE/);

  // Into a directory that does not exist yet: it is not made either.
  const fresh = join(dir.path, "backups", "fresh.db");
  const missing = await voicebot([
    "cloud",
    "serve",
    "backup",
    "--to",
    fresh,
    "--database",
    join(dir.path, "typo.db"),
  ]);
  assert.equal(missing.code, 4, missing.stderr);
  assert.deepEqual(
    [...Deno.readDirSync(dir.path)].map((entry) => entry.name).sort(),
    ["taken.db"],
    "neither a database, a directory nor a partial copy was made",
  );

  const postgres = await voicebot(["cloud", "serve", "backup", "--to", fresh], {
    env: { VOICEBOT_DATABASE_URL: "postgres://u:hunter2@127.0.0.1:1/db" },
  });
  assert.equal(postgres.code, 2, postgres.stderr);
  assert.match(postgres.stderr, /backed up with pg_dump/);
  assert.ok(!postgres.stderr.includes("hunter2"));
});

Deno.test({
  name:
    "postgres: pg_dump during a stream of writes, pg_restore into a fresh database, served with the same key",
  ignore: skipped("postgres"),
  fn: async () => {
    await using database = await postgresBackend.database();
    await using dir = await tempDir();
    const url = new URL(database.spec);
    const schema = url.searchParams.get("search_path")!;
    url.searchParams.delete("search_path");
    const server = await spawnServer(database.spec, { args: ["--rate-limit", "0"] });
    const key = server.bootstrapKey!;
    const stream = writeStream(server, key);
    await until(stream, 20);
    const ackedBefore = stream.acknowledged();
    const dump = join(dir.path, "voicebot.dump");
    await run("pg_dump", ["--format=custom", `--schema=${schema}`, `--file=${dump}`, url.href]);
    await until(stream, ackedBefore + 20);
    await stream.stop();
    assert.equal((await server.stop()).code, 0);

    const restoredName = `voicebot_restore_${crypto.getRandomValues(new Uint8Array(4)).toHex()}`;
    const { default: postgres } = await import("postgres");
    const admin = postgres(url.href, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${restoredName}`);
    try {
      const restored = new URL(url.href);
      restored.pathname = `/${restoredName}`;
      await run("pg_restore", [`--dbname=${restored.href}`, dump]);
      restored.searchParams.set("search_path", schema);
      await assertOneMoment(restored.href, key, ackedBefore);
    } finally {
      await admin.unsafe(`DROP DATABASE ${restoredName} WITH (FORCE)`);
      await admin.end();
    }
  },
});

async function run(command: string, args: string[]) {
  const { code, stderr } = await withDeadline(
    new Deno.Command(command, { args, stdin: "null", stdout: "null", stderr: "piped" }).output(),
    60_000,
  );
  assert.equal(code, 0, `${command}: ${new TextDecoder().decode(stderr)}`);
}
