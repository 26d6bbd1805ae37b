/**
 * `voicebot cloud secrets set --file` reads a dotenv file as the bot does: with python-dotenv
 * (`load_dotenv(override=True)` in bot.py). Here src/secrets/dotenv.ts is held to python-dotenv's
 * own answers: for the table of cases in tests/data/dotenv_cases.json, the answers that
 * scripts/dotenv_reference.py took from the real library (tests/data/dotenv_reference.json, so
 * that this holds on a machine without it); and where python-dotenv 1.x is importable (CI checks
 * that it is), the library itself, live, for the table and for random files (tests/skips.ts's
 * "python-dotenv" group: with CI=true they run, and fail without it).
 *
 * A file is accepted exactly when python-dotenv reads it without a warning and its values do not
 * depend on the environment it is read in; an accepted file's keys and values are python-dotenv's.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parse } from "../src/secrets/dotenv.ts";
import { pythonWithDotenv, skipped } from "./skips.ts";

interface Case {
  name: string;
  text: string;
}

/** python-dotenv's answer for one text (see scripts/dotenv_reference.py). */
interface Answer extends Case {
  /** In python-dotenv's order; null for a key without `=`. */
  values: [string, string | null][];
  warnings: number;
  dependsOnEnvironment: string[];
}

interface Reference {
  pythonDotenv: string;
  cases: Answer[];
}

const data = (name: string) => new URL(`data/${name}`, import.meta.url);
const CASES: Case[] = JSON.parse(await Deno.readTextFile(data("dotenv_cases.json")));
const COMMITTED: Reference = JSON.parse(await Deno.readTextFile(data("dotenv_reference.json")));
const SCRIPT = new URL("../scripts/dotenv_reference.py", import.meta.url).pathname;

/** python-dotenv's answers, from the library itself. */
async function askPythonDotenv(cases: Case[]): Promise<Reference> {
  const child = new Deno.Command(pythonWithDotenv() ?? "python3", {
    args: [SCRIPT],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(cases)));
  await writer.close();
  const output = await child.output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `scripts/dotenv_reference.py failed: ${stderr}`);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/** What voicebot makes of a text, in the terms of python-dotenv's answer. */
function ours(text: string): { accepted: boolean; values: [string, string | null][] } {
  const { entries, withoutValue, problems } = parse(text);
  const statements = [
    ...entries.map(({ key, value, line }) => ({ key, value: value as string | null, line })),
    ...withoutValue.map(({ key, line }) => ({ key, value: null, line })),
  ].sort((a, b) => a.line - b.line);
  // A key keeps the place it was first given and takes its last value, as in a Python dict.
  const values = new Map<string, string | null>();
  for (const { key, value } of statements) values.set(key, value);
  return { accepted: problems.length === 0, values: [...values] };
}

/** Every answer that voicebot's reader disagrees with, described. */
function disagreements(answers: Answer[]): string[] {
  const found: string[] = [];
  for (const answer of answers) {
    const expectAccepted = answer.warnings === 0 && answer.dependsOnEnvironment.length === 0;
    const actual = ours(answer.text);
    const what = `${answer.name}: ${JSON.stringify(answer.text)}`;
    if (actual.accepted !== expectAccepted) {
      found.push(
        `${what}: ${actual.accepted ? "accepted" : "refused"}, but python-dotenv ` +
          (expectAccepted
            ? `reads it cleanly as ${JSON.stringify(answer.values)}`
            : `warns ${answer.warnings} time(s), and depends on the environment for ` +
              JSON.stringify(answer.dependsOnEnvironment)),
      );
    } else if (expectAccepted) {
      try {
        assert.deepEqual(actual.values, answer.values);
      } catch {
        found.push(
          `${what}: read as ${JSON.stringify(actual.values)}, python-dotenv reads ` +
            JSON.stringify(answer.values),
        );
      }
    }
  }
  return found;
}

Deno.test("dotenv reference: the committed answers are for the case table as it stands", () => {
  assert.deepEqual(
    COMMITTED.cases.map(({ name, text }) => ({ name, text })),
    CASES,
    "tests/data/dotenv_cases.json changed: run python3 scripts/dotenv_reference.py " +
      "tests/data/dotenv_cases.json > tests/data/dotenv_reference.json",
  );
  assert.match(COMMITTED.pythonDotenv, /^1\./);
});

Deno.test("dotenv reference: every case of the table reads as python-dotenv reads it", () => {
  assert.deepEqual(disagreements(COMMITTED.cases), []);
  // The table covers both outcomes, and every rule of the reader (see the case names).
  const refused = COMMITTED.cases.filter((c) => c.warnings || c.dependsOnEnvironment.length);
  assert.ok(refused.length >= 10 && COMMITTED.cases.length - refused.length >= 60);
});

Deno.test({
  name: "dotenv reference: python-dotenv, asked live, answers the table as committed",
  ignore: skipped("python-dotenv"),
  fn: async () => {
    const live = await askPythonDotenv(CASES);
    assert.match(live.pythonDotenv, /^1\./);
    assert.deepEqual(live.cases, COMMITTED.cases);
  },
});

// Random files inside python-dotenv's grammar: keys plain, quoted or exported; values unquoted,
// in single or double quotes with their escapes, over several lines, with comments and references
// to keys above; blank and comment lines; LF, CRLF and bare CR line ends.
const lineEnd = fc.constantFrom("\n", "\r\n", "\r");
const spaces = fc.constantFrom("", " ", "  ", "\t");
const keyName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,9}$/).filter((k) => k !== "export");
const SOME = ["a", "Z", "0", " ", "\t", "#", "=", "`", "$", "}", ":", "-", "/", "é", "日", "😀"];
const UNUSUAL = ["\u00a0", "\u3000", "\x85", "\x1c", "\ufeff", "\u2028"];
const char = (...more: string[]) => fc.constantFrom(...SOME, ...UNUSUAL, ...more);
const commentText = fc.array(char("'", '"', "\\"), { maxLength: 6 }).map((c) => c.join(""));

