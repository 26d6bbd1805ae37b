/**
 * For the `voicebot update` tests: a project made by this voicebot, file edits as a user makes
 * them, and a next release of voicebot built from a copy of this tree.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { cloneOfThisRepository, DENO_DIR, voicebot } from "./helpers.ts";

const CASCADE = ["-t", "lightweb", "-m", "cascade", "--stt", "deepgram_stt", "--llm"];
/** `init bot` with a cascade bot that speaks through Cartesia. */
export const BOT = ["init", "bot", ...CASCADE, "openai_llm", "--tts", "cartesia_tts"];

/** A project made by this voicebot in `dir`/bot; returns its root. */
export async function made(dir: string, args = BOT): Promise<string> {
  const run = await voicebot(args, { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  return join(dir, "bot");
}

export const read = (root: string, path: string) => Deno.readTextFile(join(root, path));
export const write = (root: string, path: string, text: string) =>
  Deno.writeTextFile(join(root, path), text);
export const append = (root: string, path: string, text: string) =>
  Deno.writeTextFile(join(root, path), text, { append: true });

/** A text edit of one file of this tree, for a next release: `edit` gets its text and returns the new. */
export type SourceEdit = readonly [path: string, edit: (text: string) => string];

/**
 * The next release, in `dir`: this tree with its version bumped to 9.9.0, Pipecat moved to 1.8.0,
 * and `edits` made (templates among them); its templates regenerated. Returns its entry point.
 */
export async function nextRelease(dir: string, edits: readonly SourceEdit[] = []) {
  await cloneOfThisRepository(dir);
  const denoJson = JSON.parse(await read(dir, "deno.json"));
  await write(dir, "deno.json", JSON.stringify({ ...denoJson, version: "9.9.0" }, null, 2));
  const pipecat: SourceEdit = [
    "src/init/project_view.ts",
    (view) =>
      view.replace('PIPECAT_VERSION = "1.7.0"', 'PIPECAT_VERSION = "1.8.0"')
        .replace('PIPECAT_RANGE = ">=1.7.0,<1.8"', 'PIPECAT_RANGE = ">=1.8.0,<1.9"'),
  ];
  for (const [path, edit] of [pipecat, ...edits]) {
    const before = await read(dir, path);
    const after = edit(before);
    assert.notEqual(after, before, `the edit of ${path} changes it`);
    await write(dir, path, after);
  }
  const gen = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "gen"],
    cwd: dir,
    env: { DENO_DIR },
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.equal(gen.code, 0, new TextDecoder().decode(gen.stderr));
  return join(dir, "main.ts");
}

/** The project's server/*.py files and its pyproject.toml, by path, as ruffProblems takes them. */
export async function pythonFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(join(root, "server"))) {
    if (entry.isFile && (entry.name.endsWith(".py") || entry.name === "pyproject.toml")) {
      files.set(`server/${entry.name}`, await read(root, `server/${entry.name}`));
    }
  }
  return files;
}
