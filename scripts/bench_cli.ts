/**
 * CLI start-up, measured against the floor: `deno run` of an empty script. Each command runs
 * RUNS times in a fresh process, in rounds (every command once per round), so that a load that
 * comes and goes on a shared machine weighs on all of them alike. The table shows the median and
 * p90 wall time and the ratio of the median to the floor's. Run from source, from the bundle,
 * whose size is printed with the table, and through the npm package's `voicebot` command (the
 * package built from that bundle, installed into a temporary npm prefix); a bundle that is
 * missing, or older than what it is built from, is rebuilt first (`deno task bundle`). A second
 * table sets the bundle's ratios beside the npm command's, and their budgets. The `secrets run` rows start the floor's own program
 * through `cloud secrets run`: their difference from the floor is what `secrets run` adds to a
 * program's start, printed below the table. BENCH_RUNS=N changes RUNS.
 */
import { join } from "pathe";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 25);
const ROOT = new URL("..", import.meta.url).pathname;

interface Case {
  name: string;
  /** The program and its arguments. */
  command: string[];
  /** Not timed: cleans up after each run. */
  after?: () => Promise<void>;
  /** More environment variables for the command. */
  env?: Record<string, string>;
  samples: number[];
}

/** `deno run` of `entry`, as the bench starts the floor, the sources and the bundle. */
const denoRun = (entry: string) => [Deno.execPath(), "run", "-A", "--quiet", entry];

