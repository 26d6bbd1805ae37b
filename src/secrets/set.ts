/**
 * `voicebot cloud secrets set`: gather the secrets from every source, check them all before any
 * request (reporting every problem at once, each with where it came from), plan the write
 * against the set as it stands, and apply it in one PUT.
 *
 * Nothing here prints: the command renders what these functions return.
 *
 * @module
 */
import { ConflictError, UsageError } from "../errors.ts";
import { compareWithSet } from "./diff.ts";
import { parse as parseDotenv } from "./dotenv.ts";
import { DOCUMENTED_LIMITS, formatCount, utf8Length } from "./limits.ts";
import type { Extension, PutBody, PutOutcome, Regions, SetDetail } from "./client.ts";
// The patterns from names.ts, not schemas.ts: that one loads classic zod, which the CLI avoids.
import { KEY_NAME, looksLikeToken, SET_NAME, showableKey } from "./names.ts";
import type { SecretSetSummary } from "./responses.ts";

type SetType = NonNullable<SecretSetSummary["type"]>;

/** Where a value came from, as shown to the user: `argument 2`, `.env:4`, `stdin:3`. */
export type Origin = string;

export interface SecretsInput {
  /** The set name as typed. */
  name: string;
  /** `KEY=value` arguments, in order; they are positional arguments 2, 3, ... after the name. */
  pairs: readonly string[];
  /** A dotenv file's bytes (or text) and the name to report it by (its path, or `stdin`). */
  file?: { label: string; text: string | Uint8Array };
  allowEmpty: boolean;
}

/** Every key once, with its value and where it came from (the first place it was given). */
export type CheckedSecrets = Map<string, { value: string; origin: Origin }>;

/** The secrets to write, and what a person should know about the input that is no problem. */
export interface CheckedInput {
  secrets: CheckedSecrets;
  notes: string[];
}

export const SET_NAME_RULE = "use 1 to 63 letters, digits or hyphens";
export const KEY_NAME_RULE =
  "a key starts with a letter or _, then letters, digits or _, at most 128 characters";

/**
 * Checks the set name (argument 1); the problem to report, or undefined. The name is not quoted:
 * what was typed there may be a value (`set OPENAI_API_KEY=sk-... `, the name left out).
 */
export function setNameProblem(name: string): string | undefined {
  if (SET_NAME.test(name)) return undefined;
  return name.includes("=")
    ? 'argument 1 is not a set name: it holds "=" (the set name comes first: set NAME --file .env)'
    : `argument 1 is not a set name: ${SET_NAME_RULE}`;
}

/**
 * The secrets to write, or a UsageError listing every problem: the set name, key names,
 * malformed pairs, the file's problems (see dotenv.ts), keys given twice with different values,
 * and empty values (unless `allowEmpty`). No problem ever quotes a value, nor a key that may be
 * one (see names.ts): an invalid key, or a token followed by `=` padding, is reported by where it
 * came from alone. The file's values are the ones python-dotenv gives the bot.
 */
