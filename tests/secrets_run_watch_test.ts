/**
 * `voicebot cloud secrets run`, round two: values masked in the command's output, and `--watch`
 * restarting it when its sets change, through the spawned CLI against the real server.
 */
import assert from "node:assert/strict";
import { MASK } from "../src/secrets/mask.ts";
import { freePort } from "./helpers.ts";
import { skipped } from "./skips.ts";
import { backendTest, spawnServer } from "./helpers_server.ts";
import {
  runtimeKey,
  type Session,
  startCli,
  startSession,
  terminal,
  transcript,
} from "./helpers_secrets.ts";
import { databaseArgs } from "./helpers_server.ts";

/** Values this file stores; none may reach anything the CLI printed, unless masking is off. */
const VALUES = {
  plain: "sk-mask-0123456789abcdef",
  lines: "first-line-of-it\nsecond-line-of-it",
  unicode: "clé-секрет-密钥-42",
  first: "watch-first-v4lue",
  second: "watch-second-v4lue",
};

function cliEnv(session: Session, key: string): Record<string, string> {
  return { ...session.env, VOICEBOT_RUNTIME_KEY: key, VOICEBOT_API_URL: session.baseUrl };
}

/** Shorter than 6 characters: not masked, as the docs say. */
const SHORT = "ab12z";

/** Writes a secret set with the private key. */
const put = (session: Session, name: string, secrets: Record<string, string>) =>
  session.put(name, { type: "secret", secrets });

/**
 * A command that prints each value of the set on stdout and stderr: whole, split between two
 * writes a moment apart, and (for the long one) twice on one line.
 */
const PRINTER = [
  "import os, sys, time",
  "for name in ['PLAIN', 'LINES', 'UNICODE', 'SHORT']:",
  "    value = os.environ[name]",
  "    for stream in (sys.stdout, sys.stderr):",
  "        stream.write(f'{name}=' + value[:3]); stream.flush(); time.sleep(0.05)",
  "        stream.write(value[3:] + ' end\\n'); stream.flush()",
  "print(os.environ['PLAIN'] * 2)",
  // Its stdout and voicebot's: the same pipe exactly when the output is not touched.
  "print('fd', os.readlink('/proc/self/fd/1') == os.readlink(f'/proc/{os.getppid()}/fd/1'))",
  "print('unbuffered', os.environ.get('PYTHONUNBUFFERED'))",
].join("\n");

Deno.test("secrets run masks every value in the command's output; --no-masking leaves it alone", async () => {
  await using session = await startSession();
  await put(session, "bot", {
    PLAIN: VALUES.plain,
    LINES: VALUES.lines,
    UNICODE: VALUES.unicode,
    SHORT,
  });
  const key = await runtimeKey(session, ["bot"]);
  const env = cliEnv(session, key);

  const masked = startCli(["cloud", "secrets", "run", "bot", "--", "python3", "-c", PRINTER], env);
  assert.equal(await masked.status(), 0, masked.stderr());
  const expected = [
    `PLAIN=${MASK} end`,
    `LINES=${MASK} end`,
    `UNICODE=${MASK} end`,
    `SHORT=${SHORT} end`,
  ];
  assert.deepEqual(masked.lines.slice(0, 4), expected);
  assert.equal(masked.lines[4], MASK + MASK);
  assert.deepEqual(masked.lines.slice(5, 7), ["fd False", "unbuffered 1"]);
  assert.equal(masked.stderr(), expected.join("\n") + "\n");

  const plain = startCli(
    ["cloud", "secrets", "run", "bot", "--no-masking", "--", "python3", "-c", PRINTER],
    env,
  );
  assert.equal(await plain.status(), 0, plain.stderr());
  assert.deepEqual(plain.lines.slice(0, 4), [
    `PLAIN=${VALUES.plain} end`,
    `LINES=${VALUES.lines.split("\n")[0]}`,
    `${VALUES.lines.split("\n")[1]} end`,
    `UNICODE=${VALUES.unicode} end`,
  ]);
  assert.deepEqual(plain.lines.slice(6, 8), ["fd True", "unbuffered None"]);
  // What it printed holds the values, as asked: kept out of the transcript this file checks.
  transcript.splice(-2);
});

