/**
 * The dotenv syntax people actually write, parsed with the place every entry and every problem
 * came from (file and line), so that `voicebot cloud secrets set -f .env` can report all
 * problems at once. `dotenv`'s own `parse` drops bad lines silently and knows no line numbers.
 *
 * Accepted: blank lines and `#` comment lines; an optional `export ` prefix; `KEY=value` with
 * spaces around `=`; unquoted values (trimmed, ending at an inline ` #` comment); single quotes
 * and backticks (literal, may span lines; backticks as the dotenv package reads them, for a value
 * holding both kinds of quote); double quotes (escapes `\n` `\r` `\t` `\"` `\\`, may span
 * lines); CRLF line ends. Key names are not checked here: the caller checks every source the same way.
 *
 * @module
 */

export interface DotenvEntry {
  key: string;
  value: string;
  /** 1-based line of the key. */
  line: number;
}

export interface DotenvProblem {
  line: number;
  message: string;
}

export interface DotenvResult {
  /** In file order, duplicates included: the caller decides what a repeated key means. */
  entries: DotenvEntry[];
  problems: DotenvProblem[];
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  '"': '"',
  "\\": "\\",
};

const QUOTE_NAMES = { "'": "single quote", '"': "double quote", "`": "backtick" } as const;

/** Parses a whole dotenv text; never throws, every problem is returned with its line. */
export function parse(text: string): DotenvResult {
  const source = text.replace(/\r\n/g, "\n");
  const entries: DotenvEntry[] = [];
  const problems: DotenvProblem[] = [];
  let pos = 0;
  let line = 1;

  /** Moves to the start of the next line (or the end), counting the newline. */
  const nextLine = () => {
    const end = source.indexOf("\n", pos);
    pos = end === -1 ? source.length : end + 1;
    if (end !== -1) line++;
  };

  while (pos < source.length) {
    const lineEnd = indexOrEnd(source, "\n", pos);
    const raw = source.slice(pos, lineEnd);
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) {
      nextLine();
      continue;
    }
    const startLine = line;
    const match = /^\s*(?:export\s+)?([^=\s]+)\s*=[ \t]*/.exec(raw);
    if (!match) {
      problems.push({
        line: startLine,
        message: raw.includes("=")
          ? "expected KEY=value: a key name has no spaces"
          : "expected KEY=value: this line has no `=`",
      });
      nextLine();
      continue;
    }
    const key = match[1];
    pos += match[0].length;
    const quote = source[pos];

    if (quote === "'" || quote === '"' || quote === "`") {
      const quoted = readQuoted(source, pos, quote);
      if (quoted === undefined) {
        problems.push({
          line: startLine,
          // No key in messages: the text before "=" may be a value (the caller checks names).
          message: `the ${QUOTE_NAMES[quote]} that opens the value is never closed`,
        });
        // Skip only this line: the lines after it are read as entries of their own.
        nextLine();
        continue;
      }
      line += countNewlines(source, pos, quoted.end);
      pos = quoted.end;
      const restEnd = indexOrEnd(source, "\n", pos);
      const rest = source.slice(pos, restEnd).trim();
      if (rest !== "" && !rest.startsWith("#")) {
        problems.push({
          line,
          message: `unexpected text after the value's closing quote (a comment starts with " #")`,
        });
      } else {
        entries.push({ key, value: quoted.value, line: startLine });
      }
      nextLine();
      continue;
    }

    const valueEnd = indexOrEnd(source, "\n", pos);
    entries.push({ key, value: unquotedValue(source.slice(pos, valueEnd)), line: startLine });
    nextLine();
  }
  return { entries, problems };
}

/** An unquoted value ends at an inline comment (`#` at its start or after a space) and is trimmed. */
function unquotedValue(text: string): string {
  const comment = text.startsWith("#") ? 0 : text.search(/[ \t]#/);
  return (comment === -1 ? text : text.slice(0, comment)).trim();
}

/** Reads a quoted value starting at the opening quote; undefined when it is never closed. */
function readQuoted(
  source: string,
  start: number,
  quote: "'" | '"' | "`",
): { value: string; end: number } | undefined {
  let value = "";
  for (let i = start + 1; i < source.length; i++) {
    const char = source[i];
    if (char === quote) return { value, end: i + 1 };
    if (quote === '"' && char === "\\" && i + 1 < source.length) {
      const next = source[i + 1];
      const escaped = DOUBLE_QUOTE_ESCAPES[next];
      // An unknown escape keeps its backslash, as shells and dotenv do.
      value += escaped ?? char + next;
      i++;
      continue;
    }
    value += char;
  }
  return undefined;
}

function indexOrEnd(text: string, search: string, from: number): number {
  const index = text.indexOf(search, from);
  return index === -1 ? text.length : index;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (text[i] === "\n") count++;
  return count;
}

/**
 * Writes entries as a dotenv text that `parse` reads back to the same keys and values: plain
 * values unquoted, values without a single quote in single quotes, values with one but without a
 * backtick in backticks (both literal), the rest in double quotes with escapes. A carriage return
 * always goes escaped in double quotes: a CRLF file reads as LF.
 */
export function serialize(entries: Iterable<readonly [string, string]>): string {
  let text = "";
  for (const [key, value] of entries) text += `${key}=${quoteValue(value)}\n`;
  return text;
}

function quoteValue(value: string): string {
  if (/^[A-Za-z0-9_.,:;/@+=%^*~!?$&()[\]{}<>|-]+$/.test(value)) return value;
  if (!/['\r]/.test(value)) return `'${value}'`;
  if (!/[`\r]/.test(value)) return `\`${value}\``;
  const escaped = value
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r");
  return `"${escaped}"`;
}
