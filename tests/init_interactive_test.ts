/**
 * `voicebot init` in a real pseudo-terminal: tmux runs the CLI, the tests type real keystrokes
 * and read the screen. Every wait polls the screen against a deadline, so a prompt that never
 * comes fails the test instead of hanging it.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { DENO_DIR, ENTRY, exists, listFiles, snapshot, tempDir, voicebot } from "./helpers.ts";
import { VERSION } from "../src/version.ts";
import { skipped } from "./skips.ts";

const WAIT_MS = 20_000;

let sessions = 0;

/** One run of the CLI in its own tmux server (a private socket), killed when the scope ends. */
class Terminal implements AsyncDisposable {
  private constructor(private readonly socket: string, readonly home: string) {}

  static async start(cwd: string, args: string[]): Promise<Terminal> {
    const home = await Deno.makeTempDir({ prefix: "voicebot-tty-home-" });
    const socket = `voicebot-i8-${Deno.pid}-${++sessions}`;
    const script = join(home, "run.sh");
    const quoted = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, ...args]
      .map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
    await Deno.writeTextFile(
      script,
      `cd '${cwd}'\nexport NO_COLOR=1 HOME='${home}' XDG_CONFIG_HOME='${home}/.config' ` +
        `DENO_DIR='${DENO_DIR}'\n` +
        `${quoted}\necho "__EXIT=$?__"\nsleep 300\n`,
    );
    const terminal = new Terminal(socket, home);
    await terminal.tmux("new-session", "-d", "-s", "t", "-x", "200", "-y", "50", `sh '${script}'`);
    return terminal;
  }

  private async tmux(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", { args: ["-L", this.socket, ...args] }).output();
    if (!out.success) throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  }

  screen(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-2000", "-t", "t");
  }

  /** Waits until the screen shows `expected`; fails with the screen after WAIT_MS. */
  async waitFor(expected: string | RegExp): Promise<string> {
    const deadline = Date.now() + WAIT_MS;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (typeof expected === "string" ? screen.includes(expected) : expected.test(screen)) {
        return screen;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${expected}; the screen:\n${screen}`);
  }

  /** Waits for the question to be the active one, then presses the keys. */
  async answer(question: string, ...keys: string[]) {
    await this.waitFor(`◆  ${question}`);
    await this.press(...keys);
  }

  async press(...keys: string[]) {
    for (const key of keys) await this.tmux("send-keys", "-t", "t", key);
  }

  /** Types text literally into the active prompt. */
  async type(text: string) {
    await this.tmux("send-keys", "-t", "t", "-l", text);
  }

  /** Searchable list: type the id until it is the one match, then Enter. */
  async search(question: string, id: string) {
    await this.answer(question);
    await this.type(id);
    await this.waitFor(new RegExp(`◆  ${question}[\\s\\S]*Search: ${id}.*\\(1 match\\)`));
    await this.tmux("send-keys", "-t", "t", "Enter");
  }

  /** The exit code, once the CLI has ended, and the whole screen. */
  async exit(): Promise<{ code: number; screen: string }> {
    const screen = await this.waitFor(/__EXIT=\d+__/);
    return { code: Number(/__EXIT=(\d+)__/.exec(screen)![1]), screen };
  }

  async [Symbol.asyncDispose]() {
    await this.tmux("kill-server").catch(() => {});
    await Deno.remove(this.home, { recursive: true }).catch(() => {});
  }
}

/** The equivalent command line the wizard printed, without the leading `voicebot`. */
function printedCommand(screen: string): string[] {
  const line = screen.split("\n").find((l) => l.trim().startsWith("voicebot init "));
  if (!line) throw new Error(`no command line on the screen:\n${screen}`);
  // The wizard quotes only what needs it; the tests' answers never need quoting.
  return line.trim().split(/\s+/).slice(1);
}

/** Runs the printed command without a terminal in a fresh directory: the same bytes come out. */
async function assertReproducible(cwd: string, screen: string, dir: string) {
  await using again = await tempDir();
  const result = await voicebot(printedCommand(screen), { cwd: again.path });
  assert.deepEqual(result.code, 0, result.stderr);
  assert.deepEqual(await snapshot(join(again.path, dir)), await snapshot(join(cwd, dir)));
}

const tty = { ignore: skipped("tmux"), sanitizeResources: false, sanitizeOps: false };

Deno.test("init in a terminal: the coding-agent path with the default directory", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init"]);
  await term.answer("Where should the project go?", "Enter");
  await term.answer("How do you want to build your bot?", "Enter");
  const { code, screen } = await term.exit();
  assert.deepEqual(code, 0, screen);
  assert.ok(screen.includes("open my-voice-bot with your coding agent"), screen);
  assert.deepEqual(await listFiles(join(cwd.path, "my-voice-bot")), [
    "AGENTS.md",
    "ASSISTANT.md",
    "GETTING_STARTED.md",
  ]);
  await assertReproducible(cwd.path, screen, "my-voice-bot");
});

Deno.test("init in a terminal: the directory question refuses a file", tty, async () => {
  await using cwd = await tempDir();
  await Deno.writeTextFile(join(cwd.path, "taken"), "a file\n");
  await using term = await Terminal.start(cwd.path, ["init"]);
  await term.answer("Where should the project go?", ...Array(12).fill("BSpace"));
  await term.type("taken");
  await term.waitFor("│  taken");
  await term.press("Enter");
  await term.waitFor("taken is a file");
  await term.press(...Array(5).fill("BSpace"));
  await term.type("elsewhere");
  await term.waitFor("│  elsewhere");
  await term.press("Enter");
  await term.answer("How do you want to build your bot?", "Enter");
  const { code, screen } = await term.exit();
  assert.deepEqual(code, 0, screen);
  assert.deepEqual(await Deno.readTextFile(join(cwd.path, "taken")), "a file\n");
  assert.ok(await exists(join(cwd.path, "elsewhere/GETTING_STARTED.md")));
});

Deno.test("init in a terminal: a whole cascade web wizard with a client", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "webbot"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  await term.answer("Project name", "Enter");
  await term.answer("Bot type", "Enter");
  await term.answer("Web client", "Enter");
  await term.answer("Client dev server", "Down", "Enter");
  await term.answer("Transport", "Enter");
  await term.answer("Add a second transport for local testing?", "Left", "Enter");
  await term.answer("Second transport", "Enter");
  await term.answer("Mode", "Enter");
  await term.search("Speech-to-text service", "deepgram_stt");
  await term.search("Language-model service", "openai_llm");
  await term.search("Text-to-speech service", "cartesia_tts");
  await term.answer("Record the conversation's audio?", "Left", "Enter");
  await term.answer("Log the conversation's transcript?", "Enter");
  await term.answer("Add a video avatar?", "Enter");
  await term.answer("Send video?", "Enter");
  // A cascade bot's LLM never sees the camera: the question is not asked.
  await term.answer("Trace the pipeline with OpenTelemetry?", "Enter");
  await term.answer("Generate the cloud deployment files?", "Enter");
  await term.answer("Enable noise cancellation on the cloud?", "Enter");
  await term.answer("Make the bot eval-ready?", "Enter");
  await term.waitFor("transports: hosted, lightweb");
  await term.answer("Create this project?", "Enter");
  const { code, screen } = await term.exit();
  assert.deepEqual(code, 0, screen);
  assert.ok(screen.includes("client_server: devserver_b"), screen);
  assert.ok(screen.includes("recording: true"), screen);
  assert.ok(!screen.includes("Receive the user's video?"), screen);
  assert(await exists(join(cwd.path, "webbot/client/package.json")));
  assert(await exists(join(cwd.path, "webbot/server/bot.py")));
  assert.ok(screen.includes("cd webbot/client && npm install"), screen);
  await assertReproducible(cwd.path, screen, "webbot");
});

Deno.test("init in a terminal: a telephony wizard with dial-out", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "callbot"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  await term.answer("Project name", "Enter");
  await term.answer("Bot type", "Down", "Enter");
  // carrier1..carrier4, then hosted_pstn.
  await term.answer("Transport", "Down", "Down", "Down", "Down", "Enter");
  await term.answer("Call direction", "Down", "Enter");
  await term.answer("Add a second transport for local testing?", "Enter");
  await term.answer("Mode", "Enter");
  await term.search("Speech-to-text service", "deepgram_stt");
  await term.search("Language-model service", "openai_llm");
  await term.search("Text-to-speech service", "cartesia_tts");
  for (
    const question of [
      "Record the conversation's audio?",
      "Log the conversation's transcript?",
      "Trace the pipeline with OpenTelemetry?",
      "Generate the cloud deployment files?",
      "Enable noise cancellation on the cloud?",
      "Make the bot eval-ready?",
    ]
  ) await term.answer(question, "Enter");
  await term.waitFor("transports: hosted_pstn_dialout");
  await term.answer("Create this project?", "Enter");
  const { code, screen } = await term.exit();
  assert.deepEqual(code, 0, screen);
  assert.match(screen, /--daily-pstn-mode dial-out --transport hosted_pstn /);
  assert.deepEqual(await exists(join(cwd.path, "callbot/client")), false);
  await assertReproducible(cwd.path, screen, "callbot");
});

Deno.test("init in a terminal: a realtime wizard", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "rtbot"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  await term.answer("Project name", "Enter");
  await term.answer("Bot type", "Enter");
  await term.answer("Web client", "Down", "Down", "Enter");
  await term.answer("Transport", "Down", "Enter");
  await term.answer("Add a second transport for local testing?", "Enter");
  await term.answer("Mode", "Down", "Enter");
  await term.search("Realtime service", "gemini_live_realtime");
  for (
    const question of [
      "Record the conversation's audio?",
      "Log the conversation's transcript?",
      "Add a video avatar?",
      "Send video?",
    ]
  ) await term.answer(question, "Enter");
  // Gemini Live sees the camera, so the wizard offers it.
  await term.answer("Receive the user's video?", "Left", "Enter");
  for (
    const question of [
      "Trace the pipeline with OpenTelemetry?",
      "Generate the cloud deployment files?",
      "Enable noise cancellation on the cloud?",
      "Make the bot eval-ready?",
    ]
  ) await term.answer(question, "Enter");
  await term.waitFor("mode: realtime");
  await term.answer("Create this project?", "Enter");
  const { code, screen } = await term.exit();
  assert.deepEqual(code, 0, screen);
  assert.match(screen, /realtime_service: gemini_live_realtime/);
  assert.match(screen, /video_input: true/);
  assert.ok(screen.includes("transports: lightweb"), screen);
  await assertReproducible(cwd.path, screen, "rtbot");
});

Deno.test(
  "init in a terminal: a guide from another version is offered for refresh",
  tty,
  async () => {
    await using cwd = await tempDir();
    const dir = join(cwd.path, "old");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "AGENTS.md"), "<!-- voicebot-guide 0.0.1 -->\nold guide\n");
    await using term = await Terminal.start(cwd.path, ["init", "old"]);
    await term.answer("AGENTS.md (voicebot 0.0.1) came from another voicebot version", "Enter");
    await term.answer("How do you want to build your bot?", "Enter");
    const { code, screen } = await term.exit();
    assert.deepEqual(code, 0, screen);
    const guide = await Deno.readTextFile(join(dir, "AGENTS.md"));
    assert.ok(guide.startsWith(`<!-- voicebot-guide ${VERSION} agent `), guide);
    assert.ok(screen.includes("voicebot init old --overwrite-guide"), screen);
  },
);

Deno.test(
  "init in a terminal on a scaffolded project: its own guides are offered, nothing else is asked",
  tty,
  async () => {
    await using cwd = await tempDir();
    const scaffold = [
      "init",
      "made",
      "-t",
      "lightweb",
      "-m",
      "realtime",
      "--realtime",
      "openai_realtime",
    ];
    assert.equal((await voicebot(scaffold, { cwd: cwd.path })).code, 0);
    const dir = join(cwd.path, "made");
    const projectGuide = await Deno.readTextFile(join(dir, "AGENTS.md"));
    await Deno.writeTextFile(join(dir, "AGENTS.md"), "<!-- voicebot-guide 0.0.1 -->\nold guide\n");
    await using term = await Terminal.start(cwd.path, ["init", "made"]);
    await term.answer("AGENTS.md (voicebot 0.0.1) came from another voicebot version", "Enter");
    const { code, screen } = await term.exit();
    assert.deepEqual(code, 0, screen);
    assert.ok(!screen.includes("How do you want to build your bot?"), screen);
    assert.equal(await Deno.readTextFile(join(dir, "AGENTS.md")), projectGuide);
    assert.equal(await exists(join(dir, "GETTING_STARTED.md")), false);
  },
);

Deno.test(
  "init in a terminal: Ctrl-C or Esc half-way writes nothing and exits 130",
  tty,
  async () => {
    await using cwd = await tempDir();
    const dir = join(cwd.path, "kept");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "notes.txt"), "mine\n");
    const before = await snapshot(cwd.path);
    for (const key of ["C-c", "Escape"]) {
      await using term = await Terminal.start(cwd.path, ["init", "kept"]);
      await term.answer("How do you want to build your bot?", "Down", "Enter");
      await term.answer("Project name", "Enter");
      await term.answer("Bot type", "Enter");
      await term.answer("Web client", "Enter");
      await term.answer("Client dev server", key);
      const { code, screen } = await term.exit();
      assert.deepEqual(code, 130, screen);
      assert.ok(screen.includes("Cancelled."), screen);
      assert.deepEqual(await snapshot(cwd.path), before);
    }
  },
);

Deno.test("init without a terminal never waits for input", async () => {
  await using cwd = await tempDir();
  for (
    const [args, expected] of [[["init"], 2], [["init", "agent"], 0]] as const
  ) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", ENTRY, ...args],
      cwd: cwd.path,
      stdin: "piped", // left open: a prompt would wait on it forever
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const stderrText = new Response(child.stderr).text();
    const stdoutDone = new Response(child.stdout).arrayBuffer();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), WAIT_MS));
    const status = await Promise.race([child.status, timeout]);
    clearTimeout(timer);
    if (status === "timeout") child.kill();
    await child.stdin.close().catch(() => {});
    const stderr = await stderrText;
    await stdoutDone;
    if (status === "timeout") {
      await child.status;
      throw new Error(`voicebot ${args.join(" ")} waited for input without a terminal`);
    }
    assert.deepEqual(status.code, expected, stderr);
    if (expected === 2) assert.ok(stderr.includes("no target directory"), stderr);
  }
  assert(await exists(join(cwd.path, "agent/AGENTS.md")));
});
