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
import { made as madeBot } from "./helpers_update.ts";

const WAIT_MS = 20_000;

let sessions = 0;

/** One run of the CLI in its own tmux server (a private socket), killed when the scope ends. */
class Terminal implements AsyncDisposable {
  private constructor(private readonly socket: string, readonly home: string) {}

  /** The CLI in a terminal of `width` columns (wide by default, so that no line folds). */
  static async start(cwd: string, args: string[], { width = 200 } = {}): Promise<Terminal> {
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
    await terminal.tmux(
      "new-session",
      "-d",
      "-s",
      "t",
      "-x",
      `${width}`,
      "-y",
      "50",
      `sh '${script}'`,
    );
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

  /** Waits for the question, types `text` as the answer (nothing: the default), then Enter. */
  async typeAnswer(question: string, text = "") {
    await this.answer(question);
    if (text) await this.type(text);
    await this.press("Enter");
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

  /**
   * The features question: ticks exactly `wanted` (by label), going down the list once, then
   * Enter. Returns the screen as the question was first shown.
   */
  async features(wanted: readonly string[]): Promise<string> {
    const screen = await this.waitFor(/◆ {2}Add features[^\n]*\n(│.*\n)*│ {2}↑\/↓/);
    const lines = screen.slice(screen.lastIndexOf("◆  Add features")).split("\n");
    const options = lines.flatMap((line) => {
      const option = /^│ {2}([◻◼]) (?:› )?(.*?)(?: \(.*\))?$/.exec(line);
      return option ? [{ ticked: option[1] === "◼", label: option[2] }] : [];
    });
    for (const label of wanted) {
      assert.ok(options.some((o) => o.label === label), `no feature "${label}":\n${screen}`);
    }
    for (const [i, option] of options.entries()) {
      if (i > 0) await this.press("Down");
      if (option.ticked !== wanted.includes(option.label)) await this.press("Space");
    }
    await this.press("Enter");
    return screen;
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

/** The equivalent command line the wizard printed, without the leading `voicebot`, read by sh. */
async function printedCommand(screen: string): Promise<string[]> {
  const line = screen.split("\n").map((l) => l.trim()).find((l) => l.startsWith("voicebot init "));
  if (!line) throw new Error(`no command line on the screen:\n${screen}`);
  const out = await new Deno.Command("sh", {
    args: ["-c", `eval "set -- $1"; printf '%s\\0' "$@"`, "sh", line],
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).split("\0").slice(1, -1);
}

/** Runs the printed command without a terminal in a fresh directory: the same bytes come out. */
async function assertReproducible(cwd: string, screen: string, dir: string) {
  await using again = await tempDir();
  const result = await voicebot(await printedCommand(screen), { cwd: again.path });
  assert.deepEqual(result.code, 0, result.stderr);
  assert.deepEqual(await snapshot(join(again.path, dir)), await snapshot(join(cwd, dir)));
}

/**
 * The end of a run that writes a project in `dir`: exit 0, and the same bytes from the printed
 * command without a terminal. Returns the screen and the project's voicebot.json.
 */
async function madeProject(term: Terminal, cwd: string, dir: string) {
  const { code, screen } = await term.exit();
  assert.deepEqual(code, 0, screen);
  await assertReproducible(cwd, screen, dir);
  const config = JSON.parse(await Deno.readTextFile(join(cwd, dir, "voicebot.json")));
  return { screen, config };
}

/** The default mode (a cascade) and its three services, found by typing their names. */
async function cascadeOfThree(term: Terminal) {
  await term.answer("Mode", "Enter");
  await term.search("Speech-to-text service", "deepgram_stt");
  await term.search("Language-model service", "openai_llm");
  await term.search("Text-to-speech service", "cartesia_tts");
}

/** The commands under the outro's "Next:", as printed: below the frame, each whole. */
function nextLines(screen: string): string[] {
  const lines = screen.split("\n");
  const start = lines.findIndex((line) => line === "└  Next:") + 1;
  assert.ok(start > 0 && lines[start] === "", screen);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith("  "));
  return lines.slice(start + 1, end).map((line) => line.trim());
}

/** The options listed under the active question, in order, as shown (the focused one's hint cut). */
function listed(screen: string, question: string): string[] {
  const lines = screen.split("\n");
  const start = lines.findLastIndex((line) => line.startsWith(`◆  ${question}`));
  assert.ok(start >= 0, screen);
  const options: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const option = /^│ {2}[●○◻◼] (?:› )?(.*)$/.exec(line);
    if (option) options.push(option[1].replace(/ \([a-z0-9_]+\)$/, ""));
    else if (line.startsWith("└")) break;
  }
  return options;
}

/** The last summary's lines, as shown in its frame. */
function summaryOf(screen: string): string[] {
  const lines = screen.split("\n");
  const start = lines.findLastIndex((line) => /^◇ {2}Summary /.test(line));
  assert.ok(start >= 0, screen);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^[├╰]/.test(line)) break;
    const text = line.replace(/^│/, "").replace(/│\s*$/, "").trim();
    if (text !== "") out.push(text);
  }
  return out;
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
  assert.match(screen, /^ {2}voicebot init my-voice-bot --coding-agent$/m);
  await assertReproducible(cwd.path, screen, "my-voice-bot");
  // The printed command asks nothing in a terminal either, and writes the same guides.
  await using again = await tempDir();
  await using rerun = await Terminal.start(again.path, await printedCommand(screen));
  const second = await rerun.exit();
  assert.deepEqual(second.code, 0, second.screen);
  assert.ok(!second.screen.includes("◆"), second.screen);
  assert.deepEqual(
    await snapshot(join(again.path, "my-voice-bot")),
    await snapshot(join(cwd.path, "my-voice-bot")),
  );
});

