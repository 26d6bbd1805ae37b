/**
 * `voicebot init` across several runs, as a user goes: the coding-agent path and then the scaffold
 * its guide suggests; a project made again from the configuration it recorded; guides refreshed
 * on a scaffolded project; and the CLI run from a clone with `deno task`, from the README.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import {
  cloneOfThisRepository,
  DENO_DIR,
  exists,
  listFiles,
  snapshot,
  tempDir,
  voicebot,
} from "./helpers.ts";
import { VERSION } from "../src/version.ts";

/** The scaffold command GETTING_STARTED.md offers to those who skip the agent, as written there. */
async function gettingStartedCommand(root: string): Promise<string[]> {
  const guide = await Deno.readTextFile(join(root, "GETTING_STARTED.md"));
  const line = guide.split("\n").find((l) => l.startsWith("voicebot init . "));
  assert.ok(line, "GETTING_STARTED.md shows a scaffold command");
  return line.split(/\s+/).slice(1);
}

/** The guides a fresh scaffold of `args` writes, to compare with what a refresh wrote. */
async function freshGuides(name: string, args: string[]): Promise<Map<string, string>> {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, name));
  const run = await voicebot(args, { cwd: join(dir.path, name) });
  assert.equal(run.code, 0, run.stderr);
  const guides = new Map<string, string>();
  for (const file of ["AGENTS.md", "ASSISTANT.md"]) {
    guides.set(file, await Deno.readTextFile(join(dir.path, name, file)));
  }
  return guides;
}

Deno.test("the coding-agent path, then GETTING_STARTED.md's scaffold command: the project's own guides", async () => {
  await using dir = await tempDir();
  assert.equal((await voicebot(["init", "my-bot"], { cwd: dir.path })).code, 0);
  const root = join(dir.path, "my-bot");
  const gettingStarted = await Deno.readTextFile(join(root, "GETTING_STARTED.md"));
  const command = await gettingStartedCommand(root);

  const run = await voicebot(command, { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /Replaced AGENTS\.md and ASSISTANT\.md: voicebot wrote them for the coding-agent path and nobody edited them/,
  );
  const expected = await freshGuides("my-bot", command);
  for (const [file, content] of expected) {
    assert.equal(await Deno.readTextFile(join(root, file)), content, `${file} is the project's`);
  }
  assert.match(expected.get("AGENTS.md")!, new RegExp(`^<!-- voicebot-guide ${VERSION} project `));
  assert.equal(
    await Deno.readTextFile(join(root, "GETTING_STARTED.md")),
    gettingStarted,
    "GETTING_STARTED.md is left as it was",
  );
  assert.ok(await exists(join(root, "server/bot.py")));
});

Deno.test("an edited agent guide survives the scaffold; --overwrite-guide then writes the project's", async () => {
  await using dir = await tempDir();
  assert.equal((await voicebot(["init", "my-bot"], { cwd: dir.path })).code, 0);
  const root = join(dir.path, "my-bot");
  const edited = (await Deno.readTextFile(join(root, "AGENTS.md"))) + "\nAlways answer in Welsh.\n";
  await Deno.writeTextFile(join(root, "AGENTS.md"), edited);
  const command = await gettingStartedCommand(root);

  const scaffold = await voicebot(command, { cwd: root });
  assert.equal(scaffold.code, 0, scaffold.stderr);
  assert.equal(await Deno.readTextFile(join(root, "AGENTS.md")), edited, "an edited guide is kept");
  assert.match(scaffold.stderr, /Replaced ASSISTANT\.md:/, "the untouched one is replaced");
  assert.match(
    scaffold.stderr,
    /AGENTS\.md still is the coding-agent guide, edited since voicebot wrote it.*run: voicebot init \. --overwrite-guide/,
  );

  const before = await snapshot(root);
  const refresh = await voicebot(["init", ".", "--overwrite-guide"], { cwd: root });
  assert.equal(refresh.code, 0, refresh.stderr);
  const expected = await freshGuides("my-bot", command);
  assert.equal(await Deno.readTextFile(join(root, "AGENTS.md")), expected.get("AGENTS.md"));
  assert.doesNotMatch(refresh.stderr, /coding agent|GETTING_STARTED/, "no coding-agent next steps");
  const after = await snapshot(root);
  for (const [path, bytes] of before) {
    if (path !== "AGENTS.md") assert.equal(after.get(path), bytes, `${path} is untouched`);
  }
  assert.equal(after.size, before.size, "no file added (no GETTING_STARTED.md, no agent guides)");
});

Deno.test("voicebot.json records the configuration, and --config on it makes the same project", async () => {
  await using dir = await tempDir();
  const args = [
    ...["--name", "front-desk", "-t", "carrier1", "-t", "lightweb", "-m", "cascade"],
    ...["--stt", "deepgram_stt", "--llm", "anthropic_llm", "--tts", "cartesia_tts"],
    ...["--recording", "--transcription", "--eval", "--observability"],
  ];
  const dryRun = await voicebot(["init", "first", ...args, "--dry-run"], { cwd: dir.path });
  assert.equal(dryRun.code, 0, dryRun.stderr);
  assert.equal((await voicebot(["init", "first", ...args], { cwd: dir.path })).code, 0);
  const record = await Deno.readTextFile(join(dir.path, "first/voicebot.json"));
  assert.equal(record, dryRun.stdout, "the record is what --dry-run printed");

  const again = await voicebot(["init", "second", "--config", "first/voicebot.json"], {
    cwd: dir.path,
  });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(
    await snapshot(join(dir.path, "second")),
    await snapshot(join(dir.path, "first")),
    "byte for byte the same project",
  );
});

Deno.test("a guide refresh on a project whose voicebot.json is broken stops and writes nothing", async () => {
  await using dir = await tempDir();
  const args = ["init", "bot", "-t", "lightweb", "-m", "realtime", "--realtime", "openai_realtime"];
  assert.equal((await voicebot(args, { cwd: dir.path })).code, 0);
  const record = join(dir.path, "bot/voicebot.json");
  const config = JSON.parse(await Deno.readTextFile(record));
  await Deno.writeTextFile(record, JSON.stringify({ ...config, mode: "psychic" }));
  const before = await snapshot(dir.path);
  const run = await voicebot(["init", "bot", "--overwrite-guide"], { cwd: dir.path });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /voicebot\.json, the record of how this project was made, is not a valid configuration/,
  );
  assert.match(run.stderr, /invalid value "psychic"/);
  assert.deepEqual(await snapshot(dir.path), before);
});

