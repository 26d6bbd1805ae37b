/**
 * `voicebot update` on real projects, through the spawned CLI: a project made by `init`, edited as
 * its user would, then updated with a changed answer, by a next voicebot whose templates differ
 * (built in the test from a copy of this tree), and into a conflict. Each asserts what the files
 * hold afterwards, that nothing the user wrote is lost, and the exit code.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { exists, snapshot, tempDir, unprivileged, voicebot } from "./helpers.ts";
import { append, BOT, made, nextRelease, pythonFiles, read, write } from "./helpers_update.ts";
import { skipped } from "./skips.ts";
import { ruffProblems } from "./ruff.ts";
import { VERSION } from "../src/version.ts";

/** The user's edits of every kind the issue names; returns what they wrote, to find it after. */
async function editAsAUserWould(root: string) {
  const own = '\n\ndef greeting_for(name: str) -> str:\n    return f"Hello, {name}!"\n';
  await append(root, "server/bot.py", own);
  // `uv add httpx` puts the dependency beside the pipecat-ai line (whose extras an answer changes).
  const pyproject = await read(root, "server/pyproject.toml");
  await write(
    root,
    "server/pyproject.toml",
    pyproject.replace(/^( {4}"pipecat-ai\[.*\n)/m, '$1    "httpx>=0.27",\n'),
  );
  await write(root, "server/tools.py", "def lookup():\n    return 42\n");
  await Deno.remove(join(root, "README.md"));
  const env = await read(root, "server/.env.example");
  await write(root, "server/.env.example", `${env}\n# Mine: the CRM's key\nCRM_API_KEY=\n`);
  return { own };
}

Deno.test("an untouched project: update and --check change nothing, and say so", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const before = await snapshot(root);
  const check = await voicebot(["update", "--check"], { cwd: root });
  assert.equal(check.code, 0, check.stderr);
  const run = await voicebot(["update"], { cwd: join(root, "server") });
  assert.equal(run.code, 0, run.stderr);
  // From server/, the project is named by its path, not by `..` before a colon.
  assert.ok(run.stderr.includes(`Nothing to update in ${root}: `), run.stderr);
  assert.deepEqual(await snapshot(root), before);
});

Deno.test("update --help speaks of recorded answers: no init defaults, nothing required to scaffold", async () => {
  const help = await voicebot(["update", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /an answer not given keeps what\s+voicebot\.json records/);
  assert.doesNotMatch(
    help.stdout,
    /target\s+directory's name|required to scaffold|\(default: (off|on|none)/,
  );
  assert.match(help.stdout, /--\[no-\]eval/);
});

Deno.test("a changed answer swaps the voice everywhere and keeps every edit the user made", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const { own } = await editAsAUserWould(root);
  const tools = await read(root, "server/tools.py");

  const run = await voicebot(["update", "bot", "--tts", "kokoro_tts"], { cwd: dir.path });
  assert.equal(run.code, 0, run.stderr);
  // The answer by its labels, as init's questions show it; never by id.
  assert.match(run.stderr, /^ {2}Text-to-speech: Cartesia -> Kokoro \(local, no account\)$/m);
  assert.doesNotMatch(run.stderr, /tts_service|cartesia_tts|kokoro_tts/);
  assert.match(run.stderr, /not restored\s+README\.md: you deleted it/);

  // The whole project as init makes it with the new answer, plus exactly the user's edits.
  await using fresh = await tempDir();
  const reference = await made(fresh.path, [...BOT.slice(0, -1), "kokoro_tts"]);
  const expected = await snapshot(reference);
  const bot = await read(root, "server/bot.py");
  assert.equal(bot, (await read(reference, "server/bot.py")) + own);
  assert.doesNotMatch(bot, /Cartesia/);
  const pyproject = await read(root, "server/pyproject.toml");
  assert.equal(
    pyproject,
    (await read(reference, "server/pyproject.toml"))
      .replace(/^( {4}"pipecat-ai\[.*\n)/m, '$1    "httpx>=0.27",\n'),
  );
  assert.match(pyproject, /kokoro/);
  assert.equal(
    await read(root, "server/.env.example"),
    `${await read(reference, "server/.env.example")}\n# Mine: the CRM's key\nCRM_API_KEY=\n`,
  );
  assert.equal(await read(root, "server/tools.py"), tools, "a file the user added is untouched");
  assert.equal(await exists(join(root, "README.md")), false, "a deleted file stays deleted");
  for (const path of ["server/Dockerfile", "voicebot.json", ".voicebot/base.json"]) {
    assert.equal(await read(root, path), await read(reference, path), path);
  }
  assert.ok(expected.has("README.md"));
  assert.deepEqual(ruffProblems("bot", await pythonFiles(root)), [], "ruff");

  // Right after a clean update, another changes nothing.
  const after = await snapshot(root);
  const again = await voicebot(["update", "bot"], { cwd: dir.path });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(await snapshot(root), after);
});

Deno.test("a recorded answer that gives way is named by its label; --json keeps the ids", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path, [...BOT, "--client-framework", "uilib"]);
  const unchanged = await snapshot(root);
  const run = await voicebot(["update", "-t", "carrier1", "--dry-run"], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^ {2}\(recorded answers that do not go with those given give way: Web client\)$/m,
  );
  assert.match(
    run.stderr,
    /^ {2}Transports: lightweb \(SmallWebRTC, no account\) -> carrier1 \(Twilio\)$/m,
  );
  assert.match(run.stderr, /^ {2}Client dev server: Vite -> none$/m);
  assert.doesNotMatch(run.stderr, /client_framework|devserver_a/);

  const json = await voicebot(["update", "-t", "carrier1", "--dry-run", "--json"], { cwd: root });
  assert.equal(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout);
  assert.deepEqual(result.dropped, ["client_framework"]);
  assert.deepEqual(
    result.answers.find((answer: { key: string }) => answer.key === "client_framework"),
    { key: "client_framework", from: "uilib", to: null },
  );
  assert.deepEqual(await snapshot(root), unchanged);
});

Deno.test("the same lines changed by the user and by an answer: conflict markers, exit 8, and a refusal until settled", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const bot = await read(root, "server/bot.py");
  const cartesia = bot.match(/^ {4}tts = CartesiaTTSService\(\n[^]*?\n {4}\)\n/m)![0];
  const mine = '    tts = CartesiaTTSService(api_key=os.environ["CARTESIA_API_KEY"])\n';
  await write(root, "server/bot.py", bot.replace(cartesia, mine));

  // A dry run ends as the real run will: 8, the conflict named, nothing written.
  const unchanged = await snapshot(root);
  const dryRun = await voicebot(["update", "--tts", "kokoro_tts", "--dry-run"], { cwd: root });
  assert.equal(dryRun.code, 8, dryRun.stderr);
  assert.match(dryRun.stderr, /the update would leave conflicts in server\/bot\.py/);
  assert.deepEqual(await snapshot(root), unchanged);

  const run = await voicebot(["update", "--tts", "kokoro_tts"], { cwd: root });
  assert.equal(run.code, 8, run.stderr);
  assert.match(run.stderr, /CONFLICT\s+server\/bot\.py \(1 place\)/);
  const merged = await read(root, "server/bot.py");
  const conflict = merged.match(
    /^<<<<<<< yours\n([^]*?)^=======\n([^]*?)^>>>>>>> voicebot (\S+)\n/m,
  );
  assert.ok(conflict, merged);
  assert.equal(conflict[1], mine, "the user's version, whole");
  assert.match(conflict[2], /tts = KokoroTTSService\(/, "voicebot's version");
  assert.equal(conflict[3], VERSION);
  assert.match(merged, /^from pipecat\.services\.kokoro\.tts import KokoroTTSService$/m);

  // Unsettled, the next update refuses and writes nothing.
  const before = await snapshot(root);
  const refused = await voicebot(["update"], { cwd: root });
  assert.equal(refused.code, 5, refused.stderr);
  assert.match(refused.stderr, /still holds a conflict from an earlier update/);
  assert.match(refused.stderr, /^ {2}- server\/bot\.py$/m);
  assert.deepEqual(await snapshot(root), before);

  // Settled (the user keeps voicebot's lines), it has nothing left to do.
  await write(root, "server/bot.py", merged.replace(conflict[0], conflict[2]));
  const settled = await voicebot(["update"], { cwd: root });
  assert.equal(settled.code, 0, settled.stderr);
  assert.match(settled.stderr, /Nothing to update/);
});

Deno.test("--dry-run prints a unified diff and --check exits 7; neither writes anything", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  await append(root, "server/bot.py", "# mine\n");
  const before = await snapshot(root);

  const dryRun = await voicebot(["update", "--tts", "kokoro_tts", "--dry-run"], { cwd: root });
  assert.equal(dryRun.code, 0, dryRun.stderr);
  assert.match(dryRun.stdout, /^--- a\/server\/bot\.py\n\+\+\+ b\/server\/bot\.py\n@@ /m);
  assert.match(
    dryRun.stdout,
    /^-from pipecat\.services\.cartesia\.tts import CartesiaTTSService$/m,
  );
  assert.match(dryRun.stdout, /^\+from pipecat\.services\.kokoro\.tts import KokoroTTSService$/m);
  assert.match(dryRun.stdout, /^- {2}"tts_service": "cartesia_tts",$/m, "the record's diff");
  assert.doesNotMatch(dryRun.stdout, /base\.json/, "the kept base is voicebot's business");
  assert.match(dryRun.stderr, /Nothing written \(--dry-run\)/);

  const check = await voicebot(["update", "--tts", "kokoro_tts", "--check"], { cwd: root });
  assert.equal(check.code, 7, check.stderr);
  const json = await voicebot(["update", "--tts", "kokoro_tts", "--check", "--json"], {
    cwd: root,
  });
  assert.equal(json.code, 7, json.stderr);
  const outcome = JSON.parse(json.stdout);
  assert.deepEqual(outcome.answers, [
    { key: "tts_service", from: "cartesia_tts", to: "kokoro_tts" },
  ]);
  assert.deepEqual(
    Object.fromEntries(
      outcome.files.map((f: { path: string; outcome: string }) => [f.path, f.outcome]),
    ),
    {
      "README.md": "updated",
      "server/.env.example": "updated",
      "server/Dockerfile": "updated",
      "server/bot.py": "merged",
      "server/pyproject.toml": "updated",
      "voicebot.json": "updated",
    },
  );
  assert.equal(outcome.written, false);
  assert.deepEqual(await snapshot(root), before);
});

