/**
 * The benchmark of `voicebot migrate` (run by hand, not in CI): Pipecat's own examples/ at
 * v1.0.0 and at v1.2.1, migrated to 1.7.0, and measured. Per tag: what changed (by catalog id),
 * what is left to the user, whether every file still parses, whether every Pipecat import resolves
 * at 1.7.0 (against the same check on the unmigrated files), whether only the lines the changes
 * name changed, whether a second run changes nothing, and how many uses of what 1.7.0 deprecates
 * are left neither migrated nor reported. The imports and the deprecations are read from Pipecat's
 * source by scripts/check_pipecat_imports.py.
 *
 * Usage: deno run -A scripts/check_migrate_examples.ts --repo /path/to/pipecat.git [--json]
 *
 * It always exits 0 once it has measured: it is a measurement, not a gate.
 */
import { diffLines } from "diff";
import type { Change } from "../src/migrate/catalog.ts";
import { compareVersions } from "../src/init/guides.ts";
import { CHANGES } from "../src/migrate/changes.ts";
import { type ManualItem, migrateSource, type SourceMigration } from "../src/migrate/engine.ts";
import { type Node, parsePython } from "../src/migrate/python.ts";
import { changesBetween } from "../src/migrate/renames.ts";

const TO = "1.7.0";
const FROMS = ["1.0.0", "1.2.1"] as const;
const ROOT = new URL("..", import.meta.url).pathname;
const SINCE = "1.1.0";

// ---------------------------------------------------------------------------------------------
// Running things

async function run(
  cmd: string[],
  cwd?: string,
): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout), err: decode(output.stderr) };
}

async function extract(repo: string, tag: string, dir: string) {
  await Deno.mkdir(dir, { recursive: true });
  const tar = `${dir}.tar`;
  // Only examples/: the mirror lacks some large blobs elsewhere (the .onnx models), which would
  // make an archive of the whole tree fail.
  const archived = await run(["git", `--git-dir=${repo}`, "archive", "-o", tar, tag, "examples"]);
  if (archived.code !== 0) throw new Error(`git archive ${tag}: ${archived.err}`);
  const extracted = await run(["tar", "-xf", tar, "-C", dir]);
  if (extracted.code !== 0) throw new Error(`tar ${tag}: ${extracted.err}`);
  await Deno.remove(tar);
}

function pythonFiles(dir: string, at = ""): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(`${dir}/${at}`)) {
    const path = at === "" ? entry.name : `${at}/${entry.name}`;
    if (entry.isDirectory) found.push(...pythonFiles(dir, path));
    else if (entry.isFile && entry.name.endsWith(".py")) found.push(path);
  }
  return found.sort();
}

// ---------------------------------------------------------------------------------------------
// What check_pipecat_imports.py reports

interface Deprecation {
  key: string;
  kind: "name" | "member" | "param" | "module";
  module: string;
  owner: string;
  name: string;
  since: string;
  replacement: string | null;
  structural: boolean;
  where: string;
  shim: boolean;
}

interface Use {
  line: number;
  key: string;
  how: string;
}

interface Unresolved {
  line: number;
  module: string;
  name: string | null;
  why?: string;
}

interface FileCheck {
  syntax_error: string | null;
  imports: number;
  unresolved: Unresolved[];
  uses: Use[];
}

interface ImportsReport {
  deprecations: Deprecation[];
  unparsed: string[];
  trees: Record<string, Record<string, FileCheck>>;
}

// ---------------------------------------------------------------------------------------------
// Lines: what changed, and where a line of the migrated text was in the original

interface LineMap {
  /** Migrated line (1-based) -> the original lines it stands for. */
  readonly toOriginal: number[][];
  /** Blocks of change: the original lines removed, where the added lines go, how many. */
  readonly blocks: { removed: number[]; at: number; added: number; text: string }[];
}

