/**
 * The engine's rules, on a small catalog of its own (the real one's entries each have a fixture,
 * in tests/migrate_catalog_test.ts): a name is rewritten only where it means Pipecat's.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import fc from "fast-check";
import type { Change } from "./catalog.ts";
import { migrateSource } from "./engine.ts";
import { changesBetween } from "./renames.ts";

const CATALOG: Change[] = [
  {
    id: "t-task-module",
    kind: "module",
    since: "1.3.0",
    summary: "moved",
    from: "pipecat.pipeline.task",
    to: "pipecat.pipeline.worker",
  },
  {
    id: "t-pipeline-task",
    kind: "name",
    since: "1.3.0",
    summary: "renamed",
    module: "pipecat.pipeline.task",
    from: "PipelineTask",
    to: "PipelineWorker",
    toModule: "pipecat.pipeline.worker",
  },
  {
    id: "t-runner",
    kind: "name",
    since: "1.3.0",
    summary: "renamed and moved",
    module: "pipecat.pipeline.runner",
    from: "PipelineRunner",
    to: "WorkerRunner",
    toModule: "pipecat.workers.runner",
  },
  {
    id: "t-runner-run",
    kind: "manual",
    since: "1.3.0",
    summary: "run() takes no worker",
    name: { module: "pipecat.pipeline.runner", name: "PipelineRunner" },
    member: "run",
    action: "add_workers(worker), then run()",
  },
  {
    id: "t-timeout",
    kind: "keyword",
    since: "1.4.0",
    summary: "timeout is timeout_secs",
    callee: { module: "pipecat.adapters.schemas.tools_schema", name: "tool" },
    from: "timeout",
    to: "timeout_secs",
  },
  {
    id: "t-pipeline-task-attribute",
    kind: "attribute",
    since: "1.3.0",
    summary: "pipeline_task is pipeline_worker",
    owners: [{ module: "pipecat.processors.frame_processor", name: "FrameProcessor" }],
    from: "pipeline_task",
    to: "pipeline_worker",
  },
];

async function migrated(source: string, from = "1.2.0", to = "1.7.0") {
  return await migrateSource(source, changesBetween(CATALOG, from, to));
}

Deno.test("a renamed import and each use of it follow, and nothing else changes", async () => {
  const result = await migrated(
    "from pipecat.pipeline.task import PipelineParams, PipelineTask  # the task\n" +
      "\n" +
      "task = PipelineTask(pipeline, params=PipelineParams(allow_interruptions=True))\r\n" +
      "print('PipelineTask')\n",
  );
  assertEquals(
    result.text,
    "from pipecat.pipeline.worker import PipelineParams, PipelineWorker  # the task\n" +
      "\n" +
      "task = PipelineWorker(pipeline, params=PipelineParams(allow_interruptions=True))\r\n" +
      "print('PipelineTask')\n",
  );
  assertEquals(result.applied.map((change) => change.line), [1, 1, 3]);
});

Deno.test("an alias keeps its name; only the import changes", async () => {
  const result = await migrated(
    "from pipecat.pipeline.task import PipelineTask as Task\nimport pipecat.pipeline.task as t\n" +
      "a = Task()\nb = t.PipelineTask()\nc = t.PipelineParams()\n",
  );
  assertEquals(
    result.text,
    "from pipecat.pipeline.worker import PipelineWorker as Task\n" +
      "import pipecat.pipeline.worker as t\n" +
      "a = Task()\nb = t.PipelineWorker()\nc = t.PipelineParams()\n",
  );
});

Deno.test("a plain import's chains are rewritten whole", async () => {
  const result = await migrated(
    "import pipecat.pipeline.task\n\nx = pipecat.pipeline.task.PipelineTask(p)\n",
  );
  assertEquals(
    result.text,
    "import pipecat.pipeline.worker\n\nx = pipecat.pipeline.worker.PipelineWorker(p)\n",
  );
});

Deno.test("names that now live in different modules get a statement each", async () => {
  const result = await migrated(
    "def main():\n" +
      "    from pipecat.pipeline.runner import PipelineRunner, PipelineRunnerParams\n" +
      "    return PipelineRunner()\n",
  );
  assertEquals(
    result.text,
    "def main():\n" +
      "    from pipecat.workers.runner import WorkerRunner\n" +
      "    from pipecat.pipeline.runner import PipelineRunnerParams\n" +
      "    return WorkerRunner()\n",
  );
});

Deno.test("a user's own name is left alone: their class, a parameter, a local", async () => {
  const own = "class PipelineTask:\n    pass\n\n\ntask = PipelineTask()\n";
  assertEquals((await migrated(own)).text, own);
  const result = await migrated(
    "from pipecat.pipeline.task import PipelineTask\n\n" +
      "def make(PipelineTask=None):\n    return PipelineTask\n\n" +
      "def other():\n    PipelineTask = dict\n    return PipelineTask()\n\n" +
      "worker = PipelineTask()\n",
  );
  assertEquals(
    result.text,
    "from pipecat.pipeline.worker import PipelineWorker\n\n" +
      "def make(PipelineTask=None):\n    return PipelineTask\n\n" +
      "def other():\n    PipelineTask = dict\n    return PipelineTask()\n\n" +
      "worker = PipelineWorker()\n",
  );
});

Deno.test("a keyword is renamed only in calls of the callable that renamed it", async () => {
  const result = await migrated(
    "from pipecat.adapters.schemas.tools_schema import tool\n" +
      "import asyncio\n\n" +
      "@tool(timeout=5)\nasync def lookup(params):\n" +
      "    await asyncio.wait_for(params, timeout=5)\n",
  );
  assertEquals(
    result.text,
    "from pipecat.adapters.schemas.tools_schema import tool\n" +
      "import asyncio\n\n" +
      "@tool(timeout_secs=5)\nasync def lookup(params):\n" +
      "    await asyncio.wait_for(params, timeout=5)\n",
  );
});

Deno.test("only the releases in the range apply", async () => {
  const source = "from pipecat.adapters.schemas.tools_schema import tool\n\n@tool(timeout=1)\n" +
    "def f(params):\n    pass\n";
  assertEquals((await migrated(source, "1.2.0", "1.3.0")).text, source);
  assertEquals((await migrated(source, "1.4.0", "1.7.0")).text, source);
  assertEquals(
    (await migrated(source, "1.3.0", "1.4.0")).text,
    source.replace("timeout=", "timeout_secs="),
  );
});

Deno.test("self's attribute is renamed in a Pipecat subclass; elsewhere it is reported", async () => {
  const result = await migrated(
    "from pipecat.processors.frame_processor import FrameProcessor\n\n" +
      "class Counter(FrameProcessor):\n    def task(self):\n        return self.pipeline_task\n\n" +
      "class Mine:\n    def task(self):\n        return self.pipeline_task\n",
  );
  assertEquals(
    result.text,
    "from pipecat.processors.frame_processor import FrameProcessor\n\n" +
      "class Counter(FrameProcessor):\n    def task(self):\n        return self.pipeline_worker\n\n" +
      "class Mine:\n    def task(self):\n        return self.pipeline_task\n",
  );
  assertEquals(result.manual.map((item) => [item.id, item.line]), [
    ["t-pipeline-task-attribute", 9],
  ]);
});

Deno.test("a member that changed shape is reported on an instance, with its line", async () => {
  const result = await migrated(
    "from pipecat.pipeline.runner import PipelineRunner\n\n" +
      "async def main(task):\n    runner = PipelineRunner()\n    await runner.run(task)\n",
  );
  assertEquals(result.manual.map((item) => [item.id, item.line, item.column]), [
    ["t-runner-run", 5, 11],
  ]);
  assertEquals(result.manual[0].action, "add_workers(worker), then run()");
});

Deno.test("a second run changes nothing", async () => {
  const source = "from pipecat.pipeline.task import PipelineTask\nimport pipecat.pipeline.task\n" +
    "x = PipelineTask(pipecat.pipeline.task.PipelineParams())\n";
  const once = await migrated(source);
  const twice = await migrated(once.text);
  assertEquals(twice.text, once.text);
  assertEquals(twice.applied, []);
});

Deno.test("a file that is not valid Python is left as it is", async () => {
  const result = await migrated("from pipecat.pipeline.task import PipelineTask\ndef (:\n");
  assertEquals(result.unparsable, true);
  assertEquals(result.text, "from pipecat.pipeline.task import PipelineTask\ndef (:\n");
});

/** Python made of the catalog's own words, but importing nothing from Pipecat. */
const notPipecat = fc.array(
  fc.oneof(
    fc.constantFrom(
      "PipelineTask",
      "PipelineRunner",
      "pipeline_task",
      "self.pipeline_task",
      "tool(timeout=3)",
      "pipecat",
      "pipecat.pipeline.task",
      "import pipeline",
      "from task import PipelineTask",
      "# pipecat.pipeline.task PipelineTask",
      "'PipelineTask'",
      "x = 1",
      "class PipelineTask(object): pass",
      "def run(self, PipelineTask): return PipelineTask",
    ),
    fc.string({ maxLength: 8 }),
  ),
  { maxLength: 12 },
).map((lines) => lines.join("\n"));

