/**
 * A user who comes from Pipecat's own scaffolder (`pipecat init`) keeps its names: every service
 * id of its registry, its transports, its client values and its config files work with
 * `voicebot init`. What Pipecat's scaffolder has comes from Pipecat's source at the pinned release
 * (tests/data/pipecat_facts.json, written by scripts/pipecat_facts.py), not from our catalog.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { tempDir, voicebot } from "./helpers.ts";
import { findService, listOptions } from "../src/init/catalog.ts";

const FACTS: {
  scaffold_services: Record<string, Record<string, string>>;
  scaffold_transports: string[];
} = JSON.parse(
  await Deno.readTextFile(new URL("./data/pipecat_facts.json", import.meta.url)),
);

Deno.test("every service id of Pipecat's scaffolder names the same Pipecat class in ours", () => {
  const listed = listOptions() as unknown as Record<string, string[]>;
  let checked = 0;
  for (const [kind, services] of Object.entries(FACTS.scaffold_services)) {
    for (const [id, qualified] of Object.entries(services)) {
      const service = findService(id);
      assert.ok(service, `${kind} ${id} is unknown`);
      assert.equal(service.kind, kind, id);
      const at = qualified.lastIndexOf(".");
      const [module, name] = [qualified.slice(0, at), qualified.slice(at + 1)];
      assert.ok(
        service.imports.some((line) =>
          line.startsWith(`from ${module} import `) && new RegExp(`\\b${name}\\b`).test(line)
        ),
        `${id}: ours builds ${service.imports.join("; ")}, Pipecat's ${qualified}`,
      );
      // --list-options names each service once, by its canonical id: Pipecat's where it has the
      // <vendor>_<kind> form of SPEC.md.
      assert.ok(listed[kind].includes(service.id), `${service.id} is listed`);
      if (id.endsWith(`_${kind}`)) {
        assert.equal(service.id, id, "Pipecat's id is the canonical one");
      } else assert.ok(!listed[kind].includes(id), `the alias ${id} is not listed`);
      checked++;
    }
  }
  assert.ok(checked >= 90, `${checked} ids`);
});

Deno.test("flags take Pipecat's service ids, transports and client values, and our former ids", async () => {
  const run = await voicebot([
    ...["init", "bot", "-t", "smallwebrtc", "-t", "daily", "-m", "cascade"],
    ...["--stt", "aws_stt", "--llm", "aws_bedrock_llm", "--tts", "gemini_tts"],
    ...["--client-framework", "react", "--client-server", "nextjs", "--enable-krisp", "--dry-run"],
  ]);
  assert.equal(run.code, 0, run.stderr);
  const config = JSON.parse(run.stdout);
  assert.deepEqual(config.transports, ["lightweb", "hosted"]);
  assert.deepEqual(
    [config.stt_service, config.llm_service, config.tts_service],
    ["aws_transcribe_stt", "aws_bedrock_llm", "gemini_tts"],
    "canonical ids in the resolved configuration",
  );
  assert.deepEqual([config.client_framework, config.client_server], ["uilib", "devserver_b"]);
  assert.equal(config.enable_denoise, true);

  const phone = await voicebot([
    ...["init", "bot", "-t", "daily_pstn", "--daily-pstn-mode", "dial-out"],
    ...["-t", "twilio_daily_sip_dialin", "-m", "realtime", "--realtime", "ultravox", "--dry-run"],
  ]);
  assert.equal(phone.code, 0, phone.stderr);
  const resolved = JSON.parse(phone.stdout);
  assert.deepEqual(resolved.transports, ["hosted_pstn_dialout", "carrier1_hosted_sip_dialin"]);
  assert.equal(resolved.realtime_service, "ultravox_realtime");

  const runnerName = await voicebot(["init", "bot", "-t", "webrtc", "-m", "realtime"]);
  assert.equal(runnerName.code, 2);
  assert.match(runnerName.stderr, /unknown transport "webrtc"; did you mean "lightweb"\?/);
});

/** What `pipecat init --dry-run` prints, in its key order, for a web bot with a React client. */
const PIPECAT_DRY_RUN = {
  project_name: "pc-bot",
  bot_type: "web",
  transports: ["smallwebrtc", "daily"],
  mode: "cascade",
  stt_service: "deepgram_stt",
  llm_service: "google_gemini_llm",
  tts_service: "pockettts_tts",
  realtime_service: null,
  video_service: null,
  generate_client: true,
  client_framework: "react",
  client_server: "vite",
  daily_pstn_mode: null,
  twilio_daily_sip_mode: null,
  video_input: false,
  video_output: false,
  recording: true,
  transcription: false,
  deploy_to_cloud: true,
  enable_krisp: true,
  enable_observability: false,
  enable_eval: true,
};

