/**
 * `secrets run --fallback FILE`: the values last read, kept sealed on disk, so that a command can
 * start while the API cannot be reached (as Doppler's `--fallback` does) and `--watch` brings it
 * up to date when the API answers again.
 *
 * The file is JSON: `{ "format", "salt", "iv", "sealed" }`, the last three base64. Its key is
 * HKDF-SHA256 of the runtime key with the file's own random salt, and the values are sealed with
 * AES-256-GCM: the file alone reveals nothing, and no other key opens it. The sealed text is
 * `{ savedAt, sets }`, bound (as additional data) to the API URL and the sets' names, so a file
 * written for other sets or another server is not taken, and its age cannot be changed.
 *
 * @module
 */
import { ApiUnreachable, VoicebotError } from "../errors.ts";
import { openToOthers, writePrivateFile } from "../file_mode.ts";
import type { SetValues } from "./run.ts";

const FORMAT = "voicebot secrets run fallback 1";
/** A fallback file is a few kilobytes a set: anything far larger is not one. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** What a file is written for: read back only for the same. */
export interface FallbackContext {
  apiUrl: string;
  names: string[];
}

/** Seals `sets` into `path` (0600, atomically), as read at `now`. */
export async function saveFallback(
  path: string,
  runtimeKey: string,
  context: FallbackContext,
  sets: SetValues[],
  now = Date.now(),
): Promise<void> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify({ savedAt: now, sets }));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: boundTo(context) },
      await keyFor(runtimeKey, salt),
      plain,
    ),
  );
  const file = {
    format: FORMAT,
    salt: salt.toBase64(),
    iv: iv.toBase64(),
    sealed: sealed.toBase64(),
  };
  await writePrivateFile(path, JSON.stringify(file) + "\n");
}

/**
 * The sets `path` holds and how long ago they were read, if it is a fallback file for `context`
 * that this runtime key opens and no older than `maxAgeMs`; else a VoicebotError that says which
 * it is not.
 */
export async function loadFallback(
  path: string,
  runtimeKey: string,
  context: FallbackContext,
  maxAgeMs: number,
  now = Date.now(),
): Promise<{ sets: SetValues[]; ageMs: number }> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    throw unusable(path, "does not exist yet (it is written after each successful read)");
  }
  if (!info.isFile || info.size > MAX_FILE_BYTES) throw unusable(path, "is not a fallback file");
  if (openToOthers(info) !== undefined) {
    throw unusable(path, "can be read by others", `run \`chmod 600 ${path}\`.`);
  }
  let salt: Uint8Array<ArrayBuffer>, iv: Uint8Array<ArrayBuffer>, sealed: Uint8Array<ArrayBuffer>;
  try {
    const file = JSON.parse(await Deno.readTextFile(path));
    if (file.format !== FORMAT) throw new Error("not a fallback file");
    [salt, iv, sealed] = [file.salt, file.iv, file.sealed].map((field) =>
      Uint8Array.fromBase64(String(field)) as Uint8Array<ArrayBuffer>
    );
  } catch {
    throw unusable(path, "is not a fallback file");
  }
  let saved: { savedAt: number; sets: SetValues[] };
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: boundTo(context) },
      await keyFor(runtimeKey, salt),
      sealed,
    );
    saved = JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw unusable(
      path,
      "does not open with this runtime key for these sets at this API URL (or it was changed)",
    );
  }
  const ageMs = Math.max(0, now - saved.savedAt);
  if (ageMs > maxAgeMs) {
    throw unusable(
      path,
      `holds values read ${ago(ageMs)} ago, more than --fallback-max-age allows`,
      "raise --fallback-max-age if values that old may still serve, or bring the API back.",
    );
  }
  return { sets: saved.sets, ageMs };
}

/** How long ago, in the largest whole unit: `40 s`, `12 min`, `5 h`, `3 d`. */
export function ago(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3_600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

function unusable(path: string, why: string, hint?: string): VoicebotError {
  return new VoicebotError(`the fallback ${path} ${why}.`, hint === undefined ? {} : { hint });
}

/** The additional data a file is sealed with: the API URL and the sets, in order. */
const boundTo = ({ apiUrl, names }: FallbackContext) =>
  new TextEncoder().encode(JSON.stringify([FORMAT, apiUrl, names]));

async function keyFor(runtimeKey: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(runtimeKey),
    "HKDF",
    false,
    ["deriveKey"],
  );
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt, info: new TextEncoder().encode(FORMAT) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** `--fallback`: where the values are kept, for which sets and API, and how old they may be. */
export interface Fallback {
  path: string;
  maxAgeMs: number;
  context: FallbackContext;
}

/**
 * The sets as `read` gives them, then kept in the fallback file; or, when `read` finds the API out
 * of reach (no answer, or a 5xx), the fallback file's, said once. A refusal (401, 403, 404: a key
 * revoked, a set deleted) is never answered from the file: it stops the start.
 */
export async function readOrFallback(
  read: () => Promise<SetValues[]>,
  fallback: Fallback | undefined,
  runtimeKey: string,
  say: (message: string) => void,
  now = Date.now,
): Promise<SetValues[]> {
  if (fallback === undefined) return await read();
  let sets: SetValues[];
  try {
    sets = await read();
  } catch (error) {
    if (!isOutOfReach(error)) throw error;
    const { path, maxAgeMs, context } = fallback;
    const saved = await loadFallback(path, runtimeKey, context, maxAgeMs, now()).catch((why) => {
      throw new VoicebotError(`${error.message.replace(/\.$/, "")}, and ${why.message}`, {
        hint: why.hint ?? error.hint,
      });
    });
    say(
      `The API cannot be reached: starting from ${path}, with the values read ${
        ago(saved.ageMs)
      } ago.`,
    );
    return saved.sets;
  }
  await keep(fallback, runtimeKey, sets, say, now());
  return sets;
}

/** Writes the sets to the fallback file; a failure is said, never fatal (the values are in hand). */
export async function keep(
  fallback: Fallback,
  runtimeKey: string,
  sets: SetValues[],
  say: (message: string) => void,
  now = Date.now(),
): Promise<void> {
  try {
    await saveFallback(fallback.path, runtimeKey, fallback.context, sets, now);
  } catch (error) {
    say(`Could not write the fallback ${fallback.path}: ${(error as Error).message}.`);
  }
}

/** No answer from the API, or a 5xx: what a fallback may stand in for. */
function isOutOfReach(error: unknown): error is VoicebotError {
  return error instanceof ApiUnreachable ||
    (error instanceof VoicebotError && (error.api?.status ?? 0) >= 500);
}
