/**
 * The scaffold's questions, in the order asked: each step's label, when it applies, what it offers
 * (transports, services, features) with its default, how it is asked and what its answer reads as.
 */
import { type ConfigKey, projectNameProblem, suggestProjectName } from "../../init/config.ts";
import {
  findService,
  type ServiceKind,
  SERVICES,
  TRANSPORT_CHOICES,
  TRANSPORTS,
  VIDEO_TRANSPORTS,
} from "../../init/catalog.ts";
import { KEY_WORDS, serviceLabel, transportLabel, VALUE_WORDS } from "../../init/answer_words.ts";
import { QUICKSTART } from "../../init/mod.ts";
import type { Prompter, SelectOption } from "../prompt.ts";

/** The answers by step id: a step's value, or absent when it was not asked (or no longer applies). */
export type Answers = Record<string, unknown>;

/**
 * One question of the scaffold: its label in the summary, when it is asked (given the answers
 * before it), whether a kept answer still fits them, how it is asked (with the current answer
 * pre-selected), and what its answer reads as.
 */
export interface Step {
  readonly id: string;
  readonly label: string;
  /** The config keys it decides: a problem on one of them sends the user back to this step. */
  readonly keys: readonly string[];
  applies(answers: Answers): boolean;
  fits(answers: Answers): boolean;
  ask(prompt: Prompter, answers: Answers, defaultName: string): Promise<unknown>;
  show(answers: Answers): string;
  /** How a problem with `key` is introduced (default: the step's label). */
  labelOf?(key: string): string;
}

const always = () => true;
const isWeb = (a: Answers) => a.bot_type === "web";
/** A web bot with a transport that carries video (not only the websocket, audio only). */
const hasVideo = (a: Answers) =>
  isWeb(a) && [a.transport, a.second].some((id) => VIDEO_TRANSPORTS.has(id as string));

function choiceStep(
  id: string,
  label: string,
  keys: string[],
  options: (a: Answers) => (SelectOption<string> & { label: string })[],
  fallback: (a: Answers) => string | undefined,
  applies: (a: Answers) => boolean = always,
  ask: "select" | "search" = "select",
): Step {
  return {
    id,
    label,
    keys,
    applies,
    fits: (a) => options(a).some((o) => o.value === a[id]),
    ask: (prompt, a) => {
      const list = options(a);
      const current = list.some((o) => o.value === a[id]) ? a[id] as string : fallback(a);
      return ask === "select"
        ? prompt.select(label, list, current)
        : prompt.search(label, list, current);
    },
    show: (a) => options(a).find((o) => o.value === a[id])?.label ?? String(a[id]),
  };
}

function serviceStep(
  id: string,
  kind: ServiceKind,
  label: string,
  applies: (a: Answers) => boolean,
) {
  return choiceStep(
    id,
    label,
    [id],
    () => serviceOptions(kind),
    () => defaultService(kind),
    applies,
    "search",
  );
}

/**
 * The options of a key that chooses among a few, labelled (and ordered) as answer_words.ts says
 * them, so that `update`'s report reads as the questions did; `hints` by value.
 */
function choicesOf(
  key: keyof typeof VALUE_WORDS,
  hints: Readonly<Record<string, string>> = {},
): (SelectOption<string> & { label: string })[] {
  return Object.entries(VALUE_WORDS[key]).map(([value, label]) =>
    hints[value] ? { value, label, hint: hints[value] } : { value, label }
  );
}

const DIRECTIONS = choicesOf("daily_pstn_mode", {
  "dial-in": "people call the bot",
  "dial-out": "the bot calls people",
});

const hasDirection = (a: Answers) =>
  a.transport === "hosted_pstn" || a.transport === "carrier1_hosted_sip";

/** The yes/no features, asked as one list of ticks. */
export const FEATURES: readonly {
  id: string;
  /** The flag's key; the avatar's is its service, asked next. */
  key?: ConfigKey;
  label: string;
  hint?: string;
  applies: (a: Answers) => boolean;
}[] = [
  { id: "recording", key: "recording", label: KEY_WORDS.recording, applies: always },
  {
    id: "transcription",
    key: "transcription",
    label: KEY_WORDS.transcription,
    applies: always,
  },
  {
    id: "avatar",
    label: KEY_WORDS.video_service,
    hint: "its service is asked next",
    applies: hasVideo,
  },
  {
    id: "video_output",
    key: "video_output",
    label: KEY_WORDS.video_output,
    hint: "a video avatar always does",
    applies: hasVideo,
  },
  // Only a realtime model that takes the camera's frames ever sees the user's video.
  {
    id: "video_input",
    key: "video_input",
    label: KEY_WORDS.video_input,
    applies: (a) =>
      hasVideo(a) && a.mode === "realtime" &&
      findService(a.realtime_service as string)?.camera === true,
  },
  {
    id: "enable_observability",
    key: "enable_observability",
    label: KEY_WORDS.enable_observability,
    applies: always,
  },
  {
    id: "deploy_to_cloud",
    key: "deploy_to_cloud",
    label: KEY_WORDS.deploy_to_cloud,
    hint: "Dockerfile and cloud-deploy.toml",
    applies: always,
  },
  {
    id: "enable_denoise",
    key: "enable_denoise",
    label: KEY_WORDS.enable_denoise,
    hint: "needs the cloud deployment files",
    applies: always,
  },
  {
    id: "eval",
    key: "eval",
    label: KEY_WORDS.eval,
    hint: "an eval transport and starter scenarios",
    applies: always,
  },
];

