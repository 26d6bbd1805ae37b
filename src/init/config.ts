/**
 * The scaffold configuration: where it comes from (a JSON file, then flags on top), and how it is
 * resolved and validated. Validation collects every problem of a run so the user fixes them at once.
 */
import {
  BOT_TYPES,
  type BotType,
  CALL_DIRECTIONS,
  type CallDirection,
  CARRIERS,
  CLIENT_FRAMEWORKS,
  CLIENT_SERVERS,
  type ClientFramework,
  type ClientServer,
  findService,
  findTransport,
  type Mode,
  MODES,
  PIPECAT_NAMES,
  serviceIds,
  type ServiceKind,
  serviceNames,
  TRANSPORT_CHOICES,
  type TransportId,
  TRANSPORTS,
  VIDEO_TRANSPORTS,
} from "./catalog.ts";
import { closest, didYouMean } from "../suggest.ts";
import { andList, quoted } from "../words.ts";

/** The resolved configuration. Key order is the order the dry-run prints; unused fields are null. */
export interface ScaffoldConfig {
  project_name: string;
  bot_type: BotType;
  transports: TransportId[];
  mode: Mode;
  stt_service: string | null;
  llm_service: string | null;
  tts_service: string | null;
  realtime_service: string | null;
  video_service: string | null;
  client_framework: ClientFramework | null;
  client_server: ClientServer | null;
  daily_pstn_mode: CallDirection | null;
  twilio_daily_sip_mode: CallDirection | null;
  recording: boolean;
  transcription: boolean;
  video_input: boolean;
  video_output: boolean;
  deploy_to_cloud: boolean;
  enable_denoise: boolean;
  enable_observability: boolean;
  eval: boolean;
}

export type ConfigKey = keyof ScaffoldConfig;

/** How a key is given: a string, a list of strings, or true/false. */
export type FieldType = "string" | "strings" | "boolean";

/**
 * Every key, with the flag that sets it and its type. Error messages name both key and flag, so
 * file and flag users alike can act; the config file's schema is built from the types.
 */
export const FIELDS: Readonly<Record<ConfigKey, { flag: string; type: FieldType }>> = {
  project_name: { flag: "--name", type: "string" },
  bot_type: { flag: "--bot-type", type: "string" },
  transports: { flag: "--transport", type: "strings" },
  mode: { flag: "--mode", type: "string" },
  stt_service: { flag: "--stt", type: "string" },
  llm_service: { flag: "--llm", type: "string" },
  tts_service: { flag: "--tts", type: "string" },
  realtime_service: { flag: "--realtime", type: "string" },
  video_service: { flag: "--video", type: "string" },
  client_framework: { flag: "--client-framework", type: "string" },
  client_server: { flag: "--client-server", type: "string" },
  daily_pstn_mode: { flag: "--daily-pstn-mode", type: "string" },
  twilio_daily_sip_mode: { flag: "--twilio-daily-sip-mode", type: "string" },
  recording: { flag: "--recording", type: "boolean" },
  transcription: { flag: "--transcription", type: "boolean" },
  video_input: { flag: "--video-input", type: "boolean" },
  video_output: { flag: "--video-output", type: "boolean" },
  deploy_to_cloud: { flag: "--deploy-to-cloud", type: "boolean" },
  enable_denoise: { flag: "--enable-denoise", type: "boolean" },
  enable_observability: { flag: "--observability", type: "boolean" },
  eval: { flag: "--eval", type: "boolean" },
};

export const CONFIG_KEYS = Object.keys(FIELDS) as ConfigKey[];

type InputValue<K extends ConfigKey> = ScaffoldConfig[K] extends boolean ? boolean
  : K extends "transports" ? string[]
  : string;

/** What the user gave, from the file and the flags; absent keys were not given. */
export type ScaffoldInput = { [K in ConfigKey]?: InputValue<K> };

