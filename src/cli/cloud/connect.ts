/**
 * What every `cloud auth` and `cloud secrets` command shares: the connection flags, `--json`, and
 * `connect`, which resolves the credentials and builds the API client. The config and client
 * modules (and classic zod with them) load here, when a command runs, never at start.
 */
import { UsageError } from "../../errors.ts";
import { type EnvVar, NO_COLOR } from "../output.ts";

/** The variables that the credentials and the client read, for the commands' help. */
export const ENV = {
  apiKey: [
    "VOICEBOT_API_KEY",
    "API key to use instead of the stored one (not when -o names another organization than VOICEBOT_ORG)",
  ],
  org: ["VOICEBOT_ORG", "Organization to act in where -o is not given"],
  apiUrl: ["VOICEBOT_API_URL", "API base URL where --api-url is not given"],
  timeout: ["VOICEBOT_API_TIMEOUT", "Seconds each attempt of a request may take (default: 30)"],
  config: [
    "VOICEBOT_CONFIG",
    "The file that stores the keys (default: voicebot/config.json in $XDG_CONFIG_HOME, else in ~/.config)",
  ],
} as const satisfies Record<string, EnvVar>;

/** What a command that acts with the stored or given credentials (`connect`) reads. */
export const connectionEnv: readonly EnvVar[] = [
  ENV.apiKey,
  ENV.org,
  ENV.apiUrl,
  ENV.timeout,
  ENV.config,
  NO_COLOR,
];

export const connectionArgs = {
  organization: {
    type: "string",
    short: "o",
    metavar: "org",
    description: "Organization to act in (default: VOICEBOT_ORG, else the current one)",
  },
  "api-url": {
    type: "string",
    metavar: "url",
    description: "API base URL (default: VOICEBOT_API_URL, else the organization's stored one)",
  },
  json: { type: "boolean", description: "Print one JSON document on stdout" },
  insecure: {
    type: "boolean",
    description: "Allow an http:// API URL on another host (the key and values go unencrypted)",
  },
} as const;

export interface ConnectionValues {
  organization?: string;
  "api-url"?: string;
  insecure?: boolean;
}

/** Said on every run with --insecure to a host other than loopback. */
export async function warnIfInsecure(values: ConnectionValues, apiUrl: string) {
  if (!values.insecure || apiUrl.startsWith("https:")) return;
  const [{ isLoopback }, { printWarning }] = await Promise.all([
    import("../../secrets/client.ts"),
    import("../output.ts"),
  ]);
  if (isLoopback(apiUrl)) return;
  printWarning(`--insecure: the API key and values go to ${new URL(apiUrl).host} unencrypted.`);
}

/** VOICEBOT_API_TIMEOUT (seconds) bounds each attempt of a request; 30 s by default. */
export function timeoutMs(): number | undefined {
  const raw = Deno.env.get("VOICEBOT_API_TIMEOUT");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `VOICEBOT_API_TIMEOUT must be a positive number of seconds, not "${raw}".`,
    );
  }
  return seconds * 1000;
}

export async function connect(values: ConnectionValues) {
  const [{ resolveCredentials, loginHint }, { SecretsClient }] = await Promise.all([
    import("../../config/credentials.ts"),
    import("../../secrets/client.ts"),
  ]);
  const credentials = await resolveCredentials({
    organization: values.organization,
    apiUrl: values["api-url"],
  });
  const client = new SecretsClient({
    baseUrl: credentials.apiUrl,
    apiKey: credentials.apiKey,
    insecure: values.insecure,
    timeoutMs: timeoutMs(),
    loginHint: credentials.sources.apiKey === "env"
      ? "VOICEBOT_API_KEY holds a key the API does not accept; set the right one, or unset it and log in."
      : loginHint(credentials.organization),
  });
  await warnIfInsecure(values, client.baseUrl);
  return { client, credentials, where: organizationLabel(credentials.organization) };
}

/**
 * The organization a command acts in, for messages: named, or, for a key from VOICEBOT_API_KEY
 * that neither -o nor VOICEBOT_ORG names, the key's own (which only the API knows).
 */
export function organizationLabel(organization: string | undefined): string {
  return organization === undefined
    ? "the organization of the key in VOICEBOT_API_KEY"
    : `organization "${organization}"`;
}
