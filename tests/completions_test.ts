/**
 * `voicebot completions <shell>`: each script is loaded by its shell, where installed, and asked
 * for completions as a TAB would. `voicebot` in the shell is a function running the CLI under test.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { ENTRY, tempDir, voicebot } from "./helpers.ts";

const BASH_COMPLETION = "/usr/share/bash-completion/bash_completion";
const VOICEBOT = `"${Deno.execPath()}" run -A --quiet "${ENTRY}"`;

/** How each shell loads `script` and completes `line` (the cursor at its end); prints candidates. */
const SHELLS: Record<
  string,
  { needs: string[]; program: (script: string, line: string) => string[] }
> = {
  bash: {
    needs: ["bash", BASH_COMPLETION],
    program: (script, line) => {
      const words = line.split(" ");
      return [
        "bash",
        "-c",
        [
          `voicebot() { ${VOICEBOT} "$@"; }`,
          `source ${BASH_COMPLETION}`,
          `source "${script}"`,
          `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")})`,
          `COMP_CWORD=${words.length - 1}`,
          `COMP_LINE='${line}'`,
          "COMP_POINT=${#COMP_LINE}",
          "__voicebot_complete 2>/dev/null",
          `printf '%s\\n' "\${COMPREPLY[@]}"`,
        ].join("\n"),
      ];
    },
  },
  zsh: {
    needs: ["zsh"],
    // Outside an interactive session, compdef and _describe are stand-ins that print.
    program: (script, line) => {
      const words = line.split(" ");
      return [
        "zsh",
        "-c",
        [
          `voicebot() { ${VOICEBOT} "$@"; }`,
          "compdef() { :; }",
          `_describe() { print -rl -- "\${completions[@]%%:*}"; }`,
          'compadd() { print -rl -- "$@"; }',
          `source "${script}"`,
          `words=(${words.map((w) => `'${w}'`).join(" ")})`,
          `CURRENT=${words.length}`,
          "_voicebot",
        ].join("\n"),
      ];
    },
  },
  fish: {
    needs: ["fish"],
    program: (script, line) => [
      "fish",
      "-c",
      [
        `function voicebot; ${VOICEBOT} $argv; end`,
        `source "${script}"`,
        `complete --do-complete '${line}'`,
      ].join("\n"),
    ],
  },
};

async function available(needs: string[]): Promise<boolean> {
  for (const need of needs) {
    const found = need.startsWith("/")
      ? await Deno.stat(need).then(() => true, () => false)
      : (await new Deno.Command("sh", { args: ["-c", `command -v ${need}`], stdout: "null" })
        .output()).success;
    if (!found) return false;
  }
  return true;
}

/** The candidates, without descriptions, that `shell` offers at the end of `line`. */
async function candidates(shell: string, script: string, line: string): Promise<string[]> {
  const [program, ...args] = SHELLS[shell].program(script, line);
  const output = await new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
    signal: AbortSignal.timeout(60_000),
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  return stdout.split("\n").map((candidate) => candidate.split("\t")[0].trim()).filter(Boolean);
}

for (const [shell, { needs }] of Object.entries(SHELLS)) {
  Deno.test({
    name: `${shell} completes commands, options and their values from the command tree`,
    ignore: !(await available(needs)),
    fn: async () => {
      await using dir = await tempDir();
      const generated = await voicebot(["completions", shell]);
      assert.equal(generated.code, 0, generated.stderr);
      const script = join(dir.path, `voicebot.${shell}`);
      await Deno.writeTextFile(script, generated.stdout);

      const commands = await candidates(shell, script, "voicebot ");
      for (const command of ["init", "cloud", "completions"]) {
        assert.ok(commands.includes(command), `${command} in ${commands}`);
      }
      assert.ok(!commands.includes("complete"), "the hidden command is not offered");

      const transports = await candidates(shell, script, "voicebot init --transport ");
      for (const transport of ["hosted", "lightweb", "carrier1_hosted_sip"]) {
        assert.ok(transports.includes(transport), `${transport} in ${transports}`);
      }

      const services = await candidates(shell, script, "voicebot init --stt deep");
      assert.ok(
        services.length > 1 && services.every((id) => id.startsWith("deep") && id.endsWith("_stt")),
        `${services}`,
      );

      const options = await candidates(shell, script, "voicebot cloud serve --da");
      assert.deepEqual(options, ["--database"]);
    },
  });
}

Deno.test("completions refuses an unknown shell with exit code 2", async () => {
  const run = await voicebot(["completions", "tcsh"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /unknown shell "tcsh"/);
});
