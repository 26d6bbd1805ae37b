/**
 * Pipecat's configurations, unchanged: what Pipecat's own scaffolder accepts, `voicebot init`
 * accepts, and builds the equivalent project. Where Pipecat's choice is inert (the camera in a
 * cascade pipeline, whose frames reach no service), init generates it as Pipecat does and says so
 * in one warning line. A name with capitals, which Pipecat takes, is taken too; the image, the
 * cloud agent, the client package and the secret set get its lower-case form, and init says so.
 *
 * The configurations are the inputs of Pipecat's scaffolder tests at v1.7.0, written here as data:
 *
 * - tests/cli/test_config_validator.py: 22 accepted calls of `validate_and_build_config` (the
 *   function `pipecat init` hands its flags to), given here as the same flags, and 6 accepted
 *   config files (`_parse_config_dict`, the CLI's own mapping of a JSON file's keys);
 * - tests/cli/test_init_non_interactive.py: 12 accepted runs of `pipecat init --config FILE
 *   [flags] --dry-run`;
 *
 * 40 in all, each run through the CLI with --dry-run. Three of them are cascade bots with
 * `video_input` (test_json_includes_all_fields, test_all_features_enabled,
 * test_full_featured_config). Then tests/cli/test_project_generation.py's TEST_CONFIGS, 28
 * configurations handed to the generator, written as the config JSON that Pipecat's `--dry-run`
 * prints for them (config_to_json), resolved and planned in process: three more cascade bots with
 * the camera. Last, the same file's two websocket bots (`_gen_websocket_bot`, for
 * test_websocket_transport_generation and test_env_example_lists_selected_service_keys), which it
 * builds outside TEST_CONFIGS: accepted, and built as that test asks of Pipecat's own.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { tempDir, voicebot } from "./helpers.ts";
import { lowerName, resolveConfig, type ScaffoldConfig } from "../src/init/config.ts";
import { parseConfigFile } from "../src/init/config_file.ts";
import { findService, PIPECAT_NAMES } from "../src/init/catalog.ts";
import { loadTemplates, planProject } from "../src/init/project.ts";

await loadTemplates();

type Settings = Record<string, unknown>;

/** One of Pipecat's accepted inputs: a config file, flags, or both. */
interface PipecatCase {
  /** Its test at v1.7.0. */
  readonly test: string;
  readonly file?: Settings;
  readonly flags?: readonly string[];
  /** For a call of validate_and_build_config: its keyword arguments, which `flags` give. */
  readonly kwargs?: Settings;
}

const CASCADE = { stt: "deepgram_stt", llm: "openai_llm", tts: "cartesia_tts" };
const WEB_DAILY = { name: "bot", bot_type: "web", transport: ["daily"], mode: "cascade" };

/** `validate_and_build_config`'s keyword arguments, as the `pipecat init` flags that give them. */
function flagsOf(kwargs: Settings): string[] {
  const flags: string[] = [];
  for (const [key, value] of Object.entries(kwargs)) {
    const flag = `--${key.replaceAll("_", "-")}`;
    if (typeof value === "boolean") flags.push(value ? flag : flag.replace("--", "--no-"));
    else if (Array.isArray(value)) { for (const item of value) flags.push("--transport", item); }
    else flags.push(flag, String(value));
  }
  return flags;
}

