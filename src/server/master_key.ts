/**
 * The master keyring: where it comes from (VOICEBOT_MASTER_KEY, else the SQLite key file), and
 * opening a database with it. A keyring that cannot open everything the database holds is
 * refused at start, naming how many values need which key (by its id, never the key), so that a
 * server never starts to fail requests one by one.
 */
import { UsageError } from "../errors.ts";
import { openToOthers } from "../file_mode.ts";
import {
  FINGERPRINT_ROOT_CONTEXT,
  fingerprintRootOf,
  KEY_CHECK_CONTEXT,
  KEY_CHECK_PLAINTEXT,
  sealedHead,
  Vault,
} from "./crypto.ts";
import type { Storage } from "./storage/types.ts";

export const MASTER_KEY_ENV = "VOICEBOT_MASTER_KEY";
/** Meta rows holding sealed values: a constant that tells a wrong keyring, and the fingerprint root. */
export const KEY_CHECK = "key_check";
export const FINGERPRINT_ROOT = "fingerprint_root";

const GENERATE_HINT = "generate a key with `head -c 32 /dev/urandom | base64`.";

/**
 * Keys in base64 of exactly 32 bytes each, newest first: `separator` splits them (a comma in the
 * variable, a line in the key file). Problems name the key by position, never by its text.
 */
export function parseKeyring(
  text: string,
  source: string,
  separator: string | RegExp,
): Uint8Array[] {
  const entries = text.split(separator).map((entry) => entry.trim()).filter(Boolean);
  const problems: string[] = [];
  const keys = entries.map((entry, i) => {
    let bytes: Uint8Array | undefined;
    try {
      bytes = Uint8Array.fromBase64(entry, { lastChunkHandling: "strict" });
    } catch {
      // reported below, without the value
    }
    const which = entries.length > 1 ? `key ${i + 1} of ${source}` : source;
    if (bytes?.length !== 32) {
      problems.push(
        `${which} must be the base64 encoding of exactly 32 bytes${
          bytes ? ` (it decodes to ${bytes.length})` : " (it is not base64)"
        }`,
      );
    }
    return bytes!;
  });
  if (entries.length === 0) problems.push(`${source} holds no key`);
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    if (seen.has(entry)) {
      problems.push(`key ${i + 1} of ${source} is key ${seen.get(entry)! + 1} again`);
    } else seen.set(entry, i);
  });
  if (problems.length === 1) {
    throw new UsageError(`${problems[0]}.`, { hint: GENERATE_HINT });
  }
  if (problems.length) {
    throw new UsageError(`${source} is not a keyring.`, { problems, hint: GENERATE_HINT });
  }
  return keys;
}

/** The keyring of VOICEBOT_MASTER_KEY's value: comma-separated keys, newest first. */
export function keyringFromEnv(value: string): Uint8Array[] {
  return parseKeyring(value, MASTER_KEY_ENV, ",");
}

/**
 * The SQLite key file's keyring (one key a line, newest first), refusing a file others can read.
 * With `createIfMissing` (a database that holds no data yet), a missing file is made with a fresh
 * key, mode 0600.
 */
export async function keyringFromFile(
  path: string,
  createIfMissing: boolean,
): Promise<Uint8Array[]> {
  let info: Deno.FileInfo | undefined;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!info) {
    if (!createIfMissing) {
      throw new UsageError(
        `the key file ${path} is missing, but the database was encrypted with a key.`,
        { hint: `restore the key file, or set ${MASTER_KEY_ENV} to the key.` },
      );
    }
    const raw = crypto.getRandomValues(new Uint8Array(32));
    await Deno.writeTextFile(path, raw.toBase64() + "\n", { mode: 0o600, createNew: true });
    return [raw];
  }
  const loose = openToOthers(info);
  if (loose !== undefined) {
    throw new UsageError(
      `the key file ${path} can be read by others (mode ${loose.toString(8)}).`,
      { hint: `run \`chmod 600 ${path}\`.` },
    );
  }
  return parseKeyring(await Deno.readTextFile(path), `the key file ${path}`, /\r?\n/);
}

/**
 * The vault for this database: the keyring must open its key check (a constant sealed when the
 * database was made) and everything else it holds. Stores the fingerprint root on first use.
 * UsageError, naming key ids and counts, when it cannot.
 */