/** One thing wrong with the input, named by its flag (and config key). */
export interface Problem {
  /** The config key it concerns, when there is one. */
  readonly key?: string;
  /**
   * The key is required and was not given. Such a problem is left out where what was given is not
   * known: a config file that could not be read, or a key it gave with the wrong type.
   */
  readonly missing?: boolean;
  /** What the user reads first: the flag and key, or the file and key. */
  readonly field: string;
  readonly message: string;
  /**
   * The same in the words of the wizard's questions, where `message` names a flag to add or drop:
   * a wizard user never typed one.
   */
  readonly answer?: string;
}

export function formatProblem(problem: Problem): string {
  return `${problem.field}: ${problem.message}`;
}

// ---------------------------------------------------------------------------------------------
// Resolution and validation

/**
 * Letters (either case) and digits, joined by `.`, `_` or `-`: what both Python packaging (PEP 508)
 * and container image names accept once lower-cased, which is how an image, a secret set and an npm
 * package get their name from it (`lowerName`).
 */
const PROJECT_NAME = /^[A-Za-z0-9]+(?:(?:[._]|__|-+)[A-Za-z0-9]+)*$/;
/** So that the secret set `<name>-secrets` stays within the 63-character limit of set names. */
export const PROJECT_NAME_MAX = 55;

export function projectNameProblem(name: string): string | undefined {
  if (name.length > PROJECT_NAME_MAX) {
    return `${quoted(name)} is too long: at most ${PROJECT_NAME_MAX} characters, e.g. "${
      suggestProjectName(name)
    }"`;
  }
  if (!PROJECT_NAME.test(name)) {
    return `${
      quoted(name)
    } is not a valid project name: use letters and digits, joined by single "-", "_" or "." (Python packages and, in lower case, container images accept these), e.g. "${
      suggestProjectName(name)
    }"`;
  }
  return undefined;
}

/**
 * A valid project name made from one that is not: lower case, each run of other characters one
 * "-", cut to the limit (`Restaurant Booker!` → `restaurant-booker`); `my-voice-bot` when nothing
 * is left.
 */
export function suggestProjectName(name: string): string {
  const words = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const cut = words.slice(0, PROJECT_NAME_MAX).replace(/-+$/, "");
  return cut === "" ? "my-voice-bot" : cut;
}

/**
 * The project name in lower case, for what takes no capitals: the container image, the secret set
 * and image pull secret (so that they match the image's name), the npm package of the client and
 * the cloud agent.
 */
export function lowerName(projectName: string): string {
  return projectName.toLowerCase();
}

function oneOf(values: readonly string[]): string {
  return `one of: ${values.join(", ")}`;
}

const KIND_LABEL: Record<ServiceKind, string> = {
  stt: "speech-to-text",
  llm: "language-model",
  tts: "text-to-speech",
  realtime: "realtime",
  video: "video",
};

/**
 * A configuration, or every problem with the input; and the warnings: what is accepted, as
 * Pipecat's scaffolder accepts it, but does not do what the user may expect.
 */
export type Resolution =
  | { config: ScaffoldConfig; problems: []; warnings: Problem[] }
  | { config: undefined; problems: Problem[]; warnings: Problem[] };

/**
 * Resolves the input into a complete configuration, or returns every problem found.
 * `defaultName` is the target directory's name, used when no project name is given.
 */
export function resolveConfig(
  input: ScaffoldInput,
  defaultName: string,
): Resolution {
  const run = startRun(input);
  const projectName = checkedProjectName(run, defaultName);
  const transports = resolvedTransports(run);
  const botType = resolvedBotType(run, transports.ids);
  const web = botType === "web";
  // Without a valid mode, the services given tell which mode is meant, so what that mode still
  // lacks is reported in the same run, not in the next one.
  const { declared, mode } = resolvedMode(run);
  const services = checkedServices(run);
  checkServicesOfMode(run, mode);
  checkVideo(run, web, mode, transports.ids, services);
  const client = resolvedClient(run, web);
  checkAvatarVideo(run, services.video_service);
  const deployToCloud = checkedDeployment(run);

  const { problems, warnings } = run;
  if (problems.length > 0 || !declared) return { config: undefined, problems, warnings };
  const config = assembledConfig(input, {
    projectName,
    botType,
    transports,
    mode: declared,
    services,
    client,
    deployToCloud,
  });
  return { config, problems: [], warnings };
}

