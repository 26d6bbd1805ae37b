/**
 * `cloud auth`: log in (check the key with the API, then store it and make the organization
 * current), switch between stored organizations, log out, and describe the credentials in use.
 * Where the API offers `GET /me`, it says which organization a key belongs to, and that is the
 * name the key is stored under; elsewhere the name given (`-o`) is taken. Returns data, prints
 * nothing; the API key never leaves this module except in the requests that check it.
 *
 * @module
 */
import { AuthError, CancelledError, NotFoundError, UsageError, VoicebotError } from "../errors.ts";
import type { Fetch } from "../secrets/client.ts";
import type { MeResponse } from "../secrets/responses.ts";
import {
  checkOrganization,
  configPath,
  type CredentialFlags,
  DEFAULT_API_URL,
  type Env,
  keyFingerprint,
  loginHint,
  processEnv,
  readConfig,
  resolveCredentials,
  type Source,
  writeConfig,
} from "./credentials.ts";

export interface LoginOptions extends CredentialFlags {
  apiKey: string;
  /**
   * Without `-o` (`organization` undefined), a key other than the one stored for the organization
   * is not stored silently: the key may be meant for another organization. `replace` (--yes)
   * allows it; else `confirmReplace` asks (on a terminal); else it is refused (exit 2).
   */
  replace?: boolean;
  confirmReplace?: (question: string) => Promise<boolean>;
  env?: Env;
  fetch?: Fetch;
  timeoutMs?: number;
  /** Allow http:// to a host other than loopback (see SecretsClient). */
  insecure?: boolean;
}

export interface LoginResult {
  /** `api`: GET /me said whose key it is; `name`: the API cannot say, the name given was taken. */
  organizationFrom: "api" | "name";
  organization: string;
  apiUrl: string;
  keyFingerprint: string;
  /** How many sets the key sees: proof that it works. */
  sets: number;
  /** The fingerprint of the other key it replaced for the organization, if any. */
  replacedKeyFingerprint?: string;
  configPath: string;
}

/** Checks the key against the API, then stores it for the organization and makes that current. */
export async function login(options: LoginOptions): Promise<LoginResult> {
  const env = options.env ?? processEnv;
  const apiKey = options.apiKey.trim();
  if (!apiKey) throw new UsageError("the API key is empty.");
  if (/\s/.test(apiKey)) throw new UsageError("the API key holds white space; paste it alone.");
  const path = configPath(env);
  const file = await readConfig(path);
  const named = options.organization ?? env("VOICEBOT_ORG") ?? file.current ?? "default";
  checkOrganization(named);
  const { normalizeApiUrl, SecretsClient } = await import("../secrets/client.ts");
  const apiUrl = normalizeApiUrl(
    options.apiUrl ?? env("VOICEBOT_API_URL") ?? file.organizations[named]?.apiUrl ??
      DEFAULT_API_URL,
  );
  const client = new SecretsClient({
    baseUrl: apiUrl,
    apiKey,
    insecure: options.insecure,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    loginHint: "check the key: it is created with `voicebot cloud serve create-key -o ORG`.",
  });
  let sets: number;
  let me: MeResponse | undefined;
  try {
    // The documented request first; GET /me only from a server that says it has it.
    sets = (await client.listSets()).length;
    me = client.offers("me") ? await client.me() : undefined;
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`the API at ${apiUrl} rejected this key; nothing was stored.`, {
        hint: error.hint,
        api: error.api,
      });
    }
    throw error;
  }
  if (me && options.organization !== undefined && options.organization !== me.organization) {
    throw new UsageError(
      `this key belongs to organization "${me.organization}", not "${options.organization}"; ` +
        "nothing was stored.",
      { hint: `log in with -o ${me.organization}, or without -o.` },
    );
  }
  // The API's word for the organization, where it has one.
  const organization = me ? checkOrganization(me.organization) : named;
  const fingerprint = await keyFingerprint(apiKey);
  const previous = file.organizations[organization]?.apiKey;
  const replaced = previous !== undefined && previous !== apiKey
    ? await keyFingerprint(previous)
    : undefined;
  // A new key for an organization the API vouches for is a rotation: stored without asking.
  if (replaced && !me && options.organization === undefined && !options.replace) {
    const other = "to log in to another organization, name it: `voicebot cloud auth login -o NAME`";
    const question = `Replace the key stored for organization "${organization}" (${replaced}) ` +
      `with this one (${fingerprint})?`;
    if (!options.confirmReplace) {
      throw new UsageError(
        `organization "${organization}" has another key stored (${replaced}; this one is ` +
          `${fingerprint}), and replacing it needs a confirmation; nothing was stored.`,
        { hint: `${other}; to replace the key of "${organization}", add --yes.` },
      );
    }
    if (!(await options.confirmReplace(question))) {
      throw new CancelledError(`Cancelled; the key stored for "${organization}" was kept.`, {
        hint: `${other}.`,
      });
    }
  }
  file.organizations[organization] = { apiUrl, apiKey };
  file.current = organization;
  await writeConfig(path, file);
  return {
    organization,
    organizationFrom: me ? "api" : "name",
    apiUrl,
    keyFingerprint: fingerprint,
    sets,
    ...(replaced ? { replacedKeyFingerprint: replaced } : {}),
    configPath: path,
  };
}