Deno.test("init in a terminal: typing replaces the default directory", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init"]);
  // The default is marked as one (grey, or under NO_COLOR said): the first letter typed replaces
  // it, it is not appended to.
  let screen = await term.waitFor("◆  Where should the project go?");
  assert.match(screen, /^│ {2}my-voice-bot \(default\)$/m);
  await term.type("typed");
  await term.waitFor(/^│ {2}typed█?$/m);
  await term.press("Enter");
  await term.answer("How do you want to build your bot?", "Enter");
  screen = (await term.exit()).screen;
  assert.ok(await exists(join(cwd.path, "typed/AGENTS.md")), screen);
  assert.deepEqual(await exists(join(cwd.path, "my-voice-bottyped")), false);
  await assertReproducible(cwd.path, screen, "typed");
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

Deno.test(
  "init in a terminal: files a scaffold would overwrite are named right after the directory",
  tty,
  async () => {
    await using cwd = await tempDir();
    const mine = join(cwd.path, "my-voice-bot");
    await Deno.mkdir(mine);
    await Deno.writeTextFile(join(mine, "README.md"), "my own readme\n");
    await Deno.writeTextFile(join(mine, "notes.txt"), "mine\n");
    const before = await snapshot(mine);
    await using term = await Terminal.start(cwd.path, ["init"]);
    await term.answer("Where should the project go?", "Enter");
    const screen = await term.waitFor(
      "◆  my-voice-bot already has README.md: a scaffolded bot would write over it, and init never overwrites.",
    );
    // Only what a scaffold writes is named: notes.txt is no clash.
    assert.ok(!screen.includes("notes.txt"), screen);
    assert.deepEqual(listed(screen, "my-voice-bot already has"), [
      "Choose another directory",
      "Go on in my-voice-bot with a coding agent",
      "Cancel",
    ]);
    await term.press("Enter");
    // Offered again: a free directory beside it, not the one that clashed.
    await term.waitFor(/◆ {2}Where should the project go\?\n│ {2}my-voice-bot-2 \(default\)$/m);
    await term.type("elsewhere");
    await term.waitFor("│  elsewhere");
    await term.press("Enter");
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.answer("Project name", "Enter");
    for (const question of WEB_AFTER_NAME) await term.answer(question, "Enter");
    await madeProject(term, cwd.path, "elsewhere");
    assert.deepEqual(await snapshot(mine), before);
    assert.ok(await exists(join(cwd.path, "elsewhere/server/bot.py")));
  },
);

Deno.test(
  "init in a terminal: going on past a clash writes only the guides, the files kept, and asks nothing more",
  tty,
  async () => {
    await using cwd = await tempDir();
    const mine = join(cwd.path, "mine");
    await Deno.mkdir(mine);
    await Deno.writeTextFile(join(mine, "README.md"), "my own readme\n");
    await using term = await Terminal.start(cwd.path, ["init", "mine"]);
    const screen = await term.waitFor(
      "◆  mine already has README.md: a scaffolded bot would write over it, and init never overwrites.",
    );
    assert.deepEqual(listed(screen, "mine already has"), [
      "Choose another directory",
      "Go on in mine with a coding agent",
      "Cancel",
    ]);
    await term.press("Down");
    await term.waitFor(
      "Go on in mine with a coding agent (writes only the guides; your files are kept)",
    );
    await term.press("Enter");
    const { code, screen: done } = await term.exit();
    assert.deepEqual(code, 0, done);
    // Settled there: no scaffold's questions, no refusal after them.
    assert.ok(!done.includes("How do you want to build your bot?"), done);
    assert.ok(!done.includes("Project name"), done);
    assert.match(done, /^ {2}voicebot init mine --coding-agent$/m);
    assert.deepEqual(await listFiles(mine), [
      "AGENTS.md",
      "ASSISTANT.md",
      "GETTING_STARTED.md",
      "README.md",
    ]);
    assert.deepEqual(await Deno.readTextFile(join(mine, "README.md")), "my own readme\n");
  },
);

Deno.test("init in a terminal: a whole cascade web wizard with a client", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "webbot"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  await term.answer("Project name", "Enter");
  await term.answer("Bot type", "Enter");
  await term.answer("Web client", "Enter");
  await term.answer("Client dev server", "Down", "Enter");
  // hosted, lightweb (the default), websocket: Up picks Daily.
  await term.answer("Transport", "Up", "Enter");
  // One browser transport is left: the question names it, with no list of one to confirm.
  await term.answer(
    "Add lightweb (SmallWebRTC, no account) as a second transport?",
    "Left",
    "Enter",
  );
  await cascadeOfThree(term);
  const features = await term.features([
    "Record the conversation's audio",
    "Cloud deployment files",
  ]);
  // A cascade bot's LLM never sees the camera: the feature is not offered.
  assert.deepEqual(listed(features, "Add features"), [
    "Record the conversation's audio",
    "Log the conversation's transcript",
    "Video avatar",
    "Send video",
    "Trace the pipeline with OpenTelemetry",
    "Cloud deployment files (Dockerfile and cloud-deploy.toml)",
    "Noise cancellation on the cloud",
    "Eval-ready",
  ]);
  await term.waitFor("Second transport: lightweb (SmallWebRTC, no account)");
  await term.answer("Create this project?", "Enter");
  const { screen } = await madeProject(term, cwd.path, "webbot");
  assert.ok(screen.includes("Client dev server: Next.js"), screen);
  assert.ok(
    screen.includes("Features: Record the conversation's audio, Cloud deployment files"),
    screen,
  );
  assert(await exists(join(cwd.path, "webbot/client/package.json")));
  assert(await exists(join(cwd.path, "webbot/server/bot.py")));
  assert.ok(screen.includes("cd webbot/client && npm install"), screen);
});

Deno.test(
  "init in a terminal: a WebSocket bot is offered no video, and SmallWebRTC to test it",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "sockbot"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.answer("Project name", "Enter");
    await term.answer("Bot type", "Enter");
    await term.answer("Web client", "Enter");
    await term.answer("Client dev server", "Enter");
    const screen = await term.waitFor("◆  Transport");
    assert.deepEqual(listed(screen, "Transport"), [
      "hosted (Daily)",
      "lightweb (SmallWebRTC, no account)",
      "websocket (protobuf frames, no account)",
    ]);
    await term.press("Down", "Enter");
    // The browser transports to talk to it in: the websocket needs an app of its own.
    await term.answer("Add a second transport for local testing?", "Enter");
    await cascadeOfThree(term);
    // Pipecat's protobuf frames carry no video: no avatar, no video either way.
    const features = await term.features(["Cloud deployment files"]);
    assert.deepEqual(listed(features, "Add features"), [
      "Record the conversation's audio",
      "Log the conversation's transcript",
      "Trace the pipeline with OpenTelemetry",
      "Cloud deployment files (Dockerfile and cloud-deploy.toml)",
      "Noise cancellation on the cloud",
      "Eval-ready",
    ]);
    await term.answer("Create this project?", "Enter");
    await madeProject(term, cwd.path, "sockbot");
    const config = JSON.parse(await Deno.readTextFile(join(cwd.path, "sockbot/voicebot.json")));
    assert.deepEqual(config.transports, ["websocket"]);
    const client = await Deno.readTextFile(join(cwd.path, "sockbot/client/src/config.ts"));
    assert.match(client, /DEFAULT_TRANSPORT: TransportType = "websocket"/);
  },
);

