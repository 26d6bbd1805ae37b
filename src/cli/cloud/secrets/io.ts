/** Reading secrets from a file or stdin, and `--wait` with a spinner: shared by the secrets commands. */
import { UsageError } from "../../../errors.ts";
import type { CheckedSecrets, SecretsApi } from "../../../secrets/set.ts";
import type { SecretSetDetail } from "../../../secrets/schemas.ts";

export const fileArg = {
  file: {
    type: "string",
    short: "f",
    description: "A dotenv file of KEY=value lines; `-` reads stdin",
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
  const secrets = checkSecretsInput({ name, pairs, file: text, allowEmpty: options.allowEmpty });
  return { name, secrets };
}

/** More than any real .env; a pipe that never ends is refused rather than read forever. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The dotenv text of `--file PATH`, or of stdin for `-`, labelled as problems will name it. */
export async function readSecretsFile(path: string): Promise<{ label: string; text: string }> {
  if (path === "-") return { label: "stdin", text: await readStdin() };
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new UsageError(`--file ${path} is not a file.`);
    if (info.size > MAX_INPUT_BYTES) {
      throw new UsageError(`--file ${path} is over ${MAX_INPUT_BYTES} bytes.`);
    }
    return { label: path, text: await Deno.readTextFile(path) };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`--file ${path}: no such file.`, {
        hint: path.endsWith(".env") ? "copy .env.example to .env and fill it in." : undefined,
      });
    }
    throw new UsageError(`--file ${path} cannot be read: ${(error as Error).message}`);
  }
}

/** All of stdin as UTF-8, at most MAX_INPUT_BYTES. */
export async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_INPUT_BYTES) throw new UsageError(`stdin is over ${MAX_INPUT_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return await new Blob(chunks as BlobPart[]).text();
}

export const waitArgs = {
  wait: { type: "boolean", description: "Wait until it is ready or failed (exit 6 if it fails)" },
  "wait-timeout": { type: "number", default: 120, description: "Seconds --wait waits at most" },
} as const;

/** `--wait`: polls until ready or failed, with a spinner on a terminal. */
export async function waitWithSpinner(
  api: SecretsApi,
  name: string,
  timeoutSeconds: number,
  show: boolean,
): Promise<SecretSetDetail> {
  if (!(timeoutSeconds > 0)) throw new UsageError("--wait-timeout must be more than 0 seconds.");
  const { waitForSet } = await import("../../../secrets/wait.ts");
  const wait = () => waitForSet((n) => api.getSet(n), name, { timeoutMs: timeoutSeconds * 1000 });
  if (!show) return await wait();
  const { spinner } = await import("../../prompt.ts");
  const spin = spinner();
  spin.start(`Waiting for "${name}" to be ready`);
  try {
    const set = await wait();
    if (set.status === "failed") spin.error(`"${name}" failed`);
    else spin.stop(`"${name}" is ${set.status}`);
    return set;
  } catch (error) {
    spin.error(`Stopped waiting for "${name}"`);
    throw error;
  }
}
