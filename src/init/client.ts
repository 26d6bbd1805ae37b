/**
 * The web client's part of the template view: which client, on which dev server, talking to the
 * bot over which transports, with which media.
 */
import { findTransport } from "./catalog.ts";
import type { ScaffoldConfig } from "./config.ts";

/** Where Pipecat's development runner (`uv run bot.py`) serves the bot. */
export const BOT_URL = "http://localhost:7860";
/**
 * What the dev server forwards to the runner, the prefix stripped: `/api/start` reaches its
 * `POST /start`, SmallWebRTC's `/api/sessions/<id>/api/offer` its offer route, and a WebSocket
 * client's `/api/ws-client` its socket.
 */
export const BOT_PROXY_PREFIX = "/api";
/** Where the client asks for a session. */
export const START_PATH = `${BOT_PROXY_PREFIX}/start`;
/**
 * The oldest Node the clients run on: the intersection of the `engines.node` ranges of every
 * package they install, highest of them Daily's call library (`@daily-co/daily-js`), which both JS
 * transports bring. tests/client_test.ts derives it from tests/data/client_engines.json, which
 * scripts/check_clients.sh takes from the installed packages.
 */
export const CLIENT_NODE_MIN = "22.14.0";

/** A web transport as the client sees it. */
export interface ClientTransport {
  /** Its name in Pipecat's voice UI kit (`transportType`). */
  readonly kit: "smallwebrtc" | "daily" | "websocket";
  /** Its name in the body of the runner's `POST /start` (`transport`). */
  readonly runner: string;
  readonly label: string;
  /** The npm package of its JS transport, and the class that package exports. */
  readonly package: string;
  readonly className: string;
  /** A Daily session needs a room, which the runner creates when asked (`createDailyRoom`). */
  readonly create_room: boolean;
  /**
   * The runner answers `/start` with a socket to open (`wsUrl`) and its one-time token: the client
   * opens it through the dev server instead, whose address the browser can reach.
   */
  readonly socket: boolean;
}

const WEB_TRANSPORTS: Readonly<
  Record<string, Omit<ClientTransport, "runner" | "create_room" | "socket">>
> = {
  lightweb: {
    kit: "smallwebrtc",
    label: "SmallWebRTC",
    package: "@pipecat-ai/small-webrtc-transport",
    className: "SmallWebRTCTransport",
  },
  hosted: {
    kit: "daily",
    label: "Daily",
    package: "@pipecat-ai/daily-transport",
    className: "DailyTransport",
  },
  websocket: {
    kit: "websocket",
    label: "WebSocket",
    package: "@pipecat-ai/websocket-transport",
    className: "WebSocketTransport",
  },
};

/** The bot's web transports in the order given; the first is the client's default. */
export function clientTransports(config: ScaffoldConfig): ClientTransport[] {
  return config.transports.flatMap((id) => {
    const transport = WEB_TRANSPORTS[id];
    if (!transport) return [];
    const runner = findTransport(id)!.runner;
    return [
      { ...transport, runner, create_room: runner === "daily", socket: runner === "websocket" },
    ];
  });
}

export function clientView(config: ScaffoldConfig) {
  const transports = clientTransports(config);
  const next = onNext(config);
  return {
    client: clientFolder(config) !== null,
    client_vanilla: config.client_framework === "vanilla",
    client_uilib: config.client_framework === "uilib",
    client_vite: config.client_framework === "vanilla" || config.client_server === "devserver_a",
    client_next: next,
    /** Where the dev server serves the client: Next.js and Vite defaults. */
    client_url: next ? "http://localhost:3000" : "http://localhost:5173",
    client_transports: transports,
    client_default_transport: transports[0] ?? null,
    /** More than one transport: the client lets the user pick. */
    client_transport_picker: transports.length > 1,
    client_video: config.video_output || config.video_input,
    client_bot_video: config.video_output,
    client_user_video: config.video_input,
    client_bot_url: BOT_URL,
    client_start_path: START_PATH,
    client_proxy_prefix: BOT_PROXY_PREFIX,
    /** A transport whose session is a socket the client opens through the dev server. */
    client_socket: transports.some((t) => t.socket),
    /** `engines.node` of the client's package.json, and the README's words for it. */
    client_node: `>=${CLIENT_NODE_MIN}`,
    client_node_min: CLIENT_NODE_MIN,
  };
}

/** The template folder of the chosen client, or null when the bot has none. */
export function clientFolder(config: ScaffoldConfig): string | null {
  if (config.client_framework === "vanilla") return "client/vanilla/";
  if (config.client_framework !== "uilib") return null;
  return onNext(config) ? "client/uilib-next/" : "client/uilib-vite/";
}

function onNext(config: ScaffoldConfig): boolean {
  return config.client_server === "devserver_b";
}
