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
  const { secrets, notes } = check({
    pairs: ["A=1", "B=two words", "C=x=y"],
    file: { label: ".env", text: "D=4\nA=1\n" },
  });
  assert.deepEqual(notes, []);
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
    "argument 1 is not a set name: use 1 to 63 letters, digits or hyphens",
    'argument 2: expected KEY=value, found no "="',
    'argument 3: what comes before "=" is not a key name (a key starts with a letter or _, then letters, digits or _, at most 128 characters)',
    "argument 5: E is empty: fill it in, or drop the argument if the bot does not need it (--allow-empty stores it empty)",
    "prod.env:1: A is also given at argument 4, with another value",
    'prod.env:2: expected KEY=value: this line has no "="',
    "prod.env:4: LATE is empty: fill it in, or delete the line if the bot does not need it (--allow-empty stores it empty)",
  ]);
  const text = problems.join("\n");
  for (const value of ["sk-live", "first", "second"]) assert.ok(!text.includes(value), value);
});

Deno.test("set input: --allow-empty lets an empty value through; nothing at all is a problem", () => {
  assert.equal(check({ pairs: ["E="], allowEmpty: true }).secrets.get("E")?.value, "");
  assert.deepEqual(problemsOf(() => check({})), [
    "no secrets given: name a dotenv file with --file .env, or pipe one in with -f -",
  ]);
});

Deno.test("set input: text that may be a value is never quoted, nor made a key", () => {
  // Secret-looking text where a set name, a key or a pair goes; none may appear in a problem.
  const tokens = {
    slashed: "Zm9vYmFyLXNlY3JldC12YWx1ZQ/x==",
    padded: "c2VjcmV0LXRva2VuLXZhbHVl==",
    onePad: "c2VjcmV0LXRva2VuLXZhbHVlcw=",
    stripe: "sk_live_4eC39HqLyjWDarjtT1zdp7dc=",
    base32: "JBSWY3DPEHPK3PXP====",
    pair: "OPENAI_API_KEY=sk-proj-Zx81",
  };
  for (const allowEmpty of [false, true]) {
    const problems = problemsOf(() =>
      check({
        name: tokens.pair,
        pairs: ["OPENAI_API_KEY", tokens.slashed, tokens.padded, tokens.onePad, tokens.stripe],
        file: { label: ".env", text: `${tokens.base32}\n${tokens.padded}\n'open=x\n` },
        allowEmpty,
      })
    );
    assert.deepEqual(problems, [
      'argument 1 is not a set name: it holds "=" (the set name comes first: set NAME --file .env)',
      'argument 2: expected KEY=value, found no "="',
      'argument 3: what comes before "=" is not a key name (a key starts with a letter or _, then letters, digits or _, at most 128 characters)',
      ...[4, 5, 6].map((n) =>
        `argument ${n}: this reads as a value ending in "=" padding, not as KEY=value; give the key too (KEY=value)`
      ),
      ...[1, 2].map((n) =>
        `.env:${n}: this reads as a value ending in "=" padding, not as KEY=value; give the key too (KEY=value)`
      ),
      ".env:3: the quote that opens the key is never closed",
    ]);
    const text = problems.join("\n");
    for (const token of Object.values(tokens)) {
      for (const part of token.split(/=+/).filter((p) => p.length > 4)) {
        assert.ok(!text.includes(part), `${part} was shown`);
      }
    }
  }
  // A variable name with an empty value is named, so that it can be found; a mixed-case key with
  // digits (a token, by its look) is not, even where it is a key.
  assert.match(
    problemsOf(() => check({ pairs: ["DAILY_API_KEY="] }))[0],
    /^argument 2: DAILY_API_KEY is empty/,
  );
  assert.deepEqual(problemsOf(() => check({ pairs: ["aB3xYz9Qw=1", "aB3xYz9Qw=2"] })), [
    "argument 3: the key is also given at argument 2, with another value",
  ]);
});

Deno.test("set input: the file's values are python-dotenv's; a key without = is a note", () => {
  const { secrets, notes } = check({
    file: { label: ".env", text: "HOST=example.org\nURL=https://${HOST}/v1\nDEBUG\n" },
  });
  assert.deepEqual([...secrets].map(([k, v]) => [k, v.value]), [
    ["HOST", "example.org"],
    ["URL", "https://example.org/v1"],
  ]);
  assert.deepEqual(notes, [
    '.env:3 has a key without "=", for which python-dotenv sets nothing; nothing is sent for it.',
  ]);
});

Deno.test("set input: a byte order mark, and a file that is not text, are named", () => {
  assert.deepEqual(problemsOf(() => check({ file: { label: ".env", text: "\uFEFFA=1\n" } })), [
    ".env:1: the file starts with a byte order mark, which python-dotenv reads as part of the first key, so the bot would not see it under its name; save the file as UTF-8 without a BOM",
  ]);
  for (const bytes of [[0x41, 0x3d, 0xff, 0x0a], [0x41, 0x3d, 0x00, 0x0a]]) {
    assert.deepEqual(
      problemsOf(() => check({ file: { label: "bin", text: new Uint8Array(bytes) } })),
      ["bin: not a text file: a dotenv file is UTF-8 text without NUL bytes"],
    );
  }
});