/** One resolution: the input, and what its steps find in it, in the order found. */
interface Run {
  readonly input: ScaffoldInput;
  readonly problems: Problem[];
  readonly warnings: Problem[];
  /** The key was not given. */
  readonly absent: (key: ConfigKey) => boolean;
  readonly problem: (key: ConfigKey, message: string, answer?: string) => void;
  /** A required key that was not given; `message` follows "required". */
  readonly required: Report;
  readonly warning: Report;
}

function startRun(input: ScaffoldInput): Run {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  return {
    input,
    problems,
    warnings,
    absent: (key) => input[key] === undefined,
    problem: (key, message, answer) => {
      problems.push({ key, field: fieldName(key), message, ...answer ? { answer } : {} });
    },
    required: (key, message) => {
      problems.push({ key, field: fieldName(key), message: `required${message}`, missing: true });
    },
    warning: (key, message) => {
      warnings.push({ key, field: fieldName(key), message });
    },
  };
}

/** The project name, given or the directory's; when invalid, the problem says which it was. */
function checkedProjectName(run: Run, defaultName: string): string {
  const projectName = run.input.project_name ?? defaultName;
  const nameProblem = projectNameProblem(projectName);
  if (nameProblem) {
    run.problem(
      "project_name",
      run.absent("project_name")
        ? `${nameProblem}. It was taken from the directory name; pass --name to choose one`
        : nameProblem,
      nameProblem,
    );
  }
  return projectName;
}

/** The transports as the catalog's ids, and the PSTN and SIP directions they settle. */
interface Transports {
  readonly ids: TransportId[];
  readonly pstnDirection: CallDirection | null;
  readonly sipDirection: CallDirection | null;
}

/** The transports, with the PSTN and SIP directions folded in. */
function resolvedTransports(run: Run): Transports {
  const { input } = run;
  const pstnMode = checkedChoice(input, "daily_pstn_mode", CALL_DIRECTIONS, run.problem);
  const sipMode = checkedChoice(input, "twilio_daily_sip_mode", CALL_DIRECTIONS, run.problem);
  const given = (input.transports ?? []).map((value) => PIPECAT_NAMES.transport[value] ?? value);
  const ids = transportIds(run, given, pstnMode, sipMode);
  checkOneDirectionEach(run, ids);
  checkWebsocketWithoutCarriers(run, ids);
  return { ids, ...checkedDirections(run, given, ids, pstnMode, sipMode) };
}

/** Each transport given, once, as the catalog's id; reports unknown ones and missing directions. */
function transportIds(
  run: Run,
  given: readonly string[],
  pstnMode: CallDirection | undefined,
  sipMode: CallDirection | undefined,
): TransportId[] {
  const ids: TransportId[] = [];
  if (given.length === 0) {
    run.required("transports", `; give one or more, ${oneOf(TRANSPORT_CHOICES)}`);
  }
  for (const value of given) {
    const resolved = resolveTransport(value, pstnMode, sipMode);
    if (resolved === "unknown") {
      run.problem(
        "transports",
        `unknown transport ${quoted(String(value))}; ${transportHint(value)}${
          oneOf(TRANSPORT_CHOICES)
        }`,
      );
    } else if (resolved === "needs-pstn-mode") {
      run.required("daily_pstn_mode", ` with transport hosted_pstn; ${oneOf(CALL_DIRECTIONS)}`);
    } else if (resolved === "needs-sip-mode") {
      run.required(
        "twilio_daily_sip_mode",
        ` with transport carrier1_hosted_sip; ${oneOf(CALL_DIRECTIONS)}`,
      );
    } else if (!ids.includes(resolved)) {
      ids.push(resolved);
    }
  }
  return ids;
}