/** Ticked to start with, as the flags' defaults are. */
const DEFAULT_FEATURES = ["deploy_to_cloud"];

function featureOptions(a: Answers): (SelectOption<string> & { label: string })[] {
  return FEATURES.filter((feature) => feature.applies(a))
    .map(({ id, label, hint }) => ({ value: id, label, hint }));
}

export const ticked = (a: Answers, id: string) =>
  Array.isArray(a.features) && (a.features as string[]).includes(id);

/**
 * The project name, its default shown grey and taken by Enter. A name the flags would refuse gets
 * a valid one made from it (`Restaurant Booker` → `restaurant-booker`), which the problem names as
 * its example and Enter then takes.
 */
async function askProjectName(prompt: Prompter, name: string): Promise<string> {
  let fallback = projectNameProblem(name) ? suggestProjectName(name) : name;
  for (;;) {
    const value = await prompt.text("Project name", {
      placeholder: fallback,
      defaultValue: fallback,
    });
    const problem = projectNameProblem(value);
    if (!problem) return value;
    fallback = suggestProjectName(value);
    await prompt.warn(`${problem}; Enter takes it, or type another name.`);
  }
}

/** Every question of the scaffold, in the order asked. */
export const STEPS: readonly Step[] = [
  {
    id: "project_name",
    label: "Project name",
    keys: ["project_name"],
    applies: always,
    fits: (a) => typeof a.project_name === "string" && !projectNameProblem(a.project_name),
    ask: (prompt, a, defaultName) =>
      askProjectName(prompt, typeof a.project_name === "string" ? a.project_name : defaultName),
    show: (a) => String(a.project_name),
  },
  choiceStep("bot_type", "Bot type", ["bot_type"], () =>
    choicesOf("bot_type", {
      web: "talk to it in a browser",
      telephony: "talk to it on the phone",
    }), () => "web"),
  choiceStep(
    "client_framework",
    "Web client",
    ["client_framework"],
    () => choicesOf("client_framework"),
    () => "uilib",
    isWeb,
  ),
  choiceStep(
    "client_server",
    "Client dev server",
    ["client_server"],
    () => choicesOf("client_server"),
    () => "devserver_a",
    (a) => isWeb(a) && a.client_framework === "uilib",
  ),
  choiceStep(
    "transport",
    "Transport",
    ["transports"],
    botTransports,
    (a) => quickstartTransport(botTransports(a)),
  ),
  {
    ...choiceStep(
      "direction",
      "Call direction",
      ["daily_pstn_mode", "twilio_daily_sip_mode"],
      () => DIRECTIONS,
      () => "dial-in",
      hasDirection,
    ),
    ask: (prompt, a) => {
      const label = transportOptions(always).find((o) => o.value === a.transport)!.label;
      return prompt.select(
        `Call direction for ${label}`,
        DIRECTIONS,
        (a.direction as string) ?? "dial-in",
      );
    },
  },
  {
    id: "second",
    label: "Second transport",
    keys: ["transports"],
    applies: always,
    fits: (a) =>
      a.second === null || localOptions(a.transport as string).some((o) => o.value === a.second),
    ask: (prompt, a) => askLocalTransport(prompt, a),
    show: (a) =>
      a.second === null
        ? "none"
        : localOptions(a.transport as string).find((o) => o.value === a.second)?.label ??
          String(a.second),
  },
  choiceStep("mode", "Mode", ["mode"], () =>
    choicesOf("mode", {
      cascade: "speech-to-text, language model, text-to-speech",
      realtime: "one speech-to-speech model",
    }), () => "cascade"),
  serviceStep("stt_service", "stt", "Speech-to-text service", (a) => a.mode === "cascade"),
  serviceStep("llm_service", "llm", "Language-model service", (a) => a.mode === "cascade"),
  serviceStep("tts_service", "tts", "Text-to-speech service", (a) => a.mode === "cascade"),
  serviceStep("realtime_service", "realtime", "Realtime service", (a) => a.mode === "realtime"),
  {
    id: "features",
    label: "Features",
    keys: FEATURES.flatMap((feature) => feature.key ? [feature.key] : []),
    applies: always,
    fits: (a) =>
      Array.isArray(a.features) &&
      (a.features as string[]).every((id) => featureOptions(a).some((o) => o.value === id)),
    ask: (prompt, a) =>
      prompt.multiselect(
        "Add features (Space ticks, Enter goes on)",
        featureOptions(a),
        Array.isArray(a.features) ? a.features as string[] : DEFAULT_FEATURES,
      ),
    show: (a) => {
      const on = featureOptions(a).filter((option) => ticked(a, option.value));
      return on.length === 0 ? "none" : on.map((option) => option.label).join(", ");
    },
    labelOf: (key) => FEATURES.find((feature) => feature.key === key)?.label ?? "Features",
  },
  serviceStep(
    "video_service",
    "video",
    "Video avatar service",
    (a) => hasVideo(a) && ticked(a, "avatar"),
  ),
];

