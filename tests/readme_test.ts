/**
 * The README and the reference pages it links to (docs/*.md) say what works, as written: the
 * README's set-up commands and its install of a release binary, pasted into bash against a release
 * served on loopback; the completion installs of docs/cli.md; and what docs/serve.md shows
 * `--database` is a value the command accepts. Neither the README, nor a docs page, nor any hint or
 * help text of the CLI tells anyone to type a value on a command line.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { hasPassword } from "../src/server/database_url.ts";
import { ENTRY, tempDir } from "./helpers.ts";
import { skipped } from "./skips.ts";

const read = (path: string) => Deno.readTextFile(new URL(`../${path}`, import.meta.url));
const README = await read("README.md");
/** The pages of docs/, by path (docs/API.md too). */
const PAGES: Record<string, string> = {};
for await (const entry of Deno.readDir(new URL("../docs/", import.meta.url))) {
  if (entry.name.endsWith(".md")) PAGES[`docs/${entry.name}`] = await read(`docs/${entry.name}`);
}

/** The lines of the README's ```sh blocks. */
const shLines = (text: string) =>
  [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((block) => block[1].split("\n"));

Deno.test("README: a front door under 15,000 bytes, with the set-up and install commands as written", () => {
  const size = new TextEncoder().encode(README).length;
  assert.ok(size < 15_000, `README.md is ${size} bytes`);
  const lines = shLines(README);
  // A fresh machine with Node and npm: each command alone on its line (.ci/run greps the second).
  const init = lines.find((line) =>
    /^npx --yes deno@[\d.]+ task -q voicebot init quickstart$/.test(line)
  );
  const test = lines.find((line) => /^npx --yes deno@[\d.]+ task test$/.test(line));
  assert.ok(init, "the README's set-up command that makes the quickstart");
  assert.ok(test, "the README's test command");
  assert.equal(init.split(" ")[2], test.split(" ")[2], "both pin the same Deno");
  // The npm package, before the other ways to get it.
  for (
    const command of ["npx --yes @voicebot/cli init quickstart", "npm install -g @voicebot/cli"]
  ) {
    assert.ok(lines.includes(command), command);
  }
  const order = ["**With Node and npm.**", "**A release binary**", "**From JSR", "**From source**"]
    .map((heading) => README.indexOf(heading));
  assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), `${order}`);
});

/** Runs `script` with bash -e in `home` (also its HOME and cwd), with `env` and a short PATH. */
async function bash(script: string, home: string, env: Record<string, string> = {}) {
  const output = await new Deno.Command("bash", {
    args: ["-e", "-c", script],
    cwd: home,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { HOME: home, PATH: `${home}/.local/bin:/usr/local/bin:/usr/bin:/bin`, ...env },
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test({
  name: "README: the release-binary install runs as written, into a HOME with no ~/.local/bin",
  ignore: skipped("release-install"),
  fn: async () => {
    const section = README.slice(README.indexOf("**A release binary**"));
    const block = section.match(/```sh\n([\s\S]*?)```/)?.[1];
    assert.ok(block, "the install block");
    // The release's files, as GitHub serves them: the binary (a stand-in) and SHA256SUMS.
    const binary = "#!/bin/sh\necho 'voicebot usage'\n";
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(binary));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    const files: Record<string, string> = {
      "/v0.1.0/voicebot-x86_64-unknown-linux-gnu": binary,
      "/v0.1.0/SHA256SUMS": `${"0".repeat(64)}  voicebot-aarch64-unknown-linux-gnu\n` +
        `${hex}  voicebot-x86_64-unknown-linux-gnu\n`,
    };
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => {
        const body = files[new URL(request.url).pathname];
        return body ? new Response(body) : new Response("not found", { status: 404 });
      },
    );
    await using home = await tempDir();
    const base = `http://127.0.0.1:${server.addr.port}/v0.1.0`;
    const result = await bash(block, home.path, { base });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /voicebot-x86_64-unknown-linux-gnu: OK/);
    assert.match(result.stdout, /voicebot usage/, "voicebot --help ran the installed binary");

    // Without `base`, the block stops at once rather than fetching from nowhere.
    await using other = await tempDir();
    const unset = await bash(block, other.path, { base: "" });
    assert.notEqual(unset.code, 0);
    assert.match(unset.stderr, /set base to/);
  },
});

/** The install command of `shell` from docs/cli.md's completions table. */
function completionInstall(shell: string): string {
  const row = PAGES["docs/cli.md"].split("\n").find((line) => line.startsWith(`| ${shell} `));
  const command = row?.split("|")[2].match(/`([^`]+)`/)?.[1];
  assert.ok(command, `the ${shell} row of docs/cli.md's completions table`);
  return command;
}