function lineMap(before: string, after: string): LineMap {
  const toOriginal: number[][] = [[]];
  const blocks: LineMap["blocks"] = [];
  let oldLine = 1;
  let block: LineMap["blocks"][number] | null = null;
  const pendingAdded: number[] = [];
  const close = () => {
    if (block === null) return;
    // Added lines stand for the lines they replaced, or for their neighbours when inserted.
    const stand = block.removed.length > 0 ? block.removed : [block.at - 1, block.at];
    for (const line of pendingAdded) toOriginal[line] = stand;
    pendingAdded.length = 0;
    blocks.push(block);
    block = null;
  };
  for (const part of diffLines(before, after)) {
    const count = part.count ?? part.value.split("\n").length - 1;
    if (!part.added && !part.removed) {
      close();
      for (let i = 0; i < count; i++) toOriginal.push([oldLine++]);
      continue;
    }
    block ??= { removed: [], at: oldLine, added: 0, text: "" };
    if (part.removed) {
      for (let i = 0; i < count; i++) block.removed.push(oldLine++);
      block.text += part.value.split("\n").slice(0, count).map((l) => `-${l}\n`).join("");
    } else {
      for (let i = 0; i < count; i++) {
        pendingAdded.push(toOriginal.length);
        toOriginal.push([]);
      }
      block.added += count;
      block.text += part.value.split("\n").slice(0, count).map((l) => `+${l}\n`).join("");
    }
  }
  close();
  return { toOriginal, blocks };
}

const STATEMENTS = new Set(["import_from_statement", "import_statement"]);

/** A line of an import of Pipecat (or of its parenthesized names). */
const IMPORT_LINE =
  /^(\s*from\s+pipecat[\w.]*\s+import\b.*|\s*import\s+pipecat[\w.]*.*|\s+\w+(\s+as\s+\w+)?,|\s*\)|)$/;

/**
 * The original lines the applied changes account for: each one's line, and the rest of the
 * import (or, for a call split in two, the statement) a change rewrote as a whole. `sorted` gets
 * the lines of each block of imports (no blank or comment line between) that holds one of them:
 * the engine sorts such a block again, which can move a renamed import within it.
 */
async function coveredLines(
  before: string,
  applied: SourceMigration["applied"],
  kinds: Map<string, Change["kind"]>,
  sorted: Set<number>,
): Promise<Set<number>> {
  const covered = new Set(applied.map((a) => a.line));
  const root = await parsePython(before);
  if (root === null) return covered;
  const starts = new Map<number, Node[]>();
  const blocks: [number, number][] = [];
  const walk = (node: Node) => {
    if (STATEMENTS.has(node.type) || node.type === "expression_statement") {
      const row = node.startPosition.row + 1;
      starts.set(row, [...(starts.get(row) ?? []), node]);
    }
    let block: [number, number] | null = null;
    for (const child of node.namedChildren) {
      if (child === null) continue;
      const [first, last] = [child.startPosition.row + 1, child.endPosition.row + 1];
      if (STATEMENTS.has(child.type) && block !== null && first === block[1] + 1) block[1] = last;
      else if (STATEMENTS.has(child.type)) blocks.push(block = [first, last]);
      else block = null;
      walk(child);
    }
  };
  walk(root);
  for (const [first, last] of blocks) {
    if (!applied.some(({ line }) => line >= first && line <= last)) continue;
    for (let l = first; l <= last; l++) sorted.add(l);
  }
  for (const { id, line } of applied) {
    // A settings move rewrites a call's whole argument list: the rest of its statement.
    if (kinds.get(id) === "settings") {
      const around = [...starts.values()].flat()
        .filter((node) => node.startPosition.row + 1 <= line && node.endPosition.row + 1 >= line)
        .sort((a, b) => b.startPosition.row - a.startPosition.row)[0];
      for (let l = line; l <= (around?.endPosition.row ?? line - 1) + 1; l++) covered.add(l);
    }
    for (const node of starts.get(line) ?? []) {
      const whole = STATEMENTS.has(node.type) ||
        (node.type === "expression_statement" && kinds.get(id) === "argument-to-call");
      if (!whole) continue;
      for (let l = line; l <= node.endPosition.row + 1; l++) covered.add(l);
    }
  }
  return covered;
}

// ---------------------------------------------------------------------------------------------
// One tag

interface FileResult {
  path: string;
  before: string;
  result: SourceMigration;
  map: LineMap | null;
}

interface UseCount {
  key: string;
  name: string;
  since: string;
  replacement: string | null;
  original: number;
  remaining: number;
  reported: number;
  unreported: number;
  examples: string[];
}

