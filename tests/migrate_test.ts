/**
 * `voicebot migrate` as a user runs it, on a Pipecat project of their own written for 1.2: check,
 * look at the diff, migrate, run it again; and the mistakes they can make on its command line.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { snapshot, tempDir, voicebot } from "./helpers.ts";

const PYPROJECT = `[project]
name = "my-bot"
version = "0.1.0"
dependencies = [
    "pipecat-ai[daily,openai]>=1.2.0,<1.3",  # the bot
    "python-dotenv",
]
`;

const BOT = `import os  # the bot, written for Pipecat 1.2

from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.runner import PipelineRunner
from pipecat.pipeline.task import PipelineParams, PipelineTask
from pipecat.services.xtts.tts import XTTSService


async def main(transport, session):
    tts = XTTSService(aiohttp_session=session, voice_id="Claribel Dervla")
    pipeline = Pipeline([transport.input(), tts, transport.output()])
    task = PipelineTask(pipeline, params=PipelineParams(enable_metrics=True))
    runner = PipelineRunner(handle_sigint=False)
    await runner.run(task)
`;

/** A file of the user's with Windows line endings and nothing of Pipecat's renamed in it. */
const HELPERS = "def greet(name):\r\n    return f'hello {name}'\r\n";

async function project(root: string) {
  await Deno.mkdir(join(root, ".venv/lib"), { recursive: true });
  await Deno.writeTextFile(join(root, "pyproject.toml"), PYPROJECT);
  await Deno.writeTextFile(join(root, "bot.py"), BOT);
  await Deno.writeTextFile(join(root, "helpers.py"), HELPERS);
  // Installed code is not the user's: never touched.
  await Deno.writeTextFile(
    join(root, ".venv/lib/vendored.py"),
    "from pipecat.pipeline.task import PipelineTask\n",
  );
}

Deno.test("a 1.2 project: --check, --dry-run, migrate, and a second run that changes nothing", async () => {
  await using dir = await tempDir();
  await project(dir.path);
  const before = await snapshot(dir.path);

  const check = await voicebot(["migrate", "--check"], { cwd: dir.path });
  assert.equal(check.code, 7, check.stderr);
  assert.match(check.stderr, /Pipecat 1\.2\.0 \(from pyproject\.toml\) to 1\.7\.0/);
  assert.deepEqual(await snapshot(dir.path), before, "--check wrote nothing");

  const dry = await voicebot(["migrate", "--dry-run"], { cwd: dir.path });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^-from pipecat\.pipeline\.task import PipelineParams, PipelineTask$/m);
  assert.match(
    dry.stdout,
    /^\+from pipecat\.pipeline\.worker import PipelineParams, PipelineWorker$/m,
  );
  assert.match(dry.stdout, /^\+ {4}"pipecat-ai\[daily,openai\]>=1\.7\.0,<1\.8", {2}# the bot$/m);
  assert.doesNotMatch(dry.stdout, /vendored|helpers\.py/);
  assert.deepEqual(await snapshot(dir.path), before, "--dry-run wrote nothing");

  const json = await voicebot(["migrate", "--dry-run", "--json"], { cwd: dir.path });
  assert.equal(json.code, 0, json.stderr);
  const planned = JSON.parse(json.stdout);
  assert.deepEqual(planned.files.map((file: { path: string }) => file.path), [
    "bot.py",
    "pyproject.toml",
  ]);
  // XTTSService is deprecated with no replacement (1.7.0): the user's to change, at each use.
  assert.deepEqual(
    planned.manual.map((item: { path: string; line: number; id: string }) =>
      `${item.path}:${item.line} ${item.id}`
    ),
    ["bot.py:6 1.7.0-xtts-service", "bot.py:10 1.7.0-xtts-service"],
  );

  const run = await voicebot(["migrate"], { cwd: dir.path });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /bot\.py:10:11: `XTTSService` is deprecated since 1\.7\.0/);
  const bot = await Deno.readTextFile(join(dir.path, "bot.py"));
  assert.match(bot, /^from pipecat\.pipeline\.worker import PipelineParams, PipelineWorker$/m);
  assert.match(bot, /^ {4}task = PipelineWorker\(pipeline, params=PipelineParams\(/m);
  // A worker passed to run() is added first (1.3.0).
  assert.match(bot, /^ {4}await runner\.add_workers\(task\)\n {4}await runner\.run\(\)\n/m);
  assert.doesNotMatch(bot, /PipelineTask|PipelineRunner\b/);
  assert.match(bot, /^import os {2}# the bot, written for Pipecat 1\.2$/m);
  assert.equal(await Deno.readTextFile(join(dir.path, "helpers.py")), HELPERS);
  assert.equal(
    await Deno.readTextFile(join(dir.path, ".venv/lib/vendored.py")),
    "from pipecat.pipeline.task import PipelineTask\n",
  );
  assert.match(
    await Deno.readTextFile(join(dir.path, "pyproject.toml")),
    /"pipecat-ai\[daily,openai\]>=1\.7\.0,<1\.8", {2}# the bot/,
  );

  const migrated = await snapshot(dir.path);
  const again = await voicebot(["migrate"], { cwd: dir.path });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /Nothing to migrate/);
  assert.deepEqual(await snapshot(dir.path), migrated);
  const checkAgain = await voicebot(["migrate", "--check"], { cwd: dir.path });
  assert.equal(checkAgain.code, 0, checkAgain.stderr);
});

Deno.test("a wrong command line names every problem and writes nothing", async () => {
  await using dir = await tempDir();
  await project(dir.path);
  const before = await snapshot(dir.path);
  const both = await voicebot(["migrate", "--from", "1.2", "--to", "9.0.0"], { cwd: dir.path });
  assert.equal(both.code, 2, both.stderr);
  assert.match(both.stderr, /--from: "1\.2" is not a release/);
  assert.match(both.stderr, /--to: 9\.0\.0 is newer than the last release this voicebot knows/);
  const backwards = await voicebot(["migrate", "--from", "1.6.0", "--to", "1.3.0"], {
    cwd: dir.path,
  });
  assert.equal(backwards.code, 2, backwards.stderr);
  assert.deepEqual(await snapshot(dir.path), before);

  const missing = await voicebot(["migrate", "no-such-dir"], { cwd: dir.path });
  assert.equal(missing.code, 4, missing.stderr);

  await using bare = await tempDir();
  await Deno.writeTextFile(join(bare.path, "bot.py"), BOT);
  const unknown = await voicebot(["migrate"], { cwd: bare.path });
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /voicebot migrate --from 1\.2\.0/);
  const given = await voicebot(["migrate", "--from", "1.2.0"], { cwd: bare.path });
  assert.equal(given.code, 0, given.stderr);
  assert.match(await Deno.readTextFile(join(bare.path, "bot.py")), /PipelineWorker/);
});

Deno.test("a file that is not valid Python is named and left as it is", async () => {
  await using dir = await tempDir();
  await project(dir.path);
  const broken = "from pipecat.pipeline.task import PipelineTask\ndef broken(:\n";
  await Deno.writeTextFile(join(dir.path, "broken.py"), broken);
  const run = await voicebot(["migrate"], { cwd: dir.path });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /not valid Python, left as it is: broken\.py/);
  assert.equal(await Deno.readTextFile(join(dir.path, "broken.py")), broken);
});