Deno.test("init in a terminal: a telephony wizard with dial-out", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "callbot"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  await term.answer("Project name", "Enter");
  await term.answer("Bot type", "Down", "Enter");
  // carrier1..carrier4, then hosted_pstn.
  await term.answer("Transport", "Down", "Down", "Down", "Down", "Enter");
  await term.answer("Call direction for hosted_pstn (Daily PSTN)", "Down", "Enter");
  await term.answer("Add a second transport for local testing?", "Enter");
  await cascadeOfThree(term);
  const features = await term.features(["Cloud deployment files"]);
  // A phone bot has no video.
  assert.ok(!listed(features, "Add features").some((f) => f.includes("video")), features);
  await term.waitFor("Call direction: Dial-out");
  await term.answer("Create this project?", "Enter");
  const { screen } = await madeProject(term, cwd.path, "callbot");
  assert.match(screen, /--daily-pstn-mode dial-out --transport hosted_pstn /);
  assert.deepEqual(await exists(join(cwd.path, "callbot/client")), false);
});

Deno.test("init in a terminal: a realtime wizard", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "rtbot"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  await term.answer("Project name", "Enter");
  await term.answer("Bot type", "Enter");
  await term.answer("Web client", "Down", "Down", "Enter");
  await term.answer("Transport", "Enter");
  await term.answer("Add hosted (Daily) as a second transport?", "Enter");
  await term.answer("Mode", "Down", "Enter");
  await term.search("Realtime service", "gemini_live_realtime");
  // Gemini Live sees the camera, so the wizard offers it.
  await term.features(["Receive the user's video", "Cloud deployment files"]);
  await term.waitFor("Mode: Realtime");
  await term.answer("Create this project?", "Enter");
  const { screen } = await madeProject(term, cwd.path, "rtbot");
  assert.match(screen, /--realtime gemini_live_realtime/);
  assert.match(screen, /Features: Receive the user's video, Cloud deployment files/);
  assert.ok(screen.includes("Second transport: none"), screen);
});

/** The option the active list of ticks is on, by its marker: the one line that has it. */
function ticksCursor(screen: string): string {
  const lines = screen.slice(screen.lastIndexOf("◆")).split("\n");
  const marked = lines.filter((line) => /^│ {2}[◻◼] › /.test(line));
  assert.deepEqual(marked.length, 1, screen);
  return marked[0].replace(/^│ {2}/, "").replace(/ \(.*\)$/, "");
}

Deno.test(
  "init in a terminal: under NO_COLOR the features list shows which option it is on, ticked or not",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "ticks"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (const question of ["Project name", ...WEB_AFTER_NAME.slice(0, -2)]) {
      await term.answer(question, "Enter");
    }
    let screen = await term.waitFor(/◆ {2}Add features[^\n]*\n(│.*\n)*│ {2}↑\/↓/);
    assert.deepEqual(ticksCursor(screen), "◻ › Record the conversation's audio");
    // Down to the cloud deployment files, ticked to start with: the marker is on a ticked line.
    await term.press(...Array(5).fill("Down"));
    screen = await term.waitFor(/│ {2}◼ › Cloud deployment files/);
    assert.deepEqual(ticksCursor(screen), "◼ › Cloud deployment files");
    await term.press("Space");
    screen = await term.waitFor(/│ {2}◻ › Cloud deployment files/);
    // Up past the top goes round to the last, as clack's own cursor does.
    await term.press(...Array(6).fill("Up"));
    screen = await term.waitFor(/│ {2}◻ › Eval-ready/);
    assert.deepEqual(ticksCursor(screen), "◻ › Eval-ready");
    await term.press("Enter");
    screen = await term.waitFor("◆  Create this project?");
    // Once answered, no label is marked.
    assert.ok(!screen.includes("›"), screen);
    assert.ok(summaryOf(screen).includes("Features: none"), screen);
    await term.press("Enter");
    const { config } = await madeProject(term, cwd.path, "ticks");
    assert.deepEqual(config.deploy_to_cloud, false);
  },
);

/** A web bot's questions after the transport, each answered with Enter. */
const WEB_REST = [
  "Add hosted (Daily) as a second transport?",
  "Mode",
  "Speech-to-text service",
  "Language-model service",
  "Text-to-speech service",
  "Add features",
  "Create this project?",
];

/** A web bot's questions after the project name, in order, with the defaults kept. */
const WEB_AFTER_NAME = ["Bot type", "Web client", "Client dev server", "Transport", ...WEB_REST];

Deno.test(
  "init in a terminal: Enter at every question makes the quickstart's bot on SmallWebRTC",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init"]);
    await term.answer("Where should the project go?", "Enter");
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (const question of ["Project name", ...WEB_AFTER_NAME]) {
      await term.answer(question, "Enter");
    }
    const { config } = await madeProject(term, cwd.path, "my-voice-bot");
    assert.deepEqual(
      [
        config.transports,
        config.mode,
        config.stt_service,
        config.llm_service,
        config.tts_service,
        config.client_framework,
        config.client_server,
      ],
      [
        ["lightweb"],
        "cascade",
        "deepgram_stt",
        "openai_llm",
        "cartesia_tts",
        "uilib",
        "devserver_a",
      ],
    );
  },
);

Deno.test("init in a terminal: a search lists the vendor's own service first", tty, async () => {
  await using cwd = await tempDir();
  await using term = await Terminal.start(cwd.path, ["init", "search"]);
  await term.answer("How do you want to build your bot?", "Down", "Enter");
  for (const question of ["Project name", "Bot type", "Web client", "Client dev server"]) {
    await term.answer(question, "Enter");
  }
  await term.answer("Transport", "Enter");
  await term.answer("Add hosted (Daily) as a second transport?", "Enter");
  await term.answer("Mode", "Enter");
  await term.answer("Speech-to-text service");
  await term.type("deep");
  let screen = await term.waitFor(/Search: deep.*\(\d+ matches\)/);
  assert.deepEqual(listed(screen, "Speech-to-text service")[0], "Deepgram", screen);
  await term.press("Enter");
  await term.answer("Language-model service");
  await term.type("open");
  screen = await term.waitFor(/Search: open.*\(\d+ matches\)/);
  const openai = listed(screen, "Language-model service");
  assert.deepEqual(openai[0], "OpenAI", screen);
  assert.ok(openai.indexOf("Azure OpenAI") > 0, screen);
  await term.press("C-c");
  assert.deepEqual((await term.exit()).code, 130);
});