export interface LogoutResult {
  /** Absent when none was named and none is current: there was nothing to log out of. */
  organization?: string;
  /** False when no key was stored for it: logging out twice is not an error. */
  removed: boolean;
  /** The current organization afterwards, if any. */
  current?: string;
  /** The organizations whose keys are still stored. */
  stored: string[];
  configPath: string;
}

export async function logout(
  options: { organization?: string; env?: Env } = {},
): Promise<LogoutResult> {
  const env = options.env ?? processEnv;
  const path = configPath(env);
  const file = await readConfig(path);
  const organization = options.organization ?? env("VOICEBOT_ORG") ?? file.current;
  if (organization !== undefined) checkOrganization(organization);
  const removed = organization !== undefined && organization in file.organizations;
  if (removed) {
    delete file.organizations[organization!];
    if (file.current === organization) delete file.current;
    await writeConfig(path, file);
  }
  return {
    organization,
    removed,
    current: file.current,
    stored: Object.keys(file.organizations).sort(),
    configPath: path,
  };
}

export interface SwitchResult {
  organization: string;
  /** The organization that was current before, if any. */
  previous?: string;
  apiUrl: string;
  keyFingerprint: string;
  configPath: string;
}

/** Makes a stored organization current, without its key being typed again (gh's auth switch). */
export async function switchOrganization(
  options: { organization: string; env?: Env },
): Promise<SwitchResult> {
  const path = configPath(options.env ?? processEnv);
  const file = await readConfig(path);
  const organization = checkOrganization(options.organization);
  const stored = file.organizations[organization];
  if (!stored) {
    const others = Object.keys(file.organizations).sort();
    throw new NotFoundError(`no key is stored for organization "${organization}".`, {
      hint: others.length
        ? `stored: ${others.join(", ")}. To add "${organization}": ${loginHint(organization)}`
        : loginHint(organization),
    });
  }
  const previous = file.current;
  file.current = organization;
  await writeConfig(path, file);
  return {
    organization,
    ...(previous !== undefined ? { previous } : {}),
    apiUrl: stored.apiUrl,
    keyFingerprint: await keyFingerprint(stored.apiKey),
    configPath: path,
  };
}

/**
 * What the API says of the key in use (GET /me): whose it is. `unsupported`: the API cannot say
 * (the platform's documented API has no such route); `unreachable`: why it was not asked.
 */
export type WhoseKey =
  | { organization: string; keyId: string }
  | { unsupported: true }
  | { unreachable: string };

