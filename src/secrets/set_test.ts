import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { checkSecretsInput, type SecretsInput } from "./set.ts";

const check = (input: Partial<SecretsInput>) =>
  checkSecretsInput({ name: "app", pairs: [], allowEmpty: false, ...input });

/** The problems of the UsageError `fn` throws. */
function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.problems;
  }
  assert.fail("expected a UsageError");
}

Deno.test("set input: pairs and a file merge; the same value twice is fine", () => {
  const secrets = check({
    pairs: ["A=1", "B=two words", "C=x=y"],
    file: { label: ".env", text: "D=4\nA=1\n" },
  });
  assert.deepEqual([...secrets].map(([k, v]) => [k, v.value, v.origin]), [
    ["A", "1", "argument 2"],
    ["B", "two words", "argument 3"],
    ["C", "x=y", "argument 4"],
    ["D", "4", ".env:1"],
  ]);
});

Deno.test("set input: every problem at once, each naming its source, no value quoted", () => {
  const problems = problemsOf(() =>
    check({
      name: "bad name!",
      pairs: ["sk-live-secretvalue", "1BAD=v", "A=first", "E="],
      file: { label: "prod.env", text: "A=second\nnot a line\nOK=1\nLATE=\n" },
    })
  );
  assert.deepEqual(problems, [
    'set name "bad name!": must be 1 to 63 letters, digits or hyphens',
    'argument 2: expected KEY=value, found no "="',
    'argument 3: key "1BAD" must start with a letter or _, then letters, digits or _, at most 128 characters',
    "argument 5: E is empty (add --allow-empty to store an empty value)",
    "prod.env:1: A is also given at argument 4, with another value",
    "prod.env:2: expected KEY=value: this line has no `=`",
    "prod.env:4: LATE is empty (add --allow-empty to store an empty value)",
  ]);
  const text = problems.join("\n");
  for (const value of ["sk-live", "first", "second"]) assert.ok(!text.includes(value), value);
});

Deno.test("set input: --allow-empty lets an empty value through; nothing at all is a problem", () => {
  assert.equal(check({ pairs: ["E="], allowEmpty: true }).get("E")?.value, "");
  assert.deepEqual(problemsOf(() => check({})), [
    "no secrets given: pass KEY=value arguments or --file .env",
  ]);
});
