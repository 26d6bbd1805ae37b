/**
 * A `kill -9` at any moment of an update or an init, then the next run: the project is exactly as
 * it was before the killed run or exactly as that run would have left it, modes included, with
 * nothing of the run left behind. The kills come at each step of the write (a hook the writer
 * reads only in tests: after the journal, after the N-th file put in place) and at random moments.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { snapshot, tempDir, voicebot } from "./helpers.ts";
import { append, BOT, made } from "./helpers_update.ts";

const UPDATE = ["update", "--tts", "kokoro_tts", "--eval"];
/** A step past the last one the writer has: the run is never stopped by the hook. */
const MAX_STEPS = 40;
const RANDOM_KILLS = 8;

/** `from`, copied to `to` as it is: modes, links and all. */
async function copyTree(from: string, to: string) {
  await Deno.remove(to, { recursive: true }).catch(() => {});
  const copy = await new Deno.Command("cp", { args: ["-a", from, to] }).output();
  assert.equal(copy.code, 0, new TextDecoder().decode(copy.stderr));
}

const killed = (code: number) => code === 128 + 9;

Deno.test("update killed at each step of its write, then run again: exactly the old project, nothing left behind", async () => {
  await using dir = await tempDir();
  const pristine = await made(dir.path);
  await Deno.chmod(join(pristine, "server/bot.py"), 0o755);
  await append(pristine, "server/bot.py", "# mine\n");
  const old = await snapshot(pristine);
  const root = join(dir.path, "project");

  let steps = 0;
  for (; steps < MAX_STEPS; steps++) {
    await copyTree(pristine, root);
    const run = await voicebot(UPDATE, {
      cwd: root,
      env: { VOICEBOT_TEST_KILL_AFTER_STEP: String(steps) },
    });
    if (run.code === 0) break; // past the last step: the update ran to its end
    assert.ok(killed(run.code), `step ${steps}: ${run.code} ${run.stderr}`);

    const next = await voicebot([...UPDATE, "--check"], { cwd: root });
    assert.equal(next.code, 7, `step ${steps}: ${next.stderr}`);
    assert.match(
      next.stderr,
      steps === 0
        ? /Removed \.voicebot-staging-[0-9a-f]{8}, which an earlier voicebot run in this directory left behind\./
        : new RegExp(
          `An earlier voicebot run in this directory was stopped while it wrote; the ${steps} files? it had changed (is|are) put back`,
        ),
      `step ${steps}`,
    );
    assert.deepEqual(await snapshot(root), old, `killed after step ${steps}`);
  }
  // The journal, the files (the added evals among them), the base and the record.
  assert.ok(steps >= 6 && steps < MAX_STEPS, `${steps} steps`);
});

Deno.test("update killed at random moments, then run again: exactly old or exactly new", async () => {
  await using dir = await tempDir();
  const pristine = await made(dir.path);
  await Deno.chmod(join(pristine, "server/.env.example"), 0o600);
  await append(pristine, "server/bot.py", "# mine\n");
  const old = await snapshot(pristine);
  const after = join(dir.path, "after");
  await copyTree(pristine, after);
  const started = performance.now();
  const whole = await voicebot(UPDATE, { cwd: after });
  const took = performance.now() - started;
  assert.equal(whole.code, 0, whole.stderr);
  const updated = await snapshot(after);

  const root = join(dir.path, "project");
  const moments: string[] = [];
  for (let i = 0; i < RANDOM_KILLS; i++) {
    await copyTree(pristine, root);
    // Late in the run, where the files are written, or just after it ends.
    const at = Math.round(took * (0.5 + 0.6 * Math.random()));
    const run = await voicebot(UPDATE, { cwd: root, killAfterMs: at });
    moments.push(`${at} ms: ${killed(run.code) ? "killed" : run.code}`);
    assert.ok(run.code === 0 || killed(run.code), `${moments}: ${run.stderr}`);

    const next = await voicebot([...UPDATE, "--check"], { cwd: root });
    assert.ok(next.code === 0 || next.code === 7, `${moments}: ${next.stderr}`);
    const tree = await snapshot(root);
    const which = tree.size === old.size && [...old].every(([p, v]) => tree.get(p) === v)
      ? "old"
      : "new";
    assert.deepEqual(tree, which === "old" ? old : updated, moments.join("; "));
    assert.equal(next.code, which === "old" ? 7 : 0, moments.join("; "));
  }
});

Deno.test("init killed part-way, then run again: the same project as an init that was never stopped", async () => {
  await using dir = await tempDir();
  const reference = await made(join(dir.path, "."), BOT);
  const expected = await snapshot(reference);
  await using other = await tempDir();
  const stopped = await voicebot(BOT, {
    cwd: other.path,
    env: { VOICEBOT_TEST_KILL_AFTER_STEP: "3" },
  });
  assert.ok(killed(stopped.code), stopped.stderr);

  const again = await voicebot(BOT, { cwd: other.path });
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stderr,
    /An earlier voicebot run in bot was stopped while it wrote; the 3 files/,
  );
  assert.deepEqual(await snapshot(join(other.path, "bot")), expected);
});
