/**
 * An option and its negation given together. Apart from help.ts, which loads the parser: init's
 * action reads it on the direct start, which loads none.
 */
import type { Args, ArgToken } from "gunshi";

/**
 * `--x` and `--no-x` given together to one command: which one was meant is not known, so each such
 * pair is a problem of the run (gunshi would take the last). The option names, one per pair.
 */
export function contradictions(ctx: { tokens?: readonly ArgToken[]; args?: Args }): string[] {
  const args = ctx.args ?? {};
  const given = new Map<string, Set<boolean>>();
  for (const token of ctx.tokens ?? []) {
    if (token.kind !== "option" || !token.rawName?.startsWith("--") || !token.name) continue;
    const negated = token.name.startsWith("no-") && args[token.name.slice(3)]?.negatable;
    const option = negated ? token.name.slice(3) : token.name;
    if (args[option]?.type !== "boolean") continue;
    given.set(option, (given.get(option) ?? new Set()).add(!negated));
  }
  return [...given].filter(([, ways]) => ways.size === 2).map(([option]) => option);
}

/** A pair as a problem says it: init and update list it so; the parser's lines are `field: message`. */
export function contradictionOf(option: string): { field: string; message: string } {
  return {
    field: `--${option} and --no-${option}`,
    message: "they contradict each other; give one",
  };
}
