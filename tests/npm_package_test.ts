/**
 * The npm package, as a user with only Node and npm gets it: the tarball that `deno task npm`
 * writes, installed into a fresh npm prefix, and the README's journey run through the installed
 * `voicebot` with no Deno on the PATH. Runs when VOICEBOT_TEST_NPM_TARBALL names the tarball
 * (.ci/run builds it and sets it).
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { spawnServer, tempDir } from "./helpers_server.ts";
import { pinnedDeno, skipped } from "./skips.ts";
import { VERSION } from "../src/version.ts";
import { installNpmPackage } from "../scripts/npm_package.ts";
import { V8_FLAGS } from "../scripts/v8_flags.ts";

const TARBALL = Deno.env.get("VOICEBOT_TEST_NPM_TARBALL");
const ROOT = new URL("..", import.meta.url).pathname;
const decoder = new TextDecoder();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` with a bound, so that a hung install or CLI fails its test. */
async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): Promise<Ran> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(180_000),
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Where `program` is on this machine's PATH. */
async function whereIs(program: string): Promise<string> {
  const found = await run("sh", ["-c", `command -v ${program}`]);
  assert.equal(found.code, 0, `${program} is on the PATH`);
  return found.stdout.trim();
}

/**
 * What the journey runs besides the installed `voicebot`: `sh` (for `command -v`) and `node` (the
 * launcher when install scripts are skipped). Nothing else, so no Deno: a machine's own `deno`
 * (`npm install -g deno` puts one in /usr/bin) can sit beside any of them.
 */
const TOOLS = ["sh", "node"];

/**
 * A PATH with the installed `voicebot` and a directory of links to exactly TOOLS, made in
 * `prefix`: with no Deno on it, whatever this machine has in /usr/bin or /bin.
 */
async function pathWithoutDeno(prefix: string): Promise<string> {
  const tools = join(prefix, "tools");
  await Deno.mkdir(tools);
  for (const tool of TOOLS) await Deno.symlink(await whereIs(tool), join(tools, tool));
  const dirs = [join(prefix, "bin"), tools];
  for (const dir of dirs) {
    const deno = await Deno.stat(join(dir, "deno")).catch(() => undefined);
    assert.equal(deno, undefined, `no deno in ${dir}`);
  }
  return dirs.join(":");
}

