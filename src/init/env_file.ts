/**
 * `server/.env.example`, from the variables the rendered bot.py reads: each variable the code
 * reads, grouped by the transport, service or feature that needs it.
 */
import type { ScaffoldConfig } from "./config.ts";
import { CARRIERS } from "./catalog.ts";
import { DIALIN_TOKEN, servicesOf, transportOnlyKeys, transportsOf } from "./project_view.ts";

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
  if (config.recording) {
    add("Recordings: where the conversations' audio goes (server/recordings/ when unset)", [
      "RECORDINGS_DIR",
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
      // bot.py makes `token` the default; `none` admits a WebSocket client without one.
      ...(runners.has("websocket") ? ["PIPECAT_WEBSOCKET_AUTH=token"] : []),
    ],
    true,
  );
  const unlisted = [...reads.keys()].filter((name) => !seen.has(name));
  if (unlisted.length > 0) throw new Error(`bot.py reads ${unlisted.join(", ")}: add to a group`);
  return groups;
}
