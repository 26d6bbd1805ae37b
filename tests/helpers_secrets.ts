/**
 * Helpers for the `cloud auth` / `cloud secrets` end-to-end tests: the real server on 127.0.0.1
 * port 0 over a temporary SQLite database, a temporary HOME that persists across the CLI runs of
 * one test, a transcript of every byte the CLI printed (for the leak check), and a tmux session
 * for what needs a real terminal.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { createApiKey } from "../src/server/serve.ts";
import { descendantsOf } from "../src/secrets/child.ts";
import type { CliResult } from "./helpers.ts";
import {
  api,
  type Backend,
  databaseArgs,
  type JsonBody,
  MASTER_KEY,
  type SpawnedServer,
  spawnServer,
  withDeadline,
} from "./helpers_server.ts";
import { DENO_DIR, ENTRY, tempDir } from "./helpers.ts";

/**
 * This process's environment without VOICEBOT_* and PYTHONUNBUFFERED (which `secrets run` sets
 * itself), so that the tests decide those, plus `env`.
 */
function cleanEnv(env: Record<string, string>): Record<string, string> {
  const inherited = Object.entries(Deno.env.toObject())
    .filter(([k]) => !k.startsWith("VOICEBOT_") && k !== "PYTHONUNBUFFERED");
  // Deno's cache stays the run's own although HOME changes: no download per test.
  return { ...Object.fromEntries(inherited), DENO_DIR, ...env };
}

/** Everything any CLI run of this process printed, stdout and stderr. */
export const transcript: string[] = [];

export interface Session extends AsyncDisposable {
  server: SpawnedServer;
  baseUrl: string;
  /** The bootstrap key of organization `default`. */
  key: string;
  database: string;
  home: string;
  configPath: string;
  /** A fresh key for `organization` (created if new), made in process on the same database. */
  createKey(organization: string): Promise<string>;
  /** Runs the CLI with this session's HOME; `stdin` is piped when given, else null. */
  run(
    args: string[],
    options?: { stdin?: string; env?: Record<string, string>; cwd?: string },
  ): Promise<CliResult>;
  /** PUT /secrets/{name} straight to the API (the `set` command is tested elsewhere). */
  put(name: string, body: JsonBody, key?: string): Promise<JsonBody>;
  /** GET /secrets/{name} straight from the API: status and body. */
  get(name: string, key?: string): Promise<{ status: number; body: JsonBody }>;
  /** The environment a CLI run gets. */
  env: Record<string, string>;
}

/**
 * The server with a fresh database (SQLite unless `backend` says otherwise), a temporary HOME,
 * and its bootstrap key.
 */