Deno.test(
  "init in a terminal: local services say (local, no account), and a search for local finds them",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "offline"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (const question of ["Project name", ...WEB_AFTER_NAME.slice(0, 6)]) {
      await term.answer(question, "Enter");
    }
    const lists: Record<string, string[]> = {
      "Speech-to-text service": [
        "FunASR (SenseVoice, local, no account)",
        "Moonshine (local, no account)",
        "Whisper MLX (Apple Silicon, local, no account)",
        "Whisper (local, no account)",
      ],
      "Language-model service": ["Ollama (local, no account)"],
      "Text-to-speech service": [
        "Kokoro (local, no account)",
        "Piper (local, no account)",
        "Pocket TTS (local, no account)",
        "XTTS (Coqui, deprecated, local, no account)",
      ],
    };
    for (const [question, local] of Object.entries(lists)) {
      await term.answer(question);
      await term.type("local");
      const screen = await term.waitFor(
        new RegExp(`◆ {2}${question}[\\s\\S]*Search: local.*\\(${local.length} match`),
      );
      assert.deepEqual(listed(screen, question), local);
      // The first is taken, save Whisper MLX (Apple Silicon only): Whisper.
      await term.press(...(local.length === 4 && question.startsWith("Speech") ? ["Up"] : []));
      await term.press("Enter");
    }
    await term.answer("Add features", "Enter");
    const summary = summaryOf(await term.waitFor("◆  Create this project?"));
    for (
      const line of [
        "Speech-to-text service: Whisper (local, no account)",
        "Language-model service: Ollama (local, no account)",
        "Text-to-speech service: Kokoro (local, no account)",
      ]
    ) assert.ok(summary.includes(line), summary.join("\n"));
    await term.press("Enter");
    const { config } = await madeProject(term, cwd.path, "offline");
    assert.deepEqual(
      [config.stt_service, config.llm_service, config.tts_service],
      ["whisper_stt", "ollama_llm", "kokoro_tts"],
    );
  },
);

Deno.test(
  "init in a terminal: a search with no match keeps the question open; cleared, the default is highlighted again",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "nomatch"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (const question of ["Project name", "Bot type", "Web client", "Client dev server"]) {
      await term.answer(question, "Enter");
    }
    await term.answer("Transport", "Enter");
    await term.answer("Add hosted (Daily) as a second transport?", "Enter");
    await term.answer("Mode", "Enter");
    await term.search("Speech-to-text service", "deepgram_stt");
    await term.search("Language-model service", "openai_llm");
    await term.answer("Text-to-speech service");
    await term.type("zzz");
    await term.waitFor(/Search: zzz/);
    await term.press("Enter");
    const screen = await term.waitFor("Nothing matches");
    assert.match(screen, /▲ {2}Text-to-speech service/, screen);
    assert.ok(!screen.includes("Record the conversation's audio?"), screen);
    // Esc clears the search: the highlight is back on the question's default, which Enter takes.
    await term.press("Escape");
    const cleared = await term.waitFor(/◆ {2}Text-to-speech service\n│\n│ {2}Search: (?!zzz)/);
    assert.match(cleared.slice(cleared.lastIndexOf("◆")), /● Cartesia/);
    await term.type("elevenlabs_tts");
    await term.waitFor(/Search: elevenlabs_tts.*\(1 match\)/);
    await term.press("Enter");
    for (const question of WEB_REST.slice(5)) await term.answer(question, "Enter");
    const { config } = await madeProject(term, cwd.path, "nomatch");
    assert.deepEqual(config.tts_service, "elevenlabs_tts");
  },
);

Deno.test(
  "init in a terminal: the summary shows the directory first, then the questions' labels and answers",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "labels"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.answer("Project name", "Enter");
    await term.answer("Bot type", "Down", "Enter");
    await term.answer("Transport", "Down", "Down", "Down", "Down", "Enter");
    await term.answer("Call direction for hosted_pstn (Daily PSTN)", "Down", "Enter");
    await term.answer("Add a second transport for local testing?", "Enter");
    for (const question of WEB_REST.slice(1, -1)) await term.answer(question, "Enter");
    const screen = await term.waitFor("◆  Create this project?");
    const summary = summaryOf(screen);
    assert.deepEqual(summary.slice(0, 8), [
      "Directory: labels",
      "Project name: labels",
      "Bot type: Telephony",
      "Transport: hosted_pstn (Daily PSTN)",
      "Call direction: Dial-out",
      "Second transport: none",
      "Mode: Cascade",
      "Speech-to-text service: Deepgram",
    ]);
    assert.ok(summary.includes("Text-to-speech service: Cartesia"), screen);
    // The internal ids stay in voicebot.json and --dry-run; a transport is shown by its id and
    // vendor, as in --help and the docs.
    for (const id of ["dial-out", "cartesia_tts", "tts_service", "transports"]) {
      assert.ok(!summary.join("\n").includes(id), summary.join("\n"));
    }
    assert.deepEqual(listed(screen, "Create this project?"), [
      "Create it",
      "Change an answer",
      "Cancel",
    ]);
    await term.press("Down", "Down", "Enter");
    const done = await term.exit();
    assert.deepEqual(done.code, 130, done.screen);
    assert.deepEqual(await exists(join(cwd.path, "labels")), false);
  },
);