Deno.test("property: code that imports nothing from Pipecat is left byte for byte", async () => {
  await fc.assert(
    fc.asyncProperty(notPipecat, async (source) => {
      const result = await migrated(source);
      assertEquals(result.text, source);
      assertEquals(result.applied, []);
    }),
    { numRuns: 200 },
  );
});

Deno.test("a worker passed to run() is added first, where the call is a statement", async () => {
  const catalog: Change[] = [...CATALOG.filter((c) => c.id !== "t-runner-run"), {
    id: "t-add-workers",
    kind: "argument-to-call",
    since: "1.3.0",
    summary: "run() takes no worker",
    owner: { module: "pipecat.pipeline.runner", name: "PipelineRunner" },
    method: "run",
    via: "add_workers",
    action: "add_workers(worker), then run()",
  }];
  const result = await migrateSource(
    "from pipecat.pipeline.runner import PipelineRunner\n" +
      "from pipecat.pipeline.task import PipelineTask\n\n" +
      "async def main(pipeline):\n    runner = PipelineRunner()\n" +
      "    await runner.run(PipelineTask(pipeline))  # go\n" +
      "    done = await runner.run(task)\n",
    changesBetween(catalog, "1.2.0", "1.7.0"),
  );
  assertEquals(
    result.text,
    "from pipecat.pipeline.worker import PipelineWorker\n" +
      "from pipecat.workers.runner import WorkerRunner\n\n" +
      "async def main(pipeline):\n    runner = WorkerRunner()\n" +
      "    await runner.add_workers(PipelineWorker(pipeline))\n    await runner.run()  # go\n" +
      "    done = await runner.run(task)\n",
  );
  // Its value used: not a statement of its own, so the user's to change.
  assertEquals(result.manual.map((item) => [item.id, item.line]), [["t-add-workers", 7]]);
});

