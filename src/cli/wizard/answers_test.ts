import assert from "node:assert/strict";
import { resolveConfig, type ScaffoldInput } from "../../init/config.ts";
import { QUICKSTART } from "../../init/mod.ts";
import { answersOf } from "./answers.ts";

const configOf = (input: ScaffoldInput) => {
  const { config, problems } = resolveConfig(input, "bot");
  assert.deepEqual(problems, []);
  return config!;
};

Deno.test("update's questions hold the answers of the projects the wizard makes", () => {
  const inputs: ScaffoldInput[] = [
    QUICKSTART,
    { ...QUICKSTART, client_framework: "uilib", client_server: "devserver_b", eval: true },
    { ...QUICKSTART, video_service: "tavus_video", recording: true },
    {
      transports: ["hosted_pstn", "lightweb"],
      daily_pstn_mode: "dial-out",
      mode: "realtime",
      realtime_service: "openai_realtime",
      deploy_to_cloud: false,
    },
    { transports: ["carrier2"], mode: "cascade", ...quickstartServices() },
  ];
  for (const input of inputs) {
    const answers = answersOf(configOf(input));
    assert.ok(answers, `no answers for ${JSON.stringify(input)}`);
  }
});

Deno.test("a project the questions cannot hold (three transports) has no answers", () => {
  const config = configOf({ ...QUICKSTART, transports: ["lightweb", "hosted", "carrier1"] });
  assert.equal(answersOf(config), undefined);
});

function quickstartServices(): ScaffoldInput {
  const { stt_service, llm_service, tts_service } = QUICKSTART;
  return { stt_service, llm_service, tts_service };
}