/** tests/cli/test_config_validator.py: the calls of validate_and_build_config that succeed. */
const VALIDATOR_CALLS: Record<string, Settings> = {
  test_minimal_web_cascade: { ...WEB_DAILY, name: "my-bot", ...CASCADE },
  test_multiple_transports: {
    ...WEB_DAILY,
    name: "my-bot",
    transport: ["daily", "smallwebrtc"],
    ...CASCADE,
  },
  test_telephony_cascade: {
    name: "call-bot",
    bot_type: "telephony",
    transport: ["twilio"],
    mode: "cascade",
    ...CASCADE,
  },
  test_telephony_with_webrtc_backup: {
    name: "call-bot",
    bot_type: "telephony",
    transport: ["telnyx", "smallwebrtc"],
    mode: "cascade",
    ...CASCADE,
    tts: "elevenlabs_tts",
  },
  test_bot_type_inferred_telephony: {
    name: "call-bot",
    transport: ["twilio"],
    mode: "cascade",
    ...CASCADE,
  },
  test_bot_type_inferred_web: {
    name: "web-bot",
    transport: ["smallwebrtc"],
    mode: "cascade",
    ...CASCADE,
  },
  test_bot_type_inferred_telephony_wins_over_webrtc: {
    name: "call-bot",
    transport: ["twilio", "smallwebrtc"],
    mode: "cascade",
    ...CASCADE,
  },
  test_minimal_realtime: {
    name: "rt-bot",
    bot_type: "web",
    transport: ["smallwebrtc"],
    mode: "realtime",
    realtime: "openai_realtime",
  },
  test_deploy_to_cloud_default_true: { ...WEB_DAILY, ...CASCADE },
  test_video_output_forced_on_with_video_service: {
    ...WEB_DAILY,
    ...CASCADE,
    video: "tavus_video",
  },
  test_daily_pstn_dialin: {
    ...WEB_DAILY,
    bot_type: "telephony",
    transport: ["daily_pstn"],
    daily_pstn_mode: "dial-in",
    ...CASCADE,
  },
  test_daily_pstn_dialout: {
    ...WEB_DAILY,
    bot_type: "telephony",
    transport: ["daily_pstn"],
    daily_pstn_mode: "dial-out",
    ...CASCADE,
  },
  test_twilio_daily_sip_dialin: {
    ...WEB_DAILY,
    bot_type: "telephony",
    transport: ["twilio_daily_sip"],
    twilio_daily_sip_mode: "dial-in",
    ...CASCADE,
  },
  test_twilio_daily_sip_dialout: {
    ...WEB_DAILY,
    bot_type: "telephony",
    transport: ["twilio_daily_sip"],
    twilio_daily_sip_mode: "dial-out",
    ...CASCADE,
  },
  test_react_vite_client: {
    ...WEB_DAILY,
    ...CASCADE,
    client_framework: "react",
    client_server: "vite",
  },
  test_react_nextjs_client: {
    ...WEB_DAILY,
    ...CASCADE,
    client_framework: "react",
    client_server: "nextjs",
  },
  test_vanilla_client: { ...WEB_DAILY, ...CASCADE, client_framework: "vanilla" },
  test_no_client: { ...WEB_DAILY, ...CASCADE, client_framework: "none" },
  test_json_roundtrip: { ...WEB_DAILY, name: "json-bot", ...CASCADE },
  test_json_includes_all_fields: {
    ...WEB_DAILY,
    name: "full-bot",
    ...CASCADE,
    recording: true,
    transcription: true,
    video_input: true,
    video_output: true,
    observability: true,
  },
  test_all_features_enabled: {
    ...WEB_DAILY,
    ...CASCADE,
    recording: true,
    transcription: true,
    video_input: true,
    video_output: true,
    observability: true,
    enable_krisp: true,
    deploy_to_cloud: true,
  },
  test_all_features_disabled: {
    ...WEB_DAILY,
    ...CASCADE,
    recording: false,
    transcription: false,
    video_input: false,
    video_output: false,
    observability: false,
    enable_krisp: false,
    deploy_to_cloud: false,
  },
};

const FILE_BOT = {
  project_name: "file-bot",
  bot_type: "web",
  transports: ["daily"],
  mode: "cascade",
  stt_service: "deepgram_stt",
  llm_service: "openai_llm",
  tts_service: "cartesia_tts",
};

