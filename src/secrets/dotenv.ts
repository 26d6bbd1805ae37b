/**
 * A dotenv file read exactly as a generated bot reads it: `bot.py` calls python-dotenv 1.x's
 * `load_dotenv(override=True)`, so python-dotenv is the reference, not our idea of dotenv. Its
 * parser is followed statement by statement (the patterns are its own, with Python's `\s`), and
 * tests/dotenv_reference_test.ts holds this module to the real library's answers.
 *
 * How python-dotenv reads a file: UTF-8 text whose CRLF and bare CR read as LF (Python's universal
 * newlines), a byte order mark kept as part of the first key; blank lines and `#` comments; an
 * optional `export `; a key unquoted or in single quotes; `=` with spaces around it; a value that
 * is unquoted (trimmed, ending at a `#` after whitespace; backticks are ordinary characters), in
 * single quotes (`\'` and `\\` are escapes) or in double quotes (`\\ \' \" \a \b \f \n \r \t \v`),
 * quoted values spanning lines; then `${VAR}` and `${VAR:-default}` in any value are replaced by
 * the keys defined above (a key without `=` reads as empty) or else the environment. A key with no
 * `=` sets nothing. A statement it cannot parse is skipped with a warning.
 *
 * What differs, on purpose: a statement python-dotenv would skip is a problem, with its line, and
 * so is a reference to a variable not defined above it (python-dotenv would take it, or its
 * default, from the environment of the machine it runs on, and nothing from the uploader's
 * environment may reach the cloud). Problems never quote a value.
 *
 * @module
 */
import { showableKey } from "./names.ts";

export interface DotenvEntry {
  key: string;
  /** The value python-dotenv gives the key, references replaced. */
  value: string;
  /** 1-based line of the key. */
  line: number;
}

export interface DotenvProblem {
  /** Undefined for a problem of the whole text (not a text file). */
  line?: number;
  message: string;
}

export interface DotenvResult {
  /** Keys with a value, in file order, duplicates included: the caller decides what they mean. */
  entries: DotenvEntry[];
  /** Keys without `=`, for which python-dotenv sets nothing. */
  withoutValue: { key: string; line: number }[];
  problems: DotenvProblem[];
}

// Python's `\s` in a str pattern (str.isspace), which is not JavaScript's: it has \x1c-\x1f and
// \x85, and not \ufeff. INLINE is python-dotenv's `[^\S\r\n]`.
const SPACE = String
  .raw`\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;
const INLINE = String.raw`\t\v\f\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;

const at = (source: string) => new RegExp(source, "uy");
// python-dotenv's patterns (dotenv/parser.py). After universal newlines the text has no CR, so
// LF is the only line end.
const MULTILINE_WHITESPACE = at(`[${SPACE}]*`);
const WHITESPACE = at(`[${INLINE}]*`);
const EXPORT = at(`(?:export[${INLINE}]+)?`);
const SINGLE_QUOTED_KEY = at(`'([^']+)'`);
const UNQUOTED_KEY = at(`([^=#${SPACE}]+)`);
const EQUAL_SIGN = at(`=[${INLINE}]*`);
const SINGLE_QUOTED_VALUE = at(String.raw`'((?:\\'|[^'])*)'`);
const DOUBLE_QUOTED_VALUE = at(String.raw`"((?:\\"|[^"])*)"`);
const UNQUOTED_VALUE = at(`([^\n]*)`);
const COMMENT = at(`(?:[${INLINE}]*#[^\n]*)?`);
const END_OF_LINE = at(`[${INLINE}]*(?:\n|$)`);
const REST_OF_LINE = at(`[^\n]*\n?`);

const INLINE_COMMENT = new RegExp(`[${SPACE}]+#`, "u");
const TRAILING_SPACE = new RegExp(`[${SPACE}]+$`, "u");
const DOUBLE_QUOTE_ESCAPES = /\\[\\'"abfnrtv]/g;
const SINGLE_QUOTE_ESCAPES = /\\[\\']/g;
const ESCAPED: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};
// python-dotenv's `${name}` / `${name:-default}` (dotenv/variables.py).
const REFERENCE = /\$\{([^}:]*)(?::-([^}]*))?\}/g;

/** A file's text as python-dotenv opens it (strict UTF-8, BOM kept); undefined if not UTF-8. */
function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export const NOT_TEXT = "not a text file: a dotenv file is UTF-8 text without NUL bytes";

/** Reads a whole dotenv file (its bytes, or its text); never throws. NUL is no text either. */
export function parse(input: string | Uint8Array): DotenvResult {
  const decoded = typeof input === "string" ? input : decodeText(input);
  if (decoded === undefined || decoded.includes("\0")) {
    return { entries: [], withoutValue: [], problems: [{ message: NOT_TEXT }] };
  }
  const statements = readStatements(decoded.replace(/\r\n?/g, "\n"));
  return resolve(statements);
}

/** A key and its value (undefined: no `=`), or what makes python-dotenv warn and skip it. */
type Statement =
  & { line: number }
  & ({ key: string; value: string | undefined } | { problem: string });

class Unparsable extends Error {}