/** A command on a terminal: prints a value, then counts the Ctrl-C it gets and ends with 3. */
const INTERRUPTIBLE = [
  "import os, signal, sys, time",
  "seen = []",
  "def interrupted(*_):",
  "    seen.append(1)",
  "    time.sleep(0.5)",
  "    print('interrupted', len(seen), os.environ['PLAIN'], flush=True)",
  "    sys.exit(3)",
  "signal.signal(signal.SIGINT, interrupted)",
  "print('tty', sys.stdout.isatty(), 'value', os.environ['PLAIN'], flush=True)",
  "while True: time.sleep(1)",
].join("\n");

Deno.test("secrets run on a terminal: masked, Ctrl-C reaches the command once, its status comes back; --no-masking keeps the terminal", async () => {
  await using session = await startSession();
  await put(session, "bot", { PLAIN: VALUES.plain });
  const key = await runtimeKey(session, ["bot"]);
  // Where the --no-masking pane's output starts in the transcript.
  let unmasked = transcript.length;
  for (const [masking, tty] of [[[], "False"], [["--no-masking"], "True"]] as const) {
    unmasked = transcript.length;
    await using pane = await terminal(
      ["cloud", "secrets", "run", "bot", ...masking, "--", "python3", "-c", INTERRUPTIBLE],
      cliEnv(session, key),
    );
    await pane.waitFor(/^tty /m);
    // The terminal echoes it as ^C.
    await pane.keys("C-c");
    assert.equal(await pane.exitCode(), 3);
    const screen = await pane.screen();
    const shown = masking.length ? VALUES.plain : MASK;
    assert.match(screen, new RegExp(`^tty ${tty} value ${escape(shown)}$`, "m"));
    assert.match(screen, new RegExp(`^(\\^C)?interrupted 1 ${escape(shown)}$`, "m"));
  }
  // The --no-masking pane showed the value, as asked: kept out of the transcript this file checks.
  transcript.splice(unmasked);
});

const escape = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/**
 * A command that says `ready PID DIGEST` (DIGEST: of A's value), and on SIGTERM `stopping`, then
 * takes TAKES seconds to end, then `stopped`.
 */
const BOT = [
  "import hashlib, os, signal, sys, time",
  "def term(*_):",
  "    print('stopping', flush=True)",
  "    time.sleep(float(os.environ.get('TAKES', '0')))",
  "    print('stopped', flush=True)",
  "    sys.exit(0)",
  "signal.signal(signal.SIGTERM, term)",
  // With PORT, it holds the port as a server does: a second one cannot start while it runs.
  "if os.environ.get('PORT'):",
  "    import socket",
  "    server = socket.socket()",
  "    server.bind(('127.0.0.1', int(os.environ['PORT'])))",
  "    server.listen()",
  "digest = hashlib.sha256(os.environ['A'].encode()).hexdigest()[:12]",
  "print('ready', os.getpid(), digest, flush=True)",
  "while True: time.sleep(1)",
].join("\n");

async function digest(value: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return new Uint8Array(bytes).toHex().slice(0, 12);
}

