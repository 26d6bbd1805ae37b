/**
 * Each entry of the catalog of Pipecat's API changes against its fixture, tests/data/migrate/<id>/:
 * before.py, code written for 1.0.0, migrated to the last release gives after.py byte for byte,
 * and the places it must report (manual.json) are the ones reported, at their lines. Directories named `<id>-<case>` are
 * more cases of entry <id> (an alias, a class of the user's own).
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { CHANGES } from "../src/migrate/changes.ts";
import { migrateSource } from "../src/migrate/engine.ts";
import { changesBetween } from "../src/migrate/renames.ts";
import { compareVersions } from "../src/init/guides.ts";

const FIXTURES = new URL("./data/migrate/", import.meta.url).pathname;
const RELEASES = [...new Set(CHANGES.map((change) => change.since))].sort(compareVersions);
const ids = new Set(CHANGES.map((change) => change.id));

/** The entry a fixture directory belongs to: its name, or the longest id it starts with. */
function entryOf(dir: string) {
  const id = ids.has(dir)
    ? dir
    : [...ids].filter((id) => dir.startsWith(`${id}-`)).sort((a, b) => b.length - a.length)[0];
  return CHANGES.find((change) => change.id === id);
}

const dirs = [...Deno.readDirSync(FIXTURES)].filter((entry) => entry.isDirectory)
  .map((entry) => entry.name).sort();

Deno.test("every catalog entry has a fixture, and every fixture an entry", () => {
  const unique = new Set<string>();
  for (const change of CHANGES) {
    assert.ok(!unique.has(change.id), `${change.id} is in the catalog twice`);
    unique.add(change.id);
  }
  assert.deepEqual(CHANGES.filter((change) => !dirs.includes(change.id)).map((c) => c.id), []);
  assert.deepEqual(dirs.filter((dir) => entryOf(dir) === undefined), []);
  const sorted = [...CHANGES].sort((a, b) => compareVersions(a.since, b.since));
  assert.deepEqual(CHANGES.map((c) => c.id), sorted.map((c) => c.id), "ordered by release");
});

for (const dir of dirs) {
  Deno.test(`catalog fixture ${dir}`, async () => {
    const change = entryOf(dir)!;
    const read = (name: string) => Deno.readTextFile(join(FIXTURES, dir, name));
    const before = await read("before.py");
    const after = await read("after.py");
    const expected: { line: number; id: string }[] = JSON.parse(
      await read("manual.json").catch(() => "[]"),
    );
    const all = changesBetween(CHANGES, "1.0.0", RELEASES.at(-1)!);
    const result = await migrateSource(before, all);
    assert.equal(result.unparsable, false, "before.py is Python");
    assert.equal(result.text, after);
    const reported = result.manual.map(({ line, id }) => ({ line, id }));
    const byLine = (a: { line: number; id: string }, b: { line: number; id: string }) =>
      a.line - b.line || a.id.localeCompare(b.id);
    assert.deepEqual(reported.sort(byLine), [...expected].sort(byLine), "the places reported");
    assert.ok(
      change.kind !== "manual" || expected.some((item) => item.id === change.id),
      "a manual entry's fixture has a place to report",
    );
    // Every change is marked with the entry that made it, on a line that changed.
    const changedLines = new Set(
      before.split("\n").flatMap((line, i) => after.split("\n")[i] === line ? [] : [i + 1]),
    );
    for (const applied of result.applied) assert.ok(changedLines.has(applied.line), dir);
    // The result is Python, and a second run changes nothing.
    const again = await migrateSource(result.text, all);
    assert.equal(again.unparsable, false);
    assert.equal(again.text, result.text, "a second run");
  });
}