/** tests/cli/test_config_validator.py: the config files `_parse_config_dict` accepts. */
const CONFIG_FILES: Record<string, Settings> = {
  test_cascade_with_service_suffix_keys: FILE_BOT,
  test_cascade_with_short_keys: {
    project_name: "short-bot",
    bot_type: "web",
    transports: ["smallwebrtc"],
    mode: "cascade",
    stt: "deepgram_stt",
    llm: "anthropic_llm",
    tts: "elevenlabs_tts",
  },
  test_realtime_config: {
    project_name: "rt-bot",
    bot_type: "web",
    transports: ["daily"],
    mode: "realtime",
    realtime_service: "openai_realtime",
  },
  test_telephony_with_daily_pstn: {
    ...FILE_BOT,
    project_name: "pstn-bot",
    bot_type: "telephony",
    transports: ["daily_pstn"],
    daily_pstn_mode: "dial-in",
  },
  test_full_featured_config: {
    ...FILE_BOT,
    project_name: "full-bot",
    transports: ["daily", "smallwebrtc"],
    client_framework: "react",
    client_server: "nextjs",
    recording: true,
    transcription: true,
    video_input: true,
    video_output: true,
    deploy_to_cloud: false,
    enable_observability: true,
  },
  test_name_key_alias: {
    name: "alias-bot",
    bot_type: "web",
    transports: ["daily"],
    mode: "cascade",
    stt: "deepgram_stt",
    llm: "openai_llm",
    tts: "cartesia_tts",
  },
};

/** tests/cli/test_init_non_interactive.py: `pipecat init --config FILE [flags] --dry-run`. */
const NON_INTERACTIVE: PipecatCase[] = [
  { test: "test_config_file_only", file: FILE_BOT },
  {
    test: "test_name_alias_in_config_file",
    file: { ...Object.fromEntries(Object.entries(FILE_BOT).slice(1)), name: "aliased-bot" },
  },
  { test: "test_flag_overrides_string_value", file: FILE_BOT, flags: ["--tts", "elevenlabs_tts"] },
  { test: "test_flag_overrides_name", file: FILE_BOT, flags: ["--name", "flag-bot"] },
  {
    test: "test_observability_flag_enables_over_file_default",
    file: FILE_BOT,
    flags: ["--observability"],
  },
  ...[
    ["--no-eval", "enable_eval"],
    ["--no-recording", "recording"],
    ["--no-transcription", "transcription"],
    ["--no-observability", "enable_observability"],
  ].map(([flag, key]) => ({
    test: `test_negated_flag_disables_over_file_value[${flag}]`,
    file: { ...FILE_BOT, [key]: true },
    flags: [flag],
  })),
  {
    test: "test_no_deploy_to_cloud_flag_disables_over_file_value",
    file: { ...FILE_BOT, deploy_to_cloud: true },
    flags: ["--no-deploy-to-cloud"],
  },
  {
    test: "test_enable_krisp_flag_enables_over_file_value",
    file: { ...FILE_BOT, enable_krisp: false, deploy_to_cloud: true },
    flags: ["--enable-krisp"],
  },
  {
    test: "test_boolean_file_value_applies_when_flag_omitted",
    file: { ...FILE_BOT, enable_eval: true },
  },
];

const PIPECAT_CASES: PipecatCase[] = [
  ...Object.entries(VALIDATOR_CALLS).map(([test, kwargs]) => ({
    test,
    kwargs,
    flags: flagsOf(kwargs),
  })),
  ...Object.entries(CONFIG_FILES).map(([test, file]) => ({ test, file })),
  ...NON_INTERACTIVE,
];

/** The cases whose bot is a cascade web bot with the camera: accepted with one warning. */
const CASCADE_CAMERA = new Set([
  "test_json_includes_all_fields",
  "test_all_features_enabled",
  "test_full_featured_config",
]);

const CAMERA_WARNING =
  /^warning: --video-input \(video_input\): the camera's frames reach no service of a cascade pipeline in Pipecat 1\.7\.0, so the bot does not see them; generated as Pipecat's scaffolder does \(the transport takes the camera\)\. For a model that watches it: --mode realtime with one of: [a-z_, ]+$/;

