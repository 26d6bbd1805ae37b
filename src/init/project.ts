/**
 * What a scaffolded project holds: the files a resolved configuration produces, rendered from the
 * templates with one view computed here from the configuration and the catalog.
 *
 * `server/bot.py` is the source of truth for the Python side: its imports are derived from the
 * names the rendered code uses, and `server/.env.example` from the variables it reads.
 */
import { VERSION } from "../version.ts";
import { andList } from "../words.ts";
import { clientFolder, clientView } from "./client.ts";
import { findService, findTransport, type Service, type Transport } from "./catalog.ts";
import type { ScaffoldConfig } from "./config.ts";
import { sealGuide, stamp } from "./guides.ts";
import { outputPath, render, templatesUnder } from "./render.ts";
import { type PlannedFile, plannedFile } from "./writer.ts";

/** The Pipecat release the templates are written against, and the range the project accepts. */
export const PIPECAT_VERSION = "1.7.0";
export const PIPECAT_RANGE = ">=1.7.0,<1.8";

/**
 * `pipecat-ai` extras whose dependencies carry a `python_version>='3.12'` marker in Pipecat's
 * pyproject.toml, so they install nothing on 3.11: a project that needs one requires 3.12.
 */
const PYTHON_312_EXTRAS = new Set(["aws-nova-sonic", "sagemaker"]);

/** The telephony carriers that stream a call over a websocket, by Pipecat runner name. */
const CARRIERS = new Set(["twilio", "telnyx", "plivo", "exotel"]);

/** Video size of each avatar service, as Pipecat's avatar examples publish it. */
const AVATAR_SIZES: Readonly<Record<string, { width: number; height: number }>> = {
  heygen_video: { width: 1280, height: 720 },
  simli_video: { width: 512, height: 512 },
  tavus_video: { width: 1280, height: 720 },
};

/**
 * Realtime services that open the conversation on their own: Ultravox starts its call, and its
 * agent speaks first, when the pipeline starts; it takes no greeting from the context.
 */
const SPEAKS_FIRST = new Set(["ultravox_realtime"]);

/** Secret names allow letters, digits and hyphens only; project names may also hold `.` and `_`. */
function secretSlug(projectName: string): string {
  return projectName.replace(/[._]+/g, "-");
}

export function secretSetName(projectName: string): string {
  return `${secretSlug(projectName)}-secrets`;
}

/** A service as the templates see it: its constructor indented to sit inside `run_bot`. */
function serviceView(id: string | null) {
  if (!id) return null;
  const service = findService(id)!;
  return { ...service, construct: indentContinuation(service.construct, "    ") };
}

function indentContinuation(code: string, indent: string): string {
  return code.split("\n").map((line, i) => (i === 0 || line === "" ? line : indent + line)).join(
    "\n",
  );
}

function transportsOf(config: ScaffoldConfig): Transport[] {
  return config.transports.map((id) => findTransport(id)!);
}

/** The AI services a configuration uses: STT, LLM and TTS, or realtime; then any avatar. */
export function servicesOf(config: ScaffoldConfig): Service[] {
  return [
    config.stt_service,
    config.llm_service,
    config.tts_service,
    config.realtime_service,
    config.video_service,
  ].filter((id): id is string => id !== null).map((id) => findService(id)!);
}

/** The `pipecat-ai[...]` extras the transports, services and features need, sorted. */
export function pipecatExtras(config: ScaffoldConfig): string[] {
  // The development runner serves the bot; Silero is the cascade pipeline's voice detector.
  const extras = new Set<string>(["runner"]);
  if (config.mode === "cascade") extras.add("silero");
  for (const transport of transportsOf(config)) transport.extras.forEach((e) => extras.add(e));
  for (const service of servicesOf(config)) service.extras.forEach((e) => extras.add(e));
  if (config.enable_observability) extras.add("tracing");
  if (config.eval) extras.add("evals");
  return [...extras].sort();
}

/** The lowest Python the project runs on: 3.12 when an extra installs only there. */
export function pythonFloor(config: ScaffoldConfig): string {
  return pipecatExtras(config).some((e) => PYTHON_312_EXTRAS.has(e)) ? "3.12" : "3.11";
}