/** python-dotenv's `parse_stream`: one statement at a time, each ending at its line's end. */
function readStatements(text: string): Statement[] {
  const statements: Statement[] = [];
  let pos = 0;
  let line = 1;
  let counted = 0;
  const lineAt = (index: number) => {
    for (; counted < index; counted++) if (text[counted] === "\n") line++;
    return line;
  };
  const read = (pattern: RegExp, problem: () => string): string => {
    pattern.lastIndex = pos;
    const match = pattern.exec(text);
    if (!match) throw new Unparsable(problem());
    pos = pattern.lastIndex;
    return match[1] ?? match[0];
  };

  while (pos < text.length) {
    read(MULTILINE_WHITESPACE, () => "");
    if (pos >= text.length) break;
    const start = lineAt(pos);
    try {
      read(EXPORT, () => "");
      let key: string | undefined;
      if (text[pos] === "'") {
        key = read(SINGLE_QUOTED_KEY, () => "the quote that opens the key is never closed");
      } else if (text[pos] !== "#") {
        key = read(UNQUOTED_KEY, () => 'expected KEY=value: there is no key before "="');
      }
      read(WHITESPACE, () => "");
      let value: string | undefined;
      let quote: string | undefined;
      if (text[pos] === "=") {
        read(EQUAL_SIGN, () => "");
        quote = text[pos];
        value = readValue(text[pos], read);
      }
      read(COMMENT, () => "");
      read(END_OF_LINE, () => {
        if (value === undefined) {
          const lineEnd = text.indexOf("\n", pos);
          return text.slice(pos, lineEnd === -1 ? undefined : lineEnd).includes("=")
            ? "expected KEY=value: a key name has no spaces"
            : 'expected KEY=value: this line has no "="';
        }
        return `unexpected text after the value's closing ${QUOTE_NAMES[quote!]} ` +
          '(a comment starts with " #")';
      });
      if (key !== undefined) statements.push({ line: start, key, value });
    } catch (error) {
      if (!(error instanceof Unparsable)) throw error;
      statements.push({ line: start, problem: error.message });
      read(REST_OF_LINE, () => "");
    }
  }
  return statements;
}

const QUOTE_NAMES: Record<string, string> = { "'": "single quote", '"': "double quote" };

function readValue(first: string | undefined, read: (p: RegExp, why: () => string) => string) {
  const unclosed = (quote: string) => () =>
    `the ${QUOTE_NAMES[quote]} that opens the value is never closed`;
  if (first === "'") {
    return read(SINGLE_QUOTED_VALUE, unclosed(first))
      .replace(SINGLE_QUOTE_ESCAPES, (escape) => escape[1]);
  }
  if (first === '"') {
    return read(DOUBLE_QUOTED_VALUE, unclosed(first))
      .replace(DOUBLE_QUOTE_ESCAPES, (escape) => ESCAPED[escape[1]]);
  }
  if (first === undefined || first === "\n") return "";
  const part = read(UNQUOTED_VALUE, () => "");
  const comment = part.search(INLINE_COMMENT);
  return (comment === -1 ? part : part.slice(0, comment)).replace(TRAILING_SPACE, "");
}

/**
 * python-dotenv's `resolve_variables` with `override=True`: each value's references take the
 * keys defined above it. A reference to anything else would come from the environment of the
 * machine that reads the file (a name no environment can hold reads as empty, or its default,
 * everywhere, and is not one): it is a problem here when a value the file ends with depends on it,
 * directly or through the keys it refers to. A value given again later does not count.
 */
function resolve(statements: Statement[]): DotenvResult {
  const result: DotenvResult = { entries: [], withoutValue: [], problems: [] };
  const defined = new Map<string, string | undefined>();
  // For each key, what its value takes from the environment: each name, with the line of its
  // first reference.
  const fromEnvironment = new Map<string, Map<string, number>>();
  // A reference names what it refers to when that is surely a name: a key of this file, or an
  // upper-case variable name. Anything else between the braces may be a value typed there.
  const keys = new Set(statements.flatMap((s) => "key" in s ? [s.key] : []));
  const nameable = (name: string) =>
    showableKey(name) && (keys.has(name) || /^[A-Z_][A-Z0-9_]*$/.test(name));
  for (const statement of statements) {
    const { line } = statement;
    if ("problem" in statement) {
      result.problems.push({ line, message: statement.problem });
      continue;
    }
    const { key, value } = statement;
    const taken = new Map<string, number>();
    if (value === undefined) {
      defined.set(key, undefined);
      fromEnvironment.set(key, taken);
      result.withoutValue.push({ key, line });
      continue;
    }
    const resolved = value.replace(REFERENCE, (_, name: string, fallback?: string) => {
      if (defined.has(name)) {
        for (const [other, at] of fromEnvironment.get(name)!) {
          if (!taken.has(other)) taken.set(other, at);
        }
        return defined.get(name) ?? "";
      }
      if (name !== "" && !/[=\0]/.test(name) && !taken.has(name)) taken.set(name, line);
      return fallback ?? "";
    });
    defined.set(key, resolved);
    fromEnvironment.set(key, taken);
    // A value with a problem is not read: its problem says all there is to say about it.
    if (taken.size === 0) result.entries.push({ key, value: resolved, line });
  }
  const reported = new Set<string>();
  for (const taken of fromEnvironment.values()) {
    for (const [name, line] of taken) {
      if (reported.has(`${line}:${name}`)) continue;
      reported.add(`${line}:${name}`);
      const shown = nameable(name) ? name : "a variable";
      result.problems.push({
        line,
        message: `the value refers to ${shown}, which is not defined above this line: ` +
          "python-dotenv would take it from the environment of the machine it runs on, which " +
          `is never uploaded; define ${shown === name ? name : "it"} above this line, or write ` +
          "the value itself",
      });
    }
  }
  result.problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return result;
}