const alive = (pid: number) => {
  try {
    Deno.statSync(`/proc/${pid}`);
    return !/^\S+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
};

function watch(session: Session, key: string, args: string[], env: Record<string, string> = {}) {
  return startCli(
    ["cloud", "secrets", "run", "bot", "--watch", "--interval", "0.2", ...args, "--"]
      .concat(["python3", "-c", BOT]),
    { ...cliEnv(session, key), ...env },
  );
}

backendTest("secrets run --watch restarts the command with the new value, after its grace", async (
  backend,
) => {
  await using session = await startSession([], { backend });
  await put(session, "bot", { A: VALUES.first });
  const key = await runtimeKey(session, ["bot"]);
  await using running = watch(session, key, ["--grace", "10"], { TAKES: "2" });
  const first = await running.line(/^ready /);
  assert.equal(first.text.split(" ")[2], await digest(VALUES.first));

  // A write that changes nothing: no restart, however many questions are asked meanwhile.
  await put(session, "bot", { A: VALUES.first });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  assert.deepEqual(running.lines, [first.text]);

  const started = Date.now();
  await put(session, "bot", { A: VALUES.second });
  const second = await running.line(/^ready /, first.index + 1);
  assert.equal(second.text.split(" ")[2], await digest(VALUES.second));
  // The old command had its 2 s to end, and ended, before the new one started.
  assert.deepEqual(running.lines.slice(first.index + 1, second.index), ["stopping", "stopped"]);
  assert.ok(Date.now() - started >= 2_000, "the new command started before the old one ended");
  assert.ok(!alive(Number(first.text.split(" ")[1])));
  assert.match(running.stderr(), /The sets changed: restarting the command/);

  // voicebot stopped: the command is stopped too, and voicebot ends with its status.
  running.child.kill("SIGTERM");
  assert.equal(await running.status(), 0, running.stderr());
  assert.equal(running.lines.at(-1), "stopped");
  assert.ok(!alive(Number(second.text.split(" ")[1])));
});

backendTest(
  "secrets run --watch: a command slower than its grace is killed, with what it started",
  async (
    backend,
  ) => {
    await using session = await startSession([], { backend });
    await put(session, "bot", { A: VALUES.first });
    const key = await runtimeKey(session, ["bot"]);
    // As `uv run bot.py` does: a process whose child is the bot. Neither ends on SIGTERM here.
    const launcher = [
      "import signal, subprocess, sys",
      "signal.signal(signal.SIGTERM, signal.SIG_IGN)",
      "sys.exit(subprocess.call([sys.executable, '-c', sys.argv[1]]))",
    ].join("\n");
    const bot = BOT.replace(
      "signal.signal(signal.SIGTERM, term)",
      "signal.signal(signal.SIGTERM, signal.SIG_IGN)",
    );
    await using running = startCli(
      ["cloud", "secrets", "run", "bot", "--watch", "--interval", "0.2", "--grace", "1", "--"]
        .concat(["python3", "-c", launcher, bot]),
      cliEnv(session, key),
    );
    const first = await running.line(/^ready /);
    await put(session, "bot", { A: VALUES.second });
    const second = await running.line(/^ready /, first.index + 1);
    assert.equal(second.text.split(" ")[2], await digest(VALUES.second));
    assert.ok(!alive(Number(first.text.split(" ")[1])), "the old bot outlived its launcher");

    running.child.kill("SIGTERM");
    assert.equal(await running.status(), 128 + 9, running.stderr());
    assert.ok(!alive(Number(second.text.split(" ")[1])), "the bot outlived voicebot");
  },
);

/** The bot behind a shell that forks it (`;` keeps dash from exec'ing it) and dies of SIGTERM. */
const behindShell = ["sh", "-c", 'python3 -c "$0"; echo "the shell outlived its SIGTERM"', BOT];

Deno.test("secrets run --watch: a restart ends the command's whole tree, though its shell dies alone; the new one finds its port free", async () => {
  await using session = await startSession();
  await put(session, "bot", { A: VALUES.first });
  const key = await runtimeKey(session, ["bot"]);
  await using running = startCli(
    ["cloud", "secrets", "run", "bot", "--watch", "--interval", "0.2", "--grace", "10", "--"]
      .concat(behindShell),
    { ...cliEnv(session, key), PORT: String(freePort()), TAKES: "0.5" },
  );
  const first = await running.line(/^ready /);
  await put(session, "bot", { A: VALUES.second });
  // The old bot had SIGTERM too, and its half second to end, before the new one took the port.
  const second = await running.line(/^ready /, first.index + 1);
  assert.equal(second.text.split(" ")[2], await digest(VALUES.second));
  assert.deepEqual(running.lines.slice(first.index + 1, second.index), ["stopping", "stopped"]);
  assert.ok(!alive(Number(first.text.split(" ")[1])), "the old bot outlived the restart");

  // Stopped, voicebot ends the whole tree too, and then ends.
  running.child.kill("SIGTERM");
  assert.equal(await running.status(), 128 + 15, running.stderr());
  assert.equal(running.lines.at(-1), "stopped");
  assert.ok(!alive(Number(second.text.split(" ")[1])), "the bot outlived voicebot");
  assert.doesNotMatch(running.lines.join("\n"), /outlived its SIGTERM/);
});

/** The parent of a process, from /proc. */
function parentOf(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

Deno.test({
  name:
    "secrets run on a terminal: stopped with SIGTERM, it ends what its command started too, though the command's shell dies alone",
  ignore: skipped("tmux"),
  fn: async () => {
    await using session = await startSession();
    await put(session, "bot", { A: VALUES.first });
    const key = await runtimeKey(session, ["bot"]);
    await using tty = await terminal(
      ["cloud", "secrets", "run", "bot", "--grace", "10", "--", ...behindShell],
      cliEnv(session, key),
    );
    const bot = Number(/ready (\d+) /.exec(await tty.waitFor(/ready \d+ /))![1]);
    // The bot's parent is the shell, whose parent is voicebot.
    const voicebot = parentOf(parentOf(bot));
    Deno.kill(voicebot, "SIGTERM");
    assert.equal(await tty.exitCode(30_000), 128 + 15);
    assert.ok(!alive(bot), "the bot outlived voicebot");
    const screen = await tty.screen();
    assert.match(screen, /stopped/, `the bot had SIGTERM and its grace:\n${screen}`);
  },
});

Deno.test("secrets run --watch: a process the command leaves holding its output never closes voicebot's own; the next command's output and status come through", async () => {
  await using session = await startSession();
  await put(session, "bot", { A: VALUES.first });
  const key = await runtimeKey(session, ["bot"]);
  // Each command leaves behind a process that keeps its stdout and stderr open for 3 s (it ends by
  // itself), longer than voicebot waits for a finished command's output.
  const leaving = BOT.replace(
    "signal.signal(signal.SIGTERM, term)",
    "signal.signal(signal.SIGTERM, term)\nimport subprocess; subprocess.Popen(['sleep', '3'])",
  );
  await using running = startCli(
    ["cloud", "secrets", "run", "bot", "--watch", "--interval", "0.2", "--"]
      .concat(["python3", "-c", leaving]),
    cliEnv(session, key),
  );
  const first = await running.line(/^ready /);
  await put(session, "bot", { A: VALUES.second });
  const second = await running.line(/^ready /, first.index + 1);
  assert.equal(second.text.split(" ")[2], await digest(VALUES.second));
  await put(session, "bot", { A: VALUES.first });
  const third = await running.line(/^ready /, second.index + 1);
  assert.equal(third.text.split(" ")[2], await digest(VALUES.first));
  assert.equal(running.stderr().match(/The sets changed: restarting the command/g)?.length, 2);

  running.child.kill("SIGTERM");
  assert.equal(await running.status(), 0, running.stderr());
  assert.equal(running.lines.at(-1), "stopped");
  assert.doesNotMatch(running.stderr(), /Bad ?Resource|Bad resource/i);
});

Deno.test("secrets run --watch: the server down, then back, never touches the command; a deleted set neither", async () => {
  await using session = await startSession();
  await put(session, "bot", { A: VALUES.first });
  const key = await runtimeKey(session, ["bot"]);
  await using running = watch(session, key, []);
  const first = await running.line(/^ready /);

  await session.server.stop();
  const said = () => running.stderr().match(/The API cannot be reached/g)?.length ?? 0;
  await waitUntil(() => said() === 1, "the server's absence said");
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.equal(said(), 1, "said once");
  const port = new URL(session.baseUrl).port;
  await using again = await spawnServer(session.database, { args: ["--port", port] });
  // Asked again with backoff: within a minute at most.
  await waitUntil(
    () => /The API answers again/.test(running.stderr()),
    "the server's return said",
    70_000,
  );
  assert.deepEqual(running.lines, [first.text]);

  await put(session, "bot", { A: VALUES.second });
  const second = await running.line(/^ready /, first.index + 1);
  assert.equal(second.text.split(" ")[2], await digest(VALUES.second));

  const deleted = await fetch(`${again.baseUrl}/secrets/bot`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${session.key}` },
  });
  assert.equal(deleted.status, 200, await deleted.text());
  await waitUntil(() => /A watched set is gone/.test(running.stderr()), "the deletion said");
  assert.equal(running.lines.filter((line) => line.startsWith("ready")).length, 2);
  assert.ok(alive(Number(second.text.split(" ")[1])));

  // The runtime key revoked: said, and the command still runs with the values it has.
  const { args, env } = databaseArgs(session.database);
  const revoked = await session.run(["cloud", "serve", "revoke-key", key.split("_")[2], ...args], {
    env,
  });
  assert.equal(revoked.code, 0, revoked.stderr);
  await waitUntil(() => /The runtime key was refused/.test(running.stderr()), "the refusal said");
  assert.equal(running.lines.filter((line) => line.startsWith("ready")).length, 2);
  assert.ok(alive(Number(second.text.split(" ")[1])));
});

async function waitUntil(check: () => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test("no watched value appears in anything the CLI printed in this file", () => {
  const printed = transcript.join("\n");
  for (const value of Object.values(VALUES)) {
    assert.ok(!printed.includes(value), "a value was printed");
  }
});
