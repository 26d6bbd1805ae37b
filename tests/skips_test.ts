/**
 * `deno task test` says out loud which tests it skips: the note it prints first (scripts/skip_note.ts,
 * run as deno.json's "test" task runs it, with the same permissions) names every group of
 * tests/skips.ts that cannot run, with a command that works where the README's do; and every
 * test's `ignore:` is `skipped()` of those groups, so the note and the skips cannot part.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { DENO_DIR, tempDir } from "./helpers.ts";
import {
  BASH_COMPLETION,
  type GroupName,
  GROUPS,
  missing,
  readmeDeno,
  type SkipGroup,
  skipped,
} from "./skips.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const NAMES = Object.keys(GROUPS) as GroupName[];

/** The note script's command line, taken from deno.json's "test" task (the part before `&&`). */
async function noteCommand(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const [first] = (config.tasks.test as string).split(" && ");
  const [deno, ...args] = first.trim().split(/\s+/);
  assert.equal(deno, "deno");
  assert.ok(args.includes("scripts/skip_note.ts"), first);
  return args;
}

/**
 * Runs the note as `deno task test` does: in this test's environment, or (`env`) with only `env`
 * and Deno's cache in its environment.
 */
async function note(env?: Record<string, string>): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: await noteCommand(),
    cwd: ROOT,
    clearEnv: env !== undefined,
    env: { DENO_DIR, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(new TextDecoder().decode(output.stdout), "");
  return stderr.split("\n").filter(Boolean);
}

/** The group a note line is about, by the tests it names. */
function groupOf(line: string): GroupName {
  const found = NAMES.filter((name) => line.includes(`: ${(GROUPS[name] as SkipGroup).tests}: `));
  assert.equal(found.length, 1, `one group in: ${line}`);
  return found[0];
}

/** A directory of stand-in programs (each exits 0), for a PATH that holds exactly them. */
async function standIns(dir: string, programs: string[]): Promise<string> {
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  for (const program of programs) {
    await Deno.writeTextFile(join(bin, program), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  }
  return bin;
}

const VARIABLES = {
  VOICEBOT_TEST_POSTGRES_URL: "postgres://u:p@127.0.0.1:1/db",
  VOICEBOT_TEST_BUNDLE: "/nowhere/voicebot.js",
  VOICEBOT_TEST_NPM_TARBALL: "/nowhere/voicebot-cli.tgz",
  VOICEBOT_TEST_PCC: "/nowhere/pcc",
  VOICEBOT_TEST_PIPECAT_PYTHON: "/nowhere/python",
  VOICEBOT_TEST_PIPECAT_GIT: "/nowhere/pipecat.git",
};
const PROGRAMS = ["bash", "zsh", "fish", "tmux", "python3", "curl", "sha256sum", "setpriv"];

const hasBashCompletion = await Deno.stat(BASH_COMPLETION).then((s) => s.isFile, () => false);

Deno.test("the note names exactly the groups this run skips, as the tests decide them", async () => {
  const lines = await note();
  const expected = NAMES.filter((name) => missing(name) !== undefined);
  assert.deepEqual(lines.map(groupOf), expected, lines.join("\n"));
  for (const line of lines) {
    assert.equal(line.startsWith("skipped: "), skipped(groupOf(line)), line);
  }
});

Deno.test("with nothing on PATH and no variables, the note names every group and how to run it", async () => {
  await using dir = await tempDir();
  const lines = await note({ PATH: await standIns(dir.path, []) });
  assert.deepEqual(lines.map(groupOf), NAMES);
  const deno = readmeDeno();
  assert.match(deno, /^npx --yes deno@\d+\.\d+\.\d+$/);
  for (const line of lines) {
    const group = GROUPS[groupOf(line)] as SkipGroup;
    assert.ok(line.startsWith(`skipped: ${group.tests}: `), line);
    assert.ok(line.endsWith(`; to run them: ${group.howTo(deno)}`), line);
    // Deno only as the README runs it: a Node-only machine has no `deno` of its own.
    assert.ok(!line.replaceAll(deno, "").includes("deno "), line);
  }
  const postgres = lines[NAMES.indexOf("postgres")];
  assert.match(postgres, /VOICEBOT_TEST_POSTGRES_URL is not set/);
  assert.match(
    postgres,
    /VOICEBOT_TEST_POSTGRES_URL=postgres:\/\/\S+ npx --yes deno@\S+ task test$/,
  );
  assert.match(lines[NAMES.indexOf("bundle")], / task bundle && VOICEBOT_TEST_BUNDLE=/);
  const version = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).version;
  assert.ok(
    lines[NAMES.indexOf("npm")].includes(
      ` task npm && VOICEBOT_TEST_NPM_TARBALL="$PWD/dist/npm/voicebot-cli-${version}.tgz" `,
    ),
  );
  assert.match(lines[NAMES.indexOf("tmux")], /: no tmux on PATH; to run them: install tmux/);
  assert.match(lines[NAMES.indexOf("release-install")], /: no curl or sha256sum on PATH;/);
});

