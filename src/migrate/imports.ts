/**
 * A renamed module or name can leave sorted imports out of order: `pipecat.pipeline.runner`
 * sorted before `pipecat.pipeline.task`, but `pipecat.workers.runner` sorts after it, and ruff's
 * isort rule (I001, which the projects voicebot makes select) then fails. Where a block of imports
 * was sorted as ruff sorts it before the migration, it is sorted again after; a block that was not
 * is left in the user's order.
 *
 * Ruff's order, with its defaults: within a block (a section: no blank line, no comment line in
 * it), `import x` statements, then `from x import y` ones, each by module name, case aside; the
 * names of a `from` import by type (CONSTANTS, Classes, the rest), then by name, case aside.
 */
import { applyEdits, type Edit } from "./edits.ts";
import type { Node } from "./python.ts";

const IMPORTS = new Set(["import_statement", "import_from_statement"]);

/** A statement of a block, with a comment that ends its line. */
interface Unit {
  readonly start: number;
  readonly end: number;
}

function byText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** Where a statement sorts: `import` ones first, then by module. */
function statementKey(text: string): [number, string] | null {
  const match = /^(import|from)\s+([\w.]+)/.exec(text);
  return match === null ? null : [match[1] === "import" ? 0 : 1, match[2]];
}

function compareKeys(a: [number, string], b: [number, string]): number {
  return a[0] - b[0] || byText(a[1], b[1]);
}

function nameRank(name: string): number {
  const bare = name.split(/\s+as\s+/)[0];
  if (bare.length > 1 && bare === bare.toUpperCase() && /[A-Z]/.test(bare)) return 0;
  return /^[A-Z]/.test(bare) ? 1 : 2;
}

function compareNames(a: string, b: string): number {
  return nameRank(a) - nameRank(b) || byText(a, b);
}

function isSorted<T>(items: readonly T[], compare: (a: T, b: T) => number): boolean {
  return items.every((item, i) => i === 0 || compare(items[i - 1], item) <= 0);
}

/** The names of a `from` import, single-line or parenthesized, when it has no comment. */
function namesOf(statement: string): { head: string; names: string[]; wrapped: boolean } | null {
  const match = /^(from\s+[\w.]+\s+import\s+)(\(?)([^#]*?)\)?$/s.exec(statement);
  if (match === null) return null;
  const names = match[3].split(",").map((name) => name.trim()).filter((name) => name !== "");
  return { head: match[1], names, wrapped: match[2] === "(" };
}

/** A `from` statement with its names sorted, when they were sorted before it was migrated. */
function sortedNames(before: string, after: string): string {
  const [old, now] = [namesOf(before), namesOf(after)];
  if (old === null || now === null) return after;
  if (!isSorted(old.names, compareNames) || isSorted(now.names, compareNames)) return after;
  const names = [...now.names].sort(compareNames);
  if (!now.wrapped) return `${now.head}${names.join(", ")}`;
  return `${now.head}(\n${names.map((name) => `    ${name},\n`).join("")})`;
}

/** The blocks of top-level import statements: consecutive lines, no blank or comment line (or one alone). */
function blocks(source: string, root: Node): Unit[][] {
  const found: Unit[][] = [];
  let block: Unit[] = [];
  let lastRow = -2;
  for (const child of root.namedChildren) {
    if (child === null) continue;
    // A comment that ends the line of the statement before it belongs to that statement.
    if (child.type === "comment" && block.length > 0 && child.startPosition.row === lastRow) {
      block[block.length - 1] = { start: block[block.length - 1].start, end: child.endIndex };
      continue;
    }
    if (IMPORTS.has(child.type) && child.startPosition.row === lastRow + 1 && block.length > 0) {
      block.push({ start: child.startIndex, end: child.endIndex });
    } else {
      if (block.length > 0) found.push(block);
      block = IMPORTS.has(child.type) ? [{ start: child.startIndex, end: child.endIndex }] : [];
    }
    lastRow = child.endPosition.row;
  }
  if (block.length > 0) found.push(block);
  // A statement sharing its line with another (`import a; import b`) is left as it is.
  return found.filter((units) =>
    units.every((unit, i) => i === 0 || source.slice(units[i - 1].end, unit.start) === "\n")
  );
}

/**
 * The edits, with each block of imports they touch that was sorted re-sorted: one edit for the
 * block in place of those inside it.
 */
export function keepImportsSorted(source: string, root: Node, edits: readonly Edit[]): Edit[] {
  const result = [...edits];
  for (const units of blocks(source, root)) {
    const start = units[0].start;
    const end = units[units.length - 1].end;
    const inside = result.filter((edit) => edit.start >= start && edit.end <= end);
    if (inside.length === 0) continue;
    const befores = units.map((unit) => source.slice(unit.start, unit.end));
    const keys = befores.map(statementKey);
    if (keys.some((key) => key === null)) continue;
    if (!isSorted(keys as [number, string][], compareKeys)) continue;
    // Each statement migrated (a split one becomes several), its names sorted again.
    const statements = units.flatMap((unit, i) => {
      const own = inside.filter((edit) => edit.start >= unit.start && edit.end <= unit.end)
        .map((edit) => ({ ...edit, start: edit.start - unit.start, end: edit.end - unit.start }));
      const text = applyEdits(befores[i], own).text;
      return text.split(/\n(?=from |import )/).map((part) => sortedNames(befores[i], part));
    });
    const finalKeys = statements.map(statementKey);
    if (finalKeys.some((key) => key === null)) continue;
    const order = statements.map((_, i) => i).sort((a, b) =>
      compareKeys(finalKeys[a]!, finalKeys[b]!) || a - b
    );
    const text = order.map((i) => statements[i]).join("\n");
    if (inside.some((edit) => !units.some((u) => edit.start >= u.start && edit.end <= u.end))) {
      continue; // an edit across two statements: not one this knows how to move
    }
    for (const edit of inside) result.splice(result.indexOf(edit), 1);
    result.push({ start, end, text, id: inside[0].id });
  }
  return result;
}