Deno.test("files an answer no longer needs are removed when untouched, and kept when edited", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  await append(root, "server/Dockerfile", "# my own layer\n");
  const dockerfile = await read(root, "server/Dockerfile");
  const run = await voicebot(["update", "--no-deploy-to-cloud"], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /kept\s+server\/Dockerfile: no longer part of the project, but you edited it/,
  );
  assert.match(run.stderr, /removed\s+server\/cloud-deploy\.toml/);
  assert.equal(await read(root, "server/Dockerfile"), dockerfile);
  assert.equal(await exists(join(root, "server/cloud-deploy.toml")), false);
  assert.equal(await exists(join(root, "server/.dockerignore")), false);
});

Deno.test("every problem of the changed answers at once, exit 2, nothing written", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const before = await snapshot(root);
  const run = await voicebot(
    ["update", "--tts", "nope_tts", "--mode", "psychic", "--eval", "--no-eval"],
    { cwd: root },
  );
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /nope_tts/);
  assert.match(run.stderr, /psychic/);
  assert.match(run.stderr, /--eval and --no-eval: they contradict each other; give one/);
  assert.deepEqual(await snapshot(root), before);
});

Deno.test({
  name: "an update the file system stops part-way leaves the project as it was",
  ignore: skipped("setpriv"),
  fn: async () => {
    await using dir = await tempDir();
    const root = await made(dir.path);
    await append(root, "server/bot.py", "# mine\n");
    // The user's modes come back too (the snapshot holds them): README.md is replaced, then put back.
    await Deno.chmod(join(root, "README.md"), 0o600);
    await Deno.chmod(join(root, "server/bot.py"), 0o755);
    const before = await snapshot(root);
    // README.md is put in place first; server/, which cannot be written, stops the rest.
    await Deno.chmod(join(root, "server"), 0o555);
    let run;
    try {
      run = await voicebot(["update", "--tts", "kokoro_tts"], unprivileged(root));
    } finally {
      await Deno.chmod(join(root, "server"), 0o755);
    }
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(`cannot write in ${root}/server: permission denied; nothing was written\\.`),
    );
    assert.deepEqual(await snapshot(root), before);
  },
});