function tally<T>(items: Iterable<T>, keyOf: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
}

function leftovers(
  files: FileResult[],
  deprecations: Deprecation[],
  original: Record<string, FileCheck>,
  migrated: Record<string, FileCheck>,
) {
  const selected = new Map(deprecations.map((d) => [d.key, d]));
  const counts = new Map<string, UseCount>();
  const countOf = (key: string) => {
    let count = counts.get(key);
    if (count === undefined) {
      const d = selected.get(key)!;
      count = {
        key,
        name: d.kind === "module" ? d.module : d.owner ? `${d.owner}.${d.name}` : d.name,
        since: d.since,
        replacement: d.replacement,
        original: 0,
        remaining: 0,
        reported: 0,
        unreported: 0,
        examples: [],
      };
      counts.set(key, count);
    }
    return count;
  };
  for (const file of files) {
    for (const use of original[file.path]?.uses ?? []) {
      if (selected.has(use.key)) countOf(use.key).original++;
    }
    const manualLines = new Set(file.result.manual.map((m: ManualItem) => m.line));
    for (const use of migrated[file.path]?.uses ?? []) {
      if (!selected.has(use.key)) continue;
      const count = countOf(use.key);
      count.remaining++;
      const lines = file.map === null ? [use.line] : file.map.toOriginal[use.line] ?? [use.line];
      if (lines.some((line) => manualLines.has(line))) count.reported++;
      else {
        count.unreported++;
        if (count.examples.length < 3) count.examples.push(`${file.path}:${use.line} (${use.how})`);
      }
    }
  }
  const rows = [...counts.values()].sort((a, b) =>
    b.unreported - a.unreported || b.remaining - a.remaining || b.original - a.original
  );
  const sum = (f: (c: UseCount) => number) => rows.reduce((n, c) => n + f(c), 0);
  const originalUses = sum((c) => c.original);
  const unreported = sum((c) => c.unreported);
  return {
    deprecations: deprecations.length,
    originalUses,
    migratedAutomatically: sum((c) => Math.max(0, c.original - c.remaining)),
    introduced: sum((c) => Math.max(0, c.remaining - c.original)),
    remaining: sum((c) => c.remaining),
    reportedManual: sum((c) => c.reported),
    unreported,
    unreportedPercent: originalUses === 0 ? 0 : (100 * unreported) / originalUses,
    names: rows,
  };
}

function importsReport(
  files: FileResult[],
  original: Record<string, FileCheck>,
  migrated: Record<string, FileCheck>,
) {
  const label = (u: Unresolved) => u.name === null ? u.module : `${u.module}.${u.name}`;
  const newly: string[] = [];
  const already: string[] = [];
  let fixed = 0;
  let checked = 0;
  for (const file of files) {
    const before = original[file.path]?.unresolved ?? [];
    const after = migrated[file.path]?.unresolved ?? [];
    checked += migrated[file.path]?.imports ?? 0;
    // By the name imported (the module for `import x.y`): a moved name keeps its name.
    const keyOf = (u: Unresolved) => u.name ?? u.module;
    const beforeKeys = new Set(before.map(keyOf));
    const afterKeys = new Set(after.map(keyOf));
    for (const u of after) {
      const where = `${file.path}:${u.line} ${label(u)}${u.why === "module" ? " (no module)" : ""}`;
      (beforeKeys.has(keyOf(u)) ? already : newly).push(where);
    }
    fixed += before.filter((u) => !afterKeys.has(keyOf(u))).length;
  }
  const byName = (list: string[]) => tally(list, (w) => w.split(" ")[1]);
  return {
    imports: checked,
    newlyUnresolved: newly.length,
    alreadyUnresolved: already.length,
    fixedByMigrate: fixed,
    newly,
    already,
    newlyByName: byName(newly),
    alreadyByName: byName(already),
  };
}