/** `voicebot init x --config FILE [flags] --dry-run` on one case, in its own directory. */
async function dryRun({ file, flags = [] }: PipecatCase) {
  await using dir = await tempDir();
  const args = ["init", "x", ...flags, "--dry-run"];
  if (file) {
    await Deno.writeTextFile(join(dir.path, "pipecat.json"), JSON.stringify(file));
    args.push("--config", "pipecat.json");
  }
  return await voicebot(args, { cwd: dir.path });
}

function warningLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("warning: "));
}

Deno.test("Pipecat's scaffolder tests: 40 accepted configurations, all accepted here", async () => {
  assert.equal(PIPECAT_CASES.length, 40);
  const runs = await Promise.all(PIPECAT_CASES.map(dryRun));
  const cameras: string[] = [];
  PIPECAT_CASES.forEach(({ test, file, flags = [], kwargs }, i) => {
    const run = runs[i];
    assert.equal(run.code, 0, `${test}: ${run.stderr}`);
    const config = JSON.parse(run.stdout) as ScaffoldConfig;
    // The same project name (a flag's over the file's), and the camera as given.
    const given = { ...file, ...kwargs };
    const nameFlag = flags.indexOf("--name");
    const name = nameFlag >= 0 ? flags[nameFlag + 1] : given.name ?? given.project_name;
    assert.equal(config.project_name, name, test);
    assert.equal(config.video_input, given.video_input === true, `${test}: video_input`);
    const warnings = warningLines(run.stderr);
    if (CASCADE_CAMERA.has(test)) {
      cameras.push(test);
      assert.equal(config.mode, "cascade", test);
      assert.equal(warnings.length, 1, `${test}: ${run.stderr}`);
      assert.match(warnings[0], CAMERA_WARNING, test);
    } else {
      assert.deepEqual(warnings, [], `${test}: no warning`);
    }
  });
  assert.deepEqual(cameras.sort(), [...CASCADE_CAMERA].sort());
});

/**
 * tests/cli/test_project_generation.py's TEST_CONFIGS, as Pipecat's `--dry-run` prints them
 * (`config_to_json`, key for key, ProjectConfig's defaults filled in).
 */
