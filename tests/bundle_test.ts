/**
 * The bundle (`deno task bundle`, the stand-in for a compiled binary) writes byte for byte the
 * projects the source tree writes. Runs when VOICEBOT_TEST_BUNDLE names the bundle, as .ci/run's
 * bundle-e2e check does.
 */
import assert from "node:assert/strict";
import { BUNDLE, MAIN, snapshot, tempDir, voicebot } from "./helpers.ts";
import { skipped } from "./skips.ts";

const PROJECTS: Record<string, string[]> = {
  quickstart: ["init", "quickstart"],
  // A directory and no scaffold options, without a terminal: the guides for a coding agent.
  "the coding-agent guides": ["init", "agent-bot"],
  "a rich scaffold": [
    "init",
    "rich",
    ...["-t", "lightweb", "-t", "hosted", "-m", "cascade"],
    ...["--stt", "deepgram_stt", "--llm", "openai_llm", "--tts", "cartesia_tts"],
    ...["--client-framework", "uilib", "--client-server", "devserver_b"],
    ...["--video", "tavus_video", "--recording", "--transcription"],
    ...["--observability", "--enable-denoise", "--eval"],
  ],
  // The camera reaches only a realtime model (a cascade bot takes --video-input with a warning).
  "a realtime bot that sees the camera": [
    "init",
    "watcher",
    ...["-t", "lightweb", "-m", "realtime", "--realtime", "gemini_live_realtime"],
    ...["--video-input", "--client-framework", "vanilla"],
  ],
  "a carrier phone bot with a browser transport for testing": [
    "init",
    "phone",
    ...["-t", "carrier1", "-t", "lightweb", "-m", "cascade"],
    ...["--stt", "deepgram_stt", "--llm", "openai_llm", "--tts", "cartesia_tts", "--recording"],
  ],
  "a Daily PSTN dial-out bot": [
    "init",
    "dialer",
    ...["-t", "hosted_pstn", "--daily-pstn-mode", "dial-out"],
    ...["-m", "realtime", "--realtime", "openai_realtime", "--eval"],
  ],
};

for (const [name, args] of Object.entries(PROJECTS)) {
  Deno.test({
    name: `the bundle writes ${name} byte for byte as the source tree does`,
    ignore: skipped("bundle"),
    fn: async () => {
      await using fromSource = await tempDir();
      await using fromBundle = await tempDir();
      const source = await voicebot(args, { cwd: fromSource.path, entry: MAIN });
      assert.equal(source.code, 0, source.stderr);
      const bundle = await voicebot(args, { cwd: fromBundle.path, entry: BUNDLE });
      assert.equal(bundle.code, 0, bundle.stderr);
      assert.equal(
        bundle.stdout.replaceAll(fromBundle.path, "<dir>"),
        source.stdout.replaceAll(fromSource.path, "<dir>"),
      );
      const written = await snapshot(fromSource.path);
      assert.ok(written.size > 3, "the source tree wrote a project");
      assert.deepEqual(await snapshot(fromBundle.path), written);
    },
  });
}
