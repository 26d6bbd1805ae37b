/**
 * The answers in words a person reads, as `init`'s questions name them: each config key by what it
 * asks, each value by its label (a service's, a transport's, a choice's), never by id. `update`'s
 * report says its changes so; `--json` keeps the ids, which are data.
 */
import { findService, findTransport, type Service, type Transport } from "./catalog.ts";
import type { ConfigKey } from "./config.ts";

/** Each key, by what it asks; a yes/no feature, by what it does (the wizard's tick's label). */
export const KEY_WORDS: Readonly<Record<ConfigKey, string>> = {
  project_name: "Project name",
  bot_type: "Bot type",
  transports: "Transports",
  mode: "Mode",
  stt_service: "Speech-to-text",
  llm_service: "Language model",
  tts_service: "Text-to-speech",
  realtime_service: "Realtime model",
  video_service: "Video avatar",
  client_framework: "Web client",
  client_server: "Client dev server",
  daily_pstn_mode: "Daily PSTN call direction",
  twilio_daily_sip_mode: "Twilio + Daily SIP call direction",
  recording: "Record the conversation's audio",
  transcription: "Log the conversation's transcript",
  video_input: "Receive the user's video",
  video_output: "Send video",
  deploy_to_cloud: "Cloud deployment files",
  enable_denoise: "Noise cancellation on the cloud",
  enable_observability: "Trace the pipeline with OpenTelemetry",
  eval: "Eval-ready",
};

const DIRECTION_WORDS = { "dial-in": "Dial-in", "dial-out": "Dial-out" } as const;

/**
 * The values of the keys that choose among a few, in the order the wizard offers them: the wizard's
 * options take their labels from here.
 */
export const VALUE_WORDS = {
  bot_type: { web: "Web", telephony: "Telephony" },
  mode: { cascade: "Cascade", realtime: "Realtime" },
  client_framework: {
    uilib: "React client with Pipecat's voice UI kit",
    vanilla: "Plain JavaScript client",
    none: "No client",
  },
  client_server: { devserver_a: "Vite", devserver_b: "Next.js" },
  daily_pstn_mode: DIRECTION_WORDS,
  twilio_daily_sip_mode: DIRECTION_WORDS,
} as const satisfies Partial<Record<ConfigKey, Readonly<Record<string, string>>>>;

/**
 * A service's label in the questions: a local one says so, "(local, no account)", joined to what
 * its label already says in brackets ("Whisper (local)" → "Whisper (local, no account)", "FunASR
 * (SenseVoice, local)" → "FunASR (SenseVoice, local, no account)"). A search for `local` finds them.
 */
export function serviceLabel(service: Service): string {
  if (!service.local) return service.label;
  const [, name, said] = /^(.*?)(?: \((.*)\))?$/.exec(service.label)!;
  const words = (said ?? "").split(", ").filter((word) => word !== "" && word !== "local");
  return `${name} (${[...words, "local", "no account"].join(", ")})`;
}

/**
 * A transport as the wizard's question labels it: the `--transport` value with its vendor, as help
 * and the docs name it (`carrier1 (Twilio)`), and for a browser transport that needs no key, that
 * it needs no account (`lightweb (SmallWebRTC, no account)`).
 */
export function transportLabel(transport: Transport): string {
  const free = transport.group === "web" && transport.env.length === 0 &&
    !transport.vendor.includes("no account");
  return `${transport.choice} (${transport.vendor}${free ? ", no account" : ""})`;
}

/**
 * A key's value in words: its label; a list's, joined with ", "; on or off; "none" for no value.
 * A value the catalog does not know is said as it is.
 */
export function valueWords(key: ConfigKey, value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) {
    return value.length === 0 ? "none" : value.map((item) => valueWords(key, item)).join(", ");
  }
  const id = String(value);
  if (key === "transports") {
    const transport = findTransport(id);
    return transport ? transportLabel(transport) : id;
  }
  if (key.endsWith("_service")) {
    const service = findService(id);
    return service ? serviceLabel(service) : id;
  }
  const words: Readonly<Record<string, string>> | undefined =
    VALUE_WORDS[key as keyof typeof VALUE_WORDS];
  return words?.[id] ?? id;
}

/**
 * One answer's change in words, `Text-to-speech: Cartesia -> Kokoro (local, no account)`; undefined
 * when the words do not differ (a call's transport whose direction changes: its direction's key
 * says so).
 */
export function answerChangeWords(change: {
  readonly key: ConfigKey;
  readonly from: unknown;
  readonly to: unknown;
}): string | undefined {
  const from = valueWords(change.key, change.from);
  const to = valueWords(change.key, change.to);
  return from === to ? undefined : `${KEY_WORDS[change.key]}: ${from} -> ${to}`;
}
