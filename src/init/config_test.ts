import assert from "node:assert/strict";
import fc from "fast-check";
import {
  lowerName,
  projectNameProblem,
  resolveConfig,
  type ScaffoldInput,
  suggestProjectName,
} from "./config.ts";
import { BASES, cases, expectedKeys, inputOf } from "../../tests/init_fields_model.ts";

Deno.test("resolveConfig: every base of the model is valid", () => {
  for (const base of BASES) assert.deepEqual(resolveConfig(base, "bot").problems, [], `${base}`);
});

Deno.test("resolveConfig: one run names every dropped required key and every invalid one, nothing else", () => {
  fc.assert(
    fc.property(cases, (found) => {
      const { problems } = resolveConfig(inputOf(found), "bot");
      const named = [...new Set(problems.map((p) => p.key))].sort();
      assert.deepEqual(named, expectedKeys(found), JSON.stringify(inputOf(found)));
    }),
    { numRuns: 500 },
  );
});

Deno.test("resolveConfig: a missing mode names what each mode takes, measured against the services given", () => {
  const modeLine = (input: Parameters<typeof resolveConfig>[0]) =>
    resolveConfig({ transports: ["lightweb"], ...input }, "bot").problems
      .find((p) => p.key === "mode")?.message;
  assert.equal(
    modeLine({}),
    "required; cascade (with --stt, --llm and --tts) or realtime (with --realtime)",
  );
  assert.equal(
    modeLine({ stt_service: "deepgram_stt", tts_service: "nope" }),
    "required; one of: cascade, realtime; --stt and --tts are for cascade mode: add --mode cascade",
  );
  assert.equal(
    modeLine({ realtime_service: "openai_realtime" }),
    "required; one of: cascade, realtime; --realtime is for realtime mode: add --mode realtime",
  );
  assert.equal(
    modeLine({ realtime_service: "openai_realtime", llm_service: "openai_llm" }),
    "required; the services given are of both modes; choose one: cascade (with --stt, --llm and --tts, so add --stt and --tts; drop --realtime) or realtime (with --realtime alone; drop --llm)",
  );
  assert.equal(
    modeLine({ mode: "cascde", llm_service: "openai_llm" }),
    'invalid value "cascde"; did you mean "cascade"? one of: cascade, realtime; --llm is for cascade mode: add --mode cascade',
  );
});

Deno.test("resolveConfig: only problems of keys not given are marked missing", () => {
  const { problems } = resolveConfig({ stt_service: "nope_stt", bot_type: "kiosk" }, "bot");
  assert.deepEqual(
    problems.filter((p) => p.missing).map((p) => p.key).sort(),
    ["llm_service", "mode", "transports", "tts_service"],
  );
  assert.deepEqual(
    problems.filter((p) => !p.missing).map((p) => p.key).sort(),
    ["bot_type", "stt_service"],
  );
});