for (
  const [shell, file] of [
    ["bash", ".local/share/bash-completion/completions/voicebot"],
    ["fish", ".config/fish/completions/voicebot.fish"],
  ]
) {
  Deno.test(`docs/cli.md: the ${shell} completion install runs as written, in a fresh HOME`, async () => {
    await using home = await tempDir();
    // `voicebot` on the PATH is the CLI under test.
    await Deno.mkdir(join(home.path, ".local/bin"), { recursive: true });
    const shim = join(home.path, ".local/bin/voicebot");
    await Deno.writeTextFile(
      shim,
      `#!/bin/sh\nexec "${Deno.execPath()}" run -A --quiet "${ENTRY}" "$@"\n`,
    );
    await Deno.chmod(shim, 0o755);
    const result = await bash(completionInstall(shell), home.path, { NO_COLOR: "1" });
    assert.equal(result.code, 0, result.stderr);
    const script = await Deno.readTextFile(join(home.path, file));
    assert.match(script, /voicebot/);
  });
}

Deno.test("README and docs: what they show for --database is a value --database accepts", () => {
  const shown = (text: string) => [
    // the options table's row, and command lines that pass it
    ...text.split("\n").filter((line) => line.startsWith("| `--database`")),
    ...text.match(/--database[ =]\S+/g) ?? [],
  ];
  assert.ok(shown(PAGES["docs/serve.md"]).length > 0, "docs/serve.md shows --database");
  for (const [name, text] of [["README.md", README], ...Object.entries(PAGES)]) {
    for (const line of shown(text)) {
      for (const url of line.match(/postgres(ql)?:\/\/[^\s`|)]+/g) ?? []) {
        assert.ok(!hasPassword(url), `${name}: ${url} is refused by --database (ps shows it)`);
      }
    }
  }
});

/**
 * The `secrets set` and `secrets diff` command lines in `text` that put a value on the command line
 * (an argument `KEY=...`), where a shell's history, ps and `deno task` show it. A synopsis's
 * optional parts (`[KEY=value ...]`) describe the syntax, not a line to type: they are left out.
 */
function valuesOnCommandLines(text: string): string[] {
  const commands = text.match(/(?:\bsecrets|\.\.\.|:) (?:set|diff) [^`"'\n)#]*/g) ?? [];
  return commands.filter((command) =>
    /(?:^|\s)[A-Za-z_][A-Za-z0-9_]*=/.test(command.replace(/\[[^\]]*\]/g, ""))
  );
}

Deno.test("README and docs: no command they show puts a value where a shell, ps or deno task would show it", () => {
  for (const [name, text] of [["README.md", README], ...Object.entries(PAGES)]) {
    const commands = text.split("\n").filter((line) => /\bvoicebot\b/.test(line));
    // `deno task` echoes its arguments unless -q (values included).
    const echoed = commands.filter((line) => /\bdeno(@[\d.]+)? task (?!-q )voicebot\b/.test(line));
    assert.deepEqual(echoed, [], name);
    // Values go in with --file or stdin, never as KEY=value arguments of set or diff.
    assert.deepEqual(valuesOnCommandLines(text), [], name);
  }
  assert.ok(README.split("\n").some((line) => /task -q voicebot/.test(line)));
  assert.ok(README.match(/secrets set \S+ --file/), "the README shows set --file");
  assert.ok(PAGES["docs/secrets.md"].match(/secrets set \S+ --file/), "docs/secrets.md too");
});

Deno.test("the CLI's own hints and help never tell anyone to type a value on a command line", async () => {
  // Every string in src/ (hints, notes, help, the generated project's files in templates.gen.ts);
  // test files hold bad examples on purpose.
  const found: string[] = [];
  let scanned = 0;
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        const text = await Deno.readTextFile(url);
        scanned += (text.match(/secrets (?:set|diff) /g) ?? []).length;
        for (const line of valuesOnCommandLines(text)) found.push(`${url.pathname}: ${line}`);
      }
    }
  };
  await walk(new URL("../src/", import.meta.url));
  assert.ok(scanned > 10, `the scan sees the commands (${scanned})`);
  assert.deepEqual(found, []);
  // The rule itself, on the forms it must catch and the synopsis it must let through.
  assert.deepEqual(
    valuesOnCommandLines(
      "`voicebot cloud secrets set NAME KEY=value` (`... diff NAME A=1`) " +
        "(comes first: set NAME KEY=value) voicebot cloud secrets set bot --region=eu -f .env",
    ).length,
    3,
  );
  assert.deepEqual(valuesOnCommandLines("secrets set NAME [KEY=value ...] [-f FILE]"), []);
});
