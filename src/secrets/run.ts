/**
 * `voicebot cloud secrets run`: read secret sets with a runtime key, then start a command with
 * their values in its environment, as `doppler run` or `op run` do. Values go from the API's
 * answer into the child's environment and nowhere else: never printed, logged or written.
 *
 * @module
 */
import {
  AuthError,
  ChildExited,
  NotFoundError,
  ProvisioningFailedError,
  UsageError,
  VoicebotError,
} from "../errors.ts";
import { openToOthers } from "../file_mode.ts";
import { Child } from "./child.ts";
import type { RuntimeRead } from "./client.ts";
import { KEY_NAME } from "./names.ts";

/** Where the runtime key comes from, unless `--key-file` names a file. */
export const RUNTIME_KEY_ENV = "VOICEBOT_RUNTIME_KEY";
/**
 * Set in the child to the names of the sets it got, comma-separated: a generated bot skips its
 * `.env` when it is present, so that a stale file cannot win over the values given here.
 */
export const SECRETS_MARKER_ENV = "VOICEBOT_SECRETS";

const MAX_KEY_FILE_BYTES = 1024;
const CREATE_RUNTIME_KEY = "`voicebot cloud serve create-key -o ORG --runtime --set NAME`";

/** The runtime key from `--key-file` (which only its owner may read) or VOICEBOT_RUNTIME_KEY. */
export async function readRuntimeKey(
  keyFile: string | undefined,
  env: (name: string) => string | undefined,
): Promise<string> {
  let key: string | undefined;
  if (keyFile !== undefined) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(keyFile);
    } catch {
      throw new UsageError(`--key-file ${keyFile}: no such file, or it cannot be read.`);
    }
    // A key is some 70 bytes: anything else (a device, a directory, a large file) is not one.
    if (!info.isFile || info.size > MAX_KEY_FILE_BYTES) {
      throw new UsageError(`--key-file ${keyFile} is not a key file.`, {
        hint: "it holds the runtime key alone (vb_rk_...), as `cloud serve create-key` prints it.",
      });
    }
    const loose = openToOthers(info);
    if (loose !== undefined) {
      throw new UsageError(
        `--key-file ${keyFile} can be read by others (mode ${loose.toString(8)}).`,
        { hint: `run \`chmod 600 ${keyFile}\`.` },
      );
    }
    key = (await Deno.readTextFile(keyFile)).trim();
    if (!key) throw new UsageError(`--key-file ${keyFile} is empty.`);
  } else {
    key = env(RUNTIME_KEY_ENV)?.trim();
    if (!key) {
      throw new AuthError(`no runtime key: ${RUNTIME_KEY_ENV} is not set.`, {
        hint: `put the key in ${RUNTIME_KEY_ENV} (from your secret store, not typed on a ` +
          `command line) or in a file for --key-file; an operator makes one with ${CREATE_RUNTIME_KEY}.`,
      });
    }
  }
  if (key.startsWith("vb_sk_")) throw privateKeyRefused();
  if (/\s/.test(key)) throw new AuthError("the runtime key holds white space; it is one word.");
  return key;
}

/** A private key where a runtime key goes: refused before it is sent anywhere. */
function privateKeyRefused(): AuthError {
  return new AuthError("this is a private API key; `secrets run` takes a runtime key.", {
    hint: "a private key manages sets and never reads values; a runtime key (vb_rk_...) reads " +
      `the values of the sets it is bound to: ${CREATE_RUNTIME_KEY}.`,
  });
}

export interface RuntimeReader {
  readRuntimeSet(name: string): Promise<RuntimeRead>;
}

/** What `checkRuntimeOffered` needs of the client. */
export interface ExtensionProbe {
  discoverExtensions(): Promise<void>;
  offers(extension: "runtime"): boolean;
}

/**
 * Asks the server, without the runtime key, whether it offers runtime keys (voicebot's `runtime`
 * extension), and throws a UsageError (exit 2) when it does not: the key is then never sent to
 * it. The platform's documented API has no runtime keys and no route that reads values.
 */
export async function checkRuntimeOffered(client: ExtensionProbe, baseUrl: string): Promise<void> {
  await client.discoverExtensions();
  if (client.offers("runtime")) return;
  throw new UsageError(
    `the API at ${baseUrl} does not offer runtime keys, which \`secrets run\` reads values ` +
      "with; the runtime key was not sent.",
    {
      hint: "the platform's documented API has no route that reads values: runtime keys are " +
        "voicebot's, served by `voicebot cloud serve`. If this is one, check the API URL " +
        "(--api-url or VOICEBOT_API_URL; it ends in /v1).",
    },
  );
}