/** Reports PSTN or SIP transports given in both directions: a project takes one. */
function checkOneDirectionEach(run: Run, transports: readonly TransportId[]): void {
  const directions = { hosted_pstn: new Set<string>(), carrier1_hosted_sip: new Set<string>() };
  for (const id of transports) {
    const transport = findTransport(id)!;
    if (transport.direction && transport.choice in directions) {
      directions[transport.choice as keyof typeof directions].add(transport.direction);
    }
  }
  for (const [choice, set] of Object.entries(directions)) {
    if (set.size > 1) {
      run.problem("transports", `${choice} is either dial-in or dial-out in one project, not both`);
    }
  }
}

/**
 * Pipecat's runner guards /ws-client and the carriers' /ws with one setting (--ws-auth), and
 * the token a WebSocket client brings from /start is one a carrier's call never has.
 */
function checkWebsocketWithoutCarriers(run: Run, transports: readonly TransportId[]): void {
  const carriers = transports.filter((id) => CARRIERS.has(findTransport(id)!.runner));
  if (transports.includes("websocket") && carriers.length > 0) {
    run.problem(
      "transports",
      `websocket cannot share a bot with ${andList(carriers)}: Pipecat's runner would ask the ` +
        "carriers' calls for the one-time token that guards WebSocket clients, and carriers send " +
        "none; make the WebSocket bot and the phone bot two projects",
    );
  }
}

/** The directions the transports settle; reports one given without its transport, or against it. */
function checkedDirections(
  run: Run,
  given: readonly string[],
  transports: readonly TransportId[],
  pstnMode: CallDirection | undefined,
  sipMode: CallDirection | undefined,
): Pick<Transports, "pstnDirection" | "sipDirection"> {
  const hasChoice = (choice: string) =>
    transports.some((id) => findTransport(id)!.choice === choice) ||
    given.includes(choice);
  if (!run.absent("daily_pstn_mode") && !hasChoice("hosted_pstn")) {
    run.problem("daily_pstn_mode", "only with transport hosted_pstn (add -t hosted_pstn)");
  }
  if (!run.absent("twilio_daily_sip_mode") && !hasChoice("carrier1_hosted_sip")) {
    run.problem(
      "twilio_daily_sip_mode",
      "only with transport carrier1_hosted_sip (add -t carrier1_hosted_sip)",
    );
  }
  const pstnDirection = directionOf(transports, "hosted_pstn");
  const sipDirection = directionOf(transports, "carrier1_hosted_sip");
  if (pstnMode && pstnDirection && pstnMode !== pstnDirection) {
    run.problem(
      "daily_pstn_mode",
      `"${pstnMode}" contradicts transport hosted_pstn_${compact(pstnDirection)}`,
    );
  }
  if (sipMode && sipDirection && sipMode !== sipDirection) {
    run.problem(
      "twilio_daily_sip_mode",
      `"${sipMode}" contradicts transport carrier1_hosted_sip_${compact(sipDirection)}`,
    );
  }
  return { pstnDirection, sipDirection };
}

/** The bot type: given, or inferred from the transports. */
function resolvedBotType(run: Run, transports: readonly TransportId[]): BotType {
  const telephonyTransports = transports.filter((id) => findTransport(id)!.group === "telephony");
  const botType = checkedChoice(run.input, "bot_type", BOT_TYPES, run.problem);
  if (botType === "web" && telephonyTransports.length > 0) {
    const cannot = `a web bot cannot use the telephony transport${plural(telephonyTransports)} ${
      telephonyTransports.join(", ")
    }`;
    run.problem(
      "bot_type",
      `${cannot}; use --bot-type telephony, or leave it out to infer it`,
      `${cannot}; choose Telephony`,
    );
  }
  if (botType === "telephony" && transports.length > 0 && telephonyTransports.length === 0) {
    const phoneChoices = TRANSPORT_CHOICES.filter((choice) =>
      TRANSPORTS.some((t) => t.choice === choice && t.group === "telephony")
    );
    run.problem(
      "bot_type",
      `a telephony bot needs a telephony transport; add one of: ${phoneChoices.join(", ")}`,
    );
  }
  return botType ?? (telephonyTransports.length > 0 ? "telephony" : "web");
}

