/**
 * `voicebot update` keeps what a file is beyond its text, through the spawned CLI on real files:
 * its mode, a symbolic link, bytes that are not UTF-8 or not text, CRLF endings and a byte order
 * mark; and a file the user had at a path voicebot renders later stays theirs, across releases.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { exists, tempDir, voicebot } from "./helpers.ts";
import { append, BOT, made, nextRelease, read, write } from "./helpers_update.ts";

const KOKORO = ["update", "--tts", "kokoro_tts"];
/** The project, made with Kokoro from the start: what the files are after `KOKORO`, untouched. */
async function reference(dir: string, extra: string[] = []) {
  await Deno.mkdir(join(dir, "reference"));
  return await made(join(dir, "reference"), [...BOT.slice(0, -1), "kokoro_tts", ...extra]);
}

const modeOf = async (path: string) => (await Deno.stat(path)).mode! & 0o777;
const bytesOf = (text: string) => new TextEncoder().encode(text);

function joined(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) all.set(part, (at += part.length) - part.length);
  return all;
}

Deno.test("each file keeps the mode its user gave it; a file the update adds gets the usual one", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  await Deno.chmod(join(root, "server/bot.py"), 0o755);
  await Deno.chmod(join(root, "server/.env.example"), 0o600);

  const run = await voicebot([...KOKORO, "--eval"], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /updated\s+server\/bot\.py/);
  assert.match(run.stderr, /updated\s+server\/\.env\.example/);
  assert.equal(await modeOf(join(root, "server/bot.py")), 0o755);
  assert.equal(await modeOf(join(root, "server/.env.example")), 0o600);
  assert.equal(await modeOf(join(root, "server/evals/voice.yaml")), 0o666 & ~Deno.umask());
});

Deno.test("a link to a file inside the project is merged there and stays a link; a link outside is left and named", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  // The user keeps .env.example in a folder of their own, and shares a README with other projects.
  await Deno.mkdir(join(root, "config"));
  await Deno.rename(join(root, "server/.env.example"), join(root, "config/env.example"));
  await Deno.symlink("../config/env.example", join(root, "server/.env.example"));
  await append(root, "config/env.example", "\n# Mine: the CRM's key\nCRM_API_KEY=\n");
  const shared = join(dir.path, "shared-README.md");
  await Deno.rename(join(root, "README.md"), shared);
  await Deno.symlink(shared, join(root, "README.md"));
  const readme = await Deno.readTextFile(shared);

  const run = await voicebot(KOKORO, { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /merged\s+server\/\.env\.example: a link to config\/env\.example/);
  assert.match(
    run.stderr,
    /linked\s+README\.md: a link to \S+shared-README\.md, not a file inside the project that voicebot may write; left as it is \(voicebot would have updated it\)/,
  );
  assert.equal(await Deno.readLink(join(root, "server/.env.example")), "../config/env.example");
  assert.equal(await Deno.readLink(join(root, "README.md")), shared);
  assert.equal(await Deno.readTextFile(shared), readme, "the shared file is not written");
  const env = await read(root, "config/env.example");
  const expected = await read(await reference(dir.path), "server/.env.example");
  assert.equal(env, `${expected}\n# Mine: the CRM's key\nCRM_API_KEY=\n`);
});

Deno.test("bytes that are not UTF-8 are merged as they are; a file that is not text is never merged", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path, [...BOT, "--deploy-to-cloud"]);
  const latin1 = new Uint8Array([...bytesOf("# caf"), 0xe9, 0x0a]); // "café" in Latin-1
  await Deno.writeFile(join(root, "server/Dockerfile"), latin1, { append: true });

  const run = await voicebot(KOKORO, { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /merged\s+server\/Dockerfile/);
  const kokoro = await reference(dir.path, ["--deploy-to-cloud"]);
  const dockerfile = await Deno.readFile(join(kokoro, "server/Dockerfile"));
  assert.deepEqual(
    await Deno.readFile(join(root, "server/Dockerfile")),
    joined(dockerfile, latin1),
  );

  // Now the Dockerfile holds a NUL: not text. Both sides change it: the user's stays as it is,
  // voicebot's is written beside it.
  const binary = joined(dockerfile, new Uint8Array([0x00, 0x0a]));
  await Deno.writeFile(join(root, "server/Dockerfile"), binary);
  const back = await voicebot(["update", "--tts", "cartesia_tts"], { cwd: root });
  assert.equal(back.code, 8, back.stderr);
  assert.match(
    back.stderr,
    /CONFLICT\s+server\/Dockerfile: not text, and changed by you and by voicebot; yours is untouched, voicebot's is written beside it as server\/Dockerfile\.voicebot/,
  );
  assert.match(back.stderr, /compare server\/Dockerfile with server\/Dockerfile\.voicebot/);
  assert.deepEqual(await Deno.readFile(join(root, "server/Dockerfile")), binary);
  const beside = await read(root, "server/Dockerfile.voicebot");
  assert.doesNotMatch(beside, /kokoro/i, "voicebot's version for the new answers");
  assert.match(beside, /^FROM /m);
});

