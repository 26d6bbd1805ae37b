/**
 * The image installs exactly what `uv.lock` pins: the Dockerfile's install step, run by sh as
 * `docker build` runs it, with a stand-in `uv` that records its arguments (no Docker engine, no
 * uv, no index here). Without a lock it stops, saying to run `uv lock`; with one it asks uv for
 * `--locked`, which refuses a lock that pyproject.toml has moved past (uv's own message says to
 * run `uv lock`).
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { tempDir, voicebot } from "./helpers.ts";

/** The shell command of the Dockerfile's RUN that runs `uv sync`, its BuildKit mount left out. */
function installStep(dockerfile: string): string {
  const instructions = dockerfile.replace(/\\\n/g, " ").split("\n");
  const run = instructions.find((line) => /^RUN\b.*\buv sync\b/.test(line));
  assert.ok(run, dockerfile);
  return run.replace(/^RUN\s+/, "").replace(/--mount=\S+\s+/g, "");
}

/** Runs `step` in `dir` as a build would, with `uv` a stand-in that writes down what it was asked. */
async function runStep(step: string, dir: string) {
  const bin = join(dir, ".bin");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(join(bin, "uv"), `#!/bin/sh\necho "$*" > "${dir}/.uv-args"\n`);
  await Deno.chmod(join(bin, "uv"), 0o755);
  const out = await new Deno.Command("sh", {
    args: ["-ec", step],
    cwd: dir,
    env: { PATH: `${bin}:/usr/bin:/bin` },
  }).output();
  const asked = await Deno.readTextFile(join(dir, ".uv-args")).catch(() => undefined);
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr), asked: asked?.trim() };
}

Deno.test("the image installs from uv.lock with --locked, and stops without one, saying to run uv lock", async () => {
  await using dir = await tempDir();
  const made = await voicebot(["init", "quickstart"], { cwd: dir.path });
  assert.equal(made.code, 0, made.stderr);
  const server = join(dir.path, "voicebot-quickstart/server");
  const step = installStep(await Deno.readTextFile(join(server, "Dockerfile")));

  // The build context as a fresh clone has it before anyone ran `uv sync`: no lock.
  const without = await runStep(step, server);
  assert.notEqual(without.code, 0);
  assert.match(
    without.stderr,
    /^error: no uv\.lock: run 'uv lock' in server\/ and commit uv\.lock$/m,
  );
  assert.equal(without.asked, undefined, "uv was not asked to resolve anything");

  await Deno.writeTextFile(join(server, "uv.lock"), "version = 1\n");
  const locked = await runStep(step, server);
  assert.equal(locked.code, 0, locked.stderr);
  assert.equal(locked.asked, "sync --locked --no-dev --no-install-project");

  // The README's first steps say to commit the lock.
  const readme = await Deno.readTextFile(join(dir.path, "voicebot-quickstart/README.md"));
  assert.match(readme, /^uv sync +# installs, and writes uv\.lock: commit it/m);
});
