/** Replacements of spans of a file's text, which is how every migration changes it. */

export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** The catalog entry that made it. */
  readonly id: string;
}

/** `text` with the edits applied; an edit repeated (the same span, the same text) counts once. */
export function applyEdits(text: string, edits: readonly Edit[]): { text: string; kept: Edit[] } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const kept: Edit[] = [];
  for (const edit of sorted) {
    const last = kept.at(-1);
    if (last !== undefined && last.start === edit.start && last.end === edit.end) continue;
    if (last !== undefined && edit.start < last.end) {
      throw new Error(`overlapping edits at ${edit.start}: ${last.id} and ${edit.id}`);
    }
    kept.push(edit);
  }
  let result = "";
  let at = 0;
  for (const edit of kept) {
    result += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return { text: result + text.slice(at), kept };
}