/** The mode given when valid (`declared`), and the mode meant: that one, or the services'. */
function resolvedMode(run: Run): { declared: Mode | undefined; mode: Mode | undefined } {
  const cascadeGiven = cascadeKeysGiven(run);
  const realtimeGiven = !run.absent("realtime_service");
  const declared = checkedMode(run.input, cascadeGiven, realtimeGiven, run.problem, run.required);
  return { declared, mode: declared ?? impliedMode(cascadeGiven, realtimeGiven) };
}

function cascadeKeysGiven(run: Run): CascadeKey[] {
  return CASCADE_KEYS.filter((key) => !run.absent(key));
}

type ServiceKey = CascadeKey | "realtime_service" | "video_service";

/** The services given, as the catalog's ids; undefined when not given or invalid. */
type Services = { readonly [K in ServiceKey]: string | undefined };

/** Each service given, checked against the catalog's services of its kind. */
function checkedServices(run: Run): Services {
  const { input, problem } = run;
  return {
    stt_service: checkedService(input, "stt_service", "stt", problem),
    llm_service: checkedService(input, "llm_service", "llm", problem),
    tts_service: checkedService(input, "tts_service", "tts", problem),
    realtime_service: checkedService(input, "realtime_service", "realtime", problem),
    video_service: checkedService(input, "video_service", "video", problem),
  };
}

/** Reports the services the mode needs and were not given, and those of the other mode. */
function checkServicesOfMode(run: Run, mode: Mode | undefined): void {
  if (mode === "cascade") {
    for (const key of CASCADE_KEYS) {
      if (run.absent(key)) {
        run.required(key, ` in cascade mode; ${oneOf(serviceIds(KIND[key]))}`);
      }
    }
    if (!run.absent("realtime_service")) {
      run.problem(
        "realtime_service",
        "only in realtime mode; cascade mode uses --stt, --llm and --tts",
        "only in realtime mode",
      );
    }
  } else if (mode === "realtime") {
    if (run.absent("realtime_service")) {
      run.required("realtime_service", ` in realtime mode; ${oneOf(serviceIds("realtime"))}`);
    }
    for (const key of cascadeKeysGiven(run)) {
      run.problem(
        key,
        "only in cascade mode; realtime mode uses --realtime alone",
        "only in cascade mode",
      );
    }
  }
}

/** Reports an option set that only web bots take, when the bot is a telephony one. */
function checkWebOnly(run: Run, web: boolean, key: ConfigKey, isSet: boolean): void {
  if (!web && isSet) run.problem(key, "for web bots only; this is a telephony bot");
}

/** Video is for web bots, and for a transport that carries it to a service that sees it. */
function checkVideo(
  run: Run,
  web: boolean,
  mode: Mode | undefined,
  transports: readonly TransportId[],
  services: Services,
): void {
  // The video the input asks for: an avatar, the camera, the bot's own video.
  const videoKeys = (["video_service", "video_input", "video_output"] as const).filter((key) =>
    key === "video_service" ? !run.absent(key) : run.input[key] === true
  );
  for (const key of videoKeys) checkWebOnly(run, web, key, true);
  if (!web) return;
  warnUnseenCamera(run, mode, services.realtime_service);
  checkVideoOverWebsocket(run, videoKeys, transports);
}

/**
 * Pipecat's scaffolder takes the camera whatever the pipeline, and so does init; where no service
 * of the pipeline handles its frames at Pipecat 1.7.0, it says so. A cascade context takes an
 * image only through a function call that asks for one; some realtime classes drop the frames
 * (no InputImageRawFrame handling).
 */