export function checkSecretsInput(input: SecretsInput): CheckedInput {
  const problems: string[] = [];
  const notes: string[] = [];
  const nameProblem = setNameProblem(input.name);
  if (nameProblem) problems.push(nameProblem);

  // Each source is checked in the order given, so that problems read top to bottom.
  const secrets: CheckedSecrets = new Map();
  let count = 0;
  const add = (key: string, value: string, origin: Origin, remove: string) => {
    count++;
    if (key.startsWith("\uFEFF") && KEY_NAME.test(key.slice(1))) {
      problems.push(
        `${origin}: the file starts with a byte order mark, which python-dotenv reads as part ` +
          "of the first key, so the bot would not see it under its name; save the file as UTF-8 " +
          "without a BOM",
      );
      return;
    }
    if (!KEY_NAME.test(key)) {
      problems.push(`${origin}: what comes before "=" is not a key name (${KEY_NAME_RULE})`);
      return;
    }
    // `TOKEN==`, `TOKEN=`: base64 (or base32) whose padding reads as `KEY=`. Refused even with
    // --allow-empty, so that a pasted value never becomes a key name.
    if (/^=+$/.test(value) || (value === "" && looksLikeToken(key))) {
      problems.push(
        `${origin}: this reads as a value ending in "=" padding, not as KEY=value; ` +
          "give the key too (KEY=value)",
      );
      return;
    }
    const name = showableKey(key) ? key : "the key";
    const bytes = utf8Length(value);
    if (bytes > DOCUMENTED_LIMITS.maxValueBytes) {
      problems.push(
        `${origin}: ${name} is ${formatCount(bytes)} bytes, over the API's limit of ` +
          `${formatCount(DOCUMENTED_LIMITS.maxValueBytes)} bytes for one value`,
      );
    }
    if (value === "" && !input.allowEmpty) {
      problems.push(
        `${origin}: ${name} is empty: fill it in, or ${remove} if the bot does not need it ` +
          "(--allow-empty stores it empty)",
      );
    }
    const first = secrets.get(key);
    if (!first) secrets.set(key, { value, origin });
    else if (first.value !== value) {
      problems.push(`${origin}: ${name} is also given at ${first.origin}, with another value`);
    }
  };
  input.pairs.forEach((pair, i) => {
    const origin = `argument ${i + 2}`;
    const equals = pair.indexOf("=");
    // An argument without "=" may be a value typed without its key: never echo it.
    if (equals === -1) {
      count++;
      problems.push(`${origin}: expected KEY=value, found no "="`);
    } else add(pair.slice(0, equals), pair.slice(equals + 1), origin, "drop the argument");
  });
  if (input.file) {
    const { label, text } = input.file;
    const parsed = parseDotenv(text);
    const lines = [
      ...parsed.problems.map((problem) => ({ line: problem.line ?? 0, problem })),
      ...parsed.entries.map((entry) => ({ line: entry.line, entry })),
    ].sort((a, b) => a.line - b.line);
    for (const item of lines) {
      const origin = item.line ? `${label}:${item.line}` : label;
      if ("problem" in item) {
        count++;
        problems.push(`${origin}: ${item.problem.message}`);
      } else add(item.entry.key, item.entry.value, origin, "delete the line");
    }
    for (const { line } of parsed.withoutValue) {
      notes.push(
        `${label}:${line} has a key without "=", for which python-dotenv sets nothing; ` +
          "nothing is sent for it.",
      );
    }
  }

  if (count === 0 && problems.length === 0) {
    problems.push(
      "no secrets given: name a dotenv file with --file .env, or pipe one in with -f -",
    );
  }
  if (secrets.size > DOCUMENTED_LIMITS.maxKeysPerSet) {
    problems.push(
      `${secrets.size} keys given; a set holds at most ${DOCUMENTED_LIMITS.maxKeysPerSet}`,
    );
  }
  if (problems.length) {
    throw new UsageError(
      problems.length === 1
        ? "1 problem; nothing was sent."
        : `${problems.length} problems; nothing was sent.`,
      { problems, hint: "fix them and run the command again." },
    );
  }
  return { secrets, notes };
}

/** What the API client must offer `set`, `diff` and `image-pull-secret`. */
export interface SecretsApi {
  /** Undefined when there is no such set. */
  getSet(name: string): Promise<SetDetail | undefined>;
  regions(): Promise<Regions>;
  putSet(name: string, body: PutBody): Promise<PutOutcome>;
  /** Whether the server, in its last answer, named this extension of the documented API. */
  offers(extension: Extension): boolean;
}

export interface SetPlan {
  name: string;
  /** Undefined: a new set in the organization's default region, which the server did not name. */
  region: string | undefined;
  /** True when the set does not exist yet. */
  isNew: boolean;
  /**
   * Keys the set does not hold yet. These lists have the names of the write's response
   * (PutSecretSetResponse), so that a dry run and the write report in the same terms.
   */
  created: string[];
  /** Stored keys given another value (when not `compared`: every stored key written). */
  updated: string[];
  /** Stored keys given the value they hold already (told by the fingerprints). */
  unchanged: string[];
  /** With `replace`: the keys that will be gone. */
  removed: string[];
  replace: boolean;
  /**
   * Whether the values were compared: false for an existing set of a server without fingerprints,
   * whose stored keys then all count as updated, though some may hold these values already.
   */
  compared: boolean;
}

/** What a write did, in the terms of the plan. */
export type SetReport =
  | { created: string[]; updated: string[]; unchanged: string[]; removed: string[] }
  /** From a server that does not say, and with no fingerprints to tell: the stored keys written. */
  | { created: string[]; written: string[]; removed: string[] };

/** A write's answer: the set as it stands after it, and the report. */
export interface SetOutcome {
  set: SecretSetSummary;
  report: SetReport;
}

/**
 * Reads the set as it stands (and the organization's regions) and decides what the write will
 * do. Throws, before anything is written, for a name taken by an image pull secret, a region
 * other than the set's own, or a region the organization does not have.
 */
export async function planSet(
  api: SecretsApi,
  name: string,
  secrets: CheckedSecrets,
  options: { region?: string; replace: boolean },
): Promise<SetPlan> {
  const existing = await api.getSet(name);
  if (options.replace && !api.offers("replace")) {
    throw new UsageError(
      "this server offers only the platform's documented API, which has no write that " +
        "replaces a set's keys at once; nothing was sent.",
      {
        hint: "drop --replace to merge the keys in, and remove others with " +
          "`voicebot cloud secrets unset`.",
      },
    );
  }
  const region = await placeSet(api, name, "secret", existing, options.region);
  const local = new Map([...secrets].map(([key, { value }]) => [key, value]));
  const compared = existing
    ? await compareWithSet(existing, local)
    : [...local.keys()].sort().map((key) => ({ key, state: "only-local" }));
  const having = (state: string) => compared.filter((c) => c.state === state).map((c) => c.key);
  const plan: SetPlan = {
    name,
    region,
    isNew: !existing,
    created: having("only-local"),
    updated: having("different"),
    unchanged: having("same"),
    removed: options.replace ? having("only-remote") : [],
    replace: options.replace,
    compared: !existing || (existing.fingerprintKey !== undefined && !!existing.keyDetails),
  };
  checkWriteLimits(plan, (existing?.keys.length ?? 0) + plan.created.length, secrets);
  return plan;
}