/**
 * `deno <args>` in `cwd` with this run's Deno and cache, bounded, as typed in a fresh shell: no
 * INIT_CWD inherited from the test runner's own task.
 */
async function deno(args: string[], cwd: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdin: "null",
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
      DENO_DIR,
    },
    signal: AbortSignal.timeout(120_000),
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { code: output.code, text };
}

Deno.test("from a clone: deno task voicebot writes where it is typed, and the README's first command leaves the checks passing", async () => {
  await using clone = await tempDir();
  await cloneOfThisRepository(clone.path);

  // The README's first command, as written, minus the `npx --yes deno@X.Y.Z` that fetches Deno.
  const readme = await Deno.readTextFile(join(clone.path, "README.md"));
  const first = readme.split("\n").find((line) =>
    /^npx --yes deno@[\d.]+ task -q voicebot /.test(line)
  );
  assert.ok(first, "README.md has the command that runs the main job");
  const words = first.split(/\s+/).slice(3);
  const quickstart = await deno(words, clone.path);
  assert.equal(quickstart.code, 0, quickstart.text);
  assert.ok(await exists(join(clone.path, "voicebot-quickstart/server/bot.py")));

  // The checks .ci/run makes still pass with the quickstart inside the clone.
  for (const check of [["fmt", "--check"], ["lint"]]) {
    const result = await deno(check, clone.path);
    assert.equal(result.code, 0, `deno ${check.join(" ")}:\n${result.text}`);
  }
  const ignored = await new Deno.Command("git", {
    args: ["check-ignore", "-q", "voicebot-quickstart/README.md"],
    cwd: clone.path,
  }).output();
  assert.ok(ignored.success, "the quickstart is git-ignored in the clone");

  // Typed in a subdirectory, the task writes there, and relative paths are the user's.
  await Deno.mkdir(join(clone.path, "work"));
  await Deno.writeTextFile(
    join(clone.path, "work/bot.json"),
    JSON.stringify({
      transports: ["lightweb"],
      mode: "realtime",
      realtime_service: "openai_realtime",
    }),
  );
  const here = await deno(
    ["task", "voicebot", "init", "sub-bot", "--config", "bot.json"],
    join(clone.path, "work"),
  );
  assert.equal(here.code, 0, here.text);
  assert.deepEqual(
    (await listFiles(join(clone.path, "work/sub-bot"))).filter((f) => f.startsWith("server/bot")),
    ["server/bot.py"],
  );
  assert.equal(await exists(join(clone.path, "sub-bot")), false, "nothing in the clone's root");
});

/** The lines of a run's stderr that are not a listed file (those start with two spaces). */
function said(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line !== "" && !line.startsWith("  "));
}