/** Lines of the web transports' params (Daily, SmallWebRTC) beyond audio, for video. */
function videoParams(config: ScaffoldConfig): string[] {
  const lines: string[] = [];
  if (config.video_input) lines.push("video_in_enabled=True,");
  if (!config.video_output) return lines;
  const avatar = config.video_service ? AVATAR_SIZES[config.video_service] : undefined;
  if (!avatar) {
    return [
      ...lines,
      "# The bot's camera: push OutputImageRawFrame frames to show an image.",
      "video_out_enabled=True,",
    ];
  }
  lines.push(
    "video_out_enabled=True,",
    "video_out_is_live=True,",
    `video_out_width=${avatar.width},`,
    `video_out_height=${avatar.height},`,
  );
  // Tavus streams its audio back continuously, so the transport must not pad it with silence.
  if (config.video_service === "tavus_video") lines.push("audio_out_auto_silence=False,");
  return lines;
}

function carrierName(transport: Transport): string {
  return transport.runner.charAt(0).toUpperCase() + transport.runner.slice(1);
}

/**
 * A Python string literal as ruff formats it after `prefix` characters: on the line, alone in
 * parentheses on the next, or split in two there.
 */
function pythonString(text: string, prefix: number): string {
  if (prefix + text.length + 2 <= LINE_LENGTH) return `"${text}"`;
  if (4 + text.length + 2 <= LINE_LENGTH) return `(\n    "${text}"\n)`;
  const cut = text.lastIndexOf(" ", LINE_LENGTH - 8);
  return `(\n    "${text.slice(0, cut + 1)}"\n    "${text.slice(cut + 1)}"\n)`;
}

/** The sessions bot.py takes, and the runner's routes that start one (guarded by a token). */
function sessionView(config: ScaffoldConfig, runners: Set<string>, dialOut: boolean) {
  const sessions: string[] = [];
  const types: string[] = [];
  const carriers = [...runners].filter((r) => CARRIERS.has(r));
  if (carriers.length > 0) {
    const names = carriers.map((r) => r.charAt(0).toUpperCase() + r.slice(1));
    sessions.push(`${andList(names)} calls`);
  }
  if (runners.has("daily")) {
    sessions.push("Daily rooms");
    types.push("DailyRunnerArguments");
  }
  if (runners.has("webrtc")) {
    sessions.push("SmallWebRTC peers");
    types.push("SmallWebRTCRunnerArguments");
  }
  if (config.eval) {
    sessions.push("eval sessions");
    types.push("EvalRunnerArguments");
  }
  const routes = ["/start", "/daily", "/api/offer", ...(dialOut ? ["/dialout"] : [])];
  const has = new Set(config.transports);
  const callee = [
    ...(has.has("hosted_pstn_dialout") ? ["phoneNumber (E.164: +15551234567)"] : []),
    ...(has.has("carrier1_hosted_sip_dialout") ? ["sipUri (sip:...)"] : []),
  ];
  return {
    sessions_text: andList(sessions),
    sessions_python: pythonString(andList(sessions), "SESSIONS = ".length),
    web_session_types: types.length > 1 ? types.join(", ") : types.length ? `${types[0]},` : "",
    session_routes_python: `{${routes.map((r) => `"${r}"`).join(", ")}}`,
    session_routes_text: andList(routes.map((r) => `\`${r}\``)),
    dialout_usage: `Send JSON with ${callee.join(" or ")}`,
  };
}

/** The variable that holds the token in the URL of Daily's dial-in webhook (bot.py reads it). */
export const DIALIN_TOKEN = "DIALIN_WEBHOOK_TOKEN";

/**
 * How the image runs the bot: Pipecat's runner on all interfaces, for the bot's transports. A
 * phone bot's runner serves its carrier's webhook, which needs the public host name. Daily's
 * dial-in webhook, which the runner mounts unless told not to, only for a bot that takes dial-in.
 */
