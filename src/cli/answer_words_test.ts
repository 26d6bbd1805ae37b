/**
 * `update`'s report says answers in the words of init's questions (src/init/answer_words.ts): the
 * values its summary shows, the labels of its feature ticks. The wizard's options take their labels
 * from there, but its summary says each answer its own way (a step's `show`): these tests catch
 * the two parting.
 */
import assert from "node:assert/strict";
import { KEY_WORDS, valueWords } from "../init/answer_words.ts";
import { type ConfigKey, resolveConfig, type ScaffoldInput } from "../init/config.ts";
import { answersOf } from "./wizard/answers.ts";
import { summaryLines } from "./wizard/summary.ts";

const CONFIGS: ScaffoldInput[] = [
  {
    transports: ["lightweb"],
    mode: "cascade",
    stt_service: "whisper_stt",
    llm_service: "openai_llm",
    tts_service: "kokoro_tts",
    client_framework: "uilib",
    client_server: "devserver_b",
    recording: true,
    transcription: true,
    enable_observability: true,
    deploy_to_cloud: true,
    enable_denoise: true,
    eval: true,
  },
  {
    transports: ["hosted"],
    mode: "realtime",
    realtime_service: "openai_realtime",
    client_framework: "vanilla",
    video_input: true,
    video_output: true,
  },
  {
    transports: ["hosted"],
    mode: "realtime",
    realtime_service: "openai_realtime",
    video_service: "tavus_video",
  },
  {
    transports: ["hosted_pstn", "lightweb"],
    daily_pstn_mode: "dial-out",
    mode: "realtime",
    realtime_service: "openai_realtime",
  },
  {
    transports: ["carrier1_hosted_sip"],
    twilio_daily_sip_mode: "dial-in",
    mode: "cascade",
    stt_service: "deepgram_stt",
    llm_service: "openai_llm",
    tts_service: "cartesia_tts",
  },
  {
    transports: ["websocket"],
    mode: "cascade",
    stt_service: "deepgram_stt",
    llm_service: "openai_llm",
    tts_service: "cartesia_tts",
  },
];

Deno.test("the update report's words for a value are those the wizard's summary shows", () => {
  for (const input of CONFIGS) {
    const { config, problems } = resolveConfig(input, "bot");
    assert.deepEqual(problems, [], JSON.stringify(input));
    assert.ok(config);
    const answers = answersOf(config);
    assert.ok(answers, JSON.stringify(input));
    const lines = summaryLines(".", answers);
    const features = lines.find((line) => line.startsWith("Features: "))!;
    for (const key of Object.keys(config) as ConfigKey[]) {
      const value = config[key];
      if (key === "project_name" || value === null) continue;
      if (typeof value === "boolean") {
        // A video avatar sends video: the tick is the avatar's.
        if (!value || (key === "video_output" && config.video_service !== null)) continue;
        assert.ok(features.includes(KEY_WORDS[key]), `${key}: ${KEY_WORDS[key]} in ${features}`);
        continue;
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        const said = valueWords(key, item);
        assert.ok(
          lines.some((line) => line.endsWith(`: ${said}`)),
          `${key} ${item}: "${said}" in\n${lines.join("\n")}`,
        );
      }
    }
  }
});
