import assert from "node:assert/strict";
import fc from "fast-check";
import { parse, serialize } from "./dotenv.ts";
import { KEY_NAME_PATTERN } from "./schemas.ts";

const pairs = (text: string) => parse(text).entries.map((e) => [e.key, e.value, e.line]);

Deno.test("dotenv: comments, blank lines, export and spaces around =", () => {
  const text = [
    "# a comment",
    "",
    "   ",
    "export A=1",
    "B = two ",
    "  # indented comment",
    "\tC=\t3",
  ].join("\n");
  assert.deepEqual(pairs(text), [["A", "1", 4], ["B", "two", 5], ["C", "3", 7]]);
  assert.deepEqual(parse(text).problems, []);
});

Deno.test("dotenv: an inline comment needs a space before #; # inside a value is kept", () => {
  assert.deepEqual(pairs("A=abc # note\nB=pa#ss\nC=#only-comment\nD=x\t# tab"), [
    ["A", "abc", 1],
    ["B", "pa#ss", 2],
    ["C", "", 3],
    ["D", "x", 4],
  ]);
});

Deno.test("dotenv: single quotes are literal, double quotes take escapes", () => {
  const text = String.raw`S='a \n $b "c" # d'
D="line\nnext \"q\" \\ \t \x"
E='' # empty
F=""`;
  assert.deepEqual(pairs(text), [
    ["S", String.raw`a \n $b "c" # d`, 1],
    ["D", 'line\nnext "q" \\ \t \\x', 2],
    ["E", "", 3],
    ["F", "", 4],
  ]);
});

Deno.test("dotenv: backticks are literal, as the dotenv package reads them", () => {
  const text = 'A=`it\'s "both" \\n $x # y`\nB=`two\nlines` # note\nC=``\nD=`never closed';
  assert.deepEqual(pairs(text), [
    ["A", `it's "both" \\n $x # y`, 1],
    ["B", "two\nlines", 2],
    ["C", "", 4],
  ]);
  assert.deepEqual(parse(text).problems, [
    { line: 5, message: "the backtick that opens the value is never closed" },
  ]);
  // The serializer picks them for a value with a single quote and no backtick.
  assert.equal(serialize([["Q", `it's "x"`]]), 'Q=`it\'s "x"`\n');
});

Deno.test("dotenv: quoted values span lines, and later lines keep their numbers", () => {
  const text = "CERT=\"-----BEGIN-----\nabc\n-----END-----\"\nNEXT=1\nS='x\ny'\nLAST=2";
  assert.deepEqual(pairs(text), [
    ["CERT", "-----BEGIN-----\nabc\n-----END-----", 1],
    ["NEXT", "1", 4],
    ["S", "x\ny", 5],
    ["LAST", "2", 7],
  ]);
});

Deno.test("dotenv: CRLF files read as LF files", () => {
  const text = 'A=1\r\nB="two\r\nlines"\r\n# c\r\nC=3 # x\r\n';
  assert.deepEqual(pairs(text), [["A", "1", 1], ["B", "two\nlines", 2], ["C", "3", 5]]);
});

Deno.test("dotenv: every problem at once, each with its line", () => {
  const text = [
    "GOOD=1",
    "no equals here",
    "BAD KEY=1",
    "Q='closed' trailing",
    'U="never closed',
    "AFTER=2",
  ].join("\n");
  const { entries, problems } = parse(text);
  assert.deepEqual(problems.map((p) => p.line), [2, 3, 4, 5]);
  assert.match(problems[0].message, /no `=`/);
  assert.match(problems[3].message, /never closed/);
  // The line after an unclosed quote is still read.
  assert.deepEqual(entries.map((e) => e.key), ["GOOD", "AFTER"]);
  // No value is echoed in a problem.
  for (const problem of problems) assert.ok(!problem.message.includes("closed' trailing"));
});

Deno.test("dotenv: duplicates are all returned, in order", () => {
  assert.deepEqual(pairs("A=1\nA=2"), [["A", "1", 1], ["A", "2", 2]]);
});

const keyArb = fc.stringMatching(KEY_NAME_PATTERN).filter((k) => k.length <= 20);
const valueArb = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom(
    "",
    " ",
    "#",
    " #x",
    "'",
    '"',
    "`",
    "'`",
    "\\",
    "\\n",
    "\n",
    "\r\n",
    "a\rb",
    "$x",
    "a b",
  ),
  fc.array(fc.constantFrom("a", " ", "#", "'", '"', "`", "\\", "\n", "\r", "\t", "=", "n"))
    .map((chars) => chars.join("")),
);

Deno.test("dotenv: serialize then parse gives back every key and value (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(keyArb, valueArb), { maxLength: 8 }), (entries) => {
      const text = serialize(entries);
      const result = parse(text);
      assert.deepEqual(result.problems, []);
      assert.deepEqual(result.entries.map((e) => [e.key, e.value]), entries);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("dotenv: a backtick-quoted value reads back literally (property)", () => {
  // Anything without a backtick or a carriage return (a CRLF file reads as LF).
  const literal = valueArb.filter((v) => !/[`\r]/.test(v));
  fc.assert(
    fc.property(keyArb, literal, fc.constantFrom("", " # note", "  "), (key, value, after) => {
      const result = parse(`${key}=\`${value}\`${after}\n`);
      assert.deepEqual(result.problems, []);
      assert.deepEqual(result.entries.map((e) => [e.key, e.value]), [[key, value]]);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("dotenv: the round trip survives CRLF line ends (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(keyArb, valueArb), { maxLength: 6 }), (entries) => {
      const text = serialize(entries).replace(/\n/g, "\r\n");
      // CRLF inside a quoted value reads as LF, like any CRLF file.
      const expected = entries.map(([k, v]) => [k, v.replace(/\r?\n/g, "\n")]);
      const actual = parse(text).entries.map((e) => [e.key, e.value.replace(/\r?\n/g, "\n")]);
      assert.deepEqual(actual, expected);
    }),
    { numRuns: 500 },
  );
});

Deno.test("dotenv: parse never throws, and every problem has a line in the text (property)", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme" }), (text) => {
      const lines = text.replace(/\r\n/g, "\n").split("\n").length;
      for (const problem of parse(text).problems) {
        assert.ok(problem.line >= 1 && problem.line <= lines);
      }
    }),
    { numRuns: 1000 },
  );
});