/**
 * A second transport, to talk to the bot in a browser: only browser transports are offered,
 * SmallWebRTC first (it needs no account). Where one is left, it is named in the question
 * rather than picked from a list of one.
 */
async function askLocalTransport(prompt: Prompter, answers: Answers): Promise<string | null> {
  const options = localOptions(answers.transport as string);
  const current = typeof answers.second === "string" ? answers.second : undefined;
  if (options.length === 0) return null;
  if (options.length === 1) {
    const only = options[0];
    const add = await prompt.confirm(
      `Add ${only.label} as a second transport${
        answers.bot_type === "telephony" ? " for local testing" : ""
      }?`,
      { initial: current === only.value },
    );
    return add ? only.value : null;
  }
  if (
    !await prompt.confirm("Add a second transport for local testing?", {
      initial: current !== undefined,
    })
  ) {
    return null;
  }
  const initial = options.some((o) => o.value === current) ? current : options[0].value;
  return await prompt.select("Transport for local testing", options, initial);
}

/**
 * The browser transports a second one can be, SmallWebRTC (it needs no account) first: those
 * with a page to talk to the bot in, so not the websocket, which needs an app of its own (and
 * beside a carrier would shut out its calls: the runner's token guards both).
 */
function localOptions(first: string): (SelectOption<string> & { label: string })[] {
  const options = transportOptions((t) => t.group === "web" && t.id !== "websocket")
    .filter((option) => option.value !== first);
  const initial = quickstartTransport(options);
  return options.sort((a, b) => Number(b.value === initial) - Number(a.value === initial));
}

/** The transports of the bot's type (web or telephony). */
function botTransports(answers: Answers): (SelectOption<string> & { label: string })[] {
  return transportOptions((transport) => transport.group === answers.bot_type);
}

/** The quickstart's transport (SmallWebRTC) where it is one of `options`: the pre-selected one. */
function quickstartTransport(options: readonly SelectOption<string>[]): string | undefined {
  return QUICKSTART.transports?.find((id) => options.some((o) => o.value === id));
}

function transportOptions(
  keep: (transport: (typeof TRANSPORTS)[number]) => boolean,
): (SelectOption<string> & { label: string })[] {
  return TRANSPORT_CHOICES
    .map((choice) => ({ choice, transport: TRANSPORTS.find((t) => t.choice === choice)! }))
    .filter(({ transport }) => keep(transport))
    .map(({ choice, transport }) => ({
      value: choice,
      label: transportLabel(transport),
    }));
}

/**
 * Each list starts at the quickstart's service (Deepgram, OpenAI, Cartesia); the realtime list at
 * the realtime service of the quickstart's language-model vendor (OpenAI Realtime).
 */
function defaultService(kind: ServiceKind): string | undefined {
  const preset: Partial<Record<ServiceKind, string | undefined>> = {
    stt: QUICKSTART.stt_service,
    llm: QUICKSTART.llm_service,
    tts: QUICKSTART.tts_service,
    realtime: QUICKSTART.llm_service?.replace(/_llm$/, "_realtime"),
  };
  const id = preset[kind];
  return id !== undefined && findService(id)?.kind === kind ? id : undefined;
}

function serviceOptions(kind: ServiceKind): (SelectOption<string> & { label: string })[] {
  return SERVICES.filter((service) => service.kind === kind).map((service) => ({
    value: service.id,
    label: serviceLabel(service),
    hint: service.id,
  }));
}