Deno.test("outside a scaffolded project, update says where it looked, exit 4", async () => {
  await using dir = await tempDir();
  const run = await voicebot(["update"], { cwd: dir.path });
  assert.equal(run.code, 4, run.stderr);
  assert.match(run.stderr, /no voicebot\.json in .* or a directory above it/);
});

Deno.test("a project whose record predates the kept base: differences become conflicts, nothing is lost, and the next update merges three ways", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const record = JSON.parse(await read(root, "voicebot.json"));
  delete record.voicebot_version;
  await write(root, "voicebot.json", `${JSON.stringify(record, null, 2)}\n`);
  await Deno.remove(join(root, ".voicebot"), { recursive: true });
  await append(root, "server/bot.py", "# mine\n");
  const readme = await read(root, "README.md");

  const run = await voicebot(["update"], { cwd: root });
  assert.equal(run.code, 8, run.stderr);
  assert.match(run.stderr, /no copy of the files as voicebot made them/);
  const bot = await read(root, "server/bot.py");
  assert.match(bot, /^<<<<<<< yours\n# mine\n=======\n>>>>>>> voicebot \S+\n$/m);
  assert.equal(await read(root, "README.md"), readme, "an untouched file is left as it is");
  assert.equal(JSON.parse(await read(root, "voicebot.json")).voicebot_version, VERSION);
  assert.ok(await exists(join(root, ".voicebot/base.json")));

  // Settled, with the user's line kept: the next update is a three-way one, with nothing to do.
  await write(
    root,
    "server/bot.py",
    bot.replace(/^<<<<<<< yours\n(# mine\n)=======\n>>>>>>> .*\n/m, "$1"),
  );
  const next = await voicebot(["update"], { cwd: root });
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stderr, /Nothing to update/);
  assert.match(await read(root, "server/bot.py"), /# mine\n$/);
});

Deno.test("a next voicebot, whose templates and Pipecat differ, updates a project this one made and keeps the user's edits", async () => {
  await using dir = await tempDir();
  const root = await made(dir.path);
  const { own } = await editAsAUserWould(root);

  // The next release: Pipecat moved on, and a template changed.
  const next = await nextRelease(join(dir.path, "next"), [[
    "templates/server/Dockerfile.mustache",
    (dockerfile) =>
      dockerfile.replace(/^FROM .*$/m, "$&\nLABEL org.opencontainers.image.vendor=voicebot"),
  ]]);
  const run = await voicebot(["update"], { cwd: root, entry: next });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`voicebot ${VERSION.replaceAll(".", "\\.")} to 9\\.9\\.0`));
  assert.match(run.stderr, /Pipecat moves from 1\.7\.0 to 1\.8\.0: .*CHANGELOG/);
  assert.match(
    await read(root, "server/Dockerfile"),
    /^LABEL org\.opencontainers\.image\.vendor=voicebot$/m,
  );
  const bot = await read(root, "server/bot.py");
  assert.match(bot, /generated by voicebot 9\.9\.0 for Pipecat 1\.8\.0/);
  assert.ok(bot.endsWith(own), "the user's code is still at the end of bot.py");
  const pyproject = await read(root, "server/pyproject.toml");
  assert.match(pyproject, /^ {4}"pipecat-ai\[[^\]]+\]>=1\.8\.0,<1\.9",\n {4}"httpx>=0\.27",$/m);
  assert.equal(await exists(join(root, "README.md")), false);
  assert.equal(JSON.parse(await read(root, "voicebot.json")).voicebot_version, "9.9.0");
  assert.deepEqual(ruffProblems("bot", await pythonFiles(root)), [], "ruff");

  // This voicebot, older than the project's, refuses to take it back.
  const older = await voicebot(["update", "--check"], { cwd: root });
  assert.equal(older.code, 1, older.stderr);
  assert.match(older.stderr, /made by voicebot 9\.9\.0, newer than this one/);
});