Deno.test(
  "init in a terminal: changing one answer at the summary re-asks only that question",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "changed"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (
      const question of [
        "Project name",
        "Bot type",
        "Web client",
        "Client dev server",
        "Transport",
        ...WEB_REST.slice(0, -1),
      ]
    ) await term.answer(question, "Enter");
    let screen = await term.waitFor("◆  Create this project?");
    assert.ok(summaryOf(screen).includes("Text-to-speech service: Cartesia"), screen);
    await term.press("Down", "Enter");
    screen = await term.waitFor("◆  Which answer?");
    const answers = listed(screen, "Which answer?");
    assert.deepEqual(answers[0], "Directory");
    const tts = answers.indexOf("Text-to-speech service");
    assert.ok(tts > 0, screen);
    await term.press(...Array(tts).fill("Down"), "Enter");
    // The current answer is the one pre-selected.
    screen = await term.waitFor("◆  Text-to-speech service");
    assert.match(screen, /● Cartesia/);
    await term.type("elevenlabs_tts");
    await term.waitFor(/Search: elevenlabs_tts.*\(1 match\)/);
    await term.press("Enter");
    screen = await term.waitFor(/◇ {2}Text-to-speech service[\s\S]*◆ {2}Create this project\?/);
    const after = screen.slice(screen.lastIndexOf("◇  Which answer?"));
    // Nothing but that question was asked again.
    assert.deepEqual(after.match(/^◇ {2}(?!Summary|Which answer)(.*)$/gm), [
      "◇  Text-to-speech service",
    ]);
    assert.ok(!summaryOf(screen).includes("Text-to-speech service: Cartesia"), screen);
    await term.press("Enter");
    const { config } = await madeProject(term, cwd.path, "changed");
    assert.deepEqual([config.tts_service, config.stt_service], ["elevenlabs_tts", "deepgram_stt"]);
  },
);

Deno.test(
  "init in a terminal: a phone bot's local testing offers browser transports, SmallWebRTC first",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "callbot"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.answer("Project name", "Enter");
    await term.answer("Bot type", "Down", "Enter");
    await term.answer("Transport", "Enter");
    await term.answer("Add a second transport for local testing?", "Left", "Enter");
    const screen = await term.waitFor("◆  Transport for local testing");
    assert.deepEqual(listed(screen, "Transport for local testing"), [
      "lightweb (SmallWebRTC, no account)",
      "hosted (Daily)",
    ]);
    assert.match(screen, /● lightweb \(SmallWebRTC, no account\)/);
    await term.press("Enter");
    for (const question of WEB_REST.slice(1)) await term.answer(question, "Enter");
    const done = await madeProject(term, cwd.path, "callbot");
    assert.ok(
      done.screen.includes("Second transport: lightweb (SmallWebRTC, no account)"),
      done.screen,
    );
    assert.ok(!done.screen.includes("Daily PSTN"), done.screen);
    // "Next" points at the README's section on the tunnel and the webhook, by its heading.
    assert.ok(done.screen.includes(`"Phone calls" in callbot/README.md`), done.screen);
    const readme = await Deno.readTextFile(join(cwd.path, "callbot/README.md"));
    assert.match(readme, /^## Phone calls$/m);
  },
);

Deno.test(
  "init in a terminal: the Next lines for a directory with a space paste into one shell",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "My Bot"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    // "My Bot" is no project name (a space): one made from it is offered, and Enter takes it.
    const named = await term.waitFor("◆  Project name");
    assert.match(named.slice(named.lastIndexOf("◆  Project name")), /^│ {2}my-bot \(default\)$/m);
    await term.press("Enter");
    for (
      const question of WEB_AFTER_NAME
    ) {
      await term.answer(question, "Enter");
    }
    const { screen, config } = await madeProject(term, cwd.path, "My Bot");
    assert.deepEqual(config.project_name, "my-bot");
    const next = nextLines(screen);
    assert.ok(next.some((line) => line.includes("'My Bot/server'")), screen);
    // uv and npm stand in: each says where it ran. cp is the real one.
    const bin = join(cwd.path, ".bin");
    await Deno.mkdir(bin);
    for (const tool of ["uv", "npm"]) {
      await Deno.writeTextFile(
        join(bin, tool),
        `#!/bin/sh\necho "${tool} $* in $(basename "$(dirname "$PWD")")/$(basename "$PWD")" >> "${cwd.path}/.log"\n`,
      );
      await Deno.chmod(join(bin, tool), 0o755);
    }
    const out = await new Deno.Command("sh", {
      args: ["-ec", next.join("\n")],
      cwd: cwd.path,
      env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    }).output();
    assert.ok(out.success, `${next.join("\n")}\n${new TextDecoder().decode(out.stderr)}`);
    assert.ok(await exists(join(cwd.path, "My Bot/server/.env")));
    assert.deepEqual((await Deno.readTextFile(join(cwd.path, ".log"))).trim().split("\n"), [
      "uv sync in My Bot/server",
      "uv run bot.py in My Bot/server",
      "npm install in My Bot/client",
      "npm run dev in My Bot/client",
    ]);
  },
);

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
    assert.ok(screen.includes("voicebot init old --coding-agent --overwrite-guide"), screen);
  },
);

Deno.test(
  "init quickstrat in a terminal: the preset mistyped, refused before any question",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "quickstrat"]);
    const { code, screen } = await term.exit();
    assert.equal(code, 2, screen);
    assert.match(screen, /did you mean `voicebot init quickstart`\?/);
    assert.ok(!screen.includes("◆"), `a question was asked:\n${screen}`);
    assert.deepEqual([...Deno.readDirSync(cwd.path)], [], "nothing was written");
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
    // Again, with nothing left to write: the spinner's "Done." comes before the report.
    await using again = await Terminal.start(dir, ["init", "."]);
    const second = await again.exit();
    assert.deepEqual(second.code, 0, second.screen);
    assert.match(second.screen, /Done\.[\s\S]*◆ {2}Nothing to write/);
  },
);

Deno.test(
  "init in a terminal: Ctrl-C half-way, or Esc twice (or Esc, Yes) at the first question, writes nothing and exits 130",
  tty,
  async () => {
    await using cwd = await tempDir();
    const dir = join(cwd.path, "kept");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "notes.txt"), "mine\n");
    const before = await snapshot(cwd.path);
    for (const how of ["C-c half-way", "Escape twice", "Escape, Yes"]) {
      await using term = await Terminal.start(cwd.path, ["init", "kept"]);
      if (how.startsWith("Escape")) {
        // At the first question, Esc asks before it leaves; Esc again, or Yes, leaves.
        await term.answer("How do you want to build your bot?", "Escape");
        await term.answer(
          "Leave? Nothing has been written (Esc again leaves).",
          ...(how === "Escape twice" ? ["Escape"] : ["Left", "Enter"]),
        );
      } else {
        await term.answer("How do you want to build your bot?", "Down", "Enter");
        await term.answer("Project name", "Enter");
        await term.answer("Bot type", "Enter");
        await term.answer("Web client", "Enter");
        await term.answer("Client dev server", "C-c");
      }
      const { code, screen } = await term.exit();
      assert.deepEqual(code, 130, screen);
      // A directory with files, none in the way, is said, with what is there.
      assert.match(
        screen,
        /^● {2}kept already has notes\.txt: the project goes beside it, and nothing there is overwritten\.$/m,
      );
      assert.match(screen, /^Cancelled\.$/m);
      assert.ok(!screen.includes("error"), screen);
      assert.deepEqual(await snapshot(cwd.path), before);
    }
  },
);