function imageView(transports: Transport[], carriers: Transport[], dialIn: boolean) {
  const runners = new Set(transports.map((t) => t.runner));
  const carrier = carriers[0]?.runner;
  const transport = carrier ?? (runners.size === 1 ? [...runners][0] : null);
  const args = ["python", "bot.py", "--host", "0.0.0.0", "--port", "7860"];
  if (transport) args.push("-t", transport);
  if (!dialIn) args.push("--no-dialin");
  // The shell stops with a message when a variable the image needs is not set, and puts in the
  // public host.
  const needed = ["BOT_START_TOKEN", ...(dialIn ? [DIALIN_TOKEN] : [])];
  const checks = needed.map((name) => `: "\${${name}:?set ${name}}" && `).join("");
  const proxy = carrier ? ' --proxy "${BOT_PUBLIC_HOST:?set BOT_PUBLIC_HOST}"' : "";
  const command = ["sh", "-c", `${checks}exec ${args.join(" ")}${proxy}`];
  const exec = JSON.stringify(command).replaceAll('","', '", "');
  const otherWeb = transport
    ? transports.filter((t) => t.group === "web" && t.runner !== transport)
    : [];
  // A web bot's /start, as a client would call it: a Daily room, or a SmallWebRTC session.
  const startBody = carriers.length > 0 || runners.has("daily") && runners.size > 1
    ? null
    : runners.has("daily")
    ? '{"transport": "daily", "createDailyRoom": true}'
    : runners.has("webrtc")
    ? '{"transport": "webrtc"}'
    : null;
  return {
    transport,
    carrier: carrier ?? null,
    carrier_name: carriers[0] ? carrierName(carriers[0]) : null,
    other_carriers: carriers.length > 1,
    cmd: exec,
    shell: `${args.join(" ")}${carrier ? ' --proxy "$BOT_PUBLIC_HOST"' : ""}`,
    needed: needed.map((name) => `\`${name}\``).join(" or "),
    // Browser transports start their sessions on the runner's /start, which -t restricts.
    other_web: otherWeb.map((t, i) => ({ runner: t.runner, port: 7861 + i })),
    other_web_text: otherWeb.map((t) => t.label.replace(/ \(.*\)$/, "")).join(" or "),
    start_body: startBody,
  };
}

export function projectView(config: ScaffoldConfig) {
  const transports = transportsOf(config);
  const services = servicesOf(config);
  const has = Object.fromEntries(transports.map((t) => [t.id, true]));
  const runners = new Set(transports.map((t) => t.runner));
  const dialOut = has.hosted_pstn_dialout || has.carrier1_hosted_sip_dialout || false;
  const sipDialIn = has.carrier1_hosted_sip_dialin ?? false;
  const pstnDialIn = has.hosted_pstn_dialin ?? false;
  const carriers = transports.filter((t) => CARRIERS.has(t.runner));
  const phone = carriers.length > 0;
  return {
    ...config,
    voicebot_version: VERSION,
    guide_stamp: stamp("project"),
    pipecat_version: PIPECAT_VERSION,
    pipecat_range: PIPECAT_RANGE,
    python_floor: pythonFloor(config),
    secret_set: secretSetName(config.project_name),
    pull_secret: `${secretSlug(config.project_name)}-registry`,
    web: config.bot_type === "web",
    telephony: config.bot_type === "telephony",
    cascade: config.mode === "cascade",
    realtime: config.mode === "realtime",
    stt: serviceView(config.stt_service),
    llm: serviceView(config.llm_service),
    tts: serviceView(config.tts_service),
    realtime_llm: serviceView(config.realtime_service),
    video: serviceView(config.video_service),
    needs_http_session: services.some((s) => s.needsHttpSession),
    greets: !SPEAKS_FIRST.has(config.realtime_service ?? ""),
    transports: transports.map((t) => ({ ...t, [`is_${t.id}`]: true })),
    has,
    daily: runners.has("daily"),
    webrtc: runners.has("webrtc"),
    twilio: runners.has("twilio"),
    telnyx: runners.has("telnyx"),
    plivo: runners.has("plivo"),
    exotel: runners.has("exotel"),
    phone,
    carriers: carriers.map((t) => ({ runner: t.runner, label: carrierName(t) })),
    carrier_names: carriers.map(carrierName).join(", "),
    ...sessionView(config, runners, dialOut),
    image: imageView(transports, carriers, pstnDialIn),
    dialin_token: DIALIN_TOKEN,
    dial_out: dialOut,
    pstn_dial_in: pstnDialIn,
    sip_dial_in: sipDialIn,
    daily_calls: dialOut || pstnDialIn || sipDialIn,
    video_params: videoParams(config),
    extras: pipecatExtras(config).join(","),
    transport_only_keys: [...transportOnlyKeys(config)].map(([key, labels]) => ({
      key,
      transports: labels.join(", "),
    })),
    has_transport_only_keys: transportOnlyKeys(config).size > 0,
    ...clientView(config),
  };
}

