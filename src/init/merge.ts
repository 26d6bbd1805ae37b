/**
 * Line merges for `voicebot update`, on node-diff3 (the diff3 algorithm, as GNU diff3 and git's
 * merge-file run it): a file both the user and voicebot changed is merged, and where both changed
 * the same lines it holds git-style conflict markers with both versions.
 */
import { diff3Merge, diffComm } from "node-diff3";
import { VERSION } from "../version.ts";

/** The marker lines around a conflict: the user's lines, then voicebot's. */
export const MARKERS = {
  yours: "<<<<<<< yours",
  between: "=======",
  theirs: `>>>>>>> voicebot ${VERSION}`,
} as const;

/** A merged text and the number of conflicts in it. */
export interface Merged {
  readonly text: string;
  readonly conflicts: number;
}

/**
 * Three-way: the user's text (`yours`) and voicebot's new render (`theirs`), each against the render
 * the user started from (`base`). Lines only one side changed take that side's change; lines both
 * changed alike are taken once; lines both changed otherwise are a conflict, except where one
 * side only added lines next to the lines the other changed (`beside`).
 */
export function mergeThreeWay(yours: string, base: string, theirs: string): Merged {
  const regions = diff3Merge(lines(yours), lines(base), lines(theirs), {
    excludeFalseConflicts: true,
  });
  return joined(regions.map((region) => {
    if (region.ok) return { ok: region.ok };
    const { a, o, b } = region.conflict!;
    const settled = beside(a, o, b) ?? beside(b, o, a);
    return settled ? { ok: settled } : { yours: a, theirs: b };
  }));
}

/**
 * diff3 (as git) calls a conflict what touches the same or adjacent lines. Where one side (`adds`)
 * kept the base's lines and only added lines before or after them, and the other (`changes`)
 * changed those lines, both hold: the added lines go beside the changed ones. This is the common
 * case of `uv add`, which puts a dependency next to the `pipecat-ai[...]` line whose extras a
 * changed answer rewrites. When both sides only added lines, their order is not known: a conflict.
 */
function beside(
  adds: readonly string[],
  base: readonly string[],
  changes: readonly string[],
): string[] | undefined {
  if (base.length === 0 || onlyAdds(changes, base)) return undefined;
  if (startsWith(adds, base)) return [...changes, ...adds.slice(base.length)];
  if (endsWith(adds, base)) return [...adds.slice(0, adds.length - base.length), ...changes];
  return undefined;
}

/** Whether `text` is `base` with lines added before or after it (or nothing added). */
function onlyAdds(text: readonly string[], base: readonly string[]): boolean {
  return startsWith(text, base) || endsWith(text, base);
}

function startsWith(text: readonly string[], part: readonly string[]): boolean {
  return part.length <= text.length && part.every((line, i) => text[i] === line);
}

function endsWith(text: readonly string[], part: readonly string[]): boolean {
  const offset = text.length - part.length;
  return offset >= 0 && part.every((line, i) => text[offset + i] === line);
}

/**
 * Two-way, when the render the user started from is not known (a project made before its record
 * kept one): the lines both texts have are kept, and every place where they differ is a conflict
 * with both versions, for the user to settle. Nothing is taken or dropped on a guess.
 */
export function mergeTwoWay(yours: string, theirs: string): Merged {
  return joined(
    diffComm(lines(yours), lines(theirs)).map((part) =>
      part.common ? { ok: part.common } : { yours: part.buffer1!, theirs: part.buffer2! }
    ),
  );
}

type Part = { ok: string[] } | { yours: string[]; theirs: string[] };

function joined(parts: readonly Part[]): Merged {
  let text = "";
  let conflicts = 0;
  for (const part of parts) {
    if ("ok" in part) {
      text += part.ok.join("");
      continue;
    }
    conflicts++;
    text += `${MARKERS.yours}\n${ended(part.yours)}${MARKERS.between}\n${
      ended(part.theirs)
    }${MARKERS.theirs}\n`;
  }
  return { text, conflicts };
}

/** The text's lines, each with its line end (the last may have none), so that joining them gives it back. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Lines joined, ending with a line end, so that a marker after them starts a line. */
function ended(part: readonly string[]): string {
  const text = part.join("");
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** Whether a text still holds a conflict `update` wrote: both of its marker lines. */
export function hasConflictMarkers(text: string): boolean {
  return /^<<<<<<< yours\r?$/m.test(text) && /^>>>>>>> voicebot \S+\r?$/m.test(text);
}