/** One timed run of `command` in `cwd`. */
async function timeOnce(command: string[], cwd: string, env = {}): Promise<number> {
  const [program, ...args] = command;
  const start = performance.now();
  const { code } = await new Deno.Command(program, {
    args,
    cwd,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env: { NO_COLOR: "1", ...env },
  }).output();
  const elapsed = performance.now() - start;
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}`);
  return elapsed;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** What `deno task bundle` builds dist/ from, relative to the repository. */
const BUNDLE_SOURCES = ["main.ts", "deno.json", "deno.lock", "src", "scripts/lazy_bundle.ts"];

/** Why `root`'s dist/voicebot.js cannot be measured as it is (missing, or older than a source). */
export async function staleBundle(root: string): Promise<string | undefined> {
  const built = await Deno.stat(join(root, "dist/voicebot.js")).catch(() => undefined);
  if (!built?.mtime) return "dist/voicebot.js is missing";
  const newer = async (path: string): Promise<string | undefined> => {
    const info = await Deno.stat(join(root, path)).catch(() => undefined);
    if (!info) return undefined;
    if (info.isDirectory) {
      for await (const entry of Deno.readDir(join(root, path))) {
        const found = await newer(`${path}/${entry.name}`);
        if (found) return found;
      }
      return undefined;
    }
    return info.mtime && info.mtime > built.mtime! ? path : undefined;
  };
  for (const source of BUNDLE_SOURCES) {
    const found = await newer(source);
    if (found) return `dist/voicebot.js is older than ${found}`;
  }
}

/** Rebuilds dist/ when it is stale, so that the bundle's rows measure the current sources. */
async function freshBundle(): Promise<void> {
  const stale = await staleBundle(ROOT);
  if (!stale) return;
  console.log(`${stale}: deno task bundle`);
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "bundle"],
    cwd: ROOT,
    stdin: "null",
  }).spawn().status;
  if (!success) throw new Error("deno task bundle failed");
}

/** The bundle's entry and the whole of dist/ (the entry plus its lazily loaded chunks), in KB. */
async function bundleSize(dist: string): Promise<string> {
  let total = 0;
  let files = 0;
  for await (const entry of Deno.readDir(dist)) {
    if (!entry.isFile) continue;
    total += (await Deno.stat(join(dist, entry.name))).size;
    files++;
  }
  const entry = (await Deno.stat(join(dist, "voicebot.js"))).size;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  return `bundle: dist/voicebot.js ${kb(entry)}; with its chunks ${kb(total)} in ${files} files`;
}

export async function benchCli(): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "voicebot-bench-" });
  try {
    const empty = join(work, "empty.ts");
    await Deno.writeTextFile(empty, "");
    await freshBundle();
    const entries: [string, string[]][] = [
      ["source", denoRun(join(ROOT, "main.ts"))],
      ["bundle", denoRun(join(ROOT, "dist/voicebot.js"))],
      ["npm", [await npmCommand(work)]],
    ];

    const cases: Case[] = [];
    const add = (
      name: string,
      command: string[],
      after?: () => Promise<void>,
      env?: Record<string, string>,
    ) => cases.push({ name, command, after, env, samples: [] });
    add("floor: deno run empty.ts", denoRun(empty));
    await using server = await localServer(work);
    // A quickstart project nobody edited, for update: it merges every file, and writes nothing.
    await untouchedProject(work, entries[1][1]);
    for (const [kind, cli] of entries) {
      add(`${kind}: --version`, [...cli, "--version"]);
      add(`${kind}: --help`, [...cli, "--help"]);
      add(`${kind}: init --list-options`, [...cli, "init", "--list-options"]);
      add(`${kind}: init quickstart --dry-run`, [...cli, "init", "quickstart", "--dry-run"]);
      // The full quickstart scaffold, into a fresh directory removed after each run.
      add(
        `${kind}: init quickstart (scaffold)`,
        [...cli, "init", "quickstart"],
        () => Deno.remove(join(work, "voicebot-quickstart"), { recursive: true }),
      );
      add(`${kind}: update (untouched quickstart)`, [...cli, "update", UPDATED]);
      // An answer changed: six files and the base written through the journal, then put back.
      add(
        `${kind}: update --tts (writes)`,
        [...cli, "update", CHANGED, "--tts", "kokoro_tts"],
        () => copyProject(work, UPDATED, CHANGED),
      );
      // The client end to end against a server on loopback: start-up, config, one GET, a table.
      add(
        `${kind}: secrets list (local server)`,
        [...cli, "cloud", "secrets", "list"],
        undefined,
        server.env,
      );
      // Two GETs (the set, the regions) and the plan; nothing written.
      add(
        `${kind}: secrets set --dry-run`,
        [...cli, "cloud", "secrets", "set", "bench-set-0", "KEY_A=a", "KEY_C=c", "--dry-run"],
        undefined,
        server.env,
      );
      // One GET and a fingerprint per key.
      add(
        `${kind}: secrets diff`,
        [...cli, "cloud", "secrets", "diff", "bench-set-0", "KEY_A=a", "KEY_B=x"],
        undefined,
        server.env,
      );
      // The floor's program started through `secrets run`: one runtime read, then the child,
      // its output masked (the default) or passed through.
      for (const masking of MASKING) {
        add(
          `${kind}: secrets run ${masking}-- (floor)`,
          [...cli, "cloud", "secrets", "run", "bench-mask", ...masking.split(" ").filter(Boolean)]
            .concat(["--", ...denoRun(empty)]),
          undefined,
          server.runtimeEnv,
        );
      }
    }
    for (let round = 0; round < RUNS; round++) {
      for (const c of cases) {
        c.samples.push(await timeOnce(c.command, work, c.env));
        await c.after?.();
      }
    }
    const rows = cases.map(({ name, samples }) => {
      const sorted = samples.sort((x, y) => x - y);
      return {
        name,
        min: sorted[0],
        median: percentile(sorted, 0.5),
        p90: percentile(sorted, 0.9),
      };
    });

    // The ratio of medians is the budget's; the ratio of minimums shows the cost without the
    // machine's load, which on a shared machine the medians carry too.
    const floor = rows[0];
    const width = Math.max(...rows.map(({ name }) => name.length));
    const ms = (value: number) => `${value.toFixed(1).padStart(7)}ms`;
    const ratio = (value: number) => value.toFixed(2).padStart(8);
    console.log(`\nCLI start-up, ${RUNS} runs each (wall time of a fresh process)\n`);
    console.log(
      `${"command".padEnd(width)} ${"median".padStart(9)} ${"p90".padStart(9)} ${
        "min".padStart(9)
      } ${"x floor".padStart(8)} ${"min x".padStart(8)}`,
    );
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(width)} ${ms(row.median)} ${ms(row.p90)} ${ms(row.min)} ${
          ratio(row.median / floor.median)
        } ${ratio(row.min / floor.min)}`,
      );
    }
    // What `secrets run` adds to a program's start: its row minus the program's own (the floor).
    for (const [kind] of entries) {
      for (const masking of MASKING) {
        const row = rows.find((r) => r.name === `${kind}: secrets run ${masking}-- (floor)`)!;
        console.log(
          `secrets run ${masking}adds to a child's start (${kind}): median ${
            (row.median - floor.median).toFixed(1)
          } ms, min ${(row.min - floor.min).toFixed(1)} ms`,
        );
      }
    }
    // Each command's ratio from the bundle and through the npm command, beside their budgets.
    const median = (name: string) => rows.find((row) => row.name === name)!.median;
    console.log(
      `\n${"start-up, median x floor".padEnd(36)} ${"bundle".padStart(8)} ${"npm".padStart(8)} ${
        "budget".padStart(8)
      } ${"npm/bundle".padStart(11)} ${"budget".padStart(8)}`,
    );
    const commands = rows.filter((row) => row.name.startsWith("bundle: "))
      .map((row) => row.name.slice("bundle: ".length));
    for (const command of commands) {
      const bundle = median(`bundle: ${command}`);
      const npm = median(`npm: ${command}`);
      const budget = FLOOR_BUDGET[command];
      console.log(
        `${command.padEnd(36)} ${ratio(bundle / floor.median)} ${ratio(npm / floor.median)} ${
          (budget ? budget.toFixed(2) : "").padStart(8)
        } ${ratio(npm / bundle).padStart(11)} ${NPM_BUDGET.toFixed(2).padStart(8)}`,
      );
    }
    // Issue 47's budget: update of an untouched quickstart within 1.5x of making it.
    for (const [kind] of entries) {
      const init = median(`${kind}: init quickstart (scaffold)`);
      for (const update of ["update (untouched quickstart)", "update --tts (writes)"]) {
        console.log(
          `${update} (${kind}): ${
            ratio(median(`${kind}: ${update}`) / init).trim()
          }x init quickstart${update.includes("untouched") ? ` (budget ${UPDATE_BUDGET}x)` : ""}`,
        );
      }
    }
    await maskedThroughput(work, entries[1][1], server.runtimeEnv);
    console.log(`\n${await bundleSize(join(ROOT, "dist"))}`);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/** `secrets run`'s two ways with the command's output: masked (the default), and not. */
