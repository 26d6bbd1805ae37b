/**
 * The one catalog of what a project can be made of: bot types, transports, modes, clients and every
 * AI service. It drives `--list-options`, validation, the templates and the wizard.
 */
import type { Service, ServiceKind } from "./catalog/types.ts";
import { STT_SERVICES } from "./catalog/stt.ts";
import { LLM_SERVICES } from "./catalog/llm.ts";
import { TTS_SERVICES } from "./catalog/tts.ts";
import { REALTIME_SERVICES } from "./catalog/realtime.ts";
import { VIDEO_SERVICES } from "./catalog/video.ts";

export type { Service, ServiceKind };

export const BOT_TYPES = ["web", "telephony"] as const;
export type BotType = (typeof BOT_TYPES)[number];

export const MODES = ["cascade", "realtime"] as const;
export type Mode = (typeof MODES)[number];

export const CLIENT_FRAMEWORKS = ["uilib", "vanilla", "none"] as const;
export type ClientFramework = (typeof CLIENT_FRAMEWORKS)[number];

export const CLIENT_SERVERS = ["devserver_a", "devserver_b"] as const;
export type ClientServer = (typeof CLIENT_SERVERS)[number];

/**
 * Pipecat's scaffolder's names for what SPEC.md names otherwise, accepted wherever ours are (flags
 * and `--config`), so that its users' commands and config files work unchanged.
 */
export const PIPECAT_NAMES = {
  client_framework: { react: "uilib" } as Readonly<Record<string, ClientFramework>>,
  client_server: { vite: "devserver_a", nextjs: "devserver_b" } as Readonly<
    Record<string, ClientServer>
  >,
  /** Its transports, generic (`daily_pstn`) and resolved (`daily_pstn_dialin`) alike. */
  transport: {
    daily: "hosted",
    smallwebrtc: "lightweb",
    twilio: "carrier1",
    telnyx: "carrier2",
    plivo: "carrier3",
    exotel: "carrier4",
    daily_pstn: "hosted_pstn",
    daily_pstn_dialin: "hosted_pstn_dialin",
    daily_pstn_dialout: "hosted_pstn_dialout",
    twilio_daily_sip: "carrier1_hosted_sip",
    twilio_daily_sip_dialin: "carrier1_hosted_sip_dialin",
    twilio_daily_sip_dialout: "carrier1_hosted_sip_dialout",
  } as Readonly<Record<string, string>>,
};

/** `--daily-pstn-mode` and `--twilio-daily-sip-mode` both take these. */
export const CALL_DIRECTIONS = ["dial-in", "dial-out"] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

/** What a user may pass to `--transport`. The two call transports resolve to a `_dialin`/`_dialout` form. */
export const TRANSPORT_CHOICES = [
  "hosted",
  "lightweb",
  "websocket",
  "carrier1",
  "carrier2",
  "carrier3",
  "carrier4",
  "hosted_pstn",
  "carrier1_hosted_sip",
] as const;

/** A transport after resolution: what the dry-run prints and the templates consume. */
export type TransportId =
  | "hosted"
  | "lightweb"
  | "websocket"
  | "carrier1"
  | "carrier2"
  | "carrier3"
  | "carrier4"
  | "hosted_pstn_dialin"
  | "hosted_pstn_dialout"
  | "carrier1_hosted_sip_dialin"
  | "carrier1_hosted_sip_dialout";

export interface Transport {
  readonly id: TransportId;
  readonly label: string;
  /** Who provides it, as help and the questions show it beside the id: `carrier1 (Twilio)`. */
  readonly vendor: string;
  readonly group: BotType;
  /** The `--transport` value this id comes from. */
  readonly choice: (typeof TRANSPORT_CHOICES)[number];
  /** Direction of a PSTN or SIP transport; null for the others. */
  readonly direction: CallDirection | null;
  /** The transport name Pipecat's development runner takes (`uv run bot.py -t <runner>`). */
  readonly runner: "daily" | "webrtc" | "websocket" | "twilio" | "telnyx" | "plivo" | "exotel";
  /** `pipecat-ai[...]` extras it needs. */
  readonly extras: readonly string[];
  /** Environment variables it needs, read by the bot or by Pipecat's runner. */
  readonly env: readonly string[];
}

