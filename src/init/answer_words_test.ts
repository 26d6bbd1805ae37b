import assert from "node:assert/strict";
import { answerChangeWords, KEY_WORDS, serviceLabel, valueWords } from "./answer_words.ts";
import { findService } from "./catalog.ts";
import { CONFIG_KEYS } from "./config.ts";

Deno.test("answer words: a service by its label, a local one saying it needs no account", () => {
  assert.equal(valueWords("tts_service", "cartesia_tts"), "Cartesia");
  assert.equal(valueWords("tts_service", "kokoro_tts"), "Kokoro (local, no account)");
  assert.equal(valueWords("stt_service", "whisper_stt"), "Whisper (local, no account)");
  assert.equal(
    serviceLabel(findService("funasr_stt")!),
    "FunASR (SenseVoice, local, no account)",
  );
  assert.equal(valueWords("realtime_service", "openai_realtime"), "OpenAI Realtime");
});

Deno.test("answer words: transports by the wizard's labels, a list joined; choices by theirs", () => {
  assert.equal(
    valueWords("transports", ["carrier1", "lightweb"]),
    "carrier1 (Twilio), lightweb (SmallWebRTC, no account)",
  );
  assert.equal(valueWords("transports", ["hosted_pstn_dialout"]), "hosted_pstn (Daily PSTN)");
  assert.equal(valueWords("transports", []), "none");
  assert.equal(valueWords("bot_type", "telephony"), "Telephony");
  assert.equal(valueWords("mode", "realtime"), "Realtime");
  assert.equal(valueWords("client_framework", "vanilla"), "Plain JavaScript client");
  assert.equal(valueWords("client_server", "devserver_b"), "Next.js");
  assert.equal(valueWords("daily_pstn_mode", "dial-out"), "Dial-out");
  assert.equal(valueWords("project_name", "my-bot"), "my-bot");
});

Deno.test("answer words: on and off, none for no value, an unknown id as it is", () => {
  assert.equal(valueWords("recording", true), "on");
  assert.equal(valueWords("eval", false), "off");
  assert.equal(valueWords("client_framework", null), "none");
  assert.equal(valueWords("tts_service", "not_a_tts"), "not_a_tts");
});

Deno.test("answer words: a change reads key: from -> to, by labels, never by id", () => {
  assert.equal(
    answerChangeWords({ key: "tts_service", from: "cartesia_tts", to: "kokoro_tts" }),
    "Text-to-speech: Cartesia -> Kokoro (local, no account)",
  );
  assert.equal(
    answerChangeWords({ key: "enable_observability", from: false, to: true }),
    "Trace the pipeline with OpenTelemetry: off -> on",
  );
  assert.equal(
    answerChangeWords({ key: "client_framework", from: "uilib", to: null }),
    "Web client: React client with Pipecat's voice UI kit -> none",
  );
  // A call's direction alone: the transport reads the same, its direction's key says the change.
  assert.equal(
    answerChangeWords({
      key: "transports",
      from: ["hosted_pstn_dialin"],
      to: ["hosted_pstn_dialout"],
    }),
    undefined,
  );
});

Deno.test("answer words: every key has its words, each its own, none an id", () => {
  const words = CONFIG_KEYS.map((key) => KEY_WORDS[key]);
  assert.equal(new Set(words).size, CONFIG_KEYS.length);
  for (const [i, said] of words.entries()) {
    assert.ok(said && !said.includes("_"), `${CONFIG_KEYS[i]}: ${said}`);
  }
});
