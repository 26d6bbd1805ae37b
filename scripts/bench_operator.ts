/**
 * What the operator commands cost on a database of real size, run as an operator runs them (a
 * process, its start included): `voicebot cloud serve rotate-master-key` re-sealing 10,000 values
 * on SQLite and on PostgreSQL (VOICEBOT_BENCH_POSTGRES_URL, else VOICEBOT_TEST_POSTGRES_URL; a
 * fresh schema), each run rotating to the other of two keys so that every run re-seals all 10,000;
 * and `voicebot cloud serve backup` of the same SQLite database.
 */
import { join } from "pathe";
import { unlock } from "../src/server/master_key.ts";
import { openStorage } from "../src/server/storage/open.ts";
import { generateApiKey, valueContext } from "../src/server/crypto.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const VOICEBOT = ["run", "-A", "--quiet", join(ROOT, "main.ts")];
const SETS = 100;
const KEYS_PER_SET = 100;
const RUNS = 5;
const POSTGRES_URL = Deno.env.get("VOICEBOT_BENCH_POSTGRES_URL") ??
  Deno.env.get("VOICEBOT_TEST_POSTGRES_URL");

export async function benchOperator(): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "voicebot-bench-operator-" });
  const drops: (() => Promise<void>)[] = [];
  try {
    const backends: [string, string][] = [["SQLite", join(work, "bench.db")]];
    if (POSTGRES_URL) {
      const schema = `bench_${crypto.getRandomValues(new Uint8Array(6)).toHex()}`;
      const { default: postgres } = await import("postgres");
      const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE SCHEMA ${schema}`);
      drops.push(async () => {
        await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      });
      const url = new URL(POSTGRES_URL);
      url.searchParams.set("search_path", schema);
      backends.push(["PostgreSQL", url.toString()]);
    } else {
      console.error("VOICEBOT_BENCH_POSTGRES_URL is not set: PostgreSQL is skipped.");
    }
    console.log(
      `\nrotate-master-key, ${SETS * KEYS_PER_SET} values (${SETS} sets of ${KEYS_PER_SET}), ` +
        `the command's wall time including its start, ${RUNS} runs each`,
    );
    for (const [label, database] of backends) await benchRotation(label, database);
    await benchBackup(work, backends[0][1]);
  } finally {
    for (const drop of drops) await drop();
    await Deno.remove(work, { recursive: true });
  }
}

async function benchRotation(label: string, database: string) {
  const keys = [0, 1].map(() => crypto.getRandomValues(new Uint8Array(32)));
  console.error(`${label}: sealing ${SETS * KEYS_PER_SET} values...`);
  await fill(database, keys[0]);
  const times: number[] = [];
  let resealed = 0;
  for (let run = 0; run < RUNS; run++) {
    // Rotate to the key that did not seal them: every value is re-sealed each run.
    const [newest, older] = run % 2 === 0 ? [keys[1], keys[0]] : [keys[0], keys[1]];
    const started = performance.now();
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        ...VOICEBOT,
        "cloud",
        "serve",
        "rotate-master-key",
        "--json",
        ...(database.startsWith("postgres") ? [] : ["--database", database]),
      ],
      env: {
        VOICEBOT_MASTER_KEY: `${newest.toBase64()},${older.toBase64()}`,
        ...(database.startsWith("postgres") ? { VOICEBOT_DATABASE_URL: database } : {}),
      },
      stdin: "null",
    }).output();
    times.push(performance.now() - started);
    const report = JSON.parse(new TextDecoder().decode(stdout));
    if (code !== 0 || report.resealed < SETS * KEYS_PER_SET) {
      throw new Error(`rotation failed: ${new TextDecoder().decode(stderr)}`);
    }
    resealed = report.resealed;
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  console.log(
    `${label.padEnd(10)} ${spread(times)}; ${resealed} items re-sealed a run (the values and ` +
      `each set's version 1), ${Math.round(resealed / (median / 1000))} items/s`,
  );
}

async function benchBackup(work: string, database: string) {
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const to = join(work, `backup-${run}.db`);
    const started = performance.now();
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [...VOICEBOT, "cloud", "serve", "backup", "--to", to, "--database", database],
      stdin: "null",
    }).output();
    times.push(performance.now() - started);
    if (code !== 0) throw new Error(`backup failed: ${new TextDecoder().decode(stderr)}`);
    bytes = (await Deno.stat(to)).size;
  }
  console.log(
    `\nbackup of the same SQLite database (${
      (bytes / 1024).toFixed(0)
    } KiB), the command's wall time, ${RUNS} runs`,
  );
  console.log(`SQLite     ${spread(times)}`);
}

/** Median, min and max of times in milliseconds, in seconds. */
export function spread(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return `median ${seconds(sorted[Math.floor(sorted.length / 2)])}, min ${
    seconds(sorted[0])
  }, max ${seconds(sorted.at(-1)!)}`;
}

/** Writes the sets straight through storage, sealed by `key`: the bench measures the rotation. */
async function fill(database: string, key: Uint8Array) {
  const storage = await openStorage(database);
  try {
    const vault = await unlock(storage, [key]);
    const apiKey = generateApiKey();
    await storage.addApiKey("bench", { id: apiKey.id, hash: apiKey.hash, now: Date.now() });
    const orgId = (await storage.findApiKey(apiKey.id))!.orgId;
    const rules = {
      defaultRegion: "us-west",
      maxKeysPerSet: KEYS_PER_SET,
      maxSetsPerOrganization: SETS,
      now: Date.now(),
    };
    for (let s = 0; s < SETS; s++) {
      const name = `set-${s}`;
      const values = Array.from({ length: KEYS_PER_SET }, (_, i): [string, Uint8Array] => [
        `KEY_${i}`,
        vault.sealSync(`value-${s}-${i}-${"x".repeat(32)}`, valueContext(orgId, name, `KEY_${i}`)),
      ]);
      await storage.putSecrets(orgId, { name, region: undefined, values, replace: false }, rules);
    }
  } finally {
    await storage.close();
  }
}