Deno.test("resolveConfig: the camera where no model sees it is accepted with one warning; elsewhere none", () => {
  const web = { transports: ["lightweb"], project_name: "bot" };
  const cascade = {
    ...web,
    mode: "cascade",
    stt_service: "deepgram_stt",
    llm_service: "openai_llm",
    tts_service: "cartesia_tts",
  };
  const realtime = (id: string) => ({ ...web, mode: "realtime", realtime_service: id });
  const warned = (input: Parameters<typeof resolveConfig>[0]) => {
    const { config, problems, warnings } = resolveConfig(input, "bot");
    assert.deepEqual(problems, []);
    assert.ok(config);
    return warnings.map((w) => `${w.field}: ${w.message}`);
  };
  const [cascadeWarning] = warned({ ...cascade, video_input: true });
  assert.match(
    cascadeWarning,
    /^--video-input \(video_input\): the camera's frames reach no service/,
  );
  assert.match(cascadeWarning, /--mode realtime with one of: .*gemini_live_realtime/);
  assert.equal(warned({ ...cascade, video_input: true }).length, 1);
  const [dropped] = warned({ ...realtime("ultravox_realtime"), video_input: true });
  assert.match(dropped, /ultravox_realtime drops the camera's frames in Pipecat 1\.7\.0/);
  // Nothing would differ: no camera, or a model that takes it.
  assert.deepEqual(warned(cascade), []);
  assert.deepEqual(warned({ ...cascade, video_input: false }), []);
  assert.deepEqual(warned(realtime("ultravox_realtime")), []);
  assert.deepEqual(warned({ ...realtime("gemini_live_realtime"), video_input: true }), []);
  // A telephony bot's camera stays a problem, as in Pipecat's scaffolder.
  const phone = resolveConfig({ ...cascade, transports: ["carrier1"], video_input: true }, "bot");
  assert.deepEqual(phone.problems.map((p) => p.key), ["video_input"]);
});

Deno.test("projectNameProblem: letters of either case and digits, joined by one separator; lowerName for the rest", () => {
  for (const name of ["my-bot", "My-Bot", "MYBOT", "Bot.v2", "a_b", "a__b", "a--b", "x1"]) {
    assert.equal(projectNameProblem(name), undefined, name);
  }
  for (const name of ["My Bot", "-bot", "bot_", "a._b", "b!t", "ünï", ""]) {
    assert.match(
      projectNameProblem(name) ?? "",
      /not a valid project name: use letters and digits/,
    );
  }
  assert.match(
    projectNameProblem("a".repeat(56))!,
    /is too long: at most 55 characters, e\.g\. "a{55}"$/,
  );
  assert.equal(lowerName("My-Bot.V2"), "my-bot.v2");
});

Deno.test("suggestProjectName: a valid name made from any text, as the wizard and the errors offer it", () => {
  assert.equal(suggestProjectName("Restaurant Booker"), "restaurant-booker");
  assert.equal(suggestProjectName("My Bot!"), "my-bot");
  assert.equal(suggestProjectName("  ünïcode -- bot__2 "), "n-code-bot-2");
  assert.equal(suggestProjectName("!!!"), "my-voice-bot");
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), (text) => {
      const suggested = suggestProjectName(text);
      // Every refusal names the suggestion as its example (the wizard's Enter then takes it).
      const problem = projectNameProblem(text);
      return projectNameProblem(suggested) === undefined &&
        (problem === undefined || problem.endsWith(`e.g. "${suggested}"`));
    }),
  );
});

/** Each rule whose message names a flag to add or drop, broken once, on a valid base. */
const FLAG_RULES: readonly [ScaffoldInput, string][] = [
  [{ ...BASES[0], project_name: undefined }, "Bad Name"],
  [{ ...BASES[0], bot_type: "web", transports: ["carrier1"], client_framework: undefined }, "bot"],
  [{ ...BASES[0], client_server: "devserver_b" }, "bot"],
  [{ ...BASES[1], video_output: false }, "bot"],
  [{ ...BASES[0], enable_denoise: true, deploy_to_cloud: false }, "bot"],
  [{ ...BASES[0], realtime_service: "openai_realtime" }, "bot"],
  [{ ...BASES[1], stt_service: "deepgram_stt" }, "bot"],
];

Deno.test("resolveConfig: a problem that names a flag says it in the questions' words too, naming none", () => {
  const flag = /(^|[\s(`])--[a-z]/;
  const check = (input: ScaffoldInput, dirName: string) => {
    for (const problem of resolveConfig(input, dirName).problems) {
      // What is only missing, or not one of the values offered, no question can answer.
      if (problem.missing || /invalid value|must be/.test(problem.message)) continue;
      if (!flag.test(problem.message)) continue;
      assert.ok(
        problem.answer !== undefined && !flag.test(problem.answer),
        `${problem.field}: ${problem.message} (in the questions' words: ${problem.answer})`,
      );
    }
  };
  for (const [input, dirName] of FLAG_RULES) {
    assert.ok(resolveConfig(input, dirName).problems.length > 0, JSON.stringify(input));
    check(input, dirName);
  }
  fc.assert(fc.property(cases, (found) => check(inputOf(found), "bot")), { numRuns: 500 });
});