const GENERATED: Settings[] = [
  { name: "daily-cascade", transports: ["daily"], ...CASCADE },
  {
    name: "smallwebrtc-cascade",
    transports: ["smallwebrtc"],
    ...CASCADE,
    stt: "assemblyai_stt",
  },
  { name: "twilio-cascade", bot_type: "telephony", transports: ["twilio"], ...CASCADE },
  { name: "telnyx-cascade", bot_type: "telephony", transports: ["telnyx"], ...CASCADE },
  { name: "daily-realtime", transports: ["daily"], realtime: "openai_realtime" },
  { name: "smallwebrtc-realtime", transports: ["smallwebrtc"], realtime: "gemini_live_realtime" },
  {
    name: "twilio-webrtc-mixed",
    bot_type: "telephony",
    transports: ["twilio", "smallwebrtc"],
    ...CASCADE,
  },
  {
    name: "daily-with-features",
    transports: ["daily"],
    ...CASCADE,
    video_input: true,
    video_output: true,
    recording: true,
    transcription: true,
    deploy_to_cloud: true,
    enable_krisp: true,
  },
  {
    name: "daily-with-observability",
    transports: ["daily"],
    ...CASCADE,
    enable_observability: true,
  },
  {
    name: "plivo-cascade",
    bot_type: "telephony",
    transports: ["plivo"],
    stt: "deepgram_stt",
    llm: "anthropic_llm",
    tts: "elevenlabs_tts",
  },
  {
    name: "exotel-cascade",
    bot_type: "telephony",
    transports: ["exotel"],
    stt: "assemblyai_stt",
    llm: "groq_llm",
    tts: "rime_tts",
  },
  { name: "azure-realtime", transports: ["daily"], realtime: "azure_realtime" },
  { name: "aws-nova-realtime", transports: ["smallwebrtc"], realtime: "aws_nova_realtime" },
  {
    name: "google-vertex-stack",
    transports: ["daily"],
    stt: "google_stt",
    llm: "google_vertex_llm",
    tts: "google_tts",
  },
  {
    name: "azure-stack",
    transports: ["daily"],
    stt: "azure_stt",
    llm: "azure_llm",
    tts: "azure_tts",
  },
  {
    name: "aws-stack",
    transports: ["smallwebrtc"],
    stt: "aws_transcribe_stt",
    llm: "aws_bedrock_llm",
    tts: "aws_polly_tts",
  },
  { name: "daily-recording", transports: ["daily"], ...CASCADE, recording: true },
  {
    name: "daily-transcription",
    transports: ["daily"],
    ...CASCADE,
    tts: "elevenlabs_tts",
    transcription: true,
  },
  {
    name: "twilio-cloud-no-krisp",
    bot_type: "telephony",
    transports: ["twilio"],
    ...CASCADE,
    deploy_to_cloud: true,
    enable_krisp: false,
  },
  {
    name: "smallwebrtc-cloud-with-video",
    transports: ["smallwebrtc"],
    ...CASCADE,
    video_input: true,
    video_output: true,
    deploy_to_cloud: true,
  },
  {
    name: "daily-video-input-only",
    transports: ["daily"],
    ...CASCADE,
    llm: "anthropic_llm",
    video_input: true,
    video_output: false,
  },
  {
    name: "smallwebrtc-video-output-only",
    transports: ["smallwebrtc"],
    ...CASCADE,
    tts: "elevenlabs_tts",
    video_input: false,
    video_output: true,
  },
  { name: "daily-smallwebrtc-multi", transports: ["daily", "smallwebrtc"], ...CASCADE },
  {
    name: "telnyx-daily-mixed-cloud",
    bot_type: "telephony",
    transports: ["telnyx", "daily"],
    ...CASCADE,
    deploy_to_cloud: true,
    enable_krisp: true,
  },
  {
    name: "daily-tavus-video",
    transports: ["daily"],
    ...CASCADE,
    video: "tavus_video",
    video_output: true,
  },
  {
    name: "smallwebrtc-heygen-video",
    transports: ["smallwebrtc"],
    stt: "assemblyai_stt",
    llm: "anthropic_llm",
    tts: "elevenlabs_tts",
    video: "heygen_video",
    video_output: true,
  },
  {
    name: "daily-simli-video",
    transports: ["daily"],
    ...CASCADE,
    video: "simli_video",
    video_output: true,
  },
  {
    name: "daily-tavus-video-cloud",
    transports: ["daily"],
    ...CASCADE,
    video: "tavus_video",
    video_output: true,
    deploy_to_cloud: true,
    enable_krisp: true,
  },
];

/** What `config_to_json` prints for a TEST_CONFIGS entry (ProjectConfig's defaults filled in). */
function pipecatDryRun(entry: Settings): Settings {
  const realtime = entry.realtime as string | undefined;
  return {
    project_name: entry.name,
    bot_type: entry.bot_type ?? "web",
    transports: entry.transports,
    mode: realtime ? "realtime" : "cascade",
    stt_service: entry.stt ?? null,
    llm_service: entry.llm ?? null,
    tts_service: entry.tts ?? null,
    realtime_service: realtime ?? null,
    video_service: entry.video ?? null,
    generate_client: false,
    client_framework: null,
    client_server: null,
    daily_pstn_mode: null,
    twilio_daily_sip_mode: null,
    video_input: entry.video_input ?? false,
    video_output: entry.video_output ?? false,
    recording: entry.recording ?? false,
    transcription: entry.transcription ?? false,
    deploy_to_cloud: entry.deploy_to_cloud ?? false,
    enable_krisp: entry.enable_krisp ?? false,
    enable_observability: entry.enable_observability ?? false,
    enable_eval: false,
  };
}