const MASKING = ["", "--no-masking "];
/** What the set the masking is measured with holds: values of the length of real API keys. */
const MASKED_VALUES = 20;
const THROUGHPUT_MIB = 64;

/**
 * How fast the command's output flows through `secrets run` (the bundle), masked and not, beside
 * `cat` alone: `cat` of a 64 MiB log of random lines (none holding a value), to /dev/null.
 */
async function maskedThroughput(work: string, cli: string[], env: Record<string, string>) {
  const file = join(work, "output.log");
  const line = () => `INFO ${crypto.getRandomValues(new Uint8Array(60)).toBase64()}\n`;
  const block = new TextEncoder().encode(Array.from({ length: 8192 }, line).join(""));
  const out = await Deno.open(file, { write: true, create: true });
  let size = 0;
  while (size < THROUGHPUT_MIB * 1024 * 1024) size += await out.write(block);
  out.close();
  const cases: Case[] = [
    { name: "cat alone", command: ["cat", file], samples: [] },
    ...MASKING.map((masking) => ({
      name: `secrets run ${masking}-- cat`,
      command: [...cli, "cloud", "secrets", "run", "bench-mask", ...masking.split(" ")]
        .filter(Boolean).concat(["--", "cat", file]),
      env,
      samples: [],
    })),
  ];
  const runs = Math.max(3, Math.round(RUNS / 5));
  for (let round = 0; round < runs; round++) {
    for (const c of cases) c.samples.push(await timeOnce(c.command, work, c.env));
  }
  console.log(
    `\nThe command's output through secrets run (bundle), ${(size / 2 ** 20).toFixed(0)} MiB, ` +
      `${MASKED_VALUES} values masked, ${runs} runs each (wall time, start included)\n`,
  );
  for (const { name, samples } of cases) {
    const sorted = samples.sort((x, y) => x - y);
    const mibPerSecond = (ms: number) => (size / 2 ** 20 / (ms / 1000)).toFixed(0);
    console.log(
      `${name.padEnd(36)} median ${mibPerSecond(percentile(sorted, 0.5)).padStart(5)} MiB/s ` +
        `(min ${mibPerSecond(sorted.at(-1)!)}, max ${mibPerSecond(sorted[0])})`,
    );
  }
}