/** The project's Python files and its pyproject.toml, for ruff. */
/** Answer changes of every kind the matrix makes, each from one of two projects. */
const FULL = [
  ...["init", "bot", "-t", "lightweb", "-t", "hosted", "-m", "cascade", "--stt", "deepgram_stt"],
  ...["--llm", "openai_llm", "--tts", "cartesia_tts", "--client-framework", "uilib"],
  ...["--recording", "--transcription", "--observability", "--eval", "--enable-denoise"],
];
const CHANGES: [string[], string[]][] = [
  [BOT, ["-t", "carrier1"]],
  [BOT, ["-t", "lightweb", "-t", "hosted"]],
  [BOT, ["-t", "hosted_pstn", "--daily-pstn-mode", "dial-in"]],
  [BOT, ["-t", "carrier1_hosted_sip", "--twilio-daily-sip-mode", "dial-out"]],
  [BOT, ["-m", "realtime", "--realtime", "openai_realtime"]],
  [BOT, ["--stt", "assemblyai_stt"]],
  [BOT, ["--llm", "anthropic_llm"]],
  [BOT, ["--tts", "kokoro_tts"]],
  [BOT, ["--video", "tavus_video"]],
  [BOT, ["--client-framework", "vanilla"]],
  [BOT, ["--client-framework", "uilib", "--client-server", "devserver_b"]],
  [BOT, ["--recording", "--transcription", "--observability", "--eval"]],
  [BOT, ["--no-deploy-to-cloud"]],
  [BOT, ["--enable-denoise", "--name", "Front-Desk"]],
  [FULL, ["--client-framework", "none", "--no-eval", "--no-enable-denoise"]],
  [FULL, ["-t", "carrier2"]],
  [FULL, ["-m", "realtime", "--realtime", "gemini_live_realtime"]],
];