Deno.test("sorted imports stay sorted as ruff sorts them; unsorted ones keep their order", async () => {
  const sorted = "import os\n" +
    "from pipecat.pipeline.pipeline import Pipeline\n" +
    "from pipecat.pipeline.runner import PipelineRunner  # runs it\n" +
    "from pipecat.pipeline.task import PipelineParams, PipelineTask\n" +
    "from pipecat.services.openai.llm import OpenAILLMService\n\n" +
    "from mine import PipelineRunner as Other\n";
  assertEquals(
    (await migrated(sorted)).text,
    "import os\n" +
      "from pipecat.pipeline.pipeline import Pipeline\n" +
      "from pipecat.pipeline.worker import PipelineParams, PipelineWorker\n" +
      "from pipecat.services.openai.llm import OpenAILLMService\n" +
      "from pipecat.workers.runner import WorkerRunner  # runs it\n\n" +
      "from mine import PipelineRunner as Other\n",
  );
  // Names of one statement: sorted again when they were (PipelineTask after Pipeline, once).
  assertEquals(
    (await migrated("from pipecat.pipeline.task import PipelineTask, PipelineTaskZ\n")).text,
    "from pipecat.pipeline.worker import PipelineTaskZ, PipelineWorker\n",
  );
  const unsorted = "from pipecat.services.openai.llm import OpenAILLMService\n" +
    "from pipecat.pipeline.runner import PipelineRunner\n" +
    "from pipecat.pipeline.pipeline import Pipeline\n";
  assertEquals(
    (await migrated(unsorted)).text,
    unsorted.replace(
      "pipecat.pipeline.runner import PipelineRunner",
      "pipecat.workers.runner import WorkerRunner",
    ),
  );
});

