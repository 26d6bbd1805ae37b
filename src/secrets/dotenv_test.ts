// What python-dotenv reads is tested against python-dotenv itself (tests/dotenv_reference_test.ts);
// these are what the reference does not say: where problems are, and what they never show.
import assert from "node:assert/strict";
import fc from "fast-check";
import { NOT_TEXT, parse } from "./dotenv.ts";

Deno.test("dotenv: every problem at once, each at the line its statement starts on", () => {
  const text = [
    "GOOD=1",
    "no equals here",
    "BAD KEY=1",
    "Q='closed' trailing",
    'U="never closed',
    "",
    "  =no key",
    "'unclosed key=1",
    "R=${NOT_DEFINED}",
    "AFTER=2",
  ].join("\n");
  const { entries, problems } = parse(text);
  assert.deepEqual(problems, [
    { line: 2, message: 'expected KEY=value: this line has no "="' },
    { line: 3, message: "expected KEY=value: a key name has no spaces" },
    {
      line: 4,
      message:
        `unexpected text after the value's closing single quote (a comment starts with " #")`,
    },
    { line: 5, message: "the double quote that opens the value is never closed" },
    { line: 7, message: 'expected KEY=value: there is no key before "="' },
    { line: 8, message: "the quote that opens the key is never closed" },
    {
      line: 9,
      message: "the value refers to NOT_DEFINED, which is not defined above this line: " +
        "python-dotenv would take it from the environment of the machine it runs on, which is " +
        "never uploaded; define NOT_DEFINED above this line, or write the value itself",
    },
  ]);
  // The lines after an unclosed quote are read on their own; a value with a problem is not read.
  assert.deepEqual(entries.map((e) => [e.key, e.line]), [["GOOD", 1], ["AFTER", 10]]);
});

Deno.test("dotenv: lines are counted across quoted values and every kind of line end", () => {
  const text = "A=\"x\ny\"\r\nB=1\rC='p\r\nq'\n\n D=2";
  assert.deepEqual(parse(text).entries.map((e) => [e.key, e.value, e.line]), [
    ["A", "x\ny", 1],
    ["B", "1", 3],
    ["C", "p\nq", 4],
    ["D", "2", 7],
  ]);
});

Deno.test("dotenv: a reference is named only when it is surely a name, not a value typed there", () => {
  const named = (text: string) =>
    parse(text).problems.map((p) => /refers to (.+?), which/.exec(p.message)?.[1]);
  // A token, or lower-case letters that may be a password: not shown.
  assert.deepEqual(named("A=${sk_live_4eC39HqLyjWDarjtT1zdp7dc}\nB=${gvhufzknslmtjof}\n"), [
    "a variable",
    "a variable",
  ]);
  // An upper-case variable name, or a key of the file (defined below the reference): shown.
  assert.deepEqual(named("A=${API_BASE}\nB=${later_key}\nlater_key=1\n"), [
    "API_BASE",
    "later_key",
  ]);
});

Deno.test("dotenv: bytes that are not UTF-8 text, or hold NUL, are one problem", () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  for (const input of [bytes(0x41, 0x3d, 0xc3), bytes(0x41, 0x3d, 0x00, 0x31), "A=\0"]) {
    assert.deepEqual(parse(input), {
      entries: [],
      withoutValue: [],
      problems: [{ message: NOT_TEXT }],
    });
  }
  // The BOM is kept, as python-dotenv's UTF-8 reading keeps it.
  assert.equal(parse(bytes(0xef, 0xbb, 0xbf, 0x41, 0x3d, 0x31)).entries[0].key, "\uFEFFA");
});

Deno.test("dotenv: parse never throws, and every problem is on a line of the text (property)", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme" }), (text) => {
      const lines = text.split(/\r\n?|\n/).length;
      for (const problem of parse(text).problems) {
        assert.ok(problem.line !== undefined && problem.line >= 1 && problem.line <= lines);
      }
    }),
    { numRuns: 1000 },
  );
});
