import assert from "node:assert/strict";
import { join } from "pathe";
import { snapshot, tempDir } from "../../tests/helpers.ts";
import {
  denoFs,
  type PlannedFile,
  survey,
  undoInterrupted,
  writeAll,
  type WriterFs,
} from "./writer.ts";

const FILES: PlannedFile[] = [
  { path: "README.md", content: "# bot\n" },
  { path: "AGENTS.md", content: "new guide\n" },
  { path: "server/bot.py", content: "print('bot')\n" },
  { path: "server/evals/one.yaml", content: "name: one\n" },
  { path: "client/src/app.js", content: "console.log('client')\n" },
];

/** The real file system, except that the `failOn`-th call of `method` throws (`error`). */
function failingFs(
  method: keyof WriterFs,
  failOn: number,
  error = new Error(`injected ${method} failure`),
): WriterFs {
  let calls = 0;
  return {
    ...denoFs,
    [method]: (...args: never[]) => {
      if (++calls === failOn) return Promise.reject(error);
      return (denoFs[method] as (...a: never[]) => Promise<unknown>)(...args);
    },
  } as WriterFs;
}

for (
  const [method, failOn] of [["rename", 1], ["rename", 3], ["rename", 5], ["writeFile", 4], [
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

/** An error as Deno's file system calls throw it: the system's words, its code, the paths. */
function systemError(code: string, words: string, path: string): Error {
  return Object.assign(new Error(`${words} (os error 1): writefile '${path}'`), { code });
}

for (
  const [code, words, hint] of [
    [
      "ENOSPC",
      "No space left on device",
      "free some space, or choose a directory on another disk.",
    ],
    ["EROFS", "Read-only file system", "choose a directory on a file system that can be written."],
  ] as const
) {
  Deno.test(`writeAll: ${code} names the directory in the system's words, never the staging folder`, async () => {
    await using dir = await tempDir();
    const before = await snapshot(dir.path);
    const error = systemError(code, words, join(dir.path, ".voicebot-staging-0a1b2c3d", "1"));
    await assert.rejects(writeAll(dir.path, FILES, failingFs("writeFile", 2, error)), {
      name: "VoicebotError",
      message: `cannot write in ${dir.path}: ${words[0].toLowerCase()}${
        words.slice(1)
      }; nothing was written.`,
      hint,
      problems: [],
    });
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

Deno.test("writeAll: removes the files it is told to, and the folders they leave empty", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "client/src"), { recursive: true });
  await Deno.writeTextFile(join(dir.path, "client/src/old.js"), "old\n");
  await Deno.writeTextFile(join(dir.path, "client/notes.md"), "the user's\n");
  await Deno.mkdir(join(dir.path, "server/evals"), { recursive: true });
  await Deno.writeTextFile(join(dir.path, "server/evals/old.yaml"), "old\n");
  await writeAll(dir.path, FILES.slice(0, 2), denoFs, [
    "client/src/old.js",
    "server/evals/old.yaml",
  ]);
  assert.deepEqual([...(await snapshot(dir.path)).keys()].sort(), [
    "AGENTS.md",
    "README.md",
    "client/",
    "client/notes.md",
  ]);
});

Deno.test("writeAll: a failure after a removal puts the removed file back", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "server"));
  await Deno.writeTextFile(join(dir.path, "server/old.py"), "old\n");
  await Deno.writeTextFile(join(dir.path, "server/gone.py"), "gone\n");
  const before = await snapshot(dir.path);
  // Two files are put in place, the first removal is made, then the second fails.
  await assert.rejects(
    writeAll(dir.path, FILES.slice(0, 2), failingFs("remove", 2), [
      "server/old.py",
      "server/gone.py",
    ]),
    /injected/,
  );
  assert.deepEqual(await snapshot(dir.path), before);
});

Deno.test("writeAll: a file it replaces keeps its mode, and a failure puts back its mode too", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "server"));
  await Deno.writeTextFile(join(dir.path, "server/bot.py"), "old\n");
  await Deno.chmod(join(dir.path, "server/bot.py"), 0o750);
  await Deno.writeTextFile(join(dir.path, "README.md"), "old\n");
  await Deno.chmod(join(dir.path, "README.md"), 0o600);
  const modes = async () => [
    (await Deno.stat(join(dir.path, "server/bot.py"))).mode! & 0o777,
    (await Deno.stat(join(dir.path, "README.md"))).mode! & 0o777,
  ];
  const before = await snapshot(dir.path);
  // The journal's rename is the first; README.md and bot.py are in place when the fourth fails.
  await assert.rejects(writeAll(dir.path, FILES, failingFs("rename", 5)), /injected/);
  assert.deepEqual(await snapshot(dir.path), before);
  assert.deepEqual(await modes(), [0o750, 0o600]);
  await writeAll(dir.path, FILES);
  assert.equal(await Deno.readTextFile(join(dir.path, "server/bot.py")), "print('bot')\n");
  assert.deepEqual(await modes(), [0o750, 0o600]);
  const created = (await Deno.stat(join(dir.path, "AGENTS.md"))).mode! & 0o777;
  assert.equal(created, 0o666 & ~Deno.umask(), "a new file gets the usual mode");
});

Deno.test("writeAll: bytes are written as they are", async () => {
  await using dir = await tempDir();
  const bytes = new Uint8Array([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0x00]);
  await writeAll(dir.path, [{ path: "latin1.txt", content: bytes }]);
  assert.deepEqual(await Deno.readFile(join(dir.path, "latin1.txt")), bytes);
});

Deno.test("undoInterrupted: removes a staging folder with no journal, and leaves one a running write holds", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "notes.txt"), "keep\n");
  const before = await snapshot(dir.path);
  await Deno.mkdir(join(dir.path, ".voicebot-staging-0a1b2c3d"));
  await Deno.writeTextFile(join(dir.path, ".voicebot-staging-0a1b2c3d/new-0"), "staged\n");
  await Deno.mkdir(join(dir.path, ".voicebot-init-1a2b3c4d"));
  const held = join(dir.path, ".voicebot-staging-99999999");
  await Deno.mkdir(held);
  const lock = await Deno.open(held, { read: true });
  await lock.lock(true);
  try {
    const settled = await undoInterrupted(dir.path);
    assert.deepEqual(settled.map((s) => [s.folder, s.undone]), [
      [".voicebot-init-1a2b3c4d", 0],
      [".voicebot-staging-0a1b2c3d", 0],
    ]);
  } finally {
    lock.close();
  }
  await Deno.remove(held);
  assert.deepEqual(await snapshot(dir.path), before);
});