// ---------------------------------------------------------------------------------------------
// bot.py's imports, derived from the names the rendered code uses

/** Where each name bot.py may use comes from. Service imports are added from the catalog. */
const PYTHON_NAMES: Readonly<Record<string, string>> = {
  // The standard library.
  asyncio: "asyncio",
  base64: "base64",
  hashlib: "hashlib",
  hmac: "hmac",
  os: "os",
  re: "re",
  uuid: "uuid",
  UTC: "datetime",
  wave: "wave",
  datetime: "datetime",
  Path: "pathlib",
  parse_qs: "urllib.parse",
  // Third-party packages that pipecat-ai and its extras bring in.
  aiohttp: "aiohttp",
  load_dotenv: "dotenv",
  BackgroundTasks: "fastapi",
  Request: "fastapi",
  Response: "fastapi",
  JSONResponse: "fastapi.responses",
  logger: "loguru",
  OTLPSpanExporter: "opentelemetry.exporter.otlp.proto.http.trace_exporter",
  // Pipecat.
  SileroVADAnalyzer: "pipecat.audio.vad.silero",
  EvalTransportParams: "pipecat.evals.transport",
  LLMRunFrame: "pipecat.frames.frames",
  Pipeline: "pipecat.pipeline.pipeline",
  PipelineParams: "pipecat.pipeline.worker",
  PipelineWorker: "pipecat.pipeline.worker",
  LLMContext: "pipecat.processors.aggregators.llm_context",
  AssistantTurnStoppedMessage: "pipecat.processors.aggregators.llm_response_universal",
  LLMContextAggregatorPair: "pipecat.processors.aggregators.llm_response_universal",
  LLMUserAggregatorParams: "pipecat.processors.aggregators.llm_response_universal",
  UserTurnMessageAddedMessage: "pipecat.processors.aggregators.llm_response_universal",
  AudioBufferProcessor: "pipecat.processors.audio.audio_buffer_processor",
  configure: "pipecat.runner.daily",
  DailyRunnerArguments: "pipecat.runner.types",
  EvalRunnerArguments: "pipecat.runner.types",
  SmallWebRTCRunnerArguments: "pipecat.runner.types",
  RunnerArguments: "pipecat.runner.types",
  WebSocketRunnerArguments: "pipecat.runner.types",
  create_transport: "pipecat.runner.utils",
  maybe_capture_participant_camera: "pipecat.runner.utils",
  parse_telephony_websocket: "pipecat.runner.utils",
  BaseTransport: "pipecat.transports.base_transport",
  TransportParams: "pipecat.transports.base_transport",
  DailyParams: "pipecat.transports.daily.transport",
  FastAPIWebsocketParams: "pipecat.transports.websocket.fastapi",
  setup_tracing: "pipecat.utils.tracing.setup",
  WorkerRunner: "pipecat.workers.runner",
};

/** Modules that are imported whole (`import x`) rather than from (`from x import y`). */
const WHOLE_MODULES = new Set([
  "asyncio",
  "base64",
  "hashlib",
  "hmac",
  "os",
  "re",
  "uuid",
  "wave",
  "aiohttp",
]);
const STANDARD_LIBRARY = new Set([
  "asyncio",
  "base64",
  "hashlib",
  "datetime",
  "hmac",
  "os",
  "pathlib",
  "re",
  "urllib.parse",
  "uuid",
  "wave",
]);
const IMPORTS_MARKER = "# <imports>";
const LINE_LENGTH = 100;