Deno.test("Pipecat's generator tests: 28 configurations as its dry run prints them, each accepted and built", () => {
  assert.equal(GENERATED.length, 28);
  let cameras = 0;
  for (const entry of GENERATED) {
    const name = String(entry.name);
    const dry = pipecatDryRun(entry);
    const parsed = parseConfigFile(JSON.stringify(dry), `${name}.json`);
    assert.deepEqual(parsed.problems, [], name);
    const { config, problems, warnings } = resolveConfig(parsed.input, "unused");
    assert.deepEqual(problems, [], name);
    assert.ok(config, name);
    // The equivalent project: the same name, kinds, services and features, our names for them.
    assert.equal(config.project_name, name);
    assert.equal(config.bot_type, dry.bot_type, name);
    assert.equal(config.mode, dry.mode, name);
    assert.deepEqual(
      config.transports,
      (dry.transports as string[]).map((t) => PIPECAT_NAMES.transport[t] ?? t),
      name,
    );
    for (const key of ["stt", "llm", "tts", "realtime", "video"] as const) {
      const theirs = dry[`${key}_service`] as string | null;
      assert.equal(config[`${key}_service`], theirs && findService(theirs)!.id, `${name}: ${key}`);
    }
    for (const key of ["video_input", "video_output", "recording", "transcription"] as const) {
      assert.equal(config[key], dry[key], `${name}: ${key}`);
    }
    assert.equal(config.deploy_to_cloud, dry.deploy_to_cloud, name);
    assert.equal(config.enable_denoise, dry.enable_krisp, name);
    assert.equal(config.enable_observability, dry.enable_observability, name);
    // Built: bot.py renders, and takes the camera where Pipecat's does.
    const bot = planProject(config).files.find((f) => f.path === "server/bot.py")!.content;
    assert.equal(bot.includes("video_in_enabled=True,"), dry.video_input, `${name}: the camera`);
    const camera = config.video_input && config.mode === "cascade";
    assert.equal(warnings.length, camera ? 1 : 0, `${name}: ${JSON.stringify(warnings)}`);
    if (camera) {
      cameras++;
      assert.equal(warnings[0].key, "video_input");
      assert.doesNotMatch(bot, /maybe_capture_participant_camera/, `${name}: nothing captures it`);
    }
  }
  assert.equal(cameras, 3);
});

/** tests/cli/test_project_generation.py's `_gen_websocket_bot(temp_output_dir, name)`. */
const WEBSOCKET_GENERATED: Settings[] = ["ws", "wsenv"].map((name) => ({
  name,
  transports: ["websocket"],
  ...CASCADE,
}));

Deno.test("Pipecat's generator tests: its websocket bots, accepted and built as its test asks", () => {
  for (const entry of WEBSOCKET_GENERATED) {
    const name = String(entry.name);
    const parsed = parseConfigFile(JSON.stringify(pipecatDryRun(entry)), `${name}.json`);
    assert.deepEqual(parsed.problems, [], name);
    const { config, problems, warnings } = resolveConfig(parsed.input, "unused");
    assert.deepEqual([problems, warnings], [[], []], name);
    assert.deepEqual(config!.transports, ["websocket"]);
    assert.equal(config!.bot_type, "web");
    const files = new Map(planProject(config!).files.map((f) => [f.path, f.content]));
    const bot = files.get("server/bot.py")!;
    // What test_websocket_transport_generation asserts of Pipecat's bot.
    assert.ok(
      bot.includes("from pipecat.transports.websocket.fastapi import FastAPIWebsocketParams"),
    );
    assert.ok(bot.includes("from pipecat.serializers.protobuf import ProtobufFrameSerializer"));
    assert.ok(bot.includes("from pipecat.runner.utils import create_transport"));
    assert.ok(bot.includes('"websocket": lambda: FastAPIWebsocketParams('));
    assert.ok(bot.includes("serializer=ProtobufFrameSerializer()"));
    assert.ok(bot.includes("await create_transport(runner_args, transport_params)"));
    // test_env_example_lists_selected_service_keys: the chosen services' keys, no others.
    const env = files.get("server/.env.example")!;
    for (const key of ["DEEPGRAM_API_KEY=", "OPENAI_API_KEY=", "CARTESIA_API_KEY="]) {
      assert.match(env, new RegExp(`^${key}$`, "m"), `${name}: ${key}`);
    }
    assert.doesNotMatch(env, /ELEVENLABS_API_KEY|ANTHROPIC_API_KEY/);
    assert.match(files.get("server/pyproject.toml")!, /pipecat-ai\[[^\]]*\bwebsocket\b/);
  }
});