Deno.test("every answer change gives the very bytes init makes with those answers", async () => {
  await using dir = await tempDir();
  const outcomes = await Promise.all(CHANGES.map(async ([made_, change], i) => {
    const at = join(dir.path, String(i));
    await Deno.mkdir(join(at, "reference"), { recursive: true });
    const root = await made(at, made_);
    const run = await voicebot(["update", ...change, "--overwrite-guide"], { cwd: root });
    assert.equal(run.code, 0, `${change.join(" ")}: ${run.stderr}`);
    // The project init makes from the answers update recorded, which hold what was asked.
    const made2 = await voicebot(["init", "bot", "--config", join(root, "voicebot.json")], {
      cwd: join(at, "reference"),
    });
    assert.equal(made2.code, 0, made2.stderr);
    const record = JSON.parse(await read(root, "voicebot.json"));
    return {
      change,
      record,
      updated: await snapshot(root),
      init: await snapshot(join(at, "reference/bot")),
    };
  }));
  for (const { change, record, updated, init } of outcomes) {
    assert.deepEqual(updated, init, `update ${change.join(" ")}: not init's bytes`);
    const asked = change.filter((word) => !word.startsWith("-"));
    for (const value of asked) {
      assert.ok(
        JSON.stringify(record).includes(JSON.stringify(value).slice(1, -1)),
        `${value} recorded`,
      );
    }
  }
});
