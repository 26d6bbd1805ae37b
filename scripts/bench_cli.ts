/**
 * CLI start-up, measured against the floor: `deno run` of an empty script. Each command runs
 * RUNS times in a fresh process; the table shows the median and p90 wall time and the ratio of
 * the median to the floor's. Run from source and from the bundle (`deno task bundle` first).
 */
import { join } from "pathe";

const RUNS = 25;
const ROOT = new URL("..", import.meta.url).pathname;

interface Row {
  name: string;
  median: number;
  p90: number;
}

/** Runs `deno <args>` RUNS times; `after` (not timed) cleans up between runs. */
async function time(
  args: string[],
  cwd: string,
  after?: () => Promise<void>,
  env: Record<string, string> = {},
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const { code } = await new Deno.Command(Deno.execPath(), {
      args,
      cwd,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      env: { NO_COLOR: "1", ...env },
    }).output();
    samples.push(performance.now() - start);
    if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}`);
    await after?.();
  }
  return samples.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

export async function benchCli(): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "voicebot-bench-" });
  try {
    const empty = join(work, "empty.ts");
    await Deno.writeTextFile(empty, "");
    const entries: [string, string][] = [["source", join(ROOT, "main.ts")]];
    const bundle = join(ROOT, "dist/main.js");
    if (await Deno.stat(bundle).then(() => true, () => false)) entries.push(["bundle", bundle]);

    const rows: Row[] = [];
    const measure = async (
      name: string,
      args: string[],
      after?: () => Promise<void>,
      env?: Record<string, string>,
    ) => {
      const samples = await time(["run", "-A", "--quiet", ...args], work, after, env);
      rows.push({ name, median: percentile(samples, 0.5), p90: percentile(samples, 0.9) });
    };
    await measure("floor: deno run empty.ts", [empty]);
    await using server = await localServer(work);
    for (const [kind, entry] of entries) {
      await measure(`${kind}: --version`, [entry, "--version"]);
      await measure(`${kind}: --help`, [entry, "--help"]);
      await measure(`${kind}: init --list-options`, [entry, "init", "--list-options"]);
      await measure(`${kind}: init quickstart --dry-run`, [
        entry,
        "init",
        "quickstart",
        "--dry-run",
      ]);
      // A full scaffold into a fresh directory, removed after each run.
      const scaffold = join(work, "scaffold");
      const cascade = ["-m", "cascade", "--stt", "deepgram_stt", "--llm", "openai_llm"];
      await measure(
        `${kind}: init (scaffold, 9 files)`,
        [entry, "init", scaffold, "-t", "lightweb", ...cascade, "--tts", "cartesia_tts"],
        () => Deno.remove(scaffold, { recursive: true }),
      );
      // The client end to end against a server on loopback: start-up, config, one GET, a table.
      await measure(
        `${kind}: secrets list (local server)`,
        [entry, "cloud", "secrets", "list"],
        undefined,
        server.env,
      );
    }

    const floor = rows[0].median;
    console.log(`\nCLI start-up, ${RUNS} runs each (wall time of a fresh process)\n`);
    console.log(
      `${"command".padEnd(40)} ${"median".padStart(9)} ${"p90".padStart(9)} ${
        "x floor".padStart(8)
      }`,
    );
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(40)} ${row.median.toFixed(1).padStart(7)}ms ${
          row.p90.toFixed(1).padStart(7)
        }ms ${(row.median / floor).toFixed(2).padStart(8)}`,
      );
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/**
 * The secrets API in this process on 127.0.0.1 port 0 over a temporary SQLite file, with 20 sets,
 * and a config file logged in to it: what `cloud secrets list` needs.
 */
async function localServer(work: string) {
  const { startServer } = await import("../src/server/serve.ts");
  const { silentLogger } = await import("../src/server/log.ts");
  const { writeConfig } = await import("../src/config/credentials.ts");
  const server = await startServer({
    hostname: "127.0.0.1",
    port: 0,
    database: join(work, "bench.db"),
    regions: ["us-west"],
    defaultRegion: "us-west",
    provisioner: { delayMs: 0, pollMs: 1000 },
    masterKey: crypto.getRandomValues(new Uint8Array(32)).toBase64(),
    logger: silentLogger,
  });
  const apiKey = server.bootstrap!.apiKey;
  for (let i = 0; i < 20; i++) {
    const response = await fetch(`${server.baseUrl}/secrets/bench-set-${i}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "secret", secrets: { KEY_A: "a", KEY_B: "b" } }),
    });
    await response.body?.cancel();
  }
  const config = join(work, "config.json");
  await writeConfig(config, {
    current: "default",
    organizations: { default: { apiUrl: server.baseUrl, apiKey } },
  });
  return {
    env: { VOICEBOT_CONFIG: config },
    [Symbol.asyncDispose]: async () => void await server.shutdown(),
  };
}

if (import.meta.main) await benchCli();
