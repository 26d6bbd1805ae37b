/**
 * What `voicebot migrate` costs on real code, run as a user runs it (a process, its start
 * included): Pipecat's own examples of v1.2.1 (316 files) migrated to the release voicebot pins,
 * `--dry-run --json` so that every run does the whole work. Needs a Pipecat git repository:
 * VOICEBOT_BENCH_PIPECAT_GIT (a bare clone is fine); without one the section says so and is skipped.
 */
import { join } from "pathe";
import { spread } from "./bench_operator.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const RUNS = 5;
const TAG = "v1.2.1";

export async function benchMigrate(): Promise<void> {
  const repo = Deno.env.get("VOICEBOT_BENCH_PIPECAT_GIT");
  if (!repo) {
    console.error("VOICEBOT_BENCH_PIPECAT_GIT is not set: the migrate section is skipped.");
    return;
  }
  const work = await Deno.makeTempDir({ prefix: "voicebot-bench-migrate-" });
  try {
    // git archive | tar: the examples as they were at the tag, without a checkout.
    const archive = await new Deno.Command("sh", {
      args: ["-c", `git -C "$0" archive ${TAG} examples | tar -x -C "$1"`, repo, work],
      stderr: "null",
    }).output();
    if (!archive.success) throw new Error(`could not read examples/ at ${TAG} from ${repo}`);
    const times: number[] = [];
    let report: { scanned: number; files: unknown[]; manual: unknown[] } | undefined;
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          ...["run", "-A", "--quiet", join(ROOT, "main.ts"), "migrate", join(work, "examples")],
          ...["--from", TAG.slice(1), "--dry-run", "--json"],
        ],
        stdin: "null",
      }).output();
      times.push(performance.now() - started);
      if (code !== 0) throw new Error(new TextDecoder().decode(stderr));
      report = JSON.parse(new TextDecoder().decode(stdout));
    }
    console.log(
      `\nmigrate --dry-run --json of Pipecat's examples at ${TAG}, the command's wall time ` +
        `including its start, ${RUNS} runs`,
    );
    console.log(
      `${report!.scanned} files, ${report!.files.length} changed, ${report!.manual.length} ` +
        `places left to the user: ${spread(times)}`,
    );
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}
