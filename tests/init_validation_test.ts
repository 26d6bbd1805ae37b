/**
 * Every validation rule of `voicebot init`, alone: each case breaks exactly one rule, so it must
 * exit 2 with exactly that problem and write nothing. Removing a rule from src/init/config.ts
 * makes its case succeed, and fail here. Then every problem at once: several broken together are
 * all named in one run.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import fc from "fast-check";
import { exists, tempDir, voicebot } from "./helpers.ts";
import { cases, expectedKeys, flagsOf, inputOf, keyOfLine } from "./init_fields_model.ts";

const CASCADE = ["-m", "cascade", "--stt", "deepgram_stt", "--llm", "openai_llm"];
const TTS = ["--tts", "cartesia_tts"];
const WEB = ["-t", "lightweb", ...CASCADE, ...TTS];
const PHONE = ["-t", "carrier1", ...CASCADE, ...TTS];

/** [the rule, the arguments that break it (TARGET_DIR is added), the one problem it reports] */
const RULES: [string, string[], string][] = [
  ["a project name fits a set name", ["--name", "a".repeat(56), ...WEB], "at most 55"],
  ["a project name packaging accepts", ["--name", "My Bot", ...WEB], "not a valid project name"],
  [
    "a project name has no separator at its end",
    ["--name", "bot-", ...WEB],
    "not a valid project name",
  ],
  ["a transport is required", [...CASCADE, ...TTS], "--transport (transports): required"],
  ["a transport is known", ["-t", "pigeon", ...CASCADE, ...TTS], 'unknown transport "pigeon"'],
  [
    "hosted_pstn needs its direction",
    ["-t", "hosted_pstn", ...CASCADE, ...TTS],
    "--daily-pstn-mode (daily_pstn_mode): required with transport hosted_pstn",
  ],
  [
    "carrier1_hosted_sip needs its direction",
    ["-t", "carrier1_hosted_sip", ...CASCADE, ...TTS],
    "--twilio-daily-sip-mode (twilio_daily_sip_mode): required with transport carrier1_hosted_sip",
  ],
  [
    "a direction is dial-in or dial-out",
    ["-t", "hosted_pstn_dialin", "--daily-pstn-mode", "sideways", ...CASCADE, ...TTS],
    '--daily-pstn-mode (daily_pstn_mode): invalid value "sideways"',
  ],
  [
    "PSTN is dial-in or dial-out in one project, not both",
    ["-t", "hosted_pstn_dialin", "-t", "hosted_pstn_dialout", ...CASCADE, ...TTS],
    "hosted_pstn is either dial-in or dial-out in one project, not both",
  ],
  [
    "SIP is dial-in or dial-out in one project, not both",
    ["-t", "carrier1_hosted_sip_dialin", "-t", "carrier1_hosted_sip_dialout", ...CASCADE, ...TTS],
    "carrier1_hosted_sip is either dial-in or dial-out in one project, not both",
  ],
  [
    "--daily-pstn-mode needs hosted_pstn",
    ["--daily-pstn-mode", "dial-in", ...PHONE],
    "--daily-pstn-mode (daily_pstn_mode): only with transport hosted_pstn",
  ],
  [
    "--twilio-daily-sip-mode needs carrier1_hosted_sip",
    ["--twilio-daily-sip-mode", "dial-out", ...PHONE],
    "--twilio-daily-sip-mode (twilio_daily_sip_mode): only with transport carrier1_hosted_sip",
  ],
  [
    "a PSTN direction agrees with the transport",
    ["-t", "hosted_pstn_dialin", "--daily-pstn-mode", "dial-out", ...CASCADE, ...TTS],
    '"dial-out" contradicts transport hosted_pstn_dialin',
  ],
  [
    "a SIP direction agrees with the transport",
    ["-t", "carrier1_hosted_sip_dialout", "--twilio-daily-sip-mode", "dial-in", ...CASCADE, ...TTS],
    '"dial-in" contradicts transport carrier1_hosted_sip_dialout',
  ],
  ["a bot type is web or telephony", ["-b", "kiosk", ...WEB], 'invalid value "kiosk"'],
  [
    "a web bot takes no phone line",
    ["-b", "web", ...PHONE],
    "a web bot cannot use the telephony transport carrier1",
  ],
  [
    "a telephony bot has a telephony transport",
    ["-b", "telephony", ...WEB],
    "a telephony bot needs a telephony transport",
  ],
  ["a mode is required", ["-t", "lightweb"], "--mode (mode): required"],
  ["a mode is cascade or realtime", ["-t", "lightweb", "-m", "hybrid"], 'invalid value "hybrid"'],
  [
    "cascade needs --stt",
    ["-t", "lightweb", "-m", "cascade", "--llm", "openai_llm", ...TTS],
    "--stt (stt_service): required in cascade mode",
  ],
  [
    "cascade needs --llm",
    ["-t", "lightweb", "-m", "cascade", "--stt", "deepgram_stt", ...TTS],
    "--llm (llm_service): required in cascade mode",
  ],
  [
    "cascade needs --tts",
    ["-t", "lightweb", ...CASCADE],
    "--tts (tts_service): required in cascade mode",
  ],
  [
    "cascade takes no --realtime",
    [...WEB, "--realtime", "openai_realtime"],
    "--realtime (realtime_service): only in realtime mode",
  ],
  [
    "realtime needs --realtime",
    ["-t", "lightweb", "-m", "realtime"],
    "--realtime (realtime_service): required in realtime mode",
  ],
  [
    "realtime takes no cascade service",
    ["-t", "lightweb", "-m", "realtime", "--realtime", "openai_realtime", ...TTS],
    "--tts (tts_service): only in cascade mode",
  ],
  [
    "a service is known",
    ["-t", "lightweb", "-m", "cascade", "--stt", "nope_stt", "--llm", "openai_llm", ...TTS],
    'unknown speech-to-text service "nope_stt"',
  ],
  [
    "a service is of its kind",
    ["-t", "lightweb", "-m", "cascade", "--stt", "deepgram_stt", "--llm", "cartesia_tts", ...TTS],
    '"cartesia_tts" is a text-to-speech service, not a language-model one',
  ],
  [
    "an avatar is for web bots",
    [...PHONE, "--video", "tavus_video"],
    "--video (video_service): for web bots only",
  ],
  [
    "video input is for web bots",
    [...PHONE, "--video-input"],
    "--video-input (video_input): for web bots only",
  ],
  [
    "video output is for web bots",
    [...PHONE, "--video-output"],
    "--video-output (video_output): for web bots only",
  ],
  [
    "a client is for web bots",
    [...PHONE, "--client-framework", "vanilla"],
    "--client-framework (client_framework): for web bots only",
  ],
  [
    "a client framework is known",
    [...WEB, "--client-framework", "svelte"],
    '--client-framework (client_framework): invalid value "svelte"',
  ],
  [
    "a client server is known",
    [...WEB, "--client-framework", "uilib", "--client-server", "webpack"],
    '--client-server (client_server): invalid value "webpack"',
  ],
  [
    "a client server is for the uilib client",
    [...WEB, "--client-framework", "vanilla", "--client-server", "devserver_b"],
    "--client-server (client_server): only with --client-framework uilib",
  ],
  [
    "no client server without a client",
    [...WEB, "--client-server", "devserver_a"],
    "--client-server (client_server): only with --client-framework uilib",
  ],
  [
    "an avatar renders video",
    [...WEB, "--video", "tavus_video", "--no-video-output"],
    "--video tavus_video renders video; drop --no-video-output",
  ],
  [
    "the websocket shares no bot with a carrier, whose calls bring no token",
    ["-t", "websocket", ...PHONE],
    "--transport (transports): websocket cannot share a bot with carrier1",
  ],
  [
    "video needs a transport that carries it, which the websocket alone is not",
    ["-t", "websocket", ...CASCADE, ...TTS, "--video-output"],
    "--video-output (video_output): needs a transport that carries video",
  ],
  [
    "noise cancellation needs the cloud",
    [...WEB, "--enable-denoise", "--no-deploy-to-cloud"],
    "--enable-denoise (enable_denoise): needs cloud deployment",
  ],
];

