/**
 * A refusal names its cause (the option, the file, the value) and quotes a value only in part:
 * the cases a first-time user met, through the spawned CLI.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { listFiles, tempDir, voicebot } from "./helpers.ts";

Deno.test("cloud serve --host that is no address of this machine names --host, exit 2, and makes no database", async () => {
  await using dir = await tempDir();
  const database = join(dir.path, "secrets.db");
  for (
    const [host, why] of [
      ["999.1.1.1", "is no address, and no name this machine resolves"],
      ["192.0.2.1", "is not an address of this machine"],
    ]
  ) {
    const run = await voicebot(["cloud", "serve", "--host", host, "--database", database], {
      cwd: dir.path,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`--host "${host.replaceAll(".", "\\.")}" ${why}`));
    assert.match(run.stderr, /0\.0\.0\.0 for every interface/);
  }
  assert.deepEqual(await listFiles(dir.path), [], "no database, no key file");
});

Deno.test("cloud serve revoke-key without an id says what it needs; an action given a word it does not take says so", async () => {
  await using dir = await tempDir();
  const revoke = await voicebot(["cloud", "serve", "revoke-key"], { cwd: dir.path });
  assert.equal(revoke.code, 2, revoke.stderr);
  assert.match(revoke.stderr, /revoke-key needs the id of the key to revoke: 16 hex digits\./);
  assert.match(revoke.stderr, /list-keys -o ORG` lists an organization's keys with their ids/);

  const pasted = "vb_sk_0123abcd4567ef89_Zx9QwErTyUiOp";
  const backup = await voicebot(["cloud", "serve", "backup", pasted], { cwd: dir.path });
  assert.equal(backup.code, 2, backup.stderr);
  assert.match(backup.stderr, /backup takes no argument; unexpected: one not shown/);
  assert.doesNotMatch(backup.stderr, /Zx9QwE/);
  assert.deepEqual(await listFiles(dir.path), []);
});

Deno.test("a 30 MB project name in --config is quoted by its first characters and its length", async () => {
  await using dir = await tempDir();
  const name = "x".repeat(30_000_000);
  await Deno.writeTextFile(join(dir.path, "huge.json"), JSON.stringify({ project_name: name }));
  const run = await voicebot(["init", "out", "--config", "huge.json"], { cwd: dir.path });
  assert.equal(run.code, 2, run.stderr.slice(0, 2000));
  assert.match(run.stderr, /"x{40}…" \(30000000 characters\) is too long: at most 55 characters/);
  assert.ok(run.stderr.length < 2_000, `${run.stderr.length} characters on stderr`);
});

Deno.test("VOICEBOT_CONFIG naming no file, or a directory, is said with the path", async () => {
  await using dir = await tempDir();
  const missing = join(dir.path, "nonexistent/config.json");
  const none = await voicebot(["cloud", "secrets", "list"], {
    cwd: dir.path,
    env: { VOICEBOT_CONFIG: missing },
  });
  assert.equal(none.code, 3, none.stderr);
  assert.match(none.stderr, new RegExp(`not logged in: .*\\(there is no ${missing}\\)`));

  const folder = join(dir.path, "settings");
  await Deno.mkdir(folder);
  const directory = await voicebot(["cloud", "secrets", "list"], {
    cwd: dir.path,
    env: { VOICEBOT_CONFIG: folder },
  });
  assert.equal(directory.code, 2, directory.stderr);
  assert.match(directory.stderr, new RegExp(`the config file ${folder} is a directory\\.`));
  assert.doesNotMatch(directory.stderr, /chmod/);
});