Deno.test("a Pipecat name with capitals is taken; the image, agent, client and secret set use it in lower case, and init says so", async () => {
  await using dir = await tempDir();
  const file = {
    ...CONFIG_FILES.test_full_featured_config,
    project_name: "Full-Bot",
    deploy_to_cloud: true,
  };
  await Deno.writeTextFile(join(dir.path, "pipecat.json"), JSON.stringify(file));
  const run = await voicebot(["init", "out", "--config", "pipecat.json"], { cwd: dir.path });
  assert.equal(run.code, 0, run.stderr);
  const notes = run.stderr.split("\n").filter((line) => line.includes("full-bot"));
  assert.deepEqual(notes, [
    'Lower case where capitals are refused: the image, the cloud agent and the client package are named full-bot, the secret set full-bot-secrets; pyproject.toml and the titles keep "Full-Bot".',
  ]);
  assert.equal(warningLines(run.stderr).length, 1, "the camera's warning, and no other");
  const read = (path: string) => Deno.readTextFile(join(dir.path, "out", path));
  assert.match(await read("server/pyproject.toml"), /^name = "Full-Bot"$/m);
  assert.match(await read("README.md"), /^# Full-Bot$/m);
  const deploy = await read("server/cloud-deploy.toml");
  assert.match(deploy, /^agent_name = "full-bot"$/m);
  assert.match(deploy, /^image = "registry\.example\.com\/full-bot:0\.1\.0"$/m);
  assert.match(deploy, /^secret_set = "full-bot-secrets"$/m);
  assert.match(deploy, /voicebot cloud secrets image-pull-secret full-bot-registry /);
  assert.match(await read("server/Dockerfile"), /^# .*docker build -t full-bot \.$/m);
  const readme = await read("README.md");
  assert.match(readme, /docker build -t registry\.example\.com\/full-bot:0\.1\.0 server/);
  assert.match(readme, /^docker build -t full-bot server$/m);
  assert.doesNotMatch(readme, /docker [^\n]*Full-Bot/);
  assert.equal(JSON.parse(await read("client/package.json")).name, "full-bot-client");

  // A lower-case name is said nothing of.
  const plain = await dryRun({ test: "lower", file: CONFIG_FILES.test_full_featured_config });
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stderr, /Lower case/);
});

Deno.test("project names: capitals and Pipecat's names are taken, and their lower-case form follows", () => {
  const base = { transports: ["lightweb"], mode: "realtime", realtime_service: "openai_realtime" };
  for (const name of ["My-Bot", "MyBot", "Pipecat.Quickstart", "A_B", "BOT-2", "x"]) {
    const { problems } = resolveConfig({ ...base, project_name: name }, "unused");
    assert.deepEqual(problems, [], name);
    assert.equal(lowerName(name), name.toLowerCase());
  }
  for (const name of ["My Bot", "bot-", ".bot", "b@t", "a..b", "é-bot", "a".repeat(56)]) {
    const { problems } = resolveConfig({ ...base, project_name: name }, "unused");
    assert.equal(problems.length, 1, name);
    assert.equal(problems[0].key, "project_name");
  }
});
