/**
 * CLI start-up, measured against the floor: `deno run` of an empty script. Each command runs
 * RUNS times in a fresh process; the table shows the median and p90 wall time and the ratio of
 * the median to the floor's. Run from source and from the bundle (`deno task bundle` first), whose
 * size is printed with the table. BENCH_RUNS=N changes the number of runs.
 */
import { join } from "pathe";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 25);
const ROOT = new URL("..", import.meta.url).pathname;

interface Row {
  name: string;
  median: number;
  p90: number;
}

/** Runs `deno <args>` RUNS times; `after` (not timed) cleans up between runs. */
async function time(args: string[], cwd: string, after?: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const { code } = await new Deno.Command(Deno.execPath(), {
      args,
      cwd,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      env: { NO_COLOR: "1" },
    }).output();
    samples.push(performance.now() - start);
    if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}`);
    await after?.();
  }
  return samples.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

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
    const entries: [string, string][] = [["source", join(ROOT, "main.ts")]];
    const bundle = join(ROOT, "dist/voicebot.js");
    if (await Deno.stat(bundle).then(() => true, () => false)) entries.push(["bundle", bundle]);

    const rows: Row[] = [];
    const measure = async (name: string, args: string[], after?: () => Promise<void>) => {
      const samples = await time(["run", "-A", "--quiet", ...args], work, after);
      rows.push({ name, median: percentile(samples, 0.5), p90: percentile(samples, 0.9) });
    };
    await measure("floor: deno run empty.ts", [empty]);
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
    }

    const floor = rows[0].median;
    if (entries.length > 1) console.log(`\n${await bundleSize(join(ROOT, "dist"))}`);
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

if (import.meta.main) await benchCli();
