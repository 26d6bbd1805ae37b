/**
 * The templates' view of a project: one object computed from a resolved configuration and the
 * catalog, which every template of the project renders from.
 */
import { VERSION } from "../version.ts";
import { andList, wrap } from "../words.ts";
import { clientView } from "./client.ts";
import { CARRIERS, findService, findTransport, type Service, type Transport } from "./catalog.ts";
import { lowerName, type ScaffoldConfig } from "./config.ts";
import { stamp } from "./guides.ts";
import { pythonString } from "./python_code.ts";

/** The Pipecat release the templates are written against, and the range the project accepts. */
export const PIPECAT_VERSION = "1.7.0";
export const PIPECAT_RANGE = ">=1.7.0,<1.8";

/**
 * `pipecat-ai` extras whose dependencies carry a `python_version>='3.12'` marker in Pipecat's
 * pyproject.toml, so they install nothing on 3.11: a project that needs one requires 3.12.
 */
const PYTHON_312_EXTRAS = new Set(["aws-nova-sonic", "sagemaker"]);

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

/**
 * Secret names allow letters, digits and hyphens only; project names may also hold `.` and `_`.
 * Lower case, as the platform's documented secrets API takes set names (docs/API.md), and so that
 * a set is named as the image is.
 */
function secretSlug(projectName: string): string {
  return lowerName(projectName).replace(/[._]+/g, "-");
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

export function transportsOf(config: ScaffoldConfig): Transport[] {
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
  // A WebSocket client's session is a WebSocketRunnerArguments, told apart from a carrier's call
  // by its transport_type: session_refusal checks it, not SESSION_TYPES.
  if (runners.has("websocket")) sessions.push("WebSocket clients");
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

/** The unprivileged user the image runs the bot as, and its home: the one place it may write. */
export const IMAGE_USER = { name: "bot", uid: 10001, home: "/home/bot" };

/** The directory the image copies bot.py to and runs it in; root's, read-only to the bot. */
const IMAGE_APP = "/app";

/**
 * A service whose Pipecat class downloads model files when it is constructed: what the README
 * says of it, and the image's build step, which constructs the class as bot.py does (the same
 * imports and expression, on one line), so that the files are where the bot looks for them.
 */
function modelView(service: Service) {
  const download = service.modelDownload!;
  const construct = service.construct.split("\n").map((line) => line.trim()).join("")
    .replaceAll(",)", ")");
  const code = [
    ...(construct.includes("os.") ? ["import os"] : []),
    ...service.imports,
    construct,
  ].join("; ");
  if (code.includes("'")) throw new Error(`${service.id}: its construction holds a quote`);
  const home = download.into === "home";
  const imagePath = home ? download.cache!.replace(/^~/, IMAGE_USER.home) : IMAGE_APP;
  const fetches = `${service.label} downloads ${download.what}${
    download.size ? ` (${download.size})` : ""
  }`;
  const comment = home
    ? `${fetches} into ${imagePath} when bot.py makes the service. Made here once, the same way ` +
      "and as the same user, the files are in the image, and no session waits for them."
    : `${fetches} into the directory the bot runs in, ${imagePath}, when bot.py makes the ` +
      "service. Made here once, the same way, the files are part of the image, read-only like " +
      "the code, and no session waits for them.";
  return {
    ...download,
    label: service.label,
    run: `python -c '${code}'`,
    comment: wrap(comment, 98),
    // Where a local run puts the files, and where the image has them.
    local_path: download.localCache ??
      (home ? `\`${download.cache}\`` : "`server/`, the directory the bot runs in"),
    image_path: imagePath,
  };
}

/** The variable that holds the token in the URL of Daily's dial-in webhook (bot.py reads it). */
export const DIALIN_TOKEN = "DIALIN_WEBHOOK_TOKEN";

/**
 * How the image runs the bot: Pipecat's runner on all interfaces, for the bot's transports. A
 * phone bot's runner serves its carrier's webhook, which needs the public host name. Daily's
 * dial-in webhook, which the runner mounts unless told not to, only for a bot that takes dial-in.
 */
function imageView(
  transports: Transport[],
  carriers: Transport[],
  dialIn: boolean,
  models: ReturnType<typeof modelView>[],
) {
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
    : runners.has("websocket")
    ? '{"transport": "websocket"}'
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
    user: IMAGE_USER,
    app: IMAGE_APP,
    // Models that go to the user's home are fetched as the user; those that go to the working
    // directory, /app, as root before it, like the code they sit beside.
    home_models: models.filter((m) => m.into === "home"),
    cwd_models: models.filter((m) => m.into === "cwd"),
  };
}

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
  const models = services.filter((s) => s.modelDownload).map(modelView);
  return {
    ...config,
    voicebot_version: VERSION,
    guide_stamp: stamp("project"),
    pipecat_version: PIPECAT_VERSION,
    pipecat_range: PIPECAT_RANGE,
    python_floor: pythonFloor(config),
    // The project name as typed where any case is fine (pyproject.toml, titles); lower-cased where
    // capitals are refused: an image's repository name, an npm package's name. The cloud agent
    // takes the image's name: Pipecat Cloud's agent names are used in URLs and documented in
    // lower case only ("my-agent"), so lower case is the one form sure to be taken.
    image_name: lowerName(config.project_name),
    agent_name: lowerName(config.project_name),
    client_package: `${lowerName(config.project_name)}-client`,
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
    websocket: runners.has("websocket"),
    twilio: runners.has("twilio"),
    telnyx: runners.has("telnyx"),
    plivo: runners.has("plivo"),
    exotel: runners.has("exotel"),
    phone,
    carriers: carriers.map((t) => ({ runner: t.runner, label: carrierName(t) })),
    carrier_names: carriers.map(carrierName).join(", "),
    ...sessionView(config, runners, dialOut),
    image: imageView(transports, carriers, pstnDialIn, models),
    model_downloads: models,
    has_model_downloads: models.length > 0,
    dialin_token: DIALIN_TOKEN,
    dial_out: dialOut,
    pstn_dial_in: pstnDialIn,
    sip_dial_in: sipDialIn,
    daily_calls: dialOut || pstnDialIn || sipDialIn,
    video_params: videoParams(config),
    // The camera is captured for a model that takes its frames. Elsewhere (a cascade pipeline, a
    // realtime class that drops them) the transport takes it, as Pipecat's scaffolder has it, and
    // init warns that nothing sees it.
    capture_camera: config.video_input && config.mode === "realtime" &&
      Boolean(findService(config.realtime_service ?? "")?.camera),
    extras: pipecatExtras(config).join(","),
    transport_only_keys: [...transportOnlyKeys(config)].map(([key, labels]) => ({
      key,
      transports: labels.join(", "),
    })),
    has_transport_only_keys: transportOnlyKeys(config).size > 0,
    ...clientView(config),
  };
}