function warnUnseenCamera(
  run: Run,
  mode: Mode | undefined,
  realtimeService: string | undefined,
): void {
  const watchers = () => serviceIds("realtime").filter((id) => findService(id)!.camera);
  if (mode === "cascade" && run.input.video_input === true) {
    run.warning(
      "video_input",
      `the camera's frames reach no service of a cascade pipeline in Pipecat 1.7.0, so the bot does not see them; generated as Pipecat's scaffolder does (the transport takes the camera). For a model that watches it: --mode realtime with one of: ${
        watchers().join(", ")
      }`,
    );
  }
  const realtime = realtimeService && findService(realtimeService)!;
  if (mode === "realtime" && run.input.video_input === true && realtime && !realtime.camera) {
    run.warning(
      "video_input",
      `${realtime.id} drops the camera's frames in Pipecat 1.7.0, so its model never sees them; generated as Pipecat's scaffolder does (the transport takes the camera). Realtime services that take the camera: ${
        watchers().join(", ")
      }`,
    );
  }
}

/** Pipecat's protobuf frames carry audio and text, not video: only Daily and SmallWebRTC do. */
function checkVideoOverWebsocket(
  run: Run,
  videoKeys: readonly ConfigKey[],
  transports: readonly TransportId[],
): void {
  const videoCarriers = transports.filter((id) => VIDEO_TRANSPORTS.has(id));
  if (videoKeys.length > 0 && transports.includes("websocket")) {
    if (videoCarriers.length === 0) {
      for (const key of videoKeys) {
        run.problem(
          key,
          "needs a transport that carries video (add -t lightweb or -t hosted): websocket sends " +
            "Pipecat's protobuf frames, which carry audio only",
          "needs SmallWebRTC or Daily: websocket carries audio only",
        );
      }
    } else {
      run.warning(
        videoKeys[0],
        `video goes over ${andList(videoCarriers)} only: a websocket client gets audio alone ` +
          "(Pipecat's protobuf frames carry no video)",
      );
    }
  }
}

/** The client's framework and server as given; undefined when not given or invalid. */
interface Client {
  readonly framework: ClientFramework | undefined;
  readonly server: ClientServer | undefined;
}

/** The client: a framework for web bots only, a server for the UI library's only. */
function resolvedClient(run: Run, web: boolean): Client {
  const framework = checkedChoice(
    run.input,
    "client_framework",
    CLIENT_FRAMEWORKS,
    run.problem,
    PIPECAT_NAMES.client_framework,
  );
  checkWebOnly(run, web, "client_framework", framework !== undefined && framework !== "none");
  const server = checkedChoice(
    run.input,
    "client_server",
    CLIENT_SERVERS,
    run.problem,
    PIPECAT_NAMES.client_server,
  );
  // The vanilla client runs on Vite, so naming Vite for it (as Pipecat's dry run does) is no error.
  const vanillaOnVite = framework === "vanilla" && server === "devserver_a";
  if (!run.absent("client_server") && framework !== "uilib" && !vanillaOnVite) {
    run.problem(
      "client_server",
      `only with --client-framework uilib; ${oneOf(CLIENT_SERVERS)}`,
      "only with the React client with Pipecat's voice UI kit",
    );
  }
  return { framework, server };
}

/** Reports turning off the video of an avatar, which always sends it. */
function checkAvatarVideo(run: Run, videoService: string | undefined): void {
  if (videoService && run.input.video_output === false) {
    run.problem(
      "video_output",
      `--video ${videoService} renders video; drop --no-video-output`,
      "a video avatar always sends video",
    );
  }
}

/** Whether to deploy to the cloud (yes unless told not to); denoising is for the cloud only. */
function checkedDeployment(run: Run): boolean {
  const deployToCloud = run.input.deploy_to_cloud ?? true;
  if (run.input.enable_denoise && !deployToCloud) {
    run.problem(
      "enable_denoise",
      "needs cloud deployment; drop --no-deploy-to-cloud",
      "needs the cloud deployment files too",
    );
  }
  return deployToCloud;
}

