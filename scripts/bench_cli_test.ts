import assert from "node:assert/strict";
import { staleBundle } from "./bench_cli.ts";

Deno.test("bench: a bundle missing or older than a source is stale, a newer one is not", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/src/cli`, { recursive: true });
    await Deno.writeTextFile(`${root}/main.ts`, "");
    await Deno.writeTextFile(`${root}/src/cli/run.ts`, "");
    assert.equal(await staleBundle(root), "dist/voicebot.js is missing");

    await Deno.mkdir(`${root}/dist`);
    await Deno.writeTextFile(`${root}/dist/voicebot.js`, "");
    const built = new Date("2026-01-02T00:00:00Z");
    await Deno.utime(`${root}/dist/voicebot.js`, built, built);
    const before = new Date("2026-01-01T00:00:00Z");
    await Deno.utime(`${root}/main.ts`, before, before);
    await Deno.utime(`${root}/src/cli/run.ts`, before, before);
    assert.equal(await staleBundle(root), undefined);

    const after = new Date("2026-01-03T00:00:00Z");
    await Deno.utime(`${root}/src/cli/run.ts`, after, after);
    assert.equal(await staleBundle(root), "dist/voicebot.js is older than src/cli/run.ts");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