/**
 * What Pipecat's scaffolder accepts but no service of the bot acts on: [the case, its arguments,
 * the one warning]. Accepted (exit 0), with exactly that warning on stderr.
 */
const WARNINGS: [string, string[], string][] = [
  [
    "a cascade pipeline takes the camera, and no service sees it",
    [...WEB, "--video-input"],
    "warning: --video-input (video_input): the camera's frames reach no service of a cascade pipeline",
  ],
  [
    "a realtime model that drops the camera's frames never sees it",
    ["-t", "lightweb", "-m", "realtime", "--realtime", "ultravox_realtime", "--video-input"],
    "warning: --video-input (video_input): ultravox_realtime drops the camera's frames",
  ],
  [
    "video beside the websocket goes over the other transport only",
    ["-t", "websocket", "-t", "lightweb", ...CASCADE, ...TTS, "--video-output"],
    "warning: --video-output (video_output): video goes over lightweb only",
  ],
];

for (const [rule, args, expected] of WARNINGS) {
  Deno.test(`validation warning: ${rule}`, async () => {
    await using dir = await tempDir();
    const run = await voicebot(["init", "bot", ...args, "--dry-run"], { cwd: dir.path });
    assert.equal(run.code, 0, run.stderr);
    const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning: "));
    assert.equal(warnings.length, 1, run.stderr);
    assert.ok(warnings[0].startsWith(expected), `expected "${expected}" in:\n${run.stderr}`);
    // Made as asked: the warned-of choice is in the configuration.
    assert.equal(JSON.parse(run.stdout)[/\((\w+)\)/.exec(expected)![1]], true);
  });
}

