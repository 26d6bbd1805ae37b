/**
 * Where a Pipecat name or module ends up across a range of releases: the catalog's renames and
 * moves applied in release order, and what the name was called just before each release, which
 * is what that release's keyword renames and manual items are written against.
 */
import type { Change, PipecatName } from "./catalog.ts";
import { compareVersions } from "../init/guides.ts";

/**
 * The release of the catalog's entries for what 1.0.0 had deprecated already (each service's
 * `InputParams`): code written for any release may still use those, so they apply from any.
 */
export const STANDING = "1.0.0";

/**
 * The changes made after release `from` (and the STANDING ones), up to and including `to`, in the
 * order they apply: release by release, and within one, renamed names before moved modules (a name
 * renamed and moved is matched where it was, and the rest of its module follows the move).
 */
export function changesBetween(
  changes: readonly Change[],
  from: string,
  to: string,
): Change[] {
  const rank = (change: Change) => change.kind === "name" ? 0 : change.kind === "module" ? 1 : 2;
  return changes
    .filter((c) =>
      (compareVersions(c.since, from) > 0 || c.since === STANDING) &&
      compareVersions(c.since, to) <= 0
    )
    .sort((a, b) => compareVersions(a.since, b.since) || rank(a) - rank(b));
}

function movedModule(module: string, from: string, to: string): string | null {
  if (module === from) return to;
  return module.startsWith(`${from}.`) ? to + module.slice(from.length) : null;
}

/** The same name, however it is split: `m.A` + `B` is `m` + `A.B` (a nested class). */
function sameName(a: PipecatName, b: PipecatName): boolean {
  return `${a.module}.${a.name}` === `${b.module}.${b.name}`;
}

/** A name's way through the releases. */
export interface NameTrace {
  /** What it is called at the last release. */
  readonly final: PipecatName;
  /** The ids of the renames and moves that got it there. */
  readonly ids: readonly string[];
  /** Whether `name` is what it was called just before, or just after, release `since`. */
  calledAt(name: PipecatName, since: string): boolean;
}

/** Traces names and modules through `changes`, which changesBetween ordered. */
export class Renames {
  readonly #changes: readonly Change[];
  readonly #traces = new Map<string, NameTrace>();

  constructor(changes: readonly Change[]) {
    this.#changes = changes;
  }

  /** Where `start`, a name as the user's code has it, ends up. */
  name(start: PipecatName): NameTrace {
    const key = `${start.module}:${start.name}`;
    let trace = this.#traces.get(key);
    if (trace === undefined) {
      trace = this.#trace(start);
      this.#traces.set(key, trace);
    }
    return trace;
  }

  /** Where module `start` ends up, and the ids of the moves that took it there. */
  module(start: string): { final: string; ids: string[] } {
    let module = start;
    const ids: string[] = [];
    for (const change of this.#changes) {
      if (change.kind !== "module") continue;
      const moved = movedModule(module, change.from, change.to);
      if (moved === null) continue;
      module = moved;
      ids.push(change.id);
    }
    return { final: module, ids };
  }

  #trace(start: PipecatName): NameTrace {
    let current = start;
    const ids: string[] = [];
    // What it was called at each release boundary: before a release's changes, and after them.
    const states = new Map<string, PipecatName[]>();
    const remember = (since: string) => {
      const seen = states.get(since) ?? [];
      if (!seen.some((name) => sameName(name, current))) seen.push(current);
      states.set(since, seen);
    };
    let release = "";
    for (const change of this.#changes) {
      if (change.since !== release) {
        if (release !== "") remember(release);
        release = change.since;
        remember(release);
      }
      if (
        change.kind === "name" &&
        sameName({ module: change.module, name: change.from }, current)
      ) {
        current = { module: change.toModule ?? change.module, name: change.to };
        ids.push(change.id);
      } else if (change.kind === "module") {
        const moved = movedModule(current.module, change.from, change.to);
        if (moved !== null) {
          current = { module: moved, name: current.name };
          ids.push(change.id);
        }
      }
    }
    if (release !== "") remember(release);
    const final = current;
    return {
      final,
      ids,
      calledAt: (name, since) => (states.get(since) ?? []).some((seen) => sameName(seen, name)),
    };
  }
}
