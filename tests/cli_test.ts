/** The command tree as a user meets it: help, version, and the exit codes of bad invocations. */
import assert from "node:assert/strict";
import { voicebot } from "./helpers.ts";
import meta from "../deno.json" with { type: "json" };

Deno.test("--version prints the version from deno.json", async () => {
  const run = await voicebot(["--version"]);
  assert.equal(run.code, 0);
  assert.equal(run.stdout.trim(), meta.version);
});

for (
  const command of [[], ["init"], ["cloud"], ["cloud", "serve"], ["cloud", "secrets", "set"]]
) {
  Deno.test(`\`voicebot ${[...command, "--help"].join(" ")}\` shows usage and exits 0`, async () => {
    const run = await voicebot([...command, "--help"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /USAGE:/);
    // --verbose works on every command, so every --help lists it.
    assert.match(run.stdout, /^ +--verbose +Show the details of an unexpected error$/m);
    assert.equal(run.stderr, "");
  });
}

Deno.test("`voicebot --help` lists the commands, not the CLI itself, and --verbose", async () => {
  const run = await voicebot(["--help"]);
  assert.match(run.stdout, /^COMMANDS:\n {2}init /m);
  assert.doesNotMatch(run.stdout, /\[voicebot\]/);
  assert.match(run.stdout, /^ {2}--verbose /m);
});

for (const group of [["cloud"], ["cloud", "auth"], ["cloud", "secrets"]]) {
  const path = ["voicebot", ...group].join(" ");
  Deno.test(`\`${path} --help\` shows its own path in its usage line`, async () => {
    const run = await voicebot([...group, "--help"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^USAGE:\n {2}${path} COMMAND \\[OPTIONS\\]$`, "m"));
    // and its subcommands' help below it, once each
    assert.doesNotMatch(run.stdout, new RegExp(`${path} ${group.at(-1)} `));
  });
}

Deno.test("init --help documents every scaffold option", async () => {
  const run = await voicebot(["init", "--help"]);
  for (
    const option of [
      "--name",
      "--bot-type",
      "--transport",
      "--mode",
      "--stt",
      "--llm",
      "--tts",
      "--realtime",
      "--video",
      "--client-framework",
      "--client-server",
      "--daily-pstn-mode",
      "--twilio-daily-sip-mode",
      "--[no-]recording",
      "--[no-]transcription",
      "--[no-]video-input",
      "--[no-]video-output",
      "--[no-]deploy-to-cloud",
      "--[no-]enable-denoise",
      "--[no-]observability",
      "--[no-]eval",
      "--config",
      "--dry-run",
      "--list-options",
      "--overwrite-guide",
    ]
  ) {
    assert.ok(run.stdout.includes(option), `${option} missing from help`);
  }
});

Deno.test("usage errors exit 2 with the problem and a hint", async () => {
  for (
    const [args, message] of [
      [["init", "--bogus"], /unknown option --bogus/],
      [["nope"], /unknown command "nope"/],
      [[], /no command given/],
      [["init", "a", "b"], /unexpected argument: b/],
    ] as const
  ) {
    const run = await voicebot(args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.match(run.stderr, /hint: /);
    assert.equal(run.stdout, "");
  }
});

Deno.test("a typo gets the nearest option, command, service or transport, and a hint that fits", async () => {
  for (
    const [args, suggestion, hint] of [
      [
        ["init", "x", "--transprot", "lightweb"],
        /unknown option --transprot; did you mean "--transport"\?/,
        /run `voicebot init --help` to see its options/,
      ],
      [
        ["clod"],
        /unknown command "clod"; did you mean "cloud"\?/,
        /run `voicebot --help` to see the commands/,
      ],
      [
        ["cloud", "secrest"],
        /unknown command "secrest"; did you mean "secrets"\?/,
        /run `voicebot cloud --help` to see the commands/,
      ],
      [
        ["init", "x", "-t", "lightwbe", "-m", "realtime", "--realtime", "openai_realtim"],
        /unknown transport "lightwbe"; did you mean "lightweb"\?[\s\S]*unknown realtime service "openai_realtim"; did you mean "openai_realtime"\?/,
        /--list-options/,
      ],
      [
        [
          "init",
          "x",
          "-t",
          "lightweb",
          "-m",
          "cascade",
          "--stt",
          "deepgram",
          "--llm",
          "openai",
          "--tts",
          "cartesia_tts",
        ],
        /"deepgram"; did you mean "deepgram_stt"\?[\s\S]*"openai"; did you mean "openai_llm"\?/,
        /--list-options/,
      ],
      // A bad project name has nothing to do with the catalog: no --list-options hint.
      [
        [
          "init",
          "x",
          "--name",
          "My Bot",
          "-t",
          "lightweb",
          "-m",
          "realtime",
          "--realtime",
          "openai_realtime",
        ],
        /not a valid project name/,
        /hint: `voicebot init --help` describes every option/,
      ],
    ] as const
  ) {
    const run = await voicebot(args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, suggestion);
    assert.match(run.stderr, hint);
  }
});
