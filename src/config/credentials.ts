/**
 * User configuration and credentials: which organization, which API URL, which key.
 *
 * Sources, first wins: the command's flags (`--organization/-o`, `--api-url`); the environment
 * (`VOICEBOT_ORG`, `VOICEBOT_API_URL`, `VOICEBOT_API_KEY`); the config file, which holds the
 * current organization and, per organization, its API URL and key.
 *
 * The config file is `$VOICEBOT_CONFIG`, else `$XDG_CONFIG_HOME/voicebot/config.json`, else
 * `~/.config/voicebot/config.json`. It is written atomically (a temporary file beside it, then a
 * rename) with mode 0600, and refused when its mode lets anyone else read it.
 *
 * Only `Deno.*` APIs: no Node, no zod (the shape is checked by hand, it is small).
 *
 * @module
 */
import { AuthError, UsageError } from "../errors.ts";
import { openToOthers, writePrivateFile } from "../file_mode.ts";
import { ORGANIZATION_NAME } from "../secrets/names.ts";

/** Where `voicebot cloud serve` listens by default. */
export const DEFAULT_API_URL = "http://127.0.0.1:8787/v1";

export interface StoredOrganization {
  apiUrl: string;
  apiKey: string;
}

export interface ConfigFile {
  /** The organization commands act in without `-o`. */
  current?: string;
  organizations: Record<string, StoredOrganization>;
}

export type Env = (name: string) => string | undefined;

/** The process environment, with empty values counted as unset. */
export const processEnv: Env = (name) => Deno.env.get(name) || undefined;

export function configPath(env: Env = processEnv): string {
  const explicit = env("VOICEBOT_CONFIG");
  if (explicit) return explicit;
  const base = env("XDG_CONFIG_HOME") ?? (env("HOME") ? `${env("HOME")}/.config` : undefined);
  if (!base) {
    throw new UsageError("cannot find a place for the config file.", {
      hint: "set VOICEBOT_CONFIG to a file path, or HOME.",
    });
  }
  return `${base}/voicebot/config.json`;
}

/** The config file, or an empty one when there is none yet. */
export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) {
      throw new UsageError(`the config file ${path} is a directory.`, {
        hint:
          `VOICEBOT_CONFIG names the file itself (e.g. ${path}/config.json); unset, the file is $XDG_CONFIG_HOME/voicebot/config.json.`,
      });
    }
    const loose = openToOthers(info);
    if (loose !== undefined) {
      const mode = loose.toString(8).padStart(4, "0");
      throw new AuthError(
        `the config file ${path} has mode ${mode}: others may read the API keys in it.`,
        { hint: `run \`chmod 600 ${path}\`, and rotate the keys if others could read them.` },
      );
    }
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { organizations: {} };
    throw error;
  }
  return parseConfig(text, path);
}

function parseConfig(text: string, path: string): ConfigFile {
  const broken = (why: string) =>
    new UsageError(`the config file ${path} is not valid: ${why}.`, {
      hint: "fix it, or remove it and log in again with `voicebot cloud auth login`.",
    });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw broken("not JSON");
  }
  if (!isObject(raw)) throw broken("not a JSON object");
  const { current, organizations = {} } = raw;
  if (current !== undefined && typeof current !== "string") throw broken("`current` not a string");
  if (!isObject(organizations)) throw broken("`organizations` not an object");
  const result: ConfigFile = { current, organizations: {} };
  for (const [name, entry] of Object.entries(organizations)) {
    if (!isObject(entry) || typeof entry.apiUrl !== "string" || typeof entry.apiKey !== "string") {
      throw broken(`organization "${name}" needs apiUrl and apiKey strings`);
    }
    result.organizations[name] = { apiUrl: entry.apiUrl, apiKey: entry.apiKey };
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Writes the file atomically at mode 0600, creating its directory (0700) when needed. */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await writePrivateFile(path, JSON.stringify(config, null, 2) + "\n");
}

export type Source = "flag" | "env" | "config" | "default";

export interface Credentials {
  /**
   * Undefined when the key comes from VOICEBOT_API_KEY and neither `-o` nor VOICEBOT_ORG names
   * its organization: the config file's current organization is not the env key's.
   */
  organization?: string;
  apiUrl: string;
  apiKey: string;
  sources: { organization?: Source; apiUrl: Source; apiKey: Source };
  configPath: string;
}

export interface CredentialFlags {
  organization?: string;
  apiUrl?: string;
}

export function checkOrganization(name: string): string {
  if (!ORGANIZATION_NAME.test(name)) {
    throw new UsageError(`invalid organization name "${name}".`, {
      hint: "use 1 to 63 letters, digits or hyphens.",
    });
  }
  return name;
}

export function loginHint(organization?: string): string {
  return `log in with \`voicebot cloud auth login${
    organization ? ` -o ${organization}` : ""
  }\` (it reads the key at a hidden prompt, or from stdin).`;
}

