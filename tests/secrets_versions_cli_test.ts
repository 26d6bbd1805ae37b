/**
 * `voicebot cloud secrets history` and `rollback`, end to end: the CLI spawned against the real
 * server, as a user who uploaded the wrong `.env` over a working set would use them.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { type Session, startSession } from "./helpers_secrets.ts";

const GOOD = "OPENAI_API_KEY=sk-good-value-1f2e\nDEEPGRAM_API_KEY=dg-good-value-9a8b\n";
const WRONG = "OPENAI_API_KEY=sk-wrong-value-7c6d\nCARTESIA_API_KEY=ca-wrong-value-5e4f\n";
const VALUES = ["sk-good-value-1f2e", "dg-good-value-9a8b", "sk-wrong-value-7c6d", "ca-wrong"];

async function loggedIn(): Promise<Session> {
  const s = await startSession();
  const login = await s.run(["cloud", "auth", "login", "--api-url", s.baseUrl], { stdin: s.key });
  assert.equal(login.code, 0, login.stderr);
  return s;
}

function assertNoValue(...outputs: string[]) {
  for (const output of outputs) {
    for (const value of VALUES) assert.ok(!output.includes(value), `a value was printed`);
  }
}

Deno.test("the wrong .env uploaded over a working set: history shows it, rollback restores the exact values", async () => {
  await using s = await loggedIn();
  const env = join(s.home, ".env");
  await Deno.writeTextFile(env, GOOD);
  assert.equal((await s.run(["cloud", "secrets", "set", "bot", "--file", env])).code, 0);
  await Deno.writeTextFile(env, WRONG);
  const overwrite = await s.run([
    "cloud",
    "secrets",
    "set",
    "bot",
    "--file",
    env,
    "--replace",
    "--yes",
  ]);
  assert.equal(overwrite.code, 0, overwrite.stderr);

  const history = await s.run(["cloud", "secrets", "history", "bot"]);
  assert.equal(history.code, 0, history.stderr);
  assert.match(
    history.stdout,
    /2 \(current\).*created CARTESIA_API_KEY; updated OPENAI_API_KEY; removed DEEPGRAM_API_KEY/,
  );
  assert.match(history.stdout, /\n│? ?1 .*created DEEPGRAM_API_KEY, OPENAI_API_KEY/);
  const listed = JSON.parse((await s.run(["cloud", "secrets", "history", "bot", "--json"])).stdout);
  assert.deepEqual(listed.versions.map((v: { version: number }) => v.version), [2, 1]);

  // What the rollback would do, by key, told by fingerprint; nothing is sent.
  const dry = await s.run(["cloud", "secrets", "rollback", "bot", "1", "--dry-run", "--json"]);
  assert.equal(dry.code, 0, dry.stderr);
  const plan = JSON.parse(dry.stdout);
  assert.deepEqual(
    [plan.created, plan.updated, plan.unchanged, plan.removed],
    [["DEEPGRAM_API_KEY"], ["OPENAI_API_KEY"], [], ["CARTESIA_API_KEY"]],
  );
  assert.equal(
    JSON.parse((await s.run(["cloud", "secrets", "history", "bot", "--json"])).stdout).versions
      .length,
    2,
  );

  // Without a terminal, a rollback needs --yes, and sends nothing without it.
  const refused = await s.run(["cloud", "secrets", "rollback", "bot", "1"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /needs a confirmation.*--yes/s);

  const rolled = await s.run(["cloud", "secrets", "rollback", "bot", "1", "--yes", "--wait"]);
  assert.equal(rolled.code, 0, rolled.stderr);
  assert.match(rolled.stderr, /Rolled "bot" back to version 1, as version 3\. Status: ready/);

  // The set now holds exactly the good file's values: diff against it finds them all the same.
  await Deno.writeTextFile(env, GOOD);
  const diff = await s.run(["cloud", "secrets", "diff", "bot", "--file", env, "--exit-code"]);
  assert.equal(diff.code, 0, diff.stdout + diff.stderr);
  assert.match(diff.stdout, /DEEPGRAM_API_KEY\s+same/);
  assert.match(diff.stdout, /OPENAI_API_KEY\s+same/);

  // Rolling back to what is there changes nothing, and says so.
  const again = await s.run(["cloud", "secrets", "rollback", "bot", "3", "--yes"]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /already holds version 3's keys and values/);

  // The leaked value can be purged from the versions: only the current one stays.
  const noPurge = await s.run(["cloud", "secrets", "history", "bot", "--purge"]);
  assert.equal(noPurge.code, 2, noPurge.stderr);
  const purged = await s.run(["cloud", "secrets", "history", "bot", "--purge", "--yes", "--json"]);
  assert.equal(purged.code, 0, purged.stderr);
  assert.deepEqual(JSON.parse(purged.stdout), { purged: 2 });
  const gone = await s.run(["cloud", "secrets", "rollback", "bot", "2", "--dry-run"]);
  assert.equal(gone.code, 4);
  assert.match(gone.stderr, /keeps no version 2/);

  for (const args of [["history", "nope"], ["rollback", "nope", "1", "--dry-run"]]) {
    const missing = await s.run(["cloud", "secrets", ...args]);
    assert.equal(missing.code, 4, missing.stderr);
    assert.match(missing.stderr, /no set named "nope"/);
  }
  const badVersion = await s.run(["cloud", "secrets", "rollback", "bot", "one"]);
  assert.equal(badVersion.code, 2);
  assertNoValue(history.stdout, history.stderr, dry.stdout, rolled.stdout, rolled.stderr);
});

Deno.test("cloud audit: who changed what and when, newest first, as a table and as JSON; never a value", async () => {
  await using s = await loggedIn();
  const env = join(s.home, ".env");
  await Deno.writeTextFile(env, GOOD);
  assert.equal((await s.run(["cloud", "secrets", "set", "bot", "--file", env])).code, 0);
  assert.equal(
    (await s.run(["cloud", "secrets", "unset", "bot", "DEEPGRAM_API_KEY", "--yes"])).code,
    0,
  );

  const table = await s.run(["cloud", "audit"]);
  assert.equal(table.code, 0, table.stderr);
  const rows = table.stdout.split("\n").filter((line) => /\d{4}-\d\d-\d\dT/.test(line));
  assert.match(rows[0], /key\.delete\s.*bot\s.*DEEPGRAM_API_KEY/);
  assert.match(rows[1], /set\.write\s.*bot\s.*DEEPGRAM_API_KEY, OPENAI_API_KEY/);

  const json = await s.run(["cloud", "audit", "--json", "--limit", "2"]);
  assert.equal(json.code, 0, json.stderr);
  const { events } = JSON.parse(json.stdout);
  assert.deepEqual(events.map((e: { action: string }) => e.action), ["key.delete", "set.write"]);
  assert.equal((await s.run(["cloud", "audit", "--limit", "0"])).code, 2);
  assertNoValue(table.stdout, table.stderr, json.stdout);
});
