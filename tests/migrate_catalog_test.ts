/**
 * Each entry of the catalog of Pipecat's API changes against its fixture, tests/data/migrate/<id>/:
 * before.py, code written for 1.0.0, migrated to the last release gives after.py byte for byte,
 * and the places it must report (manual.json) are the ones reported, at their lines. Directories named `<id>-<case>` are
 * more cases of entry <id> (an alias, a class of the user's own).
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { CATALOGUED, CHANGES } from "../src/migrate/changes.ts";
import { SETTINGS_CHANGES } from "../src/migrate/settings.gen.ts";
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

Deno.test("every catalog entry written by hand has a fixture, and every fixture an entry", () => {
  const unique = new Set<string>();
  for (const change of CHANGES) {
    assert.ok(!unique.has(change.id), `${change.id} is in the catalog twice`);
    unique.add(change.id);
  }
  assert.deepEqual(CATALOGUED.filter((change) => !dirs.includes(change.id)).map((c) => c.id), []);
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

/** Each generated settings entry on a call that uses all it maps, and one field it does not. */
for (const move of SETTINGS_CHANGES) {
  Deno.test(`settings entry ${move.id}`, async () => {
    const { module, name } = move.service;
    const head = `from ${module} import ${name}\n\n`;
    const all = changesBetween(CHANGES, "1.0.0", RELEASES.at(-1)!);
    const ours = <T extends { id: string }>(items: readonly T[]) =>
      items.filter((item) => item.id === move.id);
    // Each Settings field given once: by the init keyword, else by the InputParams field.
    const given = new Set<string>();
    const init = Object.entries(move.init).filter(([, field]) =>
      !given.has(field) && given.add(field)
    );
    const params = Object.entries(move.params)
      .filter(([, field]) => !given.has(field) && given.add(field));
    if (init.length + params.length > 0) {
      const call = [
        ...init.map(([keyword], i) => `${keyword}=${100 + i}`),
        ...(params.length > 0
          ? [`params=${name}.InputParams(${params.map(([f], i) => `${f}=${i}`).join(", ")})`]
          : []),
      ];
      const result = await migrateSource(`${head}x = ${name}(${call.join(", ")})\n`, all, {
        lineLength: 10_000,
      });
      const fields = [
        ...init.map(([, field], i) => `${field}=${100 + i}`),
        ...params.map(([, field], i) => `${field}=${i}`),
      ];
      assert.equal(
        result.text,
        `${head}x = ${name}(settings=${name}.Settings(${fields.join(", ")}))\n`,
      );
      assert.deepEqual(ours(result.manual), []);
    }
    for (
      const keyword of [
        ...move.unmapped.map((f) => `params=${name}.InputParams(${f}=1)`),
        ...move.whole.map((w) => `${w}=o`),
      ]
    ) {
      const left = `${head}x = ${name}(${keyword})\n`;
      const unmapped = await migrateSource(left, all);
      assert.equal(unmapped.text, left, keyword);
      assert.deepEqual(ours(unmapped.manual).map((item) => item.line), [3], keyword);
    }
  });
}