/** The questions answered (◇) on the screen after its last `marker`, in order. */
function answeredAfter(screen: string, marker: string): string[] {
  const after = screen.slice(screen.lastIndexOf(marker) + marker.length);
  return [...after.matchAll(/^◇ {2}(.*)$/gm)].map((m) => m[1]).filter((q) =>
    !q.startsWith("Summary")
  );
}

Deno.test(
  "init in a terminal: Esc clears a search, then goes back a question at a time, answers kept",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "back"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (const question of ["Project name", ...WEB_AFTER_NAME.slice(0, 6)]) {
      await term.answer(question, "Enter");
    }
    await term.answer("Speech-to-text service");
    await term.type("deep");
    await term.waitFor(/Search: deep.*\(\d+ matches\)/);
    await term.press("Escape");
    // The search is cleared; the question stays.
    let screen = await term.waitFor(/Search: (?!deep)/);
    assert.match(screen.slice(screen.lastIndexOf("◆")), /^◆ {2}Speech-to-text service/);
    assert.ok(listed(screen, "Speech-to-text service").length > 20, screen);
    // With nothing typed, Esc goes back: Mode, the second transport, the transport.
    await term.press("Escape");
    screen = await term.waitFor(/◆ {2}Mode\n(│.*\n)*│ {2}● Cascade/);
    await term.press("Escape");
    await term.answer("Add hosted (Daily) as a second transport?", "Escape");
    screen = await term.waitFor(
      /◆ {2}Transport\n(│.*\n)*│ {2}● lightweb \(SmallWebRTC, no account\)/,
    );
    await term.press("Up", "Enter");
    // Forward again: each question after it is asked again, its answer kept where it still fits.
    await term.answer("Add lightweb (SmallWebRTC, no account) as a second transport?", "Enter");
    await term.answer("Mode", "Enter");
    await term.search("Speech-to-text service", "deepgram_stt");
    for (const question of WEB_REST.slice(3)) await term.answer(question, "Enter");
    const { config } = await madeProject(term, cwd.path, "back");
    assert.deepEqual([config.transports, config.stt_service], [["hosted"], "deepgram_stt"]);
  },
);

/** The screen, with the one question being asked (a stray header of another would be a second). */
async function asking(term: Terminal, question: string | RegExp): Promise<string> {
  const screen = await term.waitFor(
    typeof question === "string" ? `◆  ${question}` : question,
  );
  assert.deepEqual(screen.match(/^◆ .*$/gm)?.length, 1, screen);
  return screen;
}

Deno.test(
  "init in a terminal: Esc back to how to build, and Scaffold again, keeps every answer; Esc leaves no header behind",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "round"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.typeAnswer("Project name", "kept-name");
    await term.answer("Bot type", "Down", "Enter");
    await term.answer("Transport", "Down", "Enter");
    await term.answer("Add a second transport for local testing?", "Escape");
    for (const question of ["Transport", "Bot type", "Project name"]) {
      await asking(term, question);
      await term.press("Escape");
    }
    // Back at the question before the scaffold's: Scaffold, the answer given, is the one
    // selected, so Enter writes no guides.
    let screen = await asking(term, /◆ {2}How do you want to build your bot\?\n(│.*\n)*└/);
    assert.match(screen.slice(screen.lastIndexOf("◆")), /● Scaffold a bot now/);
    assert.deepEqual(await listFiles(cwd.path), []);
    await term.press("Enter");
    screen = await asking(term, /◆ {2}Project name\n│ {2}kept-name/);
    await term.press("Enter");
    screen = await asking(term, /◆ {2}Bot type\n(│.*\n)*└/);
    assert.match(screen.slice(screen.lastIndexOf("◆")), /● Telephony/);
    await term.press("Enter");
    screen = await asking(term, /◆ {2}Transport\n(│.*\n)*└/);
    assert.match(screen.slice(screen.lastIndexOf("◆")), /● carrier2 \(Telnyx\)/);
    await term.press("Enter");
    await term.answer("Add a second transport for local testing?", "Enter");
    for (const question of WEB_REST.slice(1)) await term.answer(question, "Enter");
    const { config } = await madeProject(term, cwd.path, "round");
    assert.deepEqual(
      [config.project_name, config.bot_type, config.transports],
      ["kept-name", "telephony", ["carrier2"]],
    );
  },
);

Deno.test(
  "init in a terminal: Esc from the summary walks back every question to the first, and No at Leave? goes forward with every answer kept",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init"]);
    await term.typeAnswer("Where should the project go?", "walk");
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.typeAnswer("Project name", "typed-name");
    const scaffold = WEB_AFTER_NAME.slice(0, -1);
    for (const question of scaffold) await term.answer(question, "Enter");
    await term.answer("Create this project?", "Escape");
    // One question at a time, the last first, back to the very first.
    const back = [
      ...scaffold.toReversed(),
      "Project name",
      "How do you want to build your bot?",
      "Where should the project go?",
    ];
    for (const question of back) {
      await asking(term, question);
      await term.press("Escape");
    }
    // There, Esc asks before it leaves; No stays, with the directory typed as the default.
    await term.answer("Leave? Nothing has been written (Esc again leaves).", "Enter");
    await asking(term, /◆ {2}Where should the project go\?\n│ {2}walk \(default\)$/m);
    await term.press("Enter");
    const screen = await asking(term, /◆ {2}How do you want to build your bot\?\n(│.*\n)*└/);
    assert.match(screen.slice(screen.lastIndexOf("◆")), /● Scaffold a bot now/);
    await term.press("Enter");
    await asking(term, /◆ {2}Project name\n│ {2}typed-name \(default\)$/m);
    await term.press("Enter");
    for (const question of WEB_AFTER_NAME) await term.answer(question, "Enter");
    const made = await madeProject(term, cwd.path, "walk");
    assert.equal(made.config.project_name, "typed-name");
    // Nothing was written before the end: the only directory is the project's.
    assert.deepEqual((await listFiles(cwd.path)).filter((f) => !f.startsWith("walk/")), []);
  },
);

