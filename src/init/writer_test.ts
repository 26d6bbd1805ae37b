import assert from "node:assert/strict";
import { join } from "pathe";
import { snapshot, tempDir } from "../../tests/helpers.ts";
import { denoFs, type PlannedFile, survey, writeAll, type WriterFs } from "./writer.ts";

const FILES: PlannedFile[] = [
  { path: "README.md", content: "# bot\n" },
  { path: "AGENTS.md", content: "new guide\n" },
  { path: "server/bot.py", content: "print('bot')\n" },
  { path: "server/evals/one.yaml", content: "name: one\n" },
  { path: "client/src/app.js", content: "console.log('client')\n" },
];

/** The real file system, except that the `failOn`-th call of `method` throws. */
function failingFs(method: keyof WriterFs, failOn: number): WriterFs {
  let calls = 0;
  return {
    ...denoFs,
    [method]: (...args: never[]) => {
      if (++calls === failOn) return Promise.reject(new Error(`injected ${method} failure`));
      return (denoFs[method] as (...a: never[]) => Promise<unknown>)(...args);
    },
  } as WriterFs;
}

for (
  const [method, failOn] of [["rename", 1], ["rename", 3], ["rename", 5], ["writeTextFile", 4], [
    "mkdir",
    3,
  ]] as const
) {
  Deno.test(`writeAll: a ${method} failing at call ${failOn} leaves the directory as it was`, async () => {
    await using dir = await tempDir();
    await Deno.writeTextFile(join(dir.path, "AGENTS.md"), "the user's guide\n");
    await Deno.writeTextFile(join(dir.path, "notes.txt"), "keep\n");
    const before = await snapshot(dir.path);
    await assert.rejects(writeAll(dir.path, FILES, failingFs(method, failOn)), /injected/);
    assert.deepEqual(await snapshot(dir.path), before);
  });
}

Deno.test("writeAll: a failure in a directory it created removes that directory", async () => {
  await using dir = await tempDir();
  const root = join(dir.path, "new-bot");
  await assert.rejects(writeAll(root, FILES, failingFs("rename", 4)), /injected/);
  assert.deepEqual(await snapshot(dir.path), new Map());
});

Deno.test("writeAll: writes every file, replacing an existing one, and leaves no staging behind", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "AGENTS.md"), "old\n");
  await writeAll(dir.path, FILES);
  const after = await snapshot(dir.path);
  // Directories count: an empty staging directory left behind would show here.
  assert.deepEqual([...after.keys()].sort(), [
    "AGENTS.md",
    "README.md",
    "client/",
    "client/src/",
    "client/src/app.js",
    "server/",
    "server/bot.py",
    "server/evals/",
    "server/evals/one.yaml",
  ]);
  assert.equal(await Deno.readTextFile(join(dir.path, "AGENTS.md")), "new guide\n");
});

Deno.test("survey: existing files with other bytes and parents that are files are in the way; the same bytes are not", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "README.md"), "mine\n");
  await Deno.writeTextFile(join(dir.path, "AGENTS.md"), "new guide\n");
  await Deno.writeTextFile(join(dir.path, "client"), "a file where a folder goes\n");
  const found = survey(dir.path, FILES);
  assert.deepEqual(found.conflicts, ["README.md", "client/src/app.js (client is a file)"]);
  assert.deepEqual(found.unchanged, ["AGENTS.md"]);
  assert.deepEqual(found.write.map((file) => file.path), [
    "README.md",
    "server/bot.py",
    "server/evals/one.yaml",
    "client/src/app.js",
  ]);
});

Deno.test("survey: a directory not there yet has everything to write and nothing in the way", () => {
  const found = survey("/nonexistent/voicebot-survey", FILES);
  assert.deepEqual(found, { write: FILES, unchanged: [], conflicts: [] });
});