Deno.test("with a PATH stripped of tmux and every variable set, only the terminal tests are named", async () => {
  await using dir = await tempDir();
  const path = await standIns(dir.path, PROGRAMS.filter((program) => program !== "tmux"));
  const lines = await note({ PATH: path, ...VARIABLES });
  const expected: GroupName[] = hasBashCompletion ? ["tmux"] : ["bash-completion", "tmux"];
  assert.deepEqual(lines.map(groupOf), expected, lines.join("\n"));
  // And with tmux too, nothing (the stand-in python3 answers that python-dotenv is there).
  await Deno.writeTextFile(join(path, "tmux"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  assert.deepEqual(
    (await note({ PATH: path, ...VARIABLES })).map(groupOf),
    hasBashCompletion ? [] : ["bash-completion"],
  );
});

Deno.test("on CI, what CI must provide is announced as failing, not skipped", async () => {
  await using dir = await tempDir();
  const lines = await note({ PATH: await standIns(dir.path, []), CI: "true" });
  assert.deepEqual(lines.map(groupOf), NAMES);
  const failing = lines.filter((line) => line.startsWith("will FAIL: ")).map(groupOf);
  assert.deepEqual(failing, NAMES.filter((name) => (GROUPS[name] as SkipGroup).runsOnCi));
  assert.deepEqual(failing, ["postgres", "postgres-server", "python-dotenv"]);
});

/** The test files: tests/*.ts and every *_test.ts under scripts/ and src/. */
async function testFiles(): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string, all: boolean) => {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory && dir !== "tests") await walk(path, all);
      else if (entry.isFile && entry.name.endsWith(".ts")) {
        if (all || entry.name.endsWith("_test.ts")) files.push(path);
      }
    }
  };
  await walk("tests", true);
  await walk("scripts", false);
  await walk("src", false);
  return files.sort();
}

Deno.test("every ignore: in the test files is skipped() of tests/skips.ts's groups", async () => {
  const files = await testFiles();
  assert.ok(files.includes("tests/bundle_test.ts") && files.includes("src/init/writer_test.ts"));
  const word = new RegExp(String.raw`(?<![\w-])${"ign" + "ore"}(?![\w-])`, "g");
  const wrong: string[] = [];
  let used = 0;
  for (const file of files) {
    if (file === "tests/skips.ts" || file === "tests/skips_test.ts") continue;
    const text = await Deno.readTextFile(join(ROOT, file));
    for (const match of text.matchAll(word)) {
      const line = text.slice(0, match.index).split("\n").length;
      const rest = text.slice(match.index);
      if (/^ignore: skipped\(/.test(rest)) used++;
      else wrong.push(`${file}:${line}: ${rest.split("\n")[0]}`);
    }
  }
  assert.deepEqual(wrong, [], "an ignore that is not skipped() of a group in tests/skips.ts");
  assert.ok(used >= 10, `${used} uses of skipped()`);
});
