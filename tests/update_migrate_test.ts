/**
 * The journey the migrations exist for: a project an older voicebot made for Pipecat 1.2, a week of
 * the user's own code written against 1.2's names, then `voicebot update`. The user's edits are
 * kept, their code follows Pipecat's renames (in voicebot's files and in their own), and the result
 * is clean for ruff and uses nothing Pipecat deprecated.
 */
import assert from "node:assert/strict";
import { snapshot, tempDir, voicebot } from "./helpers.ts";
import { made, pythonFiles, read, write } from "./helpers_update.ts";
import { ruffProblems } from "./ruff.ts";

const FACTS: { deprecated: string[] } = JSON.parse(
  await Deno.readTextFile(new URL("./data/pipecat_facts.json", import.meta.url)),
);

/** bot.py as a voicebot of Pipecat 1.2's day wrote it: this one's, in 1.2's names. */
function asFor12(bot: string): string {
  const older = bot
    .replace(
      "from pipecat.pipeline.worker import PipelineParams, PipelineWorker\n",
      "from pipecat.pipeline.runner import PipelineRunner\n" +
        "from pipecat.pipeline.task import PipelineParams, PipelineTask\n",
    )
    .replace("from pipecat.workers.runner import WorkerRunner\n", "")
    .replace("= PipelineWorker(", "= PipelineTask(")
    .replace("= WorkerRunner(", "= PipelineRunner(")
    .replace(
      "    await runner.add_workers(worker)\n    await runner.run()\n",
      "    await runner.run(worker)\n",
    );
  assert.doesNotMatch(
    older,
    /PipelineWorker|WorkerRunner|add_workers/,
    "all of 1.7's names undone",
  );
  return older;
}

/** The project at `root`, as if an older voicebot had made it for Pipecat 1.2.0. */
async function madeFor12(root: string) {
  const floor = (text: string) => text.replace(">=1.7.0,<1.8", ">=1.2.0,<1.3");
  const base = JSON.parse(await read(root, ".voicebot/base.json"));
  base.voicebot_version = "0.0.9";
  base.files["server/bot.py"] = asFor12(base.files["server/bot.py"]);
  base.files["server/pyproject.toml"] = floor(base.files["server/pyproject.toml"]);
  await write(root, ".voicebot/base.json", JSON.stringify(base, null, 2) + "\n");
  await write(root, "server/bot.py", base.files["server/bot.py"]);
  await write(root, "server/pyproject.toml", base.files["server/pyproject.toml"]);
  const record = JSON.parse(await read(root, "voicebot.json"));
  await write(
    root,
    "voicebot.json",
    JSON.stringify({ ...record, voicebot_version: "0.0.9" }, null, 2) + "\n",
  );
}

const TOOLS = `from pipecat.frames.frames import EndTaskFrame
from pipecat.pipeline.task import PipelineTask


async def hang_up(task: PipelineTask):
    """End the call once the bot has said goodbye."""
    await task.queue_frame(EndTaskFrame())
`;

Deno.test("update of a project made for Pipecat 1.2: the user's code follows the renames, edits kept", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  await madeFor12(root);
  // The week's edits: bot.py ends calls its own way, and tools.py is the user's.
  const bot = await read(root, "server/bot.py");
  const edited = bot
    .replace(
      "from pipecat.frames.frames import LLMRunFrame\n",
      "from pipecat.frames.frames import EndTaskFrame, LLMRunFrame\n",
    )
    .replace(
      "        await worker.cancel()\n",
      "        await worker.queue_frame(EndTaskFrame())  # mine\n",
    );
  assert.notEqual(edited, bot);
  await write(root, "server/bot.py", edited);
  await write(root, "server/tools.py", TOOLS);
  assert.deepEqual(ruffProblems("bot", await pythonFiles(root)), [], "the 1.2 project is clean");

  const dry = await voicebot(["update", "--dry-run"], { cwd: root });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^\+from pipecat\.pipeline\.worker import PipelineWorker$/m);
  assert.match(dry.stderr, /migrated +server\/tools\.py/);
  // voicebot's bot.py is 1.7's once migrated: what is left to write is the user's edit, migrated.
  assert.match(dry.stderr, /migrated +server\/bot\.py/);
  assert.match(
    dry.stderr,
    /Pipecat moves from 1\.2\.0 to 1\.7\.0: your Python follows its renames/,
  );

  const run = await voicebot(["update"], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  const updated = await read(root, "server/bot.py");
  assert.match(
    updated,
    /^ {8}await worker\.queue_frame\(EndWorkerFrame\(\)\) {2}# mine$/m,
    "the edit, migrated",
  );
  assert.match(updated, /^from pipecat\.frames\.frames import EndWorkerFrame, LLMRunFrame$/m);
  assert.match(updated, /^ {4}await runner\.add_workers\(worker\)\n {4}await runner\.run\(\)$/m);
  assert.equal(
    await read(root, "server/tools.py"),
    TOOLS.replace("EndTaskFrame\n", "EndWorkerFrame\n")
      .replace(
        "from pipecat.pipeline.task import PipelineTask",
        "from pipecat.pipeline.worker import PipelineWorker",
      )
      .replace("task: PipelineTask", "task: PipelineWorker")
      .replace("(EndTaskFrame()", "(EndWorkerFrame()"),
  );
  assert.match(await read(root, "server/pyproject.toml"), /"pipecat-ai\[[^\]]*\]>=1\.7\.0,<1\.8"/);
  const files = await pythonFiles(root);
  assert.deepEqual(ruffProblems("bot", files), [], "ruff");
  // Nothing Pipecat 1.7.0 deprecated is left in the user's code.
  for (const [path, text] of files) {
    const used = FACTS.deprecated.filter((name) =>
      new RegExp(`\\b${name.split(".").at(-1)}\\b`).test(text)
    );
    assert.deepEqual(used, [], path);
  }

  // The next update has nothing to do.
  const after = await snapshot(root);
  const again = await voicebot(["update"], { cwd: root });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /Nothing to update/);
  assert.deepEqual(await snapshot(root), after);
});