Deno.test(
  "init in a terminal: a clash at Create offers a free directory; a default name follows the directory, a typed one stays",
  tty,
  async () => {
    for (const typed of [undefined, "mine"]) {
      await using cwd = await tempDir();
      await using term = await Terminal.start(cwd.path, ["init"]);
      await term.typeAnswer("Where should the project go?", "other");
      await term.answer("How do you want to build your bot?", "Down", "Enter");
      await term.typeAnswer("Project name", typed);
      for (const question of WEB_AFTER_NAME.slice(0, -1)) await term.answer(question, "Enter");
      // Between the questions and Create, something else writes there (and other-2 is taken).
      await Deno.mkdir(join(cwd.path, "other/server"), { recursive: true });
      await Deno.writeTextFile(join(cwd.path, "other/server/bot.py"), "# theirs\n");
      await Deno.mkdir(join(cwd.path, "other-2"));
      await term.answer("Create this project?", "Enter");
      await term.waitFor(/other already has server\/bot\.py, with other content/);
      await asking(term, /◆ {2}Where should the project go\?\n│ {2}other-3 \(default\)$/m);
      await term.type("fresh");
      await term.press("Enter");
      await term.answer("Create this project?", "Enter");
      const { screen, config } = await madeProject(term, cwd.path, "fresh");
      assert.equal(config.project_name, typed ?? "fresh", screen);
      const readme = await Deno.readTextFile(join(cwd.path, "fresh/README.md"));
      assert.ok(readme.startsWith(`# ${typed ?? "fresh"}\n`), readme.slice(0, 80));
      assert.equal(await Deno.readTextFile(join(cwd.path, "other/server/bot.py")), "# theirs\n");
    }
  },
);

Deno.test(
  "init in a terminal: at 60 columns every line of the frame is wrapped inside it; only commands run long",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "Narrow Bot"], { width: 60 });
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    // A long warning (the name is no project name), then the phone bot's long report.
    await term.typeAnswer("Project name", "Narrow Bot");
    await term.answer("Project name", "Enter");
    await term.answer("Bot type", "Down", "Enter");
    await term.answer("Transport", "Enter");
    await term.answer("Add a second transport for local testing?", "Enter");
    for (const question of WEB_REST.slice(1)) await term.answer(question, "Enter");
    const { code, screen } = await term.exit();
    assert.equal(code, 0, screen);
    // capture-pane -J joins what the terminal folded: a line longer than 60 was folded.
    const lines = screen.split("\n");
    const outro = lines.findIndex((line) => line.startsWith("└  Next:"));
    assert.ok(outro > 0, screen);
    for (const line of lines.slice(0, outro + 1)) {
      assert.ok([...line].length <= 60, `folded by the terminal:\n${line}\n\n${screen}`);
    }
    // A warning's second line stays in the frame's gutter.
    const warning = lines.findIndex((line) => line.startsWith("▲  "));
    assert.ok(warning > 0 && lines[warning + 1].startsWith("│  "), screen);
    // The commands after the outro are left whole, to paste.
    assert.ok(lines.some((line) => /^ {2}voicebot init 'Narrow Bot' .{60}/.test(line)), screen);
  },
);

Deno.test(
  "init in a terminal: changing the bot type, then the mode, re-asks what depends on each",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "depends"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    for (const question of ["Project name", ...WEB_AFTER_NAME.slice(0, -1)]) {
      await term.answer(question, "Enter");
    }
    // Esc at the summary asks the last question again.
    await term.answer("Create this project?", "Escape");
    await term.answer("Add features", "Enter");
    let screen = await term.waitFor("◆  Create this project?");
    const change = async (label: string) => {
      await term.answer("Create this project?", "Down", "Enter");
      screen = await term.waitFor("◆  Which answer?");
      const answers = listed(screen, "Which answer?");
      assert.ok(answers.includes(label), screen);
      await term.press(...Array(answers.indexOf(label)).fill("Down"), "Enter");
    };
    await change("Bot type");
    await term.answer("Bot type", "Down", "Enter");
    // The web transport no longer fits; carrier1..carrier4, then Daily PSTN, with its direction.
    await term.answer("Transport", "Down", "Down", "Down", "Down", "Enter");
    await term.answer("Call direction for hosted_pstn (Daily PSTN)", "Enter");
    screen = await term.waitFor("◆  Create this project?");
    assert.deepEqual(answeredAfter(screen, "◇  Which answer?"), [
      "Bot type",
      "Transport",
      "Call direction for hosted_pstn (Daily PSTN)",
    ]);
    // The web client's questions no longer apply, and are gone from the summary.
    assert.ok(!summaryOf(screen).some((line) => line.startsWith("Web client")), screen);
    await change("Mode");
    await term.answer("Mode", "Down", "Enter");
    await term.search("Realtime service", "openai_realtime");
    screen = await term.waitFor("◆  Create this project?");
    assert.deepEqual(answeredAfter(screen, "◇  Which answer?"), ["Mode", "Realtime service"]);
    assert.ok(!summaryOf(screen).some((line) => line.startsWith("Speech-to-text")), screen);
    await term.press("Enter");
    const { config } = await madeProject(term, cwd.path, "depends");
    assert.deepEqual(
      [config.bot_type, config.transports, config.mode, config.stt_service, config.client_server],
      ["telephony", ["hosted_pstn_dialin"], "realtime", null, null],
    );
  },
);

Deno.test(
  "init in a terminal: a name with a space gets a suggestion, and features are checked as given",
  tty,
  async () => {
    await using cwd = await tempDir();
    await using term = await Terminal.start(cwd.path, ["init", "named"]);
    await term.answer("How do you want to build your bot?", "Down", "Enter");
    await term.typeAnswer("Project name", "Restaurant Booker");
    let screen = await term.waitFor(/◆ {2}Project name\n│ {2}restaurant-booker \(default\)$/m);
    assert.match(screen, /"Restaurant Booker" is not a valid project name/);
    assert.match(screen, /Enter takes it/);
    await term.press("Enter");
    for (const question of WEB_AFTER_NAME.slice(0, 9)) await term.answer(question, "Enter");
    // Noise cancellation without the deployment files: the flags' rule refuses it, here too.
    await term.features(["Noise cancellation on the cloud"]);
    screen = await term.waitFor(/needs the cloud deployment[\s\S]*◆ {2}Add features/);
    // In the questions' words: no flag to drop, which a wizard user never typed.
    assert.match(
      screen,
      /^▲ {2}Noise cancellation on the cloud: needs the cloud deployment files too$/m,
    );
    assert.ok(!/--[a-z]/.test(screen), screen);
    assert.ok(!screen.includes("Create this project?"), screen);
    const again = screen.slice(screen.lastIndexOf("◆  Add features"));
    assert.match(again, /◼ Noise cancellation on the cloud/); // the ticks are kept
    await term.features(["Noise cancellation on the cloud", "Cloud deployment files"]);
    await term.answer("Create this project?", "Enter");
    const { config } = await madeProject(term, cwd.path, "named");
    assert.deepEqual([config.project_name, config.enable_denoise], ["restaurant-booker", true]);
  },
);