/** What the steps settled, once they found no problem. */
interface Parts {
  readonly projectName: string;
  readonly botType: BotType;
  readonly transports: Transports;
  readonly mode: Mode;
  readonly services: Services;
  readonly client: Client;
  readonly deployToCloud: boolean;
}

/** The config: the steps' results, defaults for the rest, null for what the bot does not use. */
function assembledConfig(input: ScaffoldInput, parts: Parts): ScaffoldConfig {
  const { services, client } = parts;
  const web = parts.botType === "web";
  const cascade = parts.mode === "cascade";
  return {
    project_name: parts.projectName,
    bot_type: parts.botType,
    transports: parts.transports.ids,
    mode: parts.mode,
    stt_service: cascade ? services.stt_service ?? null : null,
    llm_service: cascade ? services.llm_service ?? null : null,
    tts_service: cascade ? services.tts_service ?? null : null,
    realtime_service: cascade ? null : services.realtime_service ?? null,
    video_service: web ? services.video_service ?? null : null,
    client_framework: web ? client.framework ?? "none" : null,
    client_server: client.framework === "uilib" ? client.server ?? "devserver_a" : null,
    daily_pstn_mode: parts.transports.pstnDirection,
    twilio_daily_sip_mode: parts.transports.sipDirection,
    recording: input.recording ?? false,
    transcription: input.transcription ?? false,
    video_input: web && (input.video_input ?? false),
    video_output: web && (input.video_output ?? services.video_service !== undefined),
    deploy_to_cloud: parts.deployToCloud,
    enable_denoise: input.enable_denoise ?? false,
    enable_observability: input.enable_observability ?? false,
    eval: input.eval ?? false,
  };
}

const CASCADE_KEYS = ["stt_service", "llm_service", "tts_service"] as const;
type CascadeKey = (typeof CASCADE_KEYS)[number];

const KIND: Record<CascadeKey, ServiceKind> = {
  stt_service: "stt",
  llm_service: "llm",
  tts_service: "tts",
};

function fieldName(key: ConfigKey): string {
  return `${FIELDS[key].flag} (${key})`;
}

function plural(items: readonly unknown[]): string {
  return items.length === 1 ? "" : "s";
}

function compact(direction: CallDirection): string {
  return direction.replace("-", "");
}

type Report = (key: ConfigKey, message: string) => void;

/**
 * The mode, when it is given and valid. When it is not, the problem says what each mode takes,
 * measured against the services given: the one mode they imply, or, when they mix both modes'
 * services (or there are none), what each mode would need.
 */
function checkedMode(
  input: ScaffoldInput,
  cascadeGiven: readonly CascadeKey[],
  realtimeGiven: boolean,
  problem: Report,
  required: Report,
): Mode | undefined {
  const value = input.mode;
  if (value !== undefined && (MODES as readonly unknown[]).includes(value)) return value as Mode;
  const advice = modeAdvice(cascadeGiven, realtimeGiven);
  if (value === undefined) {
    required("mode", `; ${advice}`);
  } else {
    problem(
      "mode",
      `invalid value ${quoted(String(value))}; ${didYouMean(String(value), MODES)}${advice}`,
    );
  }
  return undefined;
}

/** The mode that the services given imply when the mode is not known: only one mode's services. */
function impliedMode(
  cascadeGiven: readonly CascadeKey[],
  realtimeGiven: boolean,
): Mode | undefined {
  if (cascadeGiven.length > 0 && !realtimeGiven) return "cascade";
  if (realtimeGiven && cascadeGiven.length === 0) return "realtime";
  return undefined;
}

