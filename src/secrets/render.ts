/**
 * Tables for people; `--json` prints the parsed schema objects instead. Key names only: no value
 * ever reaches this module. `table()` is the CLI's one way to make a table (`cloud serve list-keys`
 * uses it too).
 *
 * @module
 */
import type { SetDetail as SecretSetDetail } from "./client.ts";
import type { SecretSetSummary } from "./responses.ts";

type SetStatus = NonNullable<SecretSetSummary["status"]>;

const STATUS_COLOURS: Record<SetStatus, string> = {
  ready: "\x1b[32m",
  pending: "\x1b[33m",
  failed: "\x1b[31m",
};

/** Colour only on a terminal, and never with NO_COLOR set. */
export function colourEnabled(): boolean {
  return Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
}

function status(value: SetStatus | undefined, colour: boolean): string {
  if (value === undefined) return "-";
  return colour ? `${STATUS_COLOURS[value]}${value}\x1b[0m` : value;
}

/**
 * Every table of the CLI is made here: box-drawing borders, a line between rows, one space of
 * padding. No colours of its own (they would ignore NO_COLOR and pipes); a cell is coloured by
 * its caller, after `colourEnabled()`, and its escape codes take no width. Written here rather
 * than taken from a package: cli-table3, a CommonJS module, cost a start-up of the Node layer on
 * every command that prints a table.
 */
export function table(head: string[]): { push(row: string[]): void; toString(): string } {
  const rows = [head];
  return {
    push: (row) => void rows.push(row),
    toString: () => {
      const widths = head.map((_, i) => Math.max(...rows.map((row) => width(row[i] ?? ""))));
      const rule = (left: string, middle: string, right: string) =>
        left + widths.map((w) => "─".repeat(w + 2)).join(middle) + right;
      const line = (row: string[]) =>
        "│" + widths.map((w, i) => ` ${pad(row[i] ?? "", w)} `).join("│") + "│";
      return [
        rule("┌", "┬", "┐"),
        ...rows.flatMap((row, i) => i === 0 ? [line(row)] : [rule("├", "┼", "┤"), line(row)]),
        rule("└", "┴", "┘"),
      ].join("\n");
    },
  };
}

const pad = (text: string, to: number) => text + " ".repeat(to - width(text));

/** Columns on a terminal: escape codes take none, East Asian wide characters and emoji two. */
function width(text: string): number {
  let columns = 0;
  for (const char of text.replace(COLOUR, "")) columns += WIDE.test(char) ? 2 : 1;
  return columns;
}

// deno-lint-ignore no-control-regex -- the colour codes callers put in cells start with ESC
const COLOUR = /\x1b\[[0-9;]*m/g;

const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;

/** Name, type, region, status, and the message of failed sets when there is one. */
export function renderSetsTable(sets: readonly SecretSetSummary[], colour: boolean): string {
  const withMessage = sets.some((set) => set.errorMessage !== undefined);
  const out = table(["Name", "Type", "Region", "Status", ...(withMessage ? ["Message"] : [])]);
  for (const set of sets) {
    out.push([
      set.name ?? "-",
      set.type ?? "-",
      set.region ?? "-",
      status(set.status, colour),
      ...(withMessage ? [set.errorMessage ?? ""] : []),
    ]);
  }
  return out.toString();
}

/** One set: its fields, then its keys (names only). */
export function renderSetDetail(set: SecretSetDetail, colour: boolean): string {
  const lines = [
    `Name:    ${set.name ?? "-"}`,
    `Type:    ${set.type ?? "-"}`,
    `Region:  ${set.region ?? "-"}`,
    `Status:  ${status(set.status, colour)}`,
    ...(set.errorMessage ? [`Message: ${set.errorMessage}`] : []),
    ...(set.host ? [`Host:    ${set.host}`] : []),
  ];
  if (set.type === "imagePullSecret") return lines.join("\n");
  if (set.keys.length === 0) return [...lines, "Keys:    (none)"].join("\n");
  // Per key, when it was last written and the fingerprint of its value (docs/API.md).
  const details = new Map((set.keyDetails ?? []).map((detail) => [detail.key, detail]));
  const keys = table(["Key", "Last written (UTC)", "Fingerprint"]);
  for (const key of set.keys) {
    const detail = details.get(key);
    keys.push([key, detail ? shortTime(detail.writtenAt) : "-", detail?.fingerprint ?? "-"]);
  }
  return [...lines, "", keys.toString()].join("\n");
}

/** `2026-01-31T12:00:05.123Z` as `2026-01-31 12:00:05`. */
function shortTime(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$/, "").replace(/Z$/, "");
}
