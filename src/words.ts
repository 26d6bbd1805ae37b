/** Small pieces of English for messages and generated text, shared by the cores and commands. */

/** `1 file`, `2 files`: a count and its noun, plural by adding "s". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function andList(items: readonly string[]): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * `text` in lines of at most `width` characters, broken at spaces; continuation lines are
 * indented by `hang`. A word longer than a line is cut.
 */
export function wrap(text: string, width: number, hang = 0): string[] {
  const lines: string[] = [];
  let line = "";
  const room = () => (lines.length ? width - hang : width);
  const push = () => {
    lines.push((lines.length ? " ".repeat(hang) : "") + line);
    line = "";
  };
  for (let word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room()) push();
    while (word.length > room()) {
      line = word.slice(0, room());
      word = word.slice(room());
      push();
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line || !lines.length) push();
  return lines;
}

/**
 * A value a message quotes back, in double quotes: whole when it is short, else its first `max`
 * characters and how long it was. A message never echoes a whole file's worth of what was typed.
 */
export function quoted(value: string, max = 40): string {
  return value.length <= max
    ? `"${value}"`
    : `"${value.slice(0, max)}…" (${value.length} characters)`;
}

/** A word as a POSIX shell reads it: as it is when it is safe so, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `30s`, `30m`, `12h`, `90d` in milliseconds; null for anything else. */
export function durationMs(text: string): number | null {
  const match = /^([1-9]\d{0,5})([smhd])$/.exec(text.trim());
  if (!match) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "s"];
  return Number(match[1]) * unit;
}
