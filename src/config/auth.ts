/**
 * `cloud auth`: log in (check the key with `GET /secrets`, then store it and make the
 * organization current), log out, and describe the credentials in use. Returns data, prints
 * nothing; the API key never leaves this module except in the request that checks it.
 *
 * @module
 */
import { AuthError, CancelledError, UsageError } from "../errors.ts";
import type { Fetch } from "../secrets/client.ts";
import {
  checkOrganization,
  configPath,
  type CredentialFlags,
  DEFAULT_API_URL,
  type Env,
  keyFingerprint,
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
  const organization = checkOrganization(
    options.organization ?? env("VOICEBOT_ORG") ?? file.current ?? "default",
  );
  const { normalizeApiUrl, SecretsClient } = await import("../secrets/client.ts");
  const apiUrl = normalizeApiUrl(
    options.apiUrl ?? env("VOICEBOT_API_URL") ?? file.organizations[organization]?.apiUrl ??
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
  try {
    sets = (await client.listSets()).length;
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`the API at ${apiUrl} rejected this key; nothing was stored.`, {
        hint: error.hint,
        api: error.api,
      });
    }
    throw error;
  }
  const fingerprint = await keyFingerprint(apiKey);
  const previous = file.organizations[organization]?.apiKey;
  const replaced = previous !== undefined && previous !== apiKey
    ? await keyFingerprint(previous)
    : undefined;
  if (replaced && options.organization === undefined && !options.replace) {
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

export interface StatusResult {
  organization?: string;
  apiUrl: string;
  keyFingerprint: string;
  sources: { organization?: Source; apiUrl: Source; apiKey: Source };
  configPath: string;
  /** Every organization stored in the config file. */
  stored: { organization: string; apiUrl: string; keyFingerprint: string; current: boolean }[];
}

/** What a command would use now, and what the config file holds. Sends nothing. */
export async function status(
  options: CredentialFlags & { env?: Env } = {},
): Promise<StatusResult> {
  const env = options.env ?? processEnv;
  const credentials = await resolveCredentials(options, env);
  const file = await readConfig(credentials.configPath);
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
  return {
    organization: credentials.organization,
    apiUrl: credentials.apiUrl,
    keyFingerprint: await keyFingerprint(credentials.apiKey),
    sources: credentials.sources,
    configPath: credentials.configPath,
    stored,
  };
}
