import assert from "node:assert/strict";
import { SERVICES } from "./catalog.ts";

Deno.test("catalog: a service is local (no account) exactly when none of its variables is a credential", () => {
  const credential = /KEY|TOKEN|SECRET|CREDENTIALS|PASSWORD|ACCOUNT/;
  for (const service of SERVICES) {
    const credentials = service.env.filter((name) => credential.test(name));
    assert.equal(
      service.local === true,
      credentials.length === 0,
      `${service.id}: local is ${service.local}, its credentials ${credentials.join(", ")}`,
    );
  }
  // Those the wizard calls local, by name: a model on this machine, or a server run here.
  assert.deepEqual(
    SERVICES.filter((service) => service.local).map((service) => service.id).sort(),
    [
      "funasr_stt",
      "kokoro_tts",
      "moonshine_stt",
      "ollama_llm",
      "piper_tts",
      "pockettts_tts",
      "whisper_mlx_stt",
      "whisper_stt",
      "xtts_tts",
    ],
  );
});