export async function unlock(
  storage: Storage,
  keys: Uint8Array[],
  { requireEveryKey = true }: { requireEveryKey?: boolean } = {},
): Promise<Vault> {
  const vault = await Vault.fromRawKeys(keys);
  const check = await storage.putMetaIfAbsent(
    KEY_CHECK,
    vault.sealSync(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT),
  );
  const checkKey = await keyOpening(keys, check);
  // A server needs the key of the check; so does a legacy database's rotation, see below.
  if (checkKey === undefined && (requireEveryKey || vault.isLegacy(check))) {
    throw await refusal(storage, vault, check);
  }
  // A legacy check names no key: the one that opens it sealed every legacy value.
  if (checkKey !== undefined && vault.isLegacy(check)) {
    vault.knowLegacyKey(vault.keyIds[checkKey]);
  }
  const root = checkKey === undefined
    ? await storage.getMeta(FINGERPRINT_ROOT)
    : await storage.putMetaIfAbsent(
      FINGERPRINT_ROOT,
      vault.sealSync(fingerprintRootOf(keys[checkKey]).toBase64(), FINGERPRINT_ROOT_CONTEXT),
    );
  // Rotation opens it all the same: whatever it cannot open stays as it is, and is reported.
  if (!requireEveryKey) return vault;
  const sealedMeta = root ? [check, root] : [check];
  const missing = keyNeeds(
    (await sealedByKey(storage, vault, sealedMeta)).filter(({ keyId }) => !vault.hasKey(keyId)),
  );
  if (!root) throw notThisDatabase(missing);
  if (missing.length) {
    throw new UsageError("the keyring cannot open everything the database holds.", {
      problems: missing,
      hint: `add ${
        missing.length > 1 ? "those keys" : "that key"
      } to the keyring, after the newest (${MASTER_KEY_ENV}, or the key file); \`voicebot cloud serve rotate-master-key\` then re-seals everything with the newest.`,
    });
  }
  vault.useFingerprintRoot(Uint8Array.fromBase64(vault.openSync(root, FINGERPRINT_ROOT_CONTEXT)));
  return vault;
}

const notThisDatabase = (problems: string[] = []) =>
  new UsageError("no key of the keyring is this database's master key.", {
    problems,
    hint:
      `use the key the database was made with, or a keyring that holds it (${MASTER_KEY_ENV}, or the key file beside the database).`,
  });

/**
 * Why a keyring that does not open the key check is refused. A rotation re-seals the check last,
 * so a ring that opens some of what the database holds, but not the check, lacks the key that an
 * unfinished rotation was moving away from; a ring that opens nothing is another database's.
 */
async function refusal(storage: Storage, vault: Vault, check: Uint8Array): Promise<UsageError> {
  const root = await storage.getMeta(FINGERPRINT_ROOT);
  const counts = await sealedByKey(storage, vault, root ? [check, root] : [check]);
  const opened = counts.filter(({ keyId }) => vault.hasKey(keyId));
  const missing = keyNeeds(counts.filter(({ keyId }) => !vault.hasKey(keyId)));
  if (opened.length === 0) return notThisDatabase(missing);
  return new UsageError(
    "a master-key rotation of this database is unfinished: the keyring holds the key it moved " +
      "to, not the one it moved from.",
    {
      problems: [
        ...opened.map(({ keyId, count }) =>
          `${count} sealed ${
            count === 1 ? "item is" : "items are"
          } under master key ${keyId} already`
        ),
        ...missing,
      ],
      hint:
        `put the old key back in the keyring, after the newest (${MASTER_KEY_ENV}, or the key file), and run \`voicebot cloud serve rotate-master-key\` to finish; the old key can go once it reports the rotation complete.`,
    },
  );
}

/** The index in `keys` of the key that opens the key check, if any (each key tried alone). */
async function keyOpening(keys: Uint8Array[], check: Uint8Array): Promise<number | undefined> {
  for (let i = 0; i < keys.length; i++) {
    const one = await Vault.fromRawKey(keys[i]);
    try {
      if (one.openSync(check, KEY_CHECK_CONTEXT) === KEY_CHECK_PLAINTEXT) return i;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Each count as a line for a person: `3 sealed items need master key 0f1e...`. */
export function keyNeeds(counts: KeyCount[]): string[] {
  return counts.map(({ keyId, count }) =>
    `${count} sealed ${count === 1 ? "item needs" : "items need"} master key ${keyId}`
  );
}

/** How many sealed items one master key (by id) sealed. */
export interface KeyCount {
  keyId: string;
  count: number;
}

/**
 * What the database holds sealed (values, credentials, and the sealed meta rows in `extra`),
 * counted by the key that sealed it, newest key first; `legacy` for legacy-format values whose
 * key the ring does not know.
 */
export async function sealedByKey(
  storage: Storage,
  vault: Vault,
  extra: Uint8Array[] = [],
): Promise<KeyCount[]> {
  const heads = await storage.countSealedByHead();
  for (const sealed of extra) {
    const head = sealedHead(sealed).toHex();
    heads.set(head, (heads.get(head) ?? 0) + 1);
  }
  const counts = new Map<string, number>();
  for (const [head, count] of heads) {
    const keyId = vault.keyIdOfHead(Uint8Array.fromHex(head)) ?? "legacy";
    counts.set(keyId, (counts.get(keyId) ?? 0) + count);
  }
  const rank = (keyId: string) => {
    const index = vault.keyIds.indexOf(keyId);
    return index < 0 ? Infinity : index;
  };
  return [...counts].map(([keyId, count]) => ({ keyId, count }))
    .sort((a, b) => rank(a.keyId) - rank(b.keyId) || a.keyId.localeCompare(b.keyId));
}