/** The code without comments, docstrings and string text (f-strings keep their fields). */
function codeOnly(source: string): string {
  const fields = (literal: string) => (literal.match(/\{[^{}]*\}/g) ?? []).join(" ");
  return source
    .replace(/"""[\s\S]*?"""/g, '""')
    .replace(
      /(f?)("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g,
      (_, f, text) => f ? fields(text) : '""',
    )
    .replace(/#.*$/gm, "");
}

/** ruff's isort order for imported names: CONSTANTS, then Classes, then functions. */
function nameOrder(a: string, b: string): number {
  const rank = (n: string) => (n === n.toUpperCase() ? 0 : n[0] === n[0].toUpperCase() ? 1 : 2);
  return rank(a) - rank(b) || compare(a.toLowerCase(), b.toLowerCase()) || compare(a, b);
}

/** Code-point order. Not localeCompare: its first call loads ICU's collator, ~30 ms at start. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fromImport(module: string, names: string[]): string {
  const line = `from ${module} import ${names.join(", ")}`;
  if (line.length <= LINE_LENGTH) return line;
  return `from ${module} import (\n${names.map((n) => `    ${n},\n`).join("")})`;
}

/** Import blocks for the names `code` uses: the standard library, then everything else. */
export function pythonImports(code: string, services: readonly Service[]): string {
  const sources = new Map(Object.entries(PYTHON_NAMES));
  for (const line of services.flatMap((s) => s.imports)) {
    const [, module, names] = line.match(/^from (\S+) import (.+)$/)!;
    for (const name of names.split(",")) sources.set(name.trim(), module);
  }
  const used = new Set(codeOnly(code).match(/(?<![\w.])[A-Za-z_]\w*/g));
  const byModule = new Map<string, string[]>();
  for (const [name, module] of sources) {
    if (used.has(name)) byModule.set(module, [...byModule.get(module) ?? [], name]);
  }
  const block = (standard: boolean) => {
    const modules = [...byModule.keys()].filter((m) => STANDARD_LIBRARY.has(m) === standard)
      .sort();
    const whole = modules.filter((m) => WHOLE_MODULES.has(m)).map((m) => `import ${m}`);
    const from = modules.filter((m) => !WHOLE_MODULES.has(m))
      .map((m) => fromImport(m, byModule.get(m)!.sort(nameOrder)));
    return [...whole, ...from].join("\n");
  };
  return [block(true), block(false)].filter((b) => b !== "").join("\n\n");
}

// ---------------------------------------------------------------------------------------------
// .env.example, from the variables the rendered code reads

/** How the generated code reads one variable. */
export interface EnvRead {
  /** Read with `os.environ["NAME"]`: the code cannot run without it. */
  required: boolean;
  /** The defaults of its `os.getenv("NAME", default)` reads; `null` for a read without one. */
  defaults: Set<string | null>;
}

/** Every variable `code` reads with `os.environ[...]`, `os.environ.get(...)` or `os.getenv(...)`. */
export function envReads(code: string): Map<string, EnvRead> {
  const reads = new Map<string, EnvRead>();
  const read = (name: string) => {
    if (!reads.has(name)) reads.set(name, { required: false, defaults: new Set() });
    return reads.get(name)!;
  };
  for (const [, name] of code.matchAll(/os\.environ\[\s*"([A-Z0-9_]+)"\s*\]/g)) {
    read(name).required = true;
  }
  const optional = /os\.(?:getenv|environ\.get)\(\s*"([A-Z0-9_]+)"\s*(?:,\s*"([^"]*)"\s*)?\)/g;
  for (const [, name, fallback] of code.matchAll(optional)) {
    read(name).defaults.add(fallback ?? null);
  }
  return reads;
}

interface EnvGroup {
  title: string;
  lines: string[];
}

/**
 * `.env.example`'s groups: one per transport, service and feature that needs a variable, each
 * listed once. A variable the code needs is `NAME=`, to fill in. An optional one is commented out
 * with its default (`# NAME=default`), so that copying the file changes nothing: an empty value
 * would reach `os.getenv` as "" instead of its default. Variables that only Pipecat reads (the
 * runner's DAILY_API_KEY, the SageMaker clients' AWS keys) come from the catalog and count as
 * needed.
 */
/**
 * The keys that some of the project's transports need and others do not (`DAILY_API_KEY` for a bot
 * served over Daily and SmallWebRTC), with the transports that need each. `.env.example` and the
 * README say so, since `voicebot cloud secrets set` refuses an empty value: a user of the other
 * transports deletes the line rather than leave it empty.
 */
export function transportOnlyKeys(config: ScaffoldConfig): Map<string, string[]> {
  const transports = transportsOf(config);
  const needs = new Map<string, string[]>();
  for (const transport of transports) {
    for (const name of transport.env) needs.set(name, [...needs.get(name) ?? [], transport.label]);
  }
  return new Map([...needs].filter(([, labels]) => labels.length < transports.length));
}

export function envGroups(config: ScaffoldConfig, code: string): EnvGroup[] {
  const reads = envReads(code);
  const seen = new Set<string>();
  const groups: EnvGroup[] = [];
  // `optional`: entries `NAME` or `NAME=default` that bot.py does not read and that are optional
  // all the same (read by Pipecat's runner, or by the image's command).
  const add = (title: string, entries: readonly string[], optional = false) => {
    const names = entries.map((entry) => entry.split("=")[0]);
    const lines = names.filter((name) => !seen.has(name)).map((name) => {
      seen.add(name);
      const read = reads.get(name);
      if (!read && !optional) return `${name}=`;
      if (!read) {
        const entry = entries[names.indexOf(name)];
        return `# ${entry.includes("=") ? entry : `${entry}=`}`;
      }
      if (read.required) return `${name}=`;
      const [fallback] = read.defaults;
      return read.defaults.size === 1 && fallback !== null ? `# ${name}=${fallback}` : `# ${name}=`;
    });
    if (lines.length > 0) groups.push({ title, lines });
  };
  const only = transportOnlyKeys(config);
  for (const transport of transportsOf(config)) {
    const mine = transport.env.filter((name) => !seen.has(name) && only.has(name));
    const all = mine.length > 0 && mine.length === transport.env.filter((n) => !seen.has(n)).length;
    const title = mine.length === 0
      ? transport.label
      : all
      ? `${transport.label}: only for this transport (delete ${
        mine.length === 1 ? "the line" : "these lines"
      } if you do not use it)`
      : `${transport.label}: ${mine.join(", ")} only for this transport (delete ${
        mine.length === 1 ? "its line" : "their lines"
      } if you do not use it)`;
    add(title, transport.env);
  }
  for (const service of servicesOf(config)) add(`${service.label} (${service.kind})`, service.env);
  if (config.enable_observability) {
    add("Observability: an OpenTelemetry collector (OTLP over HTTP)", [
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ]);
  }
  if (config.enable_denoise) {
    add("Krisp noise cancellation: the cloud sets this when denoise is on", [
      "KRISP_VIVA_FILTER_MODEL_PATH",
    ]);
  }
  const runners = new Set(transportsOf(config).map((t) => t.runner));
  const phone = [...runners].some((r) => CARRIERS.has(r));
  add(
    "Who may start a session: without a token, only this machine (the image needs one)",
    // The image's command reads BOT_PUBLIC_HOST, for the carrier's webhook.
    ["BOT_START_TOKEN", ...(phone && config.deploy_to_cloud ? ["BOT_PUBLIC_HOST"] : [])],
    true,
  );
  if (config.transports.includes("hosted_pstn_dialin")) {
    add("Daily's dial-in webhook: the token in the URL you give Daily (README.md)", [DIALIN_TOKEN]);
  }
  // Variables Pipecat's runner reads itself, all optional.
  add(
    "Pipecat's runner (optional)",
    [
      ...(runners.has("daily") ? ["DAILY_ROOM_URL", "DAILY_API_URL=https://api.daily.co/v1"] : []),
      ...(config.bot_type === "web" ? ["PIPECAT_ALLOWED_ORIGINS"] : []),
    ],
    true,
  );
  const unlisted = [...reads.keys()].filter((name) => !seen.has(name));
  if (unlisted.length > 0) throw new Error(`bot.py reads ${unlisted.join(", ")}: add to a group`);
  return groups;
}

// ---------------------------------------------------------------------------------------------
// The files

/** Renders every template under `prefix` into `destination` (which ends with `/` or is empty). */
function renderFolder(prefix: string, destination: string, view: () => object): PlannedFile[] {
  return templatesUnder(prefix).map((name) =>
    plannedFile(outputPath(name, prefix, destination), () => render(name, view()))
  );
}

/** bot.py, with the imports its code uses put in place of the template's marker line. */
function renderBot(config: ScaffoldConfig, view: object): string {
  const code = render("server/bot.py.mustache", view);
  return code.replace(IMPORTS_MARKER, pythonImports(code, servicesOf(config)));
}

/**
 * Every file of a scaffolded project. Guide files are returned apart: they are never clobbered.
 * Each file is rendered when its content is first read, so a dry run renders none.
 */
export function planProject(
  config: ScaffoldConfig,
): { files: PlannedFile[]; guides: PlannedFile[] } {
  // The view too is made on first use: a dry run needs none of it.
  let made: ReturnType<typeof projectView> | undefined;
  const view = () => made ??= projectView(config);
  const template = (path: string, name: string) => plannedFile(path, () => render(name, view()));
  const bot = plannedFile("server/bot.py", () => renderBot(config, view()));
  const files: PlannedFile[] = [
    template("README.md", "project/README.md.mustache"),
    template(".gitignore", "project/gitignore"),
    bot,
    template("server/pyproject.toml", "server/pyproject.toml.mustache"),
    // What bot.py reads, so it is rendered from bot.py's code.
    plannedFile(
      "server/.env.example",
      () =>
        render("server/env.example.mustache", {
          ...view(),
          env_groups: envGroups(config, bot.content),
        }),
    ),
  ];
  if (config.deploy_to_cloud) {
    files.push(
      template("server/Dockerfile", "server/Dockerfile.mustache"),
      template("server/cloud-deploy.toml", "server/cloud-deploy.toml.mustache"),
    );
  }
  if (config.eval) {
    // A speech-to-speech bot has no text step to check apart: it gets the voice scenario only.
    const scenarios = config.mode === "cascade" ? ["text", "voice"] : ["voice"];
    for (const name of scenarios) {
      files.push(template(`server/evals/${name}.yaml`, `evals/${name}.yaml.mustache`));
    }
  }
  const client = clientFolder(config);
  if (client) files.push(...renderFolder(client, "client/", view));
  // How the project was made: `init --config` on it makes it again, and a guide refresh reads it.
  files.push(plannedFile(RECORD, () => `${JSON.stringify(config, null, 2)}\n`));
  return { files, guides: projectGuides(view) };
}

/** The file a scaffolded project keeps its configuration in: what `--dry-run` printed for it. */
export const RECORD = "voicebot.json";

/** A scaffolded project's own guides, from its configuration. */
export function planProjectGuides(config: ScaffoldConfig): PlannedFile[] {
  return projectGuides(() => projectView(config));
}

function projectGuides(view: () => object): PlannedFile[] {
  return [
    guide("AGENTS.md", "guides/AGENTS.project.md.mustache", view),
    guide("ASSISTANT.md", "guides/ASSISTANT.md.mustache", view),
  ];
}

/** The guide-only project of the coding-agent path. */
export function planGuides(projectName: string): PlannedFile[] {
  const view = () => ({
    project_name: projectName,
    guide_stamp: stamp("agent"),
    voicebot_version: VERSION,
  });
  return [
    guide("AGENTS.md", "guides/AGENTS.agent.md.mustache", view),
    guide("ASSISTANT.md", "guides/ASSISTANT.md.mustache", view),
    guide("GETTING_STARTED.md", "guides/GETTING_STARTED.md.mustache", view),
  ];
}

function guide(path: string, template: string, view: () => object): PlannedFile {
  return plannedFile(path, () => sealGuide(render(template, view())));
}