export const TRANSPORTS: readonly Transport[] = [
  {
    id: "hosted",
    label: "Daily (WebRTC)",
    vendor: "Daily",
    group: "web",
    choice: "hosted",
    direction: null,
    runner: "daily",
    extras: ["daily"],
    env: ["DAILY_API_KEY"],
  },
  {
    id: "lightweb",
    label: "SmallWebRTC (peer-to-peer WebRTC)",
    vendor: "SmallWebRTC",
    group: "web",
    choice: "lightweb",
    direction: null,
    runner: "webrtc",
    extras: ["webrtc"],
    env: [],
  },
  {
    // Pipecat's own frames (protobuf) over a plain WebSocket: for a web or mobile app, or a server
    // of the user's own, with no WebRTC and no account. Pipecat's id, and the runner's name.
    id: "websocket",
    label: "WebSocket (Pipecat's protobuf frames)",
    vendor: "protobuf frames, no account",
    group: "web",
    choice: "websocket",
    direction: null,
    runner: "websocket",
    extras: ["websocket"],
    env: [],
  },
  {
    id: "carrier1",
    label: "Twilio (media streams)",
    vendor: "Twilio",
    group: "telephony",
    choice: "carrier1",
    direction: null,
    runner: "twilio",
    extras: ["websocket"],
    env: ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"],
  },
  {
    id: "carrier2",
    label: "Telnyx (media streaming)",
    vendor: "Telnyx",
    group: "telephony",
    choice: "carrier2",
    direction: null,
    runner: "telnyx",
    extras: ["websocket"],
    env: ["TELNYX_API_KEY"],
  },
  {
    id: "carrier3",
    label: "Plivo (audio streams)",
    vendor: "Plivo",
    group: "telephony",
    choice: "carrier3",
    direction: null,
    runner: "plivo",
    extras: ["websocket"],
    env: ["PLIVO_AUTH_ID", "PLIVO_AUTH_TOKEN"],
  },
  {
    id: "carrier4",
    label: "Exotel (voicebot applet)",
    vendor: "Exotel",
    group: "telephony",
    choice: "carrier4",
    direction: null,
    runner: "exotel",
    extras: ["websocket"],
    env: [],
  },
  {
    id: "hosted_pstn_dialin",
    label: "Daily PSTN dial-in",
    vendor: "Daily PSTN",
    group: "telephony",
    choice: "hosted_pstn",
    direction: "dial-in",
    runner: "daily",
    extras: ["daily"],
    env: ["DAILY_API_KEY"],
  },
  {
    id: "hosted_pstn_dialout",
    label: "Daily PSTN dial-out",
    vendor: "Daily PSTN",
    group: "telephony",
    choice: "hosted_pstn",
    direction: "dial-out",
    runner: "daily",
    extras: ["daily"],
    env: ["DAILY_API_KEY"],
  },
  {
    id: "carrier1_hosted_sip_dialin",
    label: "Twilio + Daily SIP dial-in",
    vendor: "Twilio + Daily SIP",
    group: "telephony",
    choice: "carrier1_hosted_sip",
    direction: "dial-in",
    runner: "daily",
    extras: ["daily"],
    env: ["DAILY_API_KEY", "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"],
  },
  {
    id: "carrier1_hosted_sip_dialout",
    label: "Twilio + Daily SIP dial-out",
    vendor: "Twilio + Daily SIP",
    group: "telephony",
    choice: "carrier1_hosted_sip",
    direction: "dial-out",
    runner: "daily",
    extras: ["daily"],
    // Daily dials the Twilio SIP domain; the bot itself never calls Twilio's API.
    env: ["DAILY_API_KEY"],
  },
];

/** The web transports that carry video; the websocket's protobuf frames carry audio only. */
export const VIDEO_TRANSPORTS: ReadonlySet<string> = new Set(["hosted", "lightweb"]);

/** The telephony carriers that stream a call over a websocket, by Pipecat runner name. */
export const CARRIERS: ReadonlySet<string> = new Set(["twilio", "telnyx", "plivo", "exotel"]);

export const SERVICES: readonly Service[] = [
  ...STT_SERVICES,
  ...LLM_SERVICES,
  ...TTS_SERVICES,
  ...REALTIME_SERVICES,
  ...VIDEO_SERVICES,
];

/** Every service by its id and by each of its aliases. */
const SERVICES_BY_ID = new Map(
  SERVICES.flatMap((service) => [service.id, ...service.aliases ?? []].map((id) => [id, service])),
);
const TRANSPORTS_BY_ID = new Map(TRANSPORTS.map((transport) => [transport.id, transport]));

/** The service an id or alias names. */
export function findService(id: string): Service | undefined {
  return SERVICES_BY_ID.get(id);
}

export function findTransport(id: string): Transport | undefined {
  return TRANSPORTS_BY_ID.get(id as TransportId);
}

/** The services of a kind, deprecated ones last. */
export function serviceIds(kind: ServiceKind): string[] {
  const ofKind = SERVICES.filter((service) => service.kind === kind);
  return [
    ...ofKind.filter((service) => !service.deprecated),
    ...ofKind.filter((service) => service.deprecated),
  ].map((service) => service.id);
}

/** Every id and alias accepted for a service of this kind: what a typo is matched against. */
export function serviceNames(kind: ServiceKind): string[] {
  return SERVICES.filter((service) => service.kind === kind)
    .flatMap((service) => [service.id, ...service.aliases ?? []]);
}

export function transportIds(group: BotType): TransportId[] {
  return TRANSPORTS.filter((transport) => transport.group === group).map((t) => t.id);
}

/** The `--list-options` document, in the shape of SPEC.md 4.2.5. */
export function listOptions() {
  return {
    bot_type: [...BOT_TYPES],
    transports: { web: transportIds("web"), telephony: transportIds("telephony") },
    stt: serviceIds("stt"),
    llm: serviceIds("llm"),
    tts: serviceIds("tts"),
    realtime: serviceIds("realtime"),
    video: serviceIds("video"),
  };
}