/**
 * No organization is named nor current. When the file still holds some (after `auth logout` of
 * the current one), the error lists them and says how to pick one.
 */
export function noCurrentOrganization(stored: readonly string[], path: string): AuthError {
  if (stored.length === 0) {
    // Which file was read, and whether it is there: a VOICEBOT_CONFIG with a typo says so.
    const file = isThere(path) ? `${path} holds none` : `there is no ${path}`;
    return new AuthError(`not logged in: no organization and no API key (${file}).`, {
      hint: loginHint(),
    });
  }
  const names = [...stored].sort().map((name) => `"${name}"`).join(", ");
  return new AuthError(
    `no current organization; keys are stored for ${names}.`,
    { hint: pickHint(stored) },
  );
}

function isThere(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** How to act in one of the stored organizations. */
export function pickHint(stored: readonly string[]): string {
  const example = [...stored].sort()[0] ?? "NAME";
  return `pick one per command with -o NAME (e.g. -o ${example}), or make it current with ` +
    `\`voicebot cloud auth switch ${stored.length === 1 ? example : "NAME"}\`.`;
}

/**
 * The organization, URL and key a command uses. `VOICEBOT_API_KEY` applies unless `-o` names an
 * organization other than `VOICEBOT_ORG`: an explicit `-o` then picks that organization's stored
 * key, so that a key in the environment never acts in an organization it was not meant for. A key
 * from the environment is not attributed to the config file's current organization: only `-o` or
 * VOICEBOT_ORG name its organization (the stored URL of the current one still applies).
 */
export async function resolveCredentials(
  flags: CredentialFlags,
  env: Env = processEnv,
): Promise<Credentials> {
  const path = configPath(env);
  const file = await readConfig(path);
  const envOrg = env("VOICEBOT_ORG");
  const envKey = env("VOICEBOT_API_KEY");

  const [organization, orgSource]: [string | undefined, Source | undefined] = flags.organization
    ? [flags.organization, "flag"]
    : envOrg
    ? [envOrg, "env"]
    : file.current
    ? [file.current, "config"]
    : [undefined, undefined];
  if (organization !== undefined) checkOrganization(organization);
  const stored = organization === undefined ? undefined : file.organizations[organization];

  const envKeyApplies = envKey !== undefined &&
    (flags.organization === undefined || flags.organization === envOrg);
  let apiKey: string;
  let keySource: Source;
  if (envKeyApplies) {
    [apiKey, keySource] = [envKey, "env"];
  } else if (stored) {
    [apiKey, keySource] = [stored.apiKey, "config"];
  } else if (organization === undefined) {
    throw noCurrentOrganization(Object.keys(file.organizations), path);
  } else {
    throw new AuthError(`no API key stored for organization "${organization}".`, {
      hint: loginHint(organization),
    });
  }

  const [apiUrl, urlSource] = apiUrlOf(flags.apiUrl, env, stored);
  const named = keySource === "env" && orgSource === "config" ? undefined : organization;

  return {
    organization: named,
    apiUrl,
    apiKey,
    sources: {
      ...(named !== undefined ? { organization: orgSource } : {}),
      apiUrl: urlSource,
      apiKey: keySource,
    },
    configPath: path,
  };
}

/** `--api-url`, else VOICEBOT_API_URL, else the organization's stored URL, else the default. */
function apiUrlOf(
  flag: string | undefined,
  env: Env,
  stored: StoredOrganization | undefined,
): [string, Source] {
  if (flag) return [flag, "flag"];
  const fromEnv = env("VOICEBOT_API_URL");
  if (fromEnv) return [fromEnv, "env"];
  return stored ? [stored.apiUrl, "config"] : [DEFAULT_API_URL, "default"];
}

/**
 * The API URL alone, for a command that brings its own key (`secrets run`), in the order of
 * `apiUrlOf`, the stored URL being the current organization's (VOICEBOT_ORG, else the config's).
 * The config is read only when neither the flag nor the environment gives a URL.
 */
export async function resolveApiUrl(flag: string | undefined, env: Env = processEnv) {
  let stored: StoredOrganization | undefined;
  if (!flag && !env("VOICEBOT_API_URL")) {
    try {
      const file = await readConfig(configPath(env));
      const current = env("VOICEBOT_ORG") ?? file.current;
      stored = current === undefined ? undefined : file.organizations[current];
    } catch (error) {
      // No HOME, no config: nothing stored to take a URL from.
      if (!(error instanceof UsageError)) throw error;
    }
  }
  return apiUrlOf(flag, env, stored)[0];
}

/** A short, non-reversible fingerprint to tell keys apart: `sha256:` and 12 hex digits. */
export async function keyFingerprint(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(apiKey));
  return `sha256:${new Uint8Array(digest).toHex().slice(0, 12)}`;
}