export interface ReadSetsOptions {
  /** How long a pending set is waited for, at most. */
  timeoutMs: number;
  /** Called once, the first time a set is found pending. */
  onWait?: (name: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The polling interval while a set is pending, unless the server asks for longer. */
const POLL_MS = 500;

export interface SetValues {
  name: string;
  secrets: [string, string][];
  /** The ETag of the answer it was read from, to ask later whether it changed. */
  tag?: string;
}

/**
 * Reads every set, one after the other (a failure then leaves no read running). A pending set is
 * read again until it is ready, all within the one timeout; a failed set fails at once (it stays
 * failed until someone writes it again).
 */
export async function readSets(
  reader: RuntimeReader,
  names: string[],
  options: ReadSetsOptions,
): Promise<SetValues[]> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + options.timeoutMs;
  let announced = false;
  const readOne = async (name: string): Promise<SetValues> => {
    while (true) {
      const read = await reader.readRuntimeSet(name).catch(explain(name));
      if (read.ready) return { name, secrets: read.secrets, ...read.tag && { tag: read.tag } };
      if (read.status === "failed") {
        throw new ProvisioningFailedError(
          `"${name}" failed to provision${read.errorMessage ? `: ${read.errorMessage}` : ""}.`,
          { hint: "write the set again (`voicebot cloud secrets set`), then run this again." },
        );
      }
      const wait = Math.max(POLL_MS, read.retryAfterMs ?? 0);
      if (now() + wait > deadline) {
        throw new VoicebotError(
          `"${name}" is still pending after ${options.timeoutMs / 1000} s; ` +
            "nothing was started.",
          { hint: "raise --wait-timeout, or check it with `voicebot cloud secrets list`." },
        );
      }
      if (!announced) options.onWait?.(name);
      announced = true;
      await sleep(wait);
    }
  };
  const sets: SetValues[] = [];
  for (const name of names) sets.push(await readOne(name));
  return sets;
}

/** The API's refusals, said in terms of runtime keys. */
function explain(name: string) {
  return (error: unknown): never => {
    if (error instanceof NotFoundError) {
      throw new NotFoundError(`this runtime key reads no set named "${name}".`, {
        hint: "a runtime key reads only the sets it was created for, while they exist (a set " +
          "deleted and made again needs a new key); `voicebot cloud serve list-keys -o ORG` " +
          "shows each key's sets.",
        api: error.api,
      });
    }
    if (error instanceof VoicebotError && error.api?.status === 403) throw privateKeyRefused();
    // No such route: the URL is not a voicebot server's API, or the server has no runtime keys
    // (the platform's documented API has none).
    if (error instanceof VoicebotError && error.api?.status === 404) {
      throw new VoicebotError(
        "this server has no runtime route (GET /runtime/secrets/{setName}): runtime keys and " +
          "`secrets run` need `voicebot cloud serve`.",
        {
          hint: "check the API URL (--api-url or VOICEBOT_API_URL); it ends in /v1.",
          api: error.api,
        },
      );
    }
    throw error;
  };
}

/**
 * Variables a set may not give: they change which program runs, or what it loads and executes
 * (a dynamic library, a module, a shell startup file, a package index). Whoever can write a set
 * would otherwise run code wherever it is used. `--allow-var NAME` lets one through.
 */
const UNSAFE_NAMES = new Set([
  "PATH",
  "HOME",
  "SHELL",
  "ENV",
  "BASH_ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "IFS",
  "CDPATH",
  "TMPDIR",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "GCONV_PATH",
  "GLIBC_TUNABLES",
  "LOCPATH",
  "NLSPATH",
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_EXTRA_CA_CERTS",
  "CLASSPATH",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
]);
const UNSAFE_PREFIXES = [
  "LD_",
  "DYLD_",
  "PYTHON",
  "UV_",
  "PIP_",
  "NPM_CONFIG_",
  "DENO_",
  "PERL5",
  "RUBY",
  "GIT_",
  "BASH_FUNC_",
  // voicebot's own: its credentials, and the marker this command sets.
  "VOICEBOT_",
];

/** Whether a set may not give this variable (names compared in upper case, as Windows does). */
export function isUnsafeVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return UNSAFE_NAMES.has(upper) || UNSAFE_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

export interface ChildEnvironment {
  env: Record<string, string>;
  /** Each variable the sets give, with the set it comes from (the last that has it), by name. */
  given: { key: string; set: string }[];
  /** Variables the sets have that the process's own environment keeps (`--keep-env`). */
  kept: string[];
  /** Every value the sets hold, given or not: what masking hides. */
  setValues: string[];
}

/**
 * The child's environment: the process's own without voicebot's variables (its credentials
 * above all), then each set's values in order (a later set wins), except where `keepEnv` names a
 * variable the process has; and the marker naming the sets. Refuses, naming every one, variables
 * that change what runs (see UNSAFE_NAMES) unless `allowVars` names them, and values that no
 * environment can hold.
 */
export function childEnvironment(
  own: Record<string, string>,
  sets: SetValues[],
  options: { keepEnv?: string[]; allowVars?: string[] } = {},
): ChildEnvironment {
  const keepEnv = new Set(options.keepEnv);
  const allowVars = new Set(options.allowVars);
  const problems: string[] = [];
  const values = new Map<string, { value: string; set: string }>();
  for (const set of sets) {
    for (const [key, value] of set.secrets) {
      const allowed = allowVars.has(key) && !key.toUpperCase().startsWith("VOICEBOT_");
      if (!KEY_NAME.test(key)) {
        // Only a server that breaks the API's name rule could send one; not shown, as it is odd.
        problems.push(`${set.name}: a key that is not a variable name`);
      } else if (isUnsafeVariable(key) && !allowed) {
        problems.push(`${set.name}: ${key} changes which program runs or what it loads`);
      } else if (value.includes("\0")) {
        problems.push(`${set.name}: ${key} holds a NUL character, which no environment can`);
      }
      values.set(key, { value, set: set.name });
    }
  }
  if (problems.length) {
    throw new UsageError(
      "the sets give variables this command will not pass on; nothing was started.",
      {
        problems,
        hint: "remove them from the set, or add --allow-var NAME for one you trust whoever can " +
          "write the set with (voicebot's own VOICEBOT_* never pass).",
      },
    );
  }
  const env = Object.fromEntries(
    Object.entries(own).filter(([name]) => !name.toUpperCase().startsWith("VOICEBOT_")),
  );
  const kept: string[] = [];
  for (const [key, { value }] of values) {
    if (keepEnv.has(key) && env[key] !== undefined) kept.push(key);
    else env[key] = value;
  }
  env[SECRETS_MARKER_ENV] = sets.map((set) => set.name).join(",");
  const given = [...values].filter(([key]) => !kept.includes(key))
    .map(([key, { set }]) => ({ key, set })).sort((a, b) => a.key < b.key ? -1 : 1);
  const setValues = sets.flatMap((set) => set.secrets.map(([, value]) => value));
  return { env, given, kept: kept.sort(), setValues };
}

/**
 * Signals passed on to the child. On a terminal, Ctrl-C (SIGINT), Ctrl-\ (SIGQUIT) and a hang-up
 * reach the child from the terminal itself, as they reach every process of the foreground group:
 * those are not sent again, which would interrupt it twice. Each but SIGQUIT also means that
 * voicebot is being stopped: a watched command is then not started again.
 */
const FORWARDED: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
const FROM_THE_TERMINAL: Deno.Signal[] = ["SIGINT", "SIGQUIT", "SIGHUP"];
const STOPPING: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export interface RunOptions {
  /** voicebot's stdin is a terminal. */
  interactive: boolean;
  /** The values to mask in the command's output; undefined: its output is not touched. */
  mask?: (env: ChildEnvironment) => string[];
  /** How long the command has to end after SIGTERM (a restart, or voicebot stopped). */
  graceMs: number;
  /** With --watch: resolves with the command's new environment when the sets change it. */
  changed?: () => Promise<ChildEnvironment>;
  /** Tells the user (stderr). */
  say: (message: string) => void;
}

/**
 * Starts the command with this environment (and voicebot's stdin), passes signals on, and ends
 * with its status: ChildExited for anything but 0, and a signal's death as a shell reports it (128
 * + the signal's number). Watched, a change of the sets restarts it (SIGTERM, the grace, then
 * SIGKILL); a command that ends by itself, or a stop of voicebot, ends the run.
 */
export async function runCommand(
  command: string[],
  first: ChildEnvironment,
  options: RunOptions,
): Promise<void> {
  // Off a terminal, in a group of its own: a stop or a restart ends everything it started.
  const start = (environment: ChildEnvironment) =>
    Child.start(command, environment.env, {
      mask: options.mask?.(environment),
      ownGroup: !options.interactive,
    });
  let child = start(first);
  let stopping = false;
  let stopped!: () => void;
  const stop = new Promise<"stop">((resolve) => stopped = () => resolve("stop"));
  const listeners: [Deno.Signal, () => void][] = [];
  for (const signal of FORWARDED) {
    const handler = () => {
      if (STOPPING.includes(signal)) {
        stopping = true;
        stopped();
      }
      if (!(options.interactive && FROM_THE_TERMINAL.includes(signal))) child.signal(signal);
    };
    try {
      Deno.addSignalListener(signal, handler);
      listeners.push([signal, handler]);
    } catch {
      // Not a signal this platform has (Windows has only SIGINT and SIGBREAK).
    }
  }
  let status: Deno.CommandStatus;
  try {
    while (true) {
      const change = options.changed?.() ?? new Promise<never>(() => {});
      // Left behind when the run ends, it is ended with the watch: not an error.
      change.catch(() => {});
      const next = await Promise.race([child.ended, change, stop]);
      if (next === "stop") {
        // The signal went to the command; it has the grace to end, as on a restart.
        status = await child.endWithin(options.graceMs);
        break;
      }
      if (!("env" in next)) {
        status = next;
        break;
      }
      options.say(
        `The sets changed: restarting the command (SIGTERM, then up to ${
          options.graceMs / 1000
        } s to end).`,
      );
      const ended = await child.stop(options.graceMs);
      if (stopping) {
        status = ended;
        break;
      }
      child = start(next);
      options.say("The command started again with the new values.");
    }
  } finally {
    for (const [signal, handler] of listeners) Deno.removeSignalListener(signal, handler);
  }
  // Deno reports a death by signal as a shell does: 128 + the signal's number.
  if (status.code !== 0) throw new ChildExited(status.code);
}
