import assert from "node:assert/strict";
import { hasConflictMarkers, MARKERS, mergeThreeWay, mergeTwoWay } from "./merge.ts";

const { yours, between, theirs } = MARKERS;

Deno.test("a three-way merge takes each side's change where only one side changed", () => {
  const base = "a\nb\nc\nd\ne\n";
  const mine = "a\nb\nc\nd\ne\nmine\n";
  const new_ = "A\nb\nc\nd\ne\n";
  assert.deepEqual(mergeThreeWay(mine, base, new_), {
    text: "A\nb\nc\nd\ne\nmine\n",
    conflicts: 0,
  });
});

Deno.test("the same lines changed on both sides are a conflict with both versions", () => {
  const merged = mergeThreeWay("a\nmine\nc\n", "a\nb\nc\n", "a\nnew\nc\n");
  assert.equal(merged.conflicts, 1);
  assert.equal(merged.text, `a\n${yours}\nmine\n${between}\nnew\n${theirs}\nc\n`);
  assert.ok(hasConflictMarkers(merged.text));
});

Deno.test("a change both sides made alike is no conflict", () => {
  assert.deepEqual(mergeThreeWay("a\nx\n", "a\nb\n", "a\nx\n"), { text: "a\nx\n", conflicts: 0 });
});

Deno.test("a last line without a line end keeps the markers on lines of their own", () => {
  const merged = mergeThreeWay("a\nmine", "a\nb", "a\nnew");
  assert.equal(merged.text, `a\n${yours}\nmine\n${between}\nnew\n${theirs}\n`);
});

Deno.test("a two-way merge keeps the common lines and marks every difference", () => {
  const merged = mergeTwoWay("a\nmine\nc\nextra\n", "a\nnew\nc\n");
  assert.equal(merged.conflicts, 2);
  assert.equal(
    merged.text,
    `a\n${yours}\nmine\n${between}\nnew\n${theirs}\nc\n${yours}\nextra\n${between}\n${theirs}\n`,
  );
});

Deno.test("text with one marker alone, or markers of another tool, is not update's conflict", () => {
  assert.equal(hasConflictMarkers(`${yours}\nno end\n`), false);
  assert.equal(hasConflictMarkers("<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> main\n"), false);
});

Deno.test("lines the user added next to lines voicebot changed are kept beside the change (uv add)", () => {
  const base = 'dependencies = [\n    "pipecat-ai[a,b]>=1.7.0,<1.8",\n]\n';
  const changed = 'dependencies = [\n    "pipecat-ai[a,c]>=1.7.0,<1.8",\n]\n';
  const after = 'dependencies = [\n    "pipecat-ai[a,b]>=1.7.0,<1.8",\n    "httpx>=0.27",\n]\n';
  const before = 'dependencies = [\n    "httpx>=0.27",\n    "pipecat-ai[a,b]>=1.7.0,<1.8",\n]\n';
  assert.deepEqual(mergeThreeWay(after, base, changed), {
    text: 'dependencies = [\n    "pipecat-ai[a,c]>=1.7.0,<1.8",\n    "httpx>=0.27",\n]\n',
    conflicts: 0,
  });
  assert.deepEqual(mergeThreeWay(before, base, changed), {
    text: 'dependencies = [\n    "httpx>=0.27",\n    "pipecat-ai[a,c]>=1.7.0,<1.8",\n]\n',
    conflicts: 0,
  });
  // The same the other way round: voicebot added a line next to one the user changed.
  assert.deepEqual(mergeThreeWay(changed, base, after), {
    text: 'dependencies = [\n    "pipecat-ai[a,c]>=1.7.0,<1.8",\n    "httpx>=0.27",\n]\n',
    conflicts: 0,
  });
});

Deno.test("lines both sides added at the same place are a conflict: their order is not known", () => {
  const merged = mergeThreeWay("a\nmine\n", "a\n", "a\nnew\n");
  assert.equal(merged.conflicts, 1);
  assert.equal(merged.text, `a\n${yours}\nmine\n${between}\nnew\n${theirs}\n`);
});