export async function startSession(
  serverArgs: string[] = [],
  options: { backend?: Backend } = {},
): Promise<Session> {
  const dir = await tempDir();
  const ownDatabase = options.backend && await options.backend.database();
  const database = ownDatabase?.spec ?? join(dir.path, "voicebot.db");
  const home = join(dir.path, "home");
  await Deno.mkdir(home);
  const server = await spawnServer(database, {
    args: ["--provision-delay", "0", ...serverArgs],
  });
  const env = { NO_COLOR: "1", HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const session: Session = {
    server,
    baseUrl: server.baseUrl,
    key: server.bootstrapKey!,
    database,
    home,
    configPath: join(home, ".config", "voicebot", "config.json"),
    env,
    createKey: (organization) => createApiKey(database, organization),
    run: (args, options = {}) =>
      runCli(args, { ...env, ...options.env }, options.stdin, options.cwd),
    async put(name, body, key = session.key) {
      const response = await api(server.baseUrl, key, "PUT", `/secrets/${name}`, body);
      if (response.status >= 300) throw new Error(`PUT ${name}: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async get(name, key = session.key) {
      const { status, body } = await api(server.baseUrl, key, "GET", `/secrets/${name}`);
      return { status, body };
    },
    async [Symbol.asyncDispose]() {
      await server.stop();
      await ownDatabase?.[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  };
  return session;
}

/** The CLI as a user runs it, with no terminal; the output joins the transcript. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
  cwd?: string,
): Promise<CliResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ENTRY, ...args],
    cwd,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: cleanEnv(env),
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  const result = {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
  transcript.push(result.stdout, result.stderr);
  return result;
}

/** A runtime key for `sets`, made as an operator would, with `cloud serve create-key`. */
export async function runtimeKey(session: Session, sets: string[], extra: string[] = []) {
  const { args, env } = databaseArgs(session.database);
  const result = await session.run([
    "cloud",
    "serve",
    "create-key",
    "-o",
    "default",
    "--runtime",
    ...sets.flatMap((set) => ["--set", set]),
    ...args,
    ...extra,
  ], { env });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^vb_rk_\S+\n$/);
  return result.stdout.trim();
}

/** A CLI run that goes on while the test watches its output, line by line. */
export interface RunningCli extends AsyncDisposable {
  child: Deno.ChildProcess;
  /** Every line of stdout so far. */
  lines: string[];
  /** Everything on stderr so far. */
  stderr(): string;
  /** The first line of stdout from `from` on that matches, within `ms`; its index too. */
  line(pattern: RegExp, from?: number, ms?: number): Promise<{ text: string; index: number }>;
  /** Its exit status, within `ms` (then it is killed and the wait fails). */
  status(ms?: number): Promise<number>;
}

/** Starts the CLI as runCli does, without waiting for it; its output joins the transcript. */
export function startCli(args: string[], env: Record<string, string>): RunningCli {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ENTRY, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: cleanEnv(env),
  }).spawn();
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  // Both pipes drained all along, so that it never blocks on a full pipe.
  const stdoutDone = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(chunk) {
        const parts = (partial + chunk).split("\n");
        partial = parts.pop()!;
        lines.push(...parts);
      },
    }),
  );
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr += chunk) }),
  );
  const ended = child.status.then(async ({ code }) => {
    await Promise.all([stdoutDone, stderrDone]);
    transcript.push([...lines, partial].join("\n"), stderr);
    return code;
  });
  // The CLI and every process under it (a command `secrets run` started leads a session of its
  // own, which outlives a SIGKILL of voicebot): a test leaves nothing running.
  const kill = () => {
    const tree = descendantsOf(child.pid);
    for (const pid of [child.pid, ...tree]) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // It has ended.
      }
    }
  };
  return {
    child,
    lines,
    stderr: () => stderr,
    line: (pattern, from = 0, ms = 20_000) =>
      waitFor(`a line matching ${pattern}`, () => {
        const index = lines.findIndex((text, i) => i >= from && pattern.test(text));
        return index < 0 ? undefined : { text: lines[index], index };
      }, ms).catch((error) => {
        throw new Error(`${error.message}\nstdout:\n${lines.join("\n")}\nstderr:\n${stderr}`);
      }),
    status: (ms = 20_000) =>
      withDeadline(ended, ms).catch((error) => {
        kill();
        throw error;
      }),
    async [Symbol.asyncDispose]() {
      kill();
      await ended;
    },
  };
}

/** Polls `check` every 100 ms until it returns a value, for at most `ms`; then throws `what`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A CLI run inside a tmux pane: a real terminal, driven with real keystrokes. */
export interface Terminal extends AsyncDisposable {
  /** The visible pane text, wrapped lines joined; with `escapes`, its colour codes too. */
  screen(escapes?: boolean): Promise<string>;
  /** Waits (bounded) until the pane shows `pattern`. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** tmux send-keys: `literal` text, or key names such as Enter, Left, C-c. */
  type(text: string): Promise<void>;
  keys(...names: string[]): Promise<void>;
  /** Waits (bounded) for the command to end; its exit code. */
  exitCode(ms?: number): Promise<number>;
}

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/**
 * Starts `voicebot <args>` in a fresh tmux server of its own (unique socket and session). Every
 * byte the pane shows is logged from the start (tmux pipe-pane; the command waits until the log
 * is open) and joins the transcript when the terminal is disposed: what scrolled away or was
 * redrawn is checked too, not only the last screen. With `stdoutTo`, stdout goes to that file
 * while stdin and stderr stay the terminal.
 */
export async function terminal(
  args: string[],
  env: Record<string, string>,
  options: { stdoutTo?: string } = {},
): Promise<Terminal> {
  const id = `vb-i7-${crypto.randomUUID().slice(0, 8)}`;
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const command = [
    "env",
    "-i",
    ...Object.entries(cleanEnv({ TERM: "xterm-256color", ...env })).map(([k, v]) => `${k}=${v}`),
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    ENTRY,
    ...args,
  ].map(quote).join(" ") + (options.stdoutTo ? ` > ${quote(options.stdoutTo)}` : "");
  const logDir = await Deno.makeTempDir({ prefix: "voicebot-tty-log-" });
  const log = join(logDir, "pane.log");
  // The command starts once signalled, after pipe-pane is on; the exit code is written where the
  // pane shows it; the pane stays until killed.
  await tmux(
    id,
    "new-session",
    "-d",
    "-s",
    id,
    "-x",
    "200",
    "-y",
    "50",
    `tmux -L ${id} wait-for go; ${command}; echo "EXIT=$?"; sleep 600`,
  );
  await tmux(id, "pipe-pane", "-t", id, `cat >> ${quote(log)}`);
  await tmux(id, "wait-for", "-S", "go");
  const screen = (escapes = false) =>
    tmux(id, "capture-pane", "-p", "-J", ...(escapes ? ["-e"] : []), "-t", id);
  const waitScreen = (pattern: RegExp, ms = 20_000) =>
    waitFor(`${pattern} on the terminal`, async () => {
      const text = await screen();
      return pattern.test(text) ? text : undefined;
    }, ms).catch(async (error) => {
      throw new Error(`${error.message}; the screen:\n${await screen()}`);
    });
  return {
    screen,
    waitFor: waitScreen,
    type: async (text) => void (await tmux(id, "send-keys", "-t", id, "-l", text)),
    keys: async (...names) => void (await tmux(id, "send-keys", "-t", id, ...names)),
    exitCode: async (ms) => Number(/EXIT=(\d+)/.exec(await waitScreen(/EXIT=\d+/, ms))![1]),
    [Symbol.asyncDispose]: async () => {
      transcript.push(await screen().catch(() => ""));
      await tmux(id, "kill-server").catch(() => {});
      const logged = await Deno.readTextFile(log).catch(() => "");
      if (!logged) throw new Error("the pane's log is empty: pipe-pane did not run");
      transcript.push(logged);
      await Deno.remove(logDir, { recursive: true }).catch(() => {});
    },
  };
}

export { MASTER_KEY };
