/** Reading secrets from a file or stdin, and `--wait` with a spinner: shared by the secrets commands. */
import { CancelledError, UsageError } from "../../../errors.ts";
import { printNote } from "../../output.ts";
import type { CheckedSecrets, SecretsApi } from "../../../secrets/set.ts";
import type { SetDetail as SecretSetDetail } from "../../../secrets/client.ts";

export const fileArg = {
  file: {
    type: "string",
    short: "f",
    description:
      "A dotenv file, read as the bot's python-dotenv reads it; `-` reads stdin (a pipe, not a terminal)",
  },
} as const;

/**
 * `NAME [KEY=value ...] [--file FILE]` of `set` and `diff`: the set name and the secrets, every
 * problem reported at once before anything is sent.
 */
export async function readSecretsInput(
  positionals: readonly string[],
  file: string | undefined,
  options: { usage: string; allowEmpty: boolean },
): Promise<{ name: string; secrets: CheckedSecrets }> {
  const [name, ...pairs] = positionals;
  if (name === undefined) throw new UsageError("missing the set name.", { hint: options.usage });
  const { checkSecretsInput } = await import("../../../secrets/set.ts");
  const text = file === undefined ? undefined : await readSecretsFile(file);
  const { secrets, notes } = checkSecretsInput({
    name,
    pairs,
    file: text,
    allowEmpty: options.allowEmpty,
  });
  for (const note of notes) printNote(note);
  return { name, secrets };
}

/** More than any real .env; a pipe that never ends is refused rather than read forever. */
const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * The bytes of `--file PATH`, or of stdin for `-`, labelled as problems will name it: the core
 * decodes them as python-dotenv would, and says when they are not text.
 */
export async function readSecretsFile(
  path: string,
): Promise<{ label: string; text: Uint8Array }> {
  if (path === "-") {
    const text = await readStdinBytes("the secrets", {
      hint: "pipe them in (`--file - < .env`), or name the file (`--file .env`).",
    });
    return { label: "stdin", text };
  }
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new UsageError(`--file ${path} is not a file.`);
    if (info.size > MAX_INPUT_BYTES) {
      throw new UsageError(`--file ${path} is over ${MAX_INPUT_BYTES} bytes.`);
    }
    return { label: path, text: await Deno.readFile(path) };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      const nearby = await findNearby(path);
      throw new UsageError(`--file ${path}: no such file.`, {
        hint: nearby
          ? `there is one at ${nearby}: run the command from the directory you meant, or give that path.`
          : path.endsWith(".env")
          ? "copy .env.example to .env and fill it in."
          : undefined,
      });
    }
    throw new UsageError(`--file ${path} cannot be read: ${(error as Error).message}`);
  }
}

/**
 * All of stdin as UTF-8, at most MAX_INPUT_BYTES. Refused when stdin is a terminal: the terminal
 * would echo what is typed (secrets, credentials), and a command that waits for input without a
 * prompt looks hung. A hidden prompt is the way to type a secret; `hint` names the alternatives.
 */
export async function readStdin(what: string, options: { hint: string }): Promise<string> {
  return new TextDecoder().decode(await readStdinBytes(what, options));
}

/** `readStdin`'s bytes, undecoded. */
async function readStdinBytes(what: string, options: { hint: string }): Promise<Uint8Array> {
  if (Deno.stdin.isTerminal()) {
    throw new UsageError(
      `cannot read ${what} from stdin: it is a terminal, which would show what you type.`,
      { hint: options.hint },
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_INPUT_BYTES) throw new UsageError(`stdin is over ${MAX_INPUT_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

/**
 * Where the missing `path` is when the command was run one directory off: the path taken from the
 * parent directory (`--file server/.env` from a sibling of `server/`), or a file of its name in the
 * current directory, the one above, or one below (`--file server/.env` from inside `server/`, or
 * `--file .env` from the project above it).
 */
async function findNearby(path: string): Promise<string | undefined> {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const candidates = [base, ...(path.startsWith("/") ? [] : [`../${path}`]), `../${base}`];
  try {
    for await (const entry of Deno.readDir(".")) {
      if (entry.isDirectory) candidates.push(`${entry.name}/${base}`);
    }
  } catch {
    // An unreadable directory has no candidates below it.
  }
  for (const candidate of candidates) {
    if (candidate !== path && await isFile(candidate)) return candidate;
  }
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

export const waitArgs = {
  wait: {
    type: "boolean",
    description: "Wait until it is ready or failed (exit 6 if it fails; Ctrl-C stops the wait)",
  },
  "wait-timeout": {
    type: "number",
    default: 120,
    metavar: "seconds",
    description: "Seconds --wait waits at most",
  },
} as const;

/** `--wait-timeout`, checked before anything is sent. */
export function checkWaitTimeout(seconds: number): number {
  if (!(seconds > 0)) throw new UsageError("--wait-timeout must be more than 0 seconds.");
  return seconds;
}

/**
 * `--wait` and `--wait-timeout`, checked before anything is sent: a timeout given without
 * `--wait` would be ignored, so it is refused by name.
 */
export function checkWaitArgs(
  values: { wait?: boolean; "wait-timeout": number },
  explicit: { "wait-timeout"?: boolean } | undefined,
) {
  if (values.wait) checkWaitTimeout(values["wait-timeout"]);
  else if (explicit?.["wait-timeout"]) {
    throw new UsageError("--wait-timeout: only with --wait, whose wait it bounds.");
  }
}

/**
 * `--wait`: polls until ready or failed, with a spinner on a terminal. `written` says what the
 * write did (it has been made): Ctrl-C or Escape at the spinner stops the wait, not the write, and
 * the CancelledError (exit 130) says so, and how to check the status later.
 */
export async function waitWithSpinner(
  api: SecretsApi,
  name: string,
  timeoutSeconds: number,
  show: boolean,
  written: string,
): Promise<SecretSetDetail> {
  const timeoutMs = checkWaitTimeout(timeoutSeconds) * 1000;
  const [{ waitForSet }, { spinner, orCancelled }] = await Promise.all([
    import("../../../secrets/wait.ts"),
    import("../../prompt.ts"),
  ]);
  const spin = show ? spinner() : undefined;
  spin?.start(`Waiting for "${name}" to be ready`);
  const waiting = waitForSet((n) => api.getSet(n), name, { timeoutMs, signal: spin?.signal });
  try {
    const set = await (spin ? orCancelled(spin, waiting) : waiting);
    if (set.status === "failed") spin?.error(`"${name}" failed`);
    else spin?.stop(`"${name}" is ${set.status}`);
    return set;
  } catch (error) {
    if (error instanceof CancelledError) {
      throw new CancelledError(
        `Cancelled the wait, not the write: ${written}. It may still be pending.`,
        { hint: `see its status with \`voicebot cloud secrets list ${name}\`.` },
      );
    }
    spin?.error(`Stopped waiting for "${name}"`);
    throw error;
  }
}
