/**
 * "Did you mean ...?": the candidate nearest to a mistyped word, if one is near enough to be what
 * the user meant.
 */

/**
 * The candidate nearest to `word` by edit distance, when it is within a third of the word's length
 * (at least 1), or when it begins with the word (`deepgram` for `deepgram_stt`). Undefined when
 * nothing is that near.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const typed = word.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    const near = distance <= limit || (typed.length >= 3 && candidate.startsWith(typed));
    if (near && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `did you mean "x"? ` when a candidate is near enough to `word`, else nothing: to lead a message. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = closest(word, candidates);
  return near ? `did you mean "${near}"? ` : "";
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  // Three rows of the classic table: the one before last is needed for swaps.
  let before = new Array<number>(b.length + 1).fill(0);
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], before[j - 2] + 1);
      }
    }
    [before, last] = [last, row];
  }
  return last[b.length];
}