/** The same bot as a hand-written config for Pipecat's scaffolder, with its short keys. */
const PIPECAT_INPUT = {
  name: "pc-bot",
  transport: ["smallwebrtc", "daily"],
  mode: "cascade",
  stt: "deepgram_stt",
  llm: "google_gemini_llm",
  tts: "pockettts_tts",
  client_framework: "react",
  client_server: "vite",
  recording: true,
  enable_krisp: true,
  observability: false,
  eval: true,
};

Deno.test("a config file written for Pipecat's scaffolder works unchanged", async () => {
  await using dir = await tempDir();
  const outputs: string[] = [];
  for (const [name, config] of Object.entries({ PIPECAT_DRY_RUN, PIPECAT_INPUT })) {
    await Deno.writeTextFile(join(dir.path, `${name}.json`), JSON.stringify(config));
    const run = await voicebot(["init", "x", "--config", `${name}.json`, "--dry-run"], {
      cwd: dir.path,
    });
    assert.equal(run.code, 0, `${name}: ${run.stderr}`);
    outputs.push(run.stdout);
  }
  assert.equal(outputs[0], outputs[1], "both forms describe the same bot");
  const config = JSON.parse(outputs[0]);
  assert.equal(config.project_name, "pc-bot");
  assert.deepEqual(config.transports, ["lightweb", "hosted"]);
  assert.deepEqual([config.llm_service, config.tts_service], [
    "google_gemini_llm",
    "pockettts_tts",
  ]);
  assert.deepEqual([config.client_framework, config.client_server], ["uilib", "devserver_a"]);
  assert.deepEqual([config.recording, config.enable_denoise, config.eval], [true, true, true]);

  // Pipecat's dry run names Vite for a vanilla client, which runs on Vite here too.
  const vanilla = { ...PIPECAT_DRY_RUN, client_framework: "vanilla" };
  await Deno.writeTextFile(join(dir.path, "vanilla.json"), JSON.stringify(vanilla));
  const run = await voicebot(["init", "x", "-c", "vanilla.json", "--dry-run"], { cwd: dir.path });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    [JSON.parse(run.stdout).client_framework, JSON.parse(run.stdout).client_server],
    ["vanilla", null],
  );
});

Deno.test("a Pipecat config with values we lack fails with one problem per value", async () => {
  await using dir = await tempDir();
  const config = {
    ...PIPECAT_INPUT,
    project_name: "other-name",
    // A transport of Pipecat's runner that neither scaffolder offers.
    transport: ["livekit", "daily"],
    stt: "telepathy_stt",
  };
  await Deno.writeTextFile(join(dir.path, "pc.json"), JSON.stringify(config));
  const run = await voicebot(["init", "x", "--config", "pc.json"], { cwd: dir.path });
  assert.equal(run.code, 2, run.stderr);
  const problems = run.stderr.split("\n").filter((line) => line.startsWith("  - "));
  assert.equal(problems.length, 3, run.stderr);
  assert.match(problems[0], /pc\.json: "name" and "project_name": both set the same option/);
  assert.match(problems.join("\n"), /unknown transport "livekit"/);
  assert.match(problems.join("\n"), /unknown speech-to-text service "telepathy_stt"/);
});
