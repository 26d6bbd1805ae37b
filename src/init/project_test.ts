import assert from "node:assert/strict";
import { findService } from "./catalog.ts";
import { resolveConfig, type ScaffoldInput } from "./config.ts";
import { envGroups, envReads } from "./env_file.ts";
import { loadTemplates, planProject } from "./project.ts";
import { pipecatExtras, pythonFloor, transportOnlyKeys } from "./project_view.ts";
import { pythonImports } from "./python_code.ts";

await loadTemplates();

function config(input: ScaffoldInput) {
  const { config, problems } = resolveConfig(input, "my-bot");
  assert.deepEqual(problems, []);
  return config!;
}

const CASCADE: ScaffoldInput = {
  transports: ["lightweb"],
  mode: "cascade",
  stt_service: "deepgram_stt",
  llm_service: "openai_llm",
  tts_service: "cartesia_tts",
};

Deno.test("imports: what the code uses, in ruff's isort order, long lines wrapped", () => {
  const code = [
    "# <imports>",
    "load_dotenv()",
    "path = Path(os.environ['X'])",
    "async def f(runner_args: RunnerArguments, t: BaseTransport):",
    "    worker = PipelineWorker(Pipeline([]), params=PipelineParams())",
    "    x = LLMContextAggregatorPair(LLMContext(), LLMUserAggregatorParams())",
    "    logger.info(f'{datetime.now():%H} {AssistantTurnStoppedMessage}')",
    "    logger.info('create_transport is only mentioned')  # WorkerRunner too",
    "    y = DeepgramSTTService(api_key='k')",
  ].join("\n");
  assert.equal(
    pythonImports(code, [findService("deepgram_stt")!]),
    `import os
from datetime import datetime
from pathlib import Path

from dotenv import load_dotenv
from loguru import logger
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import (
    AssistantTurnStoppedMessage,
    LLMContextAggregatorPair,
    LLMUserAggregatorParams,
)
from pipecat.runner.types import RunnerArguments
from pipecat.services.deepgram.stt import DeepgramSTTService
from pipecat.transports.base_transport import BaseTransport`,
  );
});

Deno.test("env reads: required, optional with and without a default", () => {
  const reads = envReads(`
    a = os.environ["REQUIRED"]
    b = os.getenv("WITH_DEFAULT", "x-1")
    c = os.environ.get("NO_DEFAULT")
    d = os.getenv("REQUIRED", "ignored")
  `);
  assert.deepEqual([...reads.keys()], ["REQUIRED", "WITH_DEFAULT", "NO_DEFAULT"]);
  assert.equal(reads.get("REQUIRED")!.required, true);
  assert.deepEqual(reads.get("WITH_DEFAULT"), { required: false, defaults: new Set(["x-1"]) });
  assert.deepEqual(reads.get("NO_DEFAULT"), { required: false, defaults: new Set([null]) });
});

Deno.test(".env.example: optional variables stay commented out at their default", () => {
  const c = config(CASCADE);
  const groups = envGroups(
    c,
    planProject(c).files.find((f) => f.path === "server/bot.py")!.content,
  );
  assert.deepEqual(groups, [
    { title: "Deepgram (stt)", lines: ["DEEPGRAM_API_KEY="] },
    { title: "OpenAI (llm)", lines: ["OPENAI_API_KEY=", "# OPENAI_MODEL=gpt-4.1"] },
    {
      title: "Cartesia (tts)",
      lines: ["CARTESIA_API_KEY=", "# CARTESIA_VOICE_ID=71a7ad14-091c-4e8e-a314-022ece01c121"],
    },
    {
      title: "Who may start a session: without a token, only this machine (the image needs one)",
      lines: ["# BOT_START_TOKEN="],
    },
    { title: "Pipecat's runner (optional)", lines: ["# PIPECAT_ALLOWED_ORIGINS="] },
  ]);
});