export interface StatusResult {
  // What a command would use now; absent when no organization is current (see `problem`).
  organization?: string;
  apiUrl?: string;
  keyFingerprint?: string;
  sources?: { organization?: Source; apiUrl: Source; apiKey: Source };
  api?: WhoseKey;
  /** Why nothing is in use, and how to pick an organization. */
  problem?: { message: string; hint?: string };
  /** The API says the key in use belongs to another organization than the one shown. */
  warning?: { message: string; hint: string };
  configPath: string;
  /** Every organization stored in the config file. */
  stored: { organization: string; apiUrl: string; keyFingerprint: string; current: boolean }[];
}

/**
 * What a command would use now, what the API says of its key, and what the config file holds.
 * Throws AuthError when nothing is stored at all, or when the API rejects the key in use.
 */
export async function status(
  options: CredentialFlags & { env?: Env; fetch?: Fetch; insecure?: boolean } = {},
): Promise<StatusResult> {
  const env = options.env ?? processEnv;
  const path = configPath(env);
  const file = await readConfig(path);
  const stored = await Promise.all(
    Object.entries(file.organizations).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(
      async ([organization, entry]) => ({
        organization,
        apiUrl: entry.apiUrl,
        keyFingerprint: await keyFingerprint(entry.apiKey),
        current: organization === file.current,
      }),
    ),
  );
  let credentials;
  try {
    credentials = await resolveCredentials(options, env);
  } catch (error) {
    // Keys are stored, none is current (after logging out of it): that is a state to show.
    if (!(error instanceof AuthError) || stored.length === 0) throw error;
    return { problem: { message: error.message, hint: error.hint }, configPath: path, stored };
  }
  const api = await askWhoseKey(credentials.apiUrl, credentials.apiKey, options);
  const shown = credentials.organization;
  const warning = shown !== undefined && "organization" in api && api.organization !== shown
    ? disagreement(shown, api.organization, credentials.sources.apiKey)
    : undefined;
  return {
    organization: shown,
    apiUrl: credentials.apiUrl,
    keyFingerprint: await keyFingerprint(credentials.apiKey),
    sources: credentials.sources,
    api,
    ...(warning ? { warning } : {}),
    configPath: path,
    stored,
  };
}

/** The key in use is `owner`'s by the API's word, while the organization shown is `shown`. */
function disagreement(shown: string, owner: string, keySource: Source) {
  return {
    message: `the API says the key in use belongs to organization "${owner}", not "${shown}": ` +
      `commands act in "${owner}".`,
    hint: keySource === "env"
      ? `VOICEBOT_API_KEY holds a key of "${owner}": set VOICEBOT_ORG to "${owner}", or unset ` +
        `VOICEBOT_API_KEY to use the key stored for "${shown}".`
      : `the key stored for "${shown}" is one of "${owner}": log in to "${shown}" with its own ` +
        `key (\`voicebot cloud auth login -o ${shown}\`).`,
  };
}

/** GET /me, once and briefly: status reports a server it cannot reach rather than failing. */
async function askWhoseKey(
  apiUrl: string,
  apiKey: string,
  options: { fetch?: Fetch; insecure?: boolean },
): Promise<WhoseKey> {
  const { SecretsClient } = await import("../secrets/client.ts");
  try {
    const client = new SecretsClient({
      baseUrl: apiUrl,
      apiKey,
      fetch: options.fetch,
      insecure: options.insecure,
      attempts: 1,
      timeoutMs: STATUS_TIMEOUT_MS,
    });
    const me = await client.me();
    return me ? { organization: me.organization, keyId: me.keyId } : { unsupported: true };
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`the API at ${apiUrl} rejects the key in use.`, {
        hint: error.hint,
        api: error.api,
      });
    }
    if (error instanceof VoicebotError && error.api === undefined) {
      return { unreachable: error.message };
    }
    throw error;
  }
}

const STATUS_TIMEOUT_MS = 5_000;