async function measureTag(
  from: string,
  dir: string,
  migratedDir: string,
  kinds: Map<string, Change["kind"]>,
) {
  const changes = changesBetween(CHANGES, from, TO);
  const paths = pythonFiles(dir);
  const files: FileResult[] = [];
  const started = performance.now();
  for (const path of paths) {
    const before = await Deno.readTextFile(`${dir}/${path}`);
    files.push({ path, before, result: await migrateSource(before, changes), map: null });
  }
  const elapsed = performance.now() - started;
  const unparsableMigrated: string[] = [];
  const changed: string[] = [];
  const stray: { path: string; lines: number[]; text: string }[] = [];
  const notIdempotent: { path: string; applied: string[] }[] = [];
  let resorted = 0;
  for (const file of files) {
    const after = file.result.text;
    await Deno.mkdir(`${migratedDir}/${folderOf(file.path)}`, { recursive: true });
    await Deno.writeTextFile(`${migratedDir}/${file.path}`, after);
    if (after === file.before) continue;
    changed.push(file.path);
    if (await parsePython(after) === null) unparsableMigrated.push(file.path);
    file.map = lineMap(file.before, after);
    const sortedImports = new Set<number>();
    const covered = await coveredLines(file.before, file.result.applied, kinds, sortedImports);
    for (const block of file.map.blocks) {
      const near = (lines: Set<number>) =>
        block.removed.length > 0
          ? block.removed.every((line) => lines.has(line))
          : lines.has(block.at - 1) || lines.has(block.at);
      if (near(covered)) continue;
      const imports = block.text.trimEnd().split("\n").every((l) => IMPORT_LINE.test(l.slice(1)));
      if (imports && near(new Set([...covered, ...sortedImports]))) {
        resorted++;
        continue;
      }
      {
        const lines = block.removed.length > 0 ? block.removed : [block.at];
        stray.push({ path: file.path, lines, text: block.text });
      }
    }
    const again = await migrateSource(after, changes);
    if (again.text !== after) {
      notIdempotent.push({ path: file.path, applied: again.applied.map((a) => a.id) });
    }
  }
  return {
    from,
    changes: changes.length,
    files,
    elapsedMs: elapsed,
    summary: {
      files: files.length,
      filesChanged: changed.length,
      applied: files.reduce((n, f) => n + f.result.applied.length, 0),
      appliedById: tally(files.flatMap((f) => f.result.applied), (a) => a.id),
      manual: files.reduce((n, f) => n + f.result.manual.length, 0),
      manualById: tally(files.flatMap((f) => f.result.manual), (m) => m.id),
      unparsableOriginal: files.filter((f) => f.result.unparsable).map((f) => f.path),
      unparsableMigrated,
      strayChanges: stray,
      movedInSortedImports: resorted,
      notIdempotent,
    },
  };
}

function folderOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
}

// ---------------------------------------------------------------------------------------------
// Printing

function printTag(tag: string, report: ReturnType<typeof assemble>) {
  const s = report.summary;
  const line = (text = "") => console.log(text);
  line(`== examples/ at v${tag}, migrated ${tag} -> ${TO} (${report.changes} catalog changes)`);
  line(
    `files ${s.files}, changed ${s.filesChanged}, changes applied ${s.applied}, ` +
      `manual items ${s.manual}`,
  );
  line(`  applied by id: ${entries(s.appliedById)}`);
  line(`  manual by id:  ${entries(s.manualById)}`);
  const p = report.parse;
  line(
    `parse: engine unparsable originals ${s.unparsableOriginal.length}, migrated ` +
      `${s.unparsableMigrated.length}; python ast errors originals ${p.originalErrors.length}, ` +
      `migrated ${p.migratedErrors.length} (new: ${p.newErrors.length})`,
  );
  for (const e of [...s.unparsableMigrated, ...p.newErrors]) line(`  PARSE ${e}`);
  const i = report.imports;
  line(
    `imports at ${TO}: ${i.imports} Pipecat imports checked in the migrated files; ` +
      `unresolved: ${i.newlyUnresolved} new (caused by migrate), ${i.alreadyUnresolved} already ` +
      `unresolved in the originals, ${i.fixedByMigrate} fixed by migrate`,
  );
  for (const w of i.newly.slice(0, 30)) line(`  NEW ${w}`);
  if (i.newly.length > 30) line(`  ... ${i.newly.length - 30} more`);
  if (i.alreadyUnresolved > 0) line(`  already unresolved, by name: ${entries(i.alreadyByName)}`);
  line(
    `nothing else changed: ${s.strayChanges.length} blocks of changed lines hold no applied ` +
      `change's line (${s.movedInSortedImports} more are imports moved in a block the engine ` +
      `sorted again)`,
  );
  for (const v of s.strayChanges.slice(0, 10)) {
    line(`  STRAY ${v.path}:${v.lines.join(",")}`);
    line(v.text.trimEnd().split("\n").slice(0, 6).map((l) => `      ${l}`).join("\n"));
  }
  line(`second run: ${s.notIdempotent.length} files change again`);
  for (const v of s.notIdempotent.slice(0, 10)) line(`  AGAIN ${v.path}: ${v.applied.join(", ")}`);
  printLeftovers("leftovers, deprecated with a named replacement", report.replaced);
  printLeftovers("deprecated without a replacement, or structural", report.structural);
  if (report.beforeFrom.deprecations > 0) {
    printLeftovers(`outside the range: deprecated at or before ${tag}`, report.beforeFrom);
  }
  line();
}