function modeAdvice(cascadeGiven: readonly CascadeKey[], realtimeGiven: boolean): string {
  const flags = (keys: readonly ConfigKey[]) => andList(keys.map((key) => FIELDS[key].flag));
  const implied = impliedMode(cascadeGiven, realtimeGiven);
  if (implied === "cascade") {
    const verb = cascadeGiven.length === 1 ? "is" : "are";
    return `one of: cascade, realtime; ${
      flags(cascadeGiven)
    } ${verb} for cascade mode: add --mode cascade`;
  }
  if (implied === "realtime") {
    return "one of: cascade, realtime; --realtime is for realtime mode: add --mode realtime";
  }
  if (!realtimeGiven) {
    return "cascade (with --stt, --llm and --tts) or realtime (with --realtime)";
  }
  const lacking = CASCADE_KEYS.filter((key) => !cascadeGiven.includes(key));
  return `the services given are of both modes; choose one: cascade (with --stt, --llm and --tts${
    lacking.length > 0 ? `, so add ${flags(lacking)}` : ""
  }; drop --realtime) or realtime (with --realtime alone; drop ${flags(cascadeGiven)})`;
}

/**
 * The value of a choice key when it is valid (or one of its `aliases`); an invalid one is reported
 * and comes back undefined.
 */
function checkedChoice<T extends string>(
  input: ScaffoldInput,
  key: ConfigKey,
  choices: readonly T[],
  problem: Report,
  aliases: Readonly<Record<string, T>> = {},
): T | undefined {
  const value = input[key];
  if (value === undefined) return undefined;
  if (typeof value === "string") {
    if ((choices as readonly string[]).includes(value)) return value as T;
    if (Object.hasOwn(aliases, value)) return aliases[value];
  }
  problem(
    key,
    `invalid value ${quoted(String(value))}; ${didYouMean(String(value), choices)}${
      oneOf(choices)
    }`,
  );
  return undefined;
}

/** What `--transport` takes, ours and Pipecat's: what a typo is matched against. */
const TRANSPORT_NAMES = [
  ...TRANSPORT_CHOICES,
  ...TRANSPORTS.map((transport) => transport.id),
  ...Object.keys(PIPECAT_NAMES.transport),
];

/** The transport meant by a typo, or by the name Pipecat's runner gives it (`-t webrtc`). */
function transportHint(value: string): string {
  const byRunner = TRANSPORTS.find((transport) => transport.runner === value);
  return byRunner
    ? `did you mean "${byRunner.choice}"? (the runner's name for it is ${value}) `
    : didYouMean(value, TRANSPORT_NAMES);
}

function checkedService(
  input: ScaffoldInput,
  key: ConfigKey,
  kind: ServiceKind,
  problem: Report,
): string | undefined {
  const id = input[key];
  if (typeof id !== "string") return undefined;
  const service = findService(id);
  // An alias (Pipecat's id, or an older one of ours) resolves to the catalog's id.
  if (service?.kind === kind) return service.id;
  const what = service
    ? `${quoted(id)} is a ${KIND_LABEL[service.kind]} service, not a ${KIND_LABEL[kind]} one`
    : `unknown ${KIND_LABEL[kind]} service ${quoted(id)}`;
  const near = closest(id, serviceNames(kind));
  problem(key, near ? `${what}; did you mean "${near}"?` : `${what}; ${oneOf(serviceIds(kind))}`);
  return undefined;
}

type TransportResolution = TransportId | "unknown" | "needs-pstn-mode" | "needs-sip-mode";

function resolveTransport(
  value: string,
  pstnMode: CallDirection | undefined,
  sipMode: CallDirection | undefined,
): TransportResolution {
  if (value === "hosted_pstn") {
    return pstnMode ? `hosted_pstn_${compact(pstnMode)}` as TransportId : "needs-pstn-mode";
  }
  if (value === "carrier1_hosted_sip") {
    return sipMode ? `carrier1_hosted_sip_${compact(sipMode)}` as TransportId : "needs-sip-mode";
  }
  // The resolved forms are accepted too, so a dry-run's output can be fed back as a config file.
  return TRANSPORTS.some((t) => t.id === value) ? value as TransportId : "unknown";
}

function directionOf(transports: readonly TransportId[], choice: string): CallDirection | null {
  for (const id of transports) {
    const transport = findTransport(id)!;
    if (transport.choice === choice) return transport.direction;
  }
  return null;
}
