import assert from "node:assert/strict";
import fc from "fast-check";
import { resolveConfig } from "./config.ts";
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