/**
 * Throws, before anything is written, when the write would pass a limit the API documents: the
 * keys the set would hold, or the size of the request.
 */
function checkWriteLimits(plan: SetPlan, mergedKeys: number, secrets: CheckedSecrets) {
  const { maxKeysPerSet, maxBodyBytes } = DOCUMENTED_LIMITS;
  const keys = plan.replace ? secrets.size : mergedKeys;
  if (keys > maxKeysPerSet) {
    throw new UsageError(
      `"${plan.name}" would hold ${keys} keys; a set holds at most ${maxKeysPerSet}. ` +
        "Nothing was sent.",
      { hint: "unset the keys it no longer needs, or write it with --replace." },
    );
  }
  const bytes = utf8Length(JSON.stringify(putBody(plan, secrets)));
  if (bytes > maxBodyBytes) {
    throw new UsageError(
      `the write would be ${formatCount(bytes)} bytes, over the API's limit of ` +
        `${formatCount(maxBodyBytes)} bytes for one request. Nothing was sent.`,
      { hint: "write the keys in several runs of set (each merges into the set)." },
    );
  }
}

/**
 * One atomic PUT of the checked secrets, in the plan's region. The report is the server's when it
 * gives one (voicebot's does). Otherwise, and when the answer is a retry's after an attempt whose
 * answer was lost (`replayed`: it describes the set as that attempt left it, every key
 * unchanged), it is the plan's, made before the write; without fingerprints that plan knows only
 * the keys written.
 */
export async function applySet(
  api: SecretsApi,
  plan: SetPlan,
  secrets: CheckedSecrets,
): Promise<SetOutcome> {
  const outcome = await api.putSet(plan.name, putBody(plan, secrets));
  const { created, updated, unchanged } = outcome;
  const { removed } = plan;
  const report: SetReport = !outcome.replayed && created && updated
    ? { created, updated, unchanged: unchanged ?? [], removed }
    : plan.compared
    ? { created: plan.created, updated: plan.updated, unchanged: plan.unchanged, removed }
    : { created: plan.created, written: plan.updated, removed };
  return { set: setAfterWrite(plan.name, "secret", outcome), report };
}

/**
 * The set as a write's answer shows it. The documented answer gives only its region; by the
 * documentation, the write leaves the set pending until it is provisioned.
 */
export function setAfterWrite(
  name: string,
  type: SetType,
  outcome: PutOutcome,
): SecretSetSummary {
  return outcome.set ?? { name, type, region: outcome.region, status: "pending" };
}

/** The documented body, or with `replace` voicebot's own (see planSet). */
function putBody(plan: SetPlan, secrets: CheckedSecrets): PutBody {
  const region = plan.region === undefined ? {} : { region: plan.region };
  if (plan.replace) {
    const values = Object.fromEntries([...secrets].map(([key, { value }]) => [key, value]));
    return { type: "secret", ...region, secrets: values, replace: true };
  }
  return {
    ...region,
    secrets: [...secrets].map(([secretKey, { value }]) => ({ secretKey, secretValue: value })),
  };
}

/**
 * The region a write to `name` goes to: the existing set's own, or for a new one the requested
 * region or the organization's default. Throws, before anything is written, when the name is
 * taken by the other type, when the region differs from the set's, or when the organization
 * has no such region.
 */
export async function placeSet(
  api: SecretsApi,
  name: string,
  type: SetType,
  existing: SetDetail | undefined,
  requested: string | undefined,
): Promise<string | undefined> {
  if (existing) {
    // A server that does not say the type leaves the check to the write (409).
    if (existing.type !== undefined && existing.type !== type) {
      const other = existing.type === "secret" ? "a secret set" : "an image pull secret";
      throw conflict(name, `is ${other}`, "choose another name.");
    }
    const region = existing.region;
    if (region === undefined) return requested;
    if (requested !== undefined && requested !== region) {
      throw conflict(
        name,
        `is in region ${region}, not ${requested}; a set cannot move between regions`,
        `drop -r to write to ${region}, or use another name for ${requested}.`,
      );
    }
    return region;
  }
  const regions = await api.regions();
  const region = requested ?? regions.default;
  const codes = regions.regions.map((r) => r.code);
  // Without a default from the server, a new set goes to whichever the server picks.
  if (region !== undefined && !codes.includes(region)) {
    throw new UsageError(`region ${region} is not one of this organization's regions.`, {
      hint: `use one of: ${codes.join(", ")}.`,
    });
  }
  return region;
}

function conflict(name: string, what: string, hint: string): ConflictError {
  return new ConflictError(`"${name}" ${what}; nothing was sent.`, { hint });
}