Deno.test(".env.example: a key only some transports need says to delete it when unused", () => {
  // `set` refuses empty values: a SmallWebRTC user must know DAILY_API_KEY can go.
  const both = config({ ...CASCADE, transports: ["hosted", "lightweb"] });
  assert.deepEqual([...transportOnlyKeys(both)], [["DAILY_API_KEY", ["Daily (WebRTC)"]]]);
  const bot = planProject(both).files.find((f) => f.path === "server/bot.py")!.content;
  assert.deepEqual(envGroups(both, bot)[0], {
    title: "Daily (WebRTC): only for this transport (delete the line if you do not use it)",
    lines: ["DAILY_API_KEY="],
  });
  const readme = planProject(both).files.find((f) => f.path === "README.md")!.content;
  assert.match(
    readme,
    /needed by one transport only; if you do not use it, delete the line:\n\n- `DAILY_API_KEY`: Daily \(WebRTC\)\n/,
  );
  // With one transport, what it needs is needed.
  const daily = config({ ...CASCADE, transports: ["hosted"] });
  assert.equal(transportOnlyKeys(daily).size, 0);
  assert.equal(envGroups(daily, bot)[0].title, "Daily (WebRTC)");
  assert.doesNotMatch(
    planProject(daily).files.find((f) => f.path === "README.md")!.content,
    /needed by one transport only/,
  );
});

Deno.test(".env.example: a variable needed anywhere is to fill in; differing defaults show none", () => {
  // AWS_REGION: optional for Bedrock (us-east-1) and Parakeet on SageMaker (us-west-2).
  const bedrock: ScaffoldInput = { ...CASCADE, llm_service: "aws_llm" };
  const optional = config({ ...bedrock, stt_service: "nvidia_sagemaker_stt" });
  const code = planProject(optional).files.find((f) => f.path === "server/bot.py")!.content;
  const lines = envGroups(optional, code).flatMap((g) => g.lines);
  assert.ok(lines.includes("# AWS_REGION="), lines.join("\n"));
  // The SageMaker client reads the AWS keys itself: they are to fill in.
  assert.ok(lines.includes("AWS_ACCESS_KEY_ID="));

  // Required by Deepgram on SageMaker, optional for Bedrock: required wins.
  const required = config({ ...bedrock, stt_service: "deepgram_sagemaker_stt" });
  const code2 = planProject(required).files.find((f) => f.path === "server/bot.py")!.content;
  assert.ok(envGroups(required, code2).flatMap((g) => g.lines).includes("AWS_REGION="));

  assert.throws(() => envGroups(optional, `${code}\nx = os.environ["UNLISTED"]`), /UNLISTED/);
});

Deno.test("extras and the Python floor follow the transports, services and features", () => {
  assert.deepEqual(pipecatExtras(config(CASCADE)), [
    "cartesia",
    "deepgram",
    "openai",
    "runner",
    "silero",
    "webrtc",
  ]);
  assert.equal(pythonFloor(config(CASCADE)), "3.11");
  const sonic = config({
    transports: ["carrier1"],
    mode: "realtime",
    realtime_service: "aws_nova_sonic_realtime",
    enable_observability: true,
    eval: true,
  });
  assert.deepEqual(pipecatExtras(sonic), [
    "aws-nova-sonic",
    "evals",
    "runner",
    "tracing",
    "websocket",
  ]);
  assert.equal(pythonFloor(sonic), "3.12");
  assert.equal(pythonFloor(config({ ...CASCADE, tts_service: "deepgram_sagemaker_tts" })), "3.12");
});

Deno.test("files: cloud files with cloud deployment, eval scenarios that fit the mode", () => {
  const paths = (input: ScaffoldInput) => planProject(config(input)).files.map((f) => f.path);
  const cascade = paths({ ...CASCADE, eval: true });
  assert.ok(cascade.includes("server/Dockerfile") && cascade.includes("server/cloud-deploy.toml"));
  assert.ok(
    cascade.includes("server/evals/text.yaml") && cascade.includes("server/evals/voice.yaml"),
  );
  const realtime = paths({
    transports: ["lightweb"],
    mode: "realtime",
    realtime_service: "openai_realtime",
    deploy_to_cloud: false,
    eval: true,
  });
  assert.ok(!realtime.some((p) => p === "server/Dockerfile" || p === "server/cloud-deploy.toml"));
  assert.deepEqual(realtime.filter((p) => p.startsWith("server/evals/")), [
    "server/evals/voice.yaml",
  ]);
});

Deno.test("bot.py: avatars get their video size, after the voice and before the output", () => {
  const bot = planProject(config({ ...CASCADE, video_service: "simli_video" })).files
    .find((f) => f.path === "server/bot.py")!.content;
  assert.match(bot, /video_out_is_live=True,\n\s+video_out_width=512,\n\s+video_out_height=512,/);
  assert.match(bot, /tts,\n\s+avatar,\n\s+transport\.output\(\),/);
});