const SETTINGS: Change = {
  id: "t-settings",
  kind: "settings",
  since: "1.0.0",
  summary: "InputParams is deprecated",
  service: { module: "pipecat.services.cartesia.tts", name: "CartesiaTTSService" },
  init: { voice_id: "voice", model: "model" },
  params: { language: "language", speed: "speed" },
  unmapped: ["generation_config"],
  whole: ["live_options"],
  action: "use settings=CartesiaTTSService.Settings(...)",
};

async function settingsMigrated(source: string, lineLength = 100) {
  return await migrateSource(source, changesBetween([SETTINGS], "1.2.0", "1.7.0"), {
    lineLength,
  });
}

Deno.test("init keywords and InputParams fields become one Settings, in the call's layout", async () => {
  const head = "from pipecat.services.cartesia.tts import CartesiaTTSService\n\n";
  const oneLine = await settingsMigrated(
    head + 'tts = CartesiaTTSService(api_key=key, voice_id="v1", model="s3")\n',
  );
  assertEquals(
    oneLine.text,
    head +
      'tts = CartesiaTTSService(api_key=key, settings=CartesiaTTSService.Settings(voice="v1", model="s3"))\n',
  );
  const layout = await settingsMigrated(
    head + "tts = CartesiaTTSService(\n" +
      "    api_key=key,\n" +
      '    voice_id="v1",\n' +
      "    params=CartesiaTTSService.InputParams(language=Language.FR, speed=1.2),\n" +
      "    sample_rate=16000,\n" +
      ")\n",
  );
  assertEquals(
    layout.text,
    head + "tts = CartesiaTTSService(\n" +
      "    api_key=key,\n" +
      '    settings=CartesiaTTSService.Settings(voice="v1", language=Language.FR, speed=1.2),\n' +
      "    sample_rate=16000,\n" +
      ")\n",
  );
  // Too long for one line at 60 columns: ruff's layout, one argument a line.
  const wrapped = await settingsMigrated(
    head + 'tts = CartesiaTTSService(api_key=key, voice_id="v1", model="sonic")\n',
    60,
  );
  assertEquals(
    wrapped.text,
    head + "tts = CartesiaTTSService(\n" +
      "    api_key=key,\n" +
      "    settings=CartesiaTTSService.Settings(\n" +
      '        voice="v1",\n' +
      '        model="sonic",\n' +
      "    ),\n" +
      ")\n",
  );
});

Deno.test("settings that do not map one to one are reported, the call left as it is", async () => {
  const head = "from pipecat.services.cartesia.tts import CartesiaTTSService\n\n";
  for (
    const call of [
      "CartesiaTTSService(params=CartesiaTTSService.InputParams(generation_config=g))",
      "CartesiaTTSService(params=my_params)",
      'CartesiaTTSService(voice_id="v", settings=CartesiaTTSService.Settings(model="m"))',
      "CartesiaTTSService(params=CartesiaTTSService.InputParams(**options))",
      "CartesiaTTSService(live_options=LiveOptions(model='nova'))",
    ]
  ) {
    const result = await settingsMigrated(`${head}tts = ${call}\n`);
    assertEquals(result.text, `${head}tts = ${call}\n`);
    assertEquals(result.manual.map((item) => [item.id, item.line]), [["t-settings", 3]], call);
  }
});