Deno.test("validation warning: none where the camera reaches a model, or is not taken", async () => {
  for (
    const args of [
      ["-t", "lightweb", "-m", "realtime", "--realtime", "gemini_live_realtime", "--video-input"],
      ["-t", "lightweb", "-m", "realtime", "--realtime", "ultravox_realtime"],
      WEB,
    ]
  ) {
    const run = await voicebot(["init", "bot", ...args, "--dry-run"]);
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /warning/, args.join(" "));
  }
});

for (const [rule, args, expected] of RULES) {
  Deno.test(`validation rule: ${rule}`, async () => {
    await using dir = await tempDir();
    const run = await voicebot(["init", "bot", ...args], { cwd: dir.path });
    assert.equal(run.code, 2, `exit ${run.code}:\n${run.stderr}`);
    const problems = run.stderr.split("\n").filter((line) => line.startsWith("  - "));
    assert.equal(problems.length, 1, run.stderr);
    assert.ok(problems[0].includes(expected), `expected "${expected}" in:\n${run.stderr}`);
    assert.equal(run.stdout, "");
    assert.equal(await exists(join(dir.path, "bot")), false, "nothing may be written");
  });
}

// ---------------------------------------------------------------------------------------------
// Every problem in one run: whatever is given, the run names every missing or invalid field, so no
// problem shows up only after the others are fixed.

/**
 * The fields a failed run names: each problem line up to its first ": " (a flag and its key, or a
 * config file's name).
 */
function fieldsNamed(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("  - "))
    .map((line) => line.slice(4).split(": ")[0]).sort();
}

/** Runs init in a fresh directory; it must exit 2, write nothing, and name exactly `fields`. */
async function assertNames(
  args: string[],
  fields: string[],
  setup?: (dir: string) => Promise<void>,
): Promise<string> {
  await using dir = await tempDir();
  await setup?.(dir.path);
  const run = await voicebot(["init", "bot", ...args], { cwd: dir.path });
  assert.equal(run.code, 2, `exit ${run.code}:\n${run.stderr}`);
  assert.equal(run.stdout, "");
  assert.deepEqual(fieldsNamed(run.stderr), [...fields].sort(), run.stderr);
  assert.equal(await exists(join(dir.path, "bot")), false, "nothing may be written");
  return run.stderr;
}

const F = {
  transport: "--transport (transports)",
  mode: "--mode (mode)",
  stt: "--stt (stt_service)",
  llm: "--llm (llm_service)",
  tts: "--tts (tts_service)",
  realtime: "--realtime (realtime_service)",
  videoInput: "--video-input (video_input)",
  recording: "--recording (recording)",
};

Deno.test("one run: a transport alone names the mode, with what each mode takes", async () => {
  const stderr = await assertNames(["-t", "lightweb"], [F.mode]);
  assert.match(stderr, /cascade \(with --stt, --llm and --tts\) or realtime \(with --realtime\)/);
});

Deno.test("one run: transport and --stt name the mode and the cascade services still missing", async () => {
  const stderr = await assertNames(["-t", "lightweb", "--stt", "deepgram_stt"], [
    F.mode,
    F.llm,
    F.tts,
  ]);
  assert.match(stderr, /--stt is for cascade mode: add --mode cascade/);
  assert.match(stderr, /^error: 3 options missing or invalid; nothing was written\.$/m);
});

Deno.test("one run: no transport, two cascade services: transport, mode and the third service", async () => {
  await assertNames(["--llm", "openai_llm", "--tts", "cartesia_tts"], [F.transport, F.mode, F.stt]);
});

Deno.test("one run: a realtime service alone implies realtime mode, and lacks only the mode", async () => {
  const stderr = await assertNames(["-t", "hosted", "--realtime", "openai_realtime"], [F.mode]);
  assert.match(stderr, /--realtime is for realtime mode: add --mode realtime/);
});

