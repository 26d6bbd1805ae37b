/** `--wait`: poll a set until the provisioner has moved it out of `pending`, within a bound. */
import { VoicebotError } from "../errors.ts";
import type { SetDetail as SecretSetDetail } from "./client.ts";

export const DEFAULT_WAIT_TIMEOUT_MS = 120_000;
const POLL_MS = 500;

export interface WaitOptions {
  timeoutMs?: number;
  pollMs?: number;
  /** Stops the polling: the wait then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Injected in tests. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The set once `ready` or `failed`; throws when it is gone or still pending at the deadline. */
export async function waitForSet(
  getSet: (name: string) => Promise<SecretSetDetail | undefined>,
  name: string,
  options: WaitOptions = {},
): Promise<SecretSetDetail> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const { signal } = options;
  const sleep = options.sleep ?? ((ms: number) => abortableSleep(ms, signal));
  const now = options.now ?? Date.now;
  const deadline = now() + timeoutMs;
  while (true) {
    signal?.throwIfAborted();
    const set = await getSet(name);
    signal?.throwIfAborted();
    if (!set) throw new VoicebotError(`"${name}" was deleted while waiting for it.`);
    if (set.status !== "pending") return set;
    if (now() >= deadline) {
      throw new VoicebotError(
        `"${name}" is still pending after ${Math.round(timeoutMs / 1000)} s.`,
        { hint: `check later with \`voicebot cloud secrets list ${name}\`.` },
      );
    }
    await sleep(Math.min(options.pollMs ?? POLL_MS, Math.max(0, deadline - now())));
  }
}

/** A timer that ends early, rejecting with the signal's reason, when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