Deno.test(
  "init in a terminal inside a project: refresh its guides, or a new project beside it, never in it",
  tty,
  async () => {
    await using cwd = await tempDir();
    const made = join(cwd.path, "made");
    const scaffold = ["init", "made", "-t", "lightweb", "-m", "realtime", "--realtime"];
    assert.equal((await voicebot([...scaffold, "openai_realtime"], { cwd: cwd.path })).code, 0);
    const before = await snapshot(made);
    {
      await using term = await Terminal.start(made, ["init"]);
      const screen = await term.waitFor("◆  This is the voicebot project made.");
      assert.deepEqual(listed(screen, "This is the voicebot project made."), [
        "Refresh its guides (writes this version's AGENTS.md and ASSISTANT.md; edited ones are kept)",
        "Make a new project beside it",
        "Cancel",
      ]);
      await term.press("Down", "Enter");
      await term.answer("Where should the project go?");
      await term.waitFor(/^│ {2}\.\.\/my-voice-bot \(default\)$/m);
      await term.type("inside");
      await term.press("Enter");
      await term.waitFor("that is inside the project made");
      await term.press(...Array(6).fill("BSpace"), "Enter");
      await term.answer("How do you want to build your bot?", "Enter");
      const { code, screen: done } = await term.exit();
      assert.deepEqual(code, 0, done);
      assert.match(done, /^ {2}voicebot init \.\.\/my-voice-bot --coding-agent$/m);
    }
    assert.ok(await exists(join(cwd.path, "my-voice-bot/GETTING_STARTED.md")));
    assert.deepEqual(await snapshot(made), before);
    // From a directory of the project: its guides are refreshed, nothing is made in it.
    await Deno.remove(join(made, "AGENTS.md"));
    await using term = await Terminal.start(join(made, "server"), ["init"]);
    await term.answer("This is inside the voicebot project made.", "Enter");
    const { code, screen } = await term.exit();
    assert.deepEqual(code, 0, screen);
    assert.match(screen, /Wrote 1 file in \.\.:/);
    assert.deepEqual(await snapshot(made), before);
    assert.match(screen, /^ {2}voicebot init \.\. --coding-agent$/m);
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

Deno.test(
  "update in a terminal: the recorded answers, one changed with the wizard's question, the changes shown, then written",
  tty,
  async () => {
    await using dir = await tempDir();
    const root = await madeBot(dir.path);
    await Deno.writeTextFile(join(root, "server/bot.py"), "# mine\n", { append: true });

    // Cancelled at the first question: nothing written.
    const before = await snapshot(root);
    {
      await using t = await Terminal.start(root, ["update"]);
      const screen = await t.waitFor("◆  What do you want to do?");
      assert.match(screen, /This project[^]*Text-to-speech service: Cartesia/);
      await t.answer("What do you want to do?", "Down", "Down", "Enter");
      assert.equal((await t.exit()).code, 130);
      assert.deepEqual(await snapshot(root), before);
    }

    await using t = await Terminal.start(root, ["update"]);
    await t.answer("What do you want to do?", "Down", "Enter"); // Change an answer
    await t.answer("Which answer?", ...Array(8).fill("Down"), "Enter"); // the voice
    await t.search("Text-to-speech service", "kokoro_tts");
    const summary = await t.waitFor("◆  What do you want to do?");
    assert.match(summary.slice(summary.lastIndexOf("With your changes")), /Kokoro/);
    await t.answer("What do you want to do?", "Enter"); // Update it with these answers
    const shown = await t.waitFor("◆  Write these changes?");
    // The change in the words of the questions, inside the frame; never by id.
    assert.match(shown, /^│ {4}Text-to-speech: Cartesia -> Kokoro \(local, no account\)$/m);
    assert.doesNotMatch(shown, /tts_service|kokoro_tts/);
    assert.match(shown, /^│ {4}merged +server\/bot\.py/m);
    await t.press("Enter");
    const { code, screen } = await t.exit();
    assert.equal(code, 0, screen);
    assert.match(screen, /^┌ {2}voicebot \S+: update this directory$/m);
    assert.match(screen, /^◆ {2}Updated this directory\.\n│\n└ {2}Done\.$/m);
    const bot = await Deno.readTextFile(join(root, "server/bot.py"));
    assert.match(bot, /KokoroTTSService/);
    assert.ok(bot.endsWith("# mine\n"), "the user's line is kept");
    const record = JSON.parse(await Deno.readTextFile(join(root, "voicebot.json")));
    assert.equal(record.tts_service, "kokoro_tts");
  },
);

Deno.test(
  "update in a terminal: a change that conflicts asks with No as the default, and No writes nothing, exit 0",
  tty,
  async () => {
    await using dir = await tempDir();
    const root = await madeBot(dir.path);
    // The user's own edit of the very line the voice change rewrites: a conflict.
    const bot = await Deno.readTextFile(join(root, "server/bot.py"));
    await Deno.writeTextFile(
      join(root, "server/bot.py"),
      bot.replace("tts = CartesiaTTSService(", "tts = CartesiaTTSService(  # mine"),
    );
    const before = await snapshot(root);

    await using t = await Terminal.start(root, ["update"]);
    await t.answer("What do you want to do?", "Down", "Enter"); // Change an answer
    await t.answer("Which answer?", ...Array(8).fill("Down"), "Enter"); // the voice
    await t.search("Text-to-speech service", "kokoro_tts");
    await t.answer("What do you want to do?", "Enter"); // Update it with these answers
    const shown = await t.waitFor("◆  Write these changes? Files are removed or get conflicts");
    assert.match(shown, /CONFLICT +server\/bot\.py/);
    assert.match(shown.slice(shown.lastIndexOf("Write these changes?")), /● No/);
    await t.press("Enter"); // the default: No
    const { code, screen } = await t.exit();
    assert.equal(code, 0, screen);
    assert.match(screen, /Nothing written\./);
    assert.deepEqual(await snapshot(root), before);
  },
);