Deno.test("a file in CRLF with a byte order mark is merged on its lines and written back in its own form", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const bom = "\ufeff";
  const crlf = (text: string) => text.replaceAll("\n", "\r\n");
  const own = '\n\ndef greeting_for(name: str) -> str:\n    return f"Hello, {name}!"\n';
  await write(root, "server/bot.py", bom + crlf((await read(root, "server/bot.py")) + own));

  const run = await voicebot(KOKORO, { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /merged\s+server\/bot\.py/);
  const expected = (await read(await reference(dir.path), "server/bot.py")) + own;
  const bytes = await Deno.readFile(join(root, "server/bot.py"));
  assert.deepEqual(bytes.subarray(0, 3), new Uint8Array([0xef, 0xbb, 0xbf]));
  assert.equal(new TextDecoder().decode(bytes.subarray(3)), crlf(expected));

  // The user changes a line voicebot changes too: only that line conflicts, markers in CRLF.
  const bot = await read(root, "server/bot.py"); // the mark and all
  await write(
    root,
    "server/bot.py",
    bot.replace("KokoroTTSService(\r\n", "KokoroTTSService(  # mine\r\n"),
  );
  const conflict = await voicebot(["update", "--tts", "cartesia_tts"], { cwd: root });
  assert.equal(conflict.code, 8, conflict.stderr);
  assert.match(conflict.stderr, /CONFLICT\s+server\/bot\.py \(1 place\)/);
  const marked = await read(root, "server/bot.py");
  assert.match(
    marked,
    /\r\n<<<<<<< yours\r\n {4}tts = KokoroTTSService\( {2}# mine\r\n.*\r\n=======\r\n {4}tts = CartesiaTTSService\(\r\n/,
  );
  assert.equal(marked.split("\n").length, marked.split("\r\n").length, "every line ends in CRLF");
});

Deno.test("a file the user had where a later render puts one stays theirs at every update, until they remove it", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  await Deno.mkdir(join(root, "server/evals"));
  const mine = "# My own voice checks\nturns: []\n";
  await write(root, "server/evals/voice.yaml", mine);

  const evals = await voicebot(["update", "--eval"], { cwd: root });
  assert.equal(evals.code, 0, evals.stderr);
  assert.match(
    evals.stderr,
    /kept\s+server\/evals\/voice\.yaml: yours; voicebot has its own server\/evals\/voice\.yaml, not written/,
  );
  assert.match(evals.stderr, /added\s+server\/evals\/text\.yaml/);
  assert.deepEqual(JSON.parse(await read(root, ".voicebot/base.json")).yours, [
    "server/evals/voice.yaml",
  ]);
  // The user moves voicebot's text eval to a name of their own.
  await Deno.rename(join(root, "server/evals/text.yaml"), join(root, "server/evals/smoke.yaml"));

  // The next release changes both evals' templates.
  const next = await nextRelease(join(dir.path, "next"), [
    ["templates/evals/voice.yaml.mustache", (text) => `${text}# voice, as 9.9.0 makes it\n`],
    ["templates/evals/text.yaml.mustache", (text) => `${text}# text, as 9.9.0 makes it\n`],
  ]);
  const smoke = await read(root, "server/evals/smoke.yaml");
  const update = await voicebot(["update"], { cwd: root, entry: next });
  assert.equal(update.code, 0, update.stderr);
  assert.match(update.stderr, /kept\s+server\/evals\/voice\.yaml: yours/);
  assert.match(update.stderr, /not restored\s+server\/evals\/text\.yaml: you deleted it/);
  assert.equal(await read(root, "server/evals/voice.yaml"), mine, "never merged into");
  assert.equal(await exists(join(root, "server/evals/text.yaml")), false);
  assert.equal(await read(root, "server/evals/smoke.yaml"), smoke);

  // Once the user removes theirs, voicebot's takes the path, and is voicebot's from then on.
  await Deno.remove(join(root, "server/evals/voice.yaml"));
  const after = await voicebot(["update"], { cwd: root, entry: next });
  assert.equal(after.code, 0, after.stderr);
  assert.match(after.stderr, /added\s+server\/evals\/voice\.yaml/);
  assert.match(await read(root, "server/evals/voice.yaml"), /# voice, as 9\.9\.0 makes it\n$/);
  assert.equal(JSON.parse(await read(root, ".voicebot/base.json")).yours, undefined);
});

Deno.test("a file no longer part of the project is never removed through a link", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path, [...BOT, "--eval"]);
  await Deno.mkdir(join(root, "checks"));
  await Deno.rename(join(root, "server/evals/text.yaml"), join(root, "checks/text.yaml"));
  await Deno.symlink("../../checks/text.yaml", join(root, "server/evals/text.yaml"));
  const text = await read(root, "checks/text.yaml");

  const run = await voicebot(["update", "--no-eval"], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /removed\s+server\/evals\/voice\.yaml/);
  assert.match(
    run.stderr,
    /linked\s+server\/evals\/text\.yaml: a link to \.\.\/\.\.\/checks\/text\.yaml: no longer part of the project, but voicebot removes nothing through a link; left as it is/,
  );
  assert.equal(await Deno.readLink(join(root, "server/evals/text.yaml")), "../../checks/text.yaml");
  assert.equal(await read(root, "checks/text.yaml"), text);
});
