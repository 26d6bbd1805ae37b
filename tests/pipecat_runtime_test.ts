/**
 * Generated bots under Pipecat's real runner: scripts/check_pipecat_runtime.sh, with the Python
 * environment and Pipecat's git directory the two variables name (tests/skips.ts: skipped, and
 * said so, where they are not set, as on CI; the static checks of the bots run everywhere). A
 * scenario that cannot run here (a vendor's SDK the environment lacks) is reported, not failed;
 * but an environment that runs no session at all fails.
 */
import assert from "node:assert/strict";
import { skipped } from "./skips.ts";

/** The whole check takes about five minutes; past this bound it is a failure, not a wait. */
const BOUND_MS = 20 * 60_000;

Deno.test({
  name: "generated bots under Pipecat's real runner: no scenario fails",
  ignore: skipped("pipecat-runtime"),
  async fn() {
    const script = new URL("../scripts/check_pipecat_runtime.sh", import.meta.url).pathname;
    const out = await new Deno.Command("bash", {
      args: [
        script,
        "--no-apt",
        ...["--repo", Deno.env.get("VOICEBOT_TEST_PIPECAT_GIT")!],
        ...["--python", Deno.env.get("VOICEBOT_TEST_PIPECAT_PYTHON")!],
      ],
      signal: AbortSignal.timeout(BOUND_MS),
    }).output();
    const report = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    const summary = report.match(/^Summary: (\d+) ran, (\d+) failed, (\d+) could not run$/m);
    assert.ok(summary, report.slice(-3000));
    console.log(summary[0]);
    assert.equal(
      summary[2],
      "0",
      report.split("\n").filter((l) => l.startsWith("FAILED")).join("\n"),
    );
    // The environment runs Pipecat: the sessions that need nothing but it ran, not only the
    // scenarios that need no Pipecat.
    for (const scenario of ["phone call", "websocket session", "pipecat eval run"]) {
      assert.match(report, new RegExp(`^RAN: ${scenario}:`, "m"), `${scenario} did not run`);
    }
    assert.ok(out.success, report.slice(-3000));
  },
});