function printLeftovers(title: string, l: ReturnType<typeof leftovers>) {
  console.log(
    `${title} (${l.deprecations} deprecations): original uses ${l.originalUses}, migrated ` +
      `automatically ${l.migratedAutomatically}, remaining ${l.remaining} (reported manual ` +
      `${l.reportedManual}, left unreported ${l.unreported} = ` +
      `${l.unreportedPercent.toFixed(2)}% of the original uses)` +
      (l.introduced > 0 ? `, introduced by migrate ${l.introduced}` : ""),
  );
  for (const c of l.names.filter((c) => c.remaining > 0 || c.original > 0).slice(0, 12)) {
    console.log(
      `  ${c.name} (${c.since}${c.replacement ? ` -> ${c.replacement}` : ""}): original ` +
        `${c.original}, remaining ${c.remaining}, reported ${c.reported}, unreported ` +
        `${c.unreported}${c.examples.length > 0 ? `; e.g. ${c.examples.join(", ")}` : ""}`,
    );
  }
}

function entries(counts: Record<string, number>): string {
  const list = Object.entries(counts).map(([k, v]) => `${k} ${v}`);
  return list.length === 0 ? "none" : list.join(", ");
}

function assemble(
  measured: Awaited<ReturnType<typeof measureTag>>,
  checks: ImportsReport,
  from: string,
) {
  const original = checks.trees[`original-${from}`];
  const migrated = checks.trees[`migrated-${from}`];
  const errors = (tree: Record<string, FileCheck>) =>
    Object.entries(tree).filter(([, f]) => f.syntax_error).map(([p, f]) =>
      `${p}: ${f.syntax_error}`
    );
  const originalErrors = errors(original);
  const migratedErrors = errors(migrated);
  const failedBefore = new Set(originalErrors.map((e) => e.split(":")[0]));
  const newErrors = migratedErrors.filter((e) => !failedBefore.has(e.split(":")[0]));
  // Made after --from (structural ones whenever): the migration's range. A deprecation made at or
  // before it was the code's to follow already, and migrate leaves it: counted apart.
  const inRange = (d: Deprecation) => d.structural || compareVersions(d.since, from) > 0;
  const selected = checks.deprecations.filter(inRange);
  // A named replacement, and not structural: migrate should rewrite it, or at least report it.
  const replaced = selected.filter((d) => d.replacement !== null && !d.structural);
  const structural = selected.filter((d) => d.replacement === null || d.structural);
  const before = checks.deprecations.filter((d) => !inRange(d));
  return {
    changes: measured.changes,
    summary: measured.summary,
    parse: { originalErrors, migratedErrors, newErrors },
    imports: importsReport(measured.files, original, migrated),
    replaced: leftovers(measured.files, replaced, original, migrated),
    structural: leftovers(measured.files, structural, original, migrated),
    beforeFrom: leftovers(measured.files, before, original, migrated),
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const args = Deno.args;
  const repoAt = args.indexOf("--repo");
  const repo = repoAt >= 0 ? args[repoAt + 1] : undefined;
  const json = args.includes("--json");
  if (repo === undefined) {
    console.error("usage: check_migrate_examples.ts --repo /path/to/pipecat.git [--json]");
    Deno.exit(2);
  }
  const kinds = new Map(CHANGES.map((c) => [c.id, c.kind]));
  const scratch = await Deno.makeTempDir({ prefix: "check-migrate-examples-" });
  try {
    const dirs = Object.fromEntries(FROMS.map((from) => [from, `${scratch}/original-${from}`]));
    for (const from of FROMS) await extract(repo, `v${from}`, dirs[from]);
    // 1.2.1 first: its time includes loading the grammar, as a user's run would.
    const measured = new Map<string, Awaited<ReturnType<typeof measureTag>>>();
    for (const from of [...FROMS].reverse()) {
      measured.set(from, await measureTag(from, dirs[from], `${scratch}/migrated-${from}`, kinds));
    }
    // Once more, the grammar loaded: the engine's own time.
    const warmStart = performance.now();
    const warmChanges = changesBetween(CHANGES, "1.2.1", TO);
    for (const file of measured.get("1.2.1")!.files) await migrateSource(file.before, warmChanges);
    const warmMs = performance.now() - warmStart;

    const cliStart = performance.now();
    const cli = await run(
      [
        Deno.execPath(),
        "run",
        "-A",
        "main.ts",
        "migrate",
        dirs["1.2.1"],
        "--from",
        "1.2.1",
        "--to",
        TO,
        "--dry-run",
        "--json",
      ],
      ROOT,
    );
    const cliMs = performance.now() - cliStart;
    let cliSummary: Record<string, unknown> = { exitCode: cli.code };
    try {
      const parsed = JSON.parse(cli.out);
      cliSummary = {
        exitCode: cli.code,
        files: Array.isArray(parsed.files) ? parsed.files.length : undefined,
        manual: Array.isArray(parsed.manual) ? parsed.manual.length : undefined,
      };
    } catch {
      cliSummary.error = (cli.err || cli.out).trim().split("\n").slice(0, 5).join("\n");
    }

    const python = await run([
      "python3",
      `${ROOT}scripts/check_pipecat_imports.py`,
      "--repo",
      repo,
      "--tag",
      `v${TO}`,
      "--since",
      SINCE,
      "--json",
      ...FROMS.flatMap((from) => [
        `original-${from}=${dirs[from]}`,
        `migrated-${from}=${scratch}/migrated-${from}`,
      ]),
    ]);
    if (python.code !== 0) throw new Error(`check_pipecat_imports.py: ${python.err}`);
    const checks: ImportsReport = JSON.parse(python.out);

    const reports = Object.fromEntries(
      FROMS.map((from) => [from, assemble(measured.get(from)!, checks, from)]),
    );
    const timing = {
      files: measured.get("1.2.1")!.files.length,
      inProcessMs: Math.round(measured.get("1.2.1")!.elapsedMs),
      inProcessWarmMs: Math.round(warmMs),
      cliMs: Math.round(cliMs),
      cli: cliSummary,
    };
    if (json) {
      console.log(JSON.stringify({
        to: TO,
        deprecationsSince: SINCE,
        deprecations: checks.deprecations.map((d) => ({
          key: d.key,
          kind: d.kind,
          since: d.since,
          replacement: d.replacement,
          structural: d.structural,
          shim: d.shim,
          where: d.where,
        })),
        unparsedDeprecations: checks.unparsed,
        timing,
        tags: reports,
      }));
      return;
    }
    console.log(
      `Timing, v1.2.1's ${timing.files} files: in-process ${timing.inProcessMs} ms (with the ` +
        `grammar's load), ${timing.inProcessWarmMs} ms warm; the CLI (deno run main.ts migrate ` +
        `--dry-run --json) ${timing.cliMs} ms, ${JSON.stringify(cliSummary)}`,
    );
    console.log(
      `Deprecations read from Pipecat ${TO}'s source: ${checks.deprecations.length} (since ` +
        `${SINCE}, or structural); messages not understood: ${checks.unparsed.length}`,
    );
    for (const u of checks.unparsed) console.log(`  ${u}`);
    console.log();
    for (const from of FROMS) printTag(from, reports[from]);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

if (import.meta.main) await main();