Deno.test("one run: a realtime service mixed with cascade ones says what each mode would need", async () => {
  const stderr = await assertNames([
    "-t",
    "lightweb",
    "--realtime",
    "openai_realtime",
    "--stt",
    "deepgram_stt",
  ], [F.mode]);
  assert.match(
    stderr,
    /cascade \(with --stt, --llm and --tts, so add --llm and --tts; drop --realtime\) or realtime \(with --realtime alone; drop --stt\)/,
  );
});

Deno.test("one run: invalid values, missing fields and an option with its negation together", async () => {
  const stderr = await assertNames(
    ["-t", "pigeon", "-m", "cascde", "--stt", "nope_stt", "--video-output", "--no-video-output"],
    [F.transport, F.mode, F.stt, F.llm, F.tts, "--video-output and --no-video-output"],
  );
  assert.match(
    stderr,
    /--video-output and --no-video-output: they contradict each other; give one/,
  );
  assert.match(stderr, /did you mean "cascade"\?/);
  assert.match(stderr, /unknown transport "pigeon"/);
  assert.match(stderr, /unknown speech-to-text service "nope_stt"/);
});

Deno.test("one run: a config file and flags, each with its problems", async () => {
  const stderr = await assertNames(
    ["-c", "bot.json", "--tts", "nope_tts"],
    ["bot.json", F.mode, F.llm, F.tts],
    (dir) =>
      Deno.writeTextFile(
        join(dir, "bot.json"),
        JSON.stringify({ transport: ["lightweb"], stt: "deepgram_stt", recording: "yes" }),
      ),
  );
  assert.match(stderr, /bot\.json: "recording": expected true or false/);
  assert.match(stderr, /unknown text-to-speech service "nope_tts"/);
});

Deno.test("one run: a key the file gives with the wrong type is not also called missing", async () => {
  const stderr = await assertNames(
    ["-c", "bot.json", "-t", "lightweb"],
    ["bot.json", F.llm, F.tts],
    (dir) =>
      Deno.writeTextFile(join(dir, "bot.json"), '{"mode": 3, "stt_service": "deepgram_stt"}'),
  );
  assert.match(stderr, /bot\.json: "mode": expected a string, got number 3/);
});

Deno.test("one run: a config file that cannot be read is named with the flags' own problems, and nothing called missing that it might give", async () => {
  await assertNames(["-c", "nope.json", "--stt", "nope_stt"], ["--config", F.stt]);
  await assertNames(
    ["-c", "bot.json", "-m", "hybrid"],
    ["bot.json", F.mode],
    (dir) => Deno.writeTextFile(join(dir, "bot.json"), "{ not json"),
  );
});

Deno.test("one run: an unexpected argument and flags that disagree join the option problems", async () => {
  const stderr = await assertNames(
    ["extra", "-t", "lightweb", "--enable-denoise", "--no-enable-krisp"],
    ["unexpected argument", "--enable-denoise and --enable-krisp", F.mode],
  );
  assert.match(stderr, /unexpected argument: extra \(init takes one directory/);
});

Deno.test("the coding-agent path without a directory: a dry run is refused as the real run is", async () => {
  await using dir = await tempDir();
  const real = await voicebot(["init"], { cwd: dir.path });
  const dryRun = await voicebot(["init", "--dry-run"], { cwd: dir.path });
  assert.equal(real.code, 2, real.stderr);
  assert.match(real.stderr, /^error: no target directory\.$/m);
  assert.deepEqual(dryRun, real);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(dir.path)), []);
});

Deno.test("one run, property: break a valid configuration given as flags anyhow, and one run names every break", async () => {
  await fc.assert(
    fc.asyncProperty(cases, async (found) => {
      const expected = expectedKeys(found);
      await using dir = await tempDir();
      const flags = flagsOf(inputOf(found));
      const run = await voicebot(["init", "bot", ...flags], { cwd: dir.path });
      if (flags.length === 0) {
        // Every key dropped: no option given at all is the coding-agent path, which needs none.
        assert.equal(run.code, 0, run.stderr);
        assert.ok(await exists(join(dir.path, "bot", "AGENTS.md")), run.stderr);
        return;
      }
      if (expected.length === 0) {
        assert.equal(run.code, 0, run.stderr);
        return;
      }
      assert.equal(run.code, 2, run.stderr);
      const lines = run.stderr.split("\n").filter((line) => line.startsWith("  - "));
      const named = [...new Set(lines.map(keyOfLine))].sort();
      assert.deepEqual(named, expected, run.stderr);
    }),
    { numRuns: 12 },
  );
});