Deno.test({
  name:
    "npm package: installed into a fresh prefix, the README's journey runs with no Deno on PATH",
  ignore: skipped("npm"),
  sanitizeResources: false,
  fn: async () => {
    await using prefix = await tempDir();
    await using home = await tempDir();
    const command = await installNpmPackage(TARBALL!, prefix.path);
    // The install step made the command a shell script that starts Deno once, not Node and then
    // Deno (what `deno task bench` measures).
    const script = await Deno.readTextFile(command);
    assert.match(script, /^#!\/bin\/sh\n[\s\S]*exec "\$deno" run -A/);
    const exec = script.split("\n").find((line) => line.startsWith("exec "))!;
    for (const flag of V8_FLAGS) assert.ok(exec.split(" ").includes(flag), exec);

    const env = {
      PATH: await pathWithoutDeno(prefix.path),
      HOME: home.path,
      NO_COLOR: "1",
    };
    const voicebot = (args: string[], stdin?: string) =>
      run("voicebot", args, { cwd: home.path, env, stdin });
    assert.equal((await run("sh", ["-c", "command -v deno"], { env })).code, 127, "no deno");

    const version = await voicebot(["--version"]);
    assert.equal(version.stdout.trim(), VERSION);

    const init = await voicebot(["init", "quickstart"]);
    assert.equal(init.code, 0, init.stderr);
    const bot = join(home.path, "voicebot-quickstart");
    assert.ok((await Deno.stat(join(bot, "server/bot.py"))).isFile, "server/bot.py");

    await using server = await spawnServer(join(home.path, "voicebot.db"), {
      cli: [command],
      env: { PATH: env.PATH },
    });
    assert.ok(server.bootstrapKey, "a new database prints its first key");
    const login = await voicebot(
      ["cloud", "auth", "login", "--api-url", server.baseUrl],
      `${server.bootstrapKey}\n`,
    );
    assert.equal(login.code, 0, login.stderr);

    const value = "sk-npm-journey-0123456789";
    await Deno.writeTextFile(join(bot, "server/.env"), `OPENAI_API_KEY=${value}\n`);
    const set = await voicebot([
      "cloud",
      "secrets",
      "set",
      "my-bot-secrets",
      "--file",
      join(bot, "server/.env"),
    ]);
    assert.equal(set.code, 0, set.stderr);
    const list = await voicebot(["cloud", "secrets", "list", "--json"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /"my-bot-secrets"/);
    const status = await voicebot(["cloud", "auth", "status"]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /default/, "the organization the key belongs to");
    for (const ran of [login, set, list, status]) {
      assert.doesNotMatch(ran.stdout + ran.stderr, new RegExp(`${value}|${server.bootstrapKey}`));
    }
  },
});

Deno.test({
  name: "npm package: installed with scripts skipped, the Node launcher runs the CLI",
  ignore: skipped("npm"),
  fn: async () => {
    await using prefix = await tempDir();
    await using home = await tempDir();
    const command = await installNpmPackage(TARBALL!, prefix.path, "--ignore-scripts");
    assert.match(await Deno.readTextFile(command), /^#!\/usr\/bin\/env node\n/);
    const env = { PATH: await pathWithoutDeno(prefix.path), HOME: home.path, NO_COLOR: "1" };
    const help = await run("voicebot", ["--help"], { cwd: home.path, env });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /\binit\b/);
    // Exit codes come through the launcher: an unknown option is a usage error (2).
    const wrong = await run("voicebot", ["init", "--no-such-option"], { cwd: home.path, env });
    assert.equal(wrong.code, 2, wrong.stderr);
  },
});

Deno.test({
  name: "npm package: `npx --package <tarball> voicebot` runs it, as `npx @voicebot/cli` would",
  ignore: skipped("npm"),
  fn: async () => {
    await using home = await tempDir();
    const npx = await run("npx", [
      "--yes",
      "--prefer-offline",
      "--package",
      TARBALL!,
      "--",
      "voicebot",
      "init",
      "quickstart",
      "--dry-run",
    ], { cwd: home.path });
    assert.equal(npx.code, 0, npx.stderr);
    assert.match(npx.stdout, /"project_name": "voicebot-quickstart"/);
  },
});

Deno.test({
  name: "npm package: its manifest, what it ships, and npm publish --dry-run",
  ignore: skipped("npm"),
  fn: async () => {
    const listed = await run("tar", ["-tzf", TARBALL!]);
    assert.equal(listed.code, 0, listed.stderr);
    const files = listed.stdout.trim().split("\n").map((file) => file.replace(/^package\//, ""));
    for (
      const file of ["package.json", "README.md", "LICENSE", "bin/voicebot", "bundle/voicebot.js"]
    ) {
      assert.ok(files.includes(file), `ships ${file}`);
    }
    // Every relative link of the README resolves inside the package.
    const readme = await Deno.readTextFile(`${ROOT}README.md`);
    for (const [, link] of readme.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)) {
      assert.ok(files.includes(link), `the README's link ${link} ships`);
    }
    const manifest = JSON.parse(
      (await run("tar", ["-xzOf", TARBALL!, "package/package.json"])).stdout,
    );
    assert.deepEqual(manifest.bin, { voicebot: "bin/voicebot" });
    // The one dependency: the Deno that the README's commands pin, which built the bundle.
    assert.deepEqual(manifest.dependencies, { deno: pinnedDeno() });

    const dryRun = await run("npm", ["publish", "--dry-run", TARBALL!]);
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.match(dryRun.stderr + dryRun.stdout, /@voicebot\/cli@\d+\.\d+\.\d+/);
  },
});