/** A value's pieces: `ref` is replaced by a reference to a key above, when there is one. */
type Piece = string | { ref: number; fallback?: string };
const reference = fc.record(
  { ref: fc.nat(), fallback: fc.array(char(), { maxLength: 3 }).map((c) => c.join("")) },
  { requiredKeys: ["ref"] },
);
const pieces = (text: fc.Arbitrary<string>) =>
  fc.array(fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: reference }), {
    maxLength: 8,
  });

const valueForm = fc.oneof(
  fc.record({
    quote: fc.constant(""),
    // A first character that opens no quote (nor is a space, after which one could), and no
    // "{" but in references.
    pieces: fc.tuple(
      fc.constantFrom("a", "0", "#", "=", "`", "$", "é", "😀"),
      pieces(char("'", '"', "\\")),
    )
      .map(([first, rest]): Piece[] => [first, ...rest]),
    comment: fc.option(commentText.map((c) => ` #${c}`), { nil: "" }),
  }),
  fc.record({
    quote: fc.constant("'"),
    pieces: pieces(fc.oneof(char('"', "\n", "\r\n"), fc.constantFrom("\\'", "\\\\", "\\n"))),
    comment: fc.oneof(spaces, fc.tuple(spaces, commentText).map(([s, c]) => `${s}#${c}`)),
  }),
  fc.record({
    quote: fc.constant('"'),
    pieces: pieces(
      fc.oneof(
        char("'", "\n", "\r"),
        fc.constantFrom(...[..."\\'\"abfnrtvxd"].map((e) => `\\${e}`)),
      ),
    ),
    comment: fc.oneof(spaces, fc.tuple(spaces, commentText).map(([s, c]) => `${s}#${c}`)),
  }),
);

const statement = fc.record({
  export: fc.option(fc.tuple(fc.constantFrom("export"), fc.constantFrom(" ", "\t", "  ")), {
    nil: undefined,
  }),
  quotedKey: fc.boolean(),
  before: spaces,
  after: spaces,
  value: fc.option(valueForm, { nil: undefined, freq: 8 }),
  blankLinesBefore: fc.array(fc.constantFrom("", "  ", "# note", "  # a=b"), { maxLength: 2 }),
  end: lineEnd,
});

const inGrammarFile = fc.uniqueArray(keyName, { minLength: 1, maxLength: 8 }).chain((keys) =>
  fc.tuple(...keys.map(() => statement)).map((statements) =>
    statements.map((s, i) => {
      const key = s.quotedKey ? `'${keys[i]}'` : keys[i];
      const head = (s.export ? s.export.join("") : "") + key + s.before;
      const blank = s.blankLinesBefore.map((line) => line + s.end).join("");
      if (!s.value) return `${blank}${head}${s.end}`;
      let value = s.value.pieces.map((piece: Piece) => {
        if (typeof piece === "string") return piece;
        if (i === 0) return "";
        const name = keys[piece.ref % i];
        return piece.fallback === undefined ? `\${${name}}` : `\${${name}:-${piece.fallback}}`;
      }).join("");
      const { quote, comment } = s.value;
      // python-dotenv reads `\\` then the closing quote as a backslash and an escaped quote: the
      // value goes on to the next quote in the file. No file of its grammar ends a value so.
      if (quote && value.endsWith("\\")) value += ".";
      return `${blank}${head}=${s.after}${quote}${value}${quote}${comment}${s.end}`;
    }).join("")
  )
);

Deno.test({
  name: "dotenv reference: random files in the grammar read as python-dotenv reads them (property)",
  ignore: skipped("python-dotenv"),
  fn: async () => {
    const seed = Date.now();
    const texts = fc.sample(inGrammarFile, { numRuns: 400, seed });
    const live = await askPythonDotenv(texts.map((text, i) => ({ name: `file ${i}`, text })));
    // The generator stays inside the grammar: python-dotenv reads every file cleanly.
    const unclean = live.cases.filter((c) => c.warnings || c.dependsOnEnvironment.length);
    assert.deepEqual(
      unclean.map((c) => c.text),
      [],
      `seed ${seed}: the generator left the grammar`,
    );
    assert.deepEqual(disagreements(live.cases), [], `seed ${seed}`);
  },
});

Deno.test({
  name:
    "dotenv reference: random text of dotenv's characters is refused or read as python-dotenv " +
    "reads it (property)",
  ignore: skipped("python-dotenv"),
  fn: async () => {
    const seed = Date.now();
    const piece = fc.constantFrom(
      ..."AbZ_1 \t#='\"`\\${}:-\n\r".split(""),
      "\r\n",
      "export ",
      ":-",
      "${A}",
      "A=",
      "\ufeff",
      "\x85",
      "\u00a0",
    );
    const texts = fc.sample(fc.array(piece, { maxLength: 30 }).map((p) => p.join("")), {
      numRuns: 600,
      seed,
    });
    const live = await askPythonDotenv(texts.map((text, i) => ({ name: `text ${i}`, text })));
    assert.deepEqual(disagreements(live.cases), [], `seed ${seed}`);
    // Both outcomes occur, so that neither "refuse all" nor "accept all" passes.
    const clean = live.cases.filter((c) => !c.warnings && !c.dependsOnEnvironment.length).length;
    assert.ok(clean > 60 && clean < 540, `${clean} of 600 clean`);
  },
});
