import assert from "node:assert/strict";
import { V8_FLAGS } from "./v8_flags.ts";

Deno.test("deno task voicebot runs the CLI with the V8 flags of every launcher", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const words: string[] = config.tasks.voicebot.split(" ");
  // Deno's flags go before the script; after it they would be the CLI's arguments.
  const script = words.indexOf("main.ts");
  for (const flag of V8_FLAGS) {
    const at = words.indexOf(flag);
    assert.ok(at !== -1 && at < script, config.tasks.voicebot);
  }
});