/** The directory, under the bench's, of the project `update` is timed on: a quickstart. */
const UPDATED = "untouched/voicebot-quickstart";
/** A copy of it that `update --tts` changes, copied again after each run. */
const CHANGED = "changed/voicebot-quickstart";
const UPDATE_BUDGET = 1.5;

/** `to` (under `work`) made again as a copy of `from`: modes and all. */
async function copyProject(work: string, from: string, to: string): Promise<void> {
  await Deno.remove(join(work, to), { recursive: true }).catch(() => {});
  await Deno.mkdir(join(work, to, ".."), { recursive: true });
  const { success } = await new Deno.Command("cp", {
    args: ["-a", join(work, from), join(work, to)],
  }).output();
  if (!success) throw new Error(`could not copy ${from} to ${to}`);
}

/** The quickstart made by `cli` into `work`/UPDATED. */
async function untouchedProject(work: string, cli: string[]): Promise<void> {
  const [program, ...args] = cli;
  await Deno.mkdir(join(work, "untouched"));
  const { success } = await new Deno.Command(program, {
    args: [...args, "init", "quickstart"],
    cwd: join(work, "untouched"),
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  if (!success) throw new Error(`could not make ${UPDATED}`);
  await copyProject(work, UPDATED, CHANGED);
}

/** The npm package built from the bundle, installed into `work`; returns its `voicebot` command. */
async function npmCommand(work: string): Promise<string> {
  const { buildNpmPackage, installNpmPackage } = await import("./npm_package.ts");
  return await installNpmPackage(await buildNpmPackage(), join(work, "npm"));
}

/** What issue 18 set: each command's median within this many times the floor's. */
const FLOOR_BUDGET: Record<string, number> = {
  "--version": 1.5,
  "--help": 1.5,
  "init --list-options": 1.5,
  "init quickstart --dry-run": 1.5,
  "init quickstart (scaffold)": 2,
};
/** The npm command's median within this many times the bundle's (Deno started once, not twice). */
const NPM_BUDGET = 1.15;

/**
 * The secrets API in this process on 127.0.0.1 port 0 over a temporary SQLite file, with 20 ready
 * sets and one of 20 values of 32 characters, a config file logged in to it (what `cloud secrets
 * list` needs), and a runtime key for the first set and that one (what `cloud secrets run` needs).
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
  const masked = Object.fromEntries(
    Array.from({ length: MASKED_VALUES }, (_, i) => [
      `MASKED_${i}`,
      crypto.getRandomValues(new Uint8Array(24)).toBase64({ alphabet: "base64url" }),
    ]),
  );
  const response = await fetch(`${server.baseUrl}/secrets/bench-mask`, {
    method: "PUT",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "secret", secrets: masked }),
  });
  await response.body?.cancel();
  const config = join(work, "config.json");
  await writeConfig(config, {
    current: "default",
    organizations: { default: { apiUrl: server.baseUrl, apiKey } },
  });
  const { createApiKey } = await import("../src/server/serve.ts");
  const runtimeKey = await createApiKey(join(work, "bench.db"), "default", {
    runtimeSets: ["bench-set-0", "bench-mask"],
  });
  // Ready before the first timed run: a pending set would make `secrets run` wait.
  for (let tries = 0;; tries++) {
    const response = await fetch(`${server.baseUrl}/secrets`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const { sets } = await response.json();
    if (sets.every((set: { status: string }) => set.status === "ready")) break;
    if (tries >= 100) throw new Error("the bench's sets are not ready after 10 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    env: { VOICEBOT_CONFIG: config },
    runtimeEnv: { VOICEBOT_RUNTIME_KEY: runtimeKey, VOICEBOT_API_URL: server.baseUrl },
    [Symbol.asyncDispose]: async () => void await server.shutdown(),
  };
}

if (import.meta.main) await benchCli();