Deno.test("a finished project run again: nothing to write, and why; one file gone: only it is written", async () => {
  await using dir = await tempDir();
  const args = ["init", "bot", "-t", "lightweb", "-m", "cascade", "--stt", "deepgram_stt"];
  args.push("--llm", "openai_llm", "--tts", "cartesia_tts", "--client-framework", "vanilla");
  const first = await voicebot(args, { cwd: dir.path });
  assert.equal(first.code, 0, first.stderr);
  const root = join(dir.path, "bot");
  const made = await snapshot(root);

  const again = await voicebot(args, { cwd: dir.path });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(said(again.stderr), [
    "✔ Nothing to write: every file of this project is already in bot and unchanged.",
  ]);
  assert.deepEqual(await snapshot(root), made);

  const dryRun = await voicebot([...args, "--dry-run"], { cwd: dir.path });
  assert.equal(dryRun.code, 0, dryRun.stderr);
  assert.equal(JSON.parse(dryRun.stdout).project_name, "bot");
  assert.deepEqual(said(dryRun.stderr), [
    "Nothing would be written: every file of this project is already in bot and unchanged.",
  ]);

  const count = (await listFiles(root)).length;
  await Deno.remove(join(root, "server/bot.py"));
  const gone = await voicebot([...args, "--dry-run"], { cwd: dir.path });
  assert.match(gone.stderr, /^Would write 1 file in bot:\n {2}server\/bot\.py\n/m);
  assert.match(
    gone.stderr,
    new RegExp(`^${count - 1} other files were already there, unchanged\\.$`, "m"),
  );
  const refill = await voicebot(args, { cwd: dir.path });
  assert.equal(refill.code, 0, refill.stderr);
  assert.match(refill.stderr, /^✔ Wrote 1 file in bot:\n {2}server\/bot\.py\n/m);
  assert.deepEqual(await snapshot(root), made);

  // A file with other bytes is still in the way; the unchanged ones are not named with it.
  await Deno.writeTextFile(join(root, "README.md"), "# mine\n");
  const conflict = await voicebot(args, { cwd: dir.path });
  assert.equal(conflict.code, 5, conflict.stderr);
  assert.match(conflict.stderr, /1 file already exists in .*bot; nothing was written/);
  assert.deepEqual(conflict.stderr.split("\n").filter((l) => l.startsWith("  - ")), [
    "  - README.md",
  ]);
});

Deno.test("the coding-agent path run again: nothing to write, or the edited guide kept, said so", async () => {
  await using dir = await tempDir();
  assert.equal((await voicebot(["init", "agent-bot"], { cwd: dir.path })).code, 0);
  const again = await voicebot(["init", "agent-bot"], { cwd: dir.path });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(said(again.stderr), [
    "✔ Nothing to write: every guide is already in agent-bot and unchanged.",
  ]);

  const agents = join(dir.path, "agent-bot/AGENTS.md");
  await Deno.writeTextFile(agents, (await Deno.readTextFile(agents)) + "my notes\n");
  const edited = await voicebot(["init", "agent-bot"], { cwd: dir.path });
  assert.equal(edited.code, 0, edited.stderr);
  assert.deepEqual(said(edited.stderr), [
    "✔ Nothing to write: every file is already in agent-bot: AGENTS.md is kept (below), the others are unchanged.",
    `Kept AGENTS.md (written by voicebot ${VERSION}).`,
  ]);
});

Deno.test("a scaffolded project's guides refreshed when unchanged, and the quickstart run twice: nothing to write", async () => {
  await using dir = await tempDir();
  assert.equal((await voicebot(["init", "quickstart"], { cwd: dir.path })).code, 0);
  const root = join(dir.path, "voicebot-quickstart");
  const made = await snapshot(root);
  const twice = await voicebot(["init", "quickstart"], { cwd: dir.path });
  assert.equal(twice.code, 0, twice.stderr);
  assert.deepEqual(said(twice.stderr), [
    "✔ Nothing to write: every file of this project is already in voicebot-quickstart and unchanged.",
  ]);
  const guides = await voicebot(["init", "voicebot-quickstart"], { cwd: dir.path });
  assert.equal(guides.code, 0, guides.stderr);
  assert.deepEqual(said(guides.stderr), [
    "✔ Nothing to write: this project's guides are already in voicebot-quickstart and unchanged.",
  ]);
  const here = await voicebot(["init", "."], { cwd: root });
  assert.deepEqual(said(here.stderr), [
    "✔ Nothing to write: this project's guides are already here and unchanged.",
  ]);
  assert.deepEqual(await snapshot(root), made);
});
