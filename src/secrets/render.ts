/**
 * Tables for people; `--json` prints the parsed schema objects instead. Key names only: no value
 * ever reaches this module. `table()` is the CLI's one way to make a table (`cloud serve list-keys`
 * uses it too).
 *
 * @module
 */
import Table from "cli-table3";
import type { SecretSetDetail, SecretSetSummary, SetStatus } from "./schemas.ts";

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
 * Every table of the CLI is made here. No colours of cli-table3's own (a red head, grey borders):
 * they would ignore NO_COLOR and pipes; a cell is coloured by its caller, after `colourEnabled()`.
 */
export function table(head: string[]): Table.Table {
  return new Table({ head, style: { head: [], border: [] } });
}

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
