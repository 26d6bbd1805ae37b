/**
 * The Node versions a generated web client needs, from what its installed packages declare.
 *
 * Each npm package may say which Node it runs on (`engines.node`, a semver range); a client needs
 * the intersection of those of everything it installs. This module reads them from an installed
 * client's node_modules (the packages' own package.json files, nothing of ours) and intersects
 * semver ranges; scripts/check_clients.sh runs it after `npm install`:
 *
 *   client_engines.ts facts <client>=<dir>...     the facts, as tests/data/client_engines.json holds
 *                                                 them: per client, per direct dependency, each
 *                                                 package it brings (itself included) that names a
 *                                                 Node range, with that range
 *   client_engines.ts check-node <version> <dir>  prints a line when Node <version> is outside the
 *                                                 range <dir>/package.json declares in `engines`
 *
 * tests/client_test.ts derives each generated client's range from the committed facts and holds
 * its package.json and README to it.
 */

// ---------------------------------------------------------------------------------------------
// Semver ranges, as intervals of versions. Prereleases are refused: no Node range uses them.

type Version = readonly [number, number, number];

interface Bound {
  readonly version: Version;
  readonly inclusive: boolean;
}

/** From `low` (always bounded: 0.0.0 at least) to `high`, or without end when `high` is null. */
interface Interval {
  readonly low: Bound;
  readonly high: Bound | null;
}

/** A range: sorted, disjoint intervals. No interval matches no version. */
export type Range = readonly Interval[];

const ZERO: Version = [0, 0, 0];
const ANY: Range = [{ low: { version: ZERO, inclusive: true }, high: null }];

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A version with up to three parts, each a number or a wildcard (x, X, *): null where absent. */
function partial(text: string, range: string): (number | null)[] {
  const match = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(text);
  if (!match) throw new Error(`unsupported version "${text}" in the range "${range}"`);
  const parts = match.slice(1).map((part) =>
    (part === undefined || /[xX*]/.test(part)) ? null : Number(part)
  );
  // After a wildcard, every part is one: 1.x.3 means 1.x.x.
  const first = parts.indexOf(null);
  return first < 0 ? parts : parts.map((part, index) => (index >= first ? null : part));
}

/** The lowest version a partial version covers: its missing parts 0. */
const floor = (parts: (number | null)[]): Version => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];

/** The first version past a partial version: 1.2 → 1.3.0, 1 → 2.0.0 (full: none, it is one). */
function past(parts: (number | null)[]): Version {
  if (parts[1] === null) return [parts[0]! + 1, 0, 0];
  return [parts[0]!, parts[1] + 1, 0];
}

const inclusive = (version: Version): Bound => ({ version, inclusive: true });
const exclusive = (version: Version): Bound => ({ version, inclusive: false });
const from = (low: Bound, high: Bound | null = null): Range => normalize([{ low, high }]);

/** The interval of one comparator: `>=1.2.3`, `>1`, `<2`, `<=1.2`, `^0.2`, `~1.2.3`, `1.2.x`. */
function comparator(text: string, range: string): Range {
  const [, operator, version] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(text)!;
  const parts = partial(version, range);
  if (parts[0] === null) {
    // `*`, `x`: any version; `<*` none, `>*` none.
    return operator === "<" || operator === ">" ? [] : ANY;
  }
  const full = parts[2] !== null;
  switch (operator) {
    case ">=":
      return from(inclusive(floor(parts)));
    case ">":
      return from(full ? exclusive(floor(parts)) : inclusive(past(parts)));
    case "<":
      return from(inclusive(ZERO), exclusive(floor(parts)));
    case "<=":
      return from(inclusive(ZERO), full ? inclusive(floor(parts)) : exclusive(past(parts)));
    case "~":
      return from(inclusive(floor(parts)), exclusive(past([parts[0], parts[1] ?? null, null])));
    case "^":
      return from(inclusive(floor(parts)), exclusive(caretCeiling(parts)));
    default: // `=` or none: the version itself, or all that a partial one covers
      return full
        ? from(inclusive(floor(parts)), inclusive(floor(parts)))
        : from(inclusive(floor(parts)), exclusive(past(parts)));
  }
}

/** Where `^` stops: at the next change of the first part that is not 0 (or not given). */
function caretCeiling(parts: (number | null)[]): Version {
  const [major, minor, patch] = parts;
  if (major! > 0 || minor === null) return [major! + 1, 0, 0];
  if (minor > 0 || patch === null) return [0, minor + 1, 0];
  return [0, 0, patch + 1];
}

/** Parses a range of the forms npm packages use for Node: `||` of space-separated comparators. */
export function parseRange(range: string): Range {
  if (/\s-\s/.test(range)) throw new Error(`hyphen ranges are not supported: "${range}"`);
  const alternatives = range.split("||").map((set) => {
    // `>= 12.0.0` is `>=12.0.0`.
    const comparators = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1").split(/\s+/)
      .filter(Boolean);
    return comparators.reduce(
      (acc: Range, text) => intersect(acc, comparator(text, range)),
      ANY,
    );
  });
  return normalize(alternatives.flat());
}

/** The larger of two lower bounds; of two equal versions, the exclusive one is tighter. */
function maxLow(a: Bound, b: Bound): Bound {
  const order = compare(a.version, b.version);
  if (order !== 0) return order > 0 ? a : b;
  return a.inclusive ? b : a;
}

function minHigh(a: Bound | null, b: Bound | null): Bound | null {
  if (!a || !b) return a ?? b;
  const order = compare(a.version, b.version);
  if (order !== 0) return order < 0 ? a : b;
  return a.inclusive ? b : a;
}

function isEmpty({ low, high }: Interval): boolean {
  if (!high) return false;
  const order = compare(low.version, high.version);
  return order > 0 || (order === 0 && !(low.inclusive && high.inclusive));
}

/** Whether `a` reaches `b`'s start (so that the two make one interval), `a` starting first. */
function reaches(a: Interval, b: Interval): boolean {
  if (!a.high) return true;
  const order = compare(a.high.version, b.low.version);
  return order > 0 || (order === 0 && (a.high.inclusive || b.low.inclusive));
}

/** Sorted by start, empty intervals out, overlapping or touching ones merged. */
function normalize(intervals: Interval[]): Range {
  const sorted = intervals.filter((interval) => !isEmpty(interval)).sort((a, b) =>
    compare(a.low.version, b.low.version) || Number(b.low.inclusive) - Number(a.low.inclusive)
  );
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && reaches(last, interval)) {
      const high = !last.high || !interval.high
        ? null
        : minHigh(last.high, interval.high) === last.high
        ? interval.high
        : last.high;
      merged[merged.length - 1] = { low: last.low, high };
    } else {
      merged.push(interval);
    }
  }
  return merged;
}

/** The versions in both ranges. */
export function intersect(a: Range, b: Range): Range {
  return normalize(
    a.flatMap((x) => b.map((y) => ({ low: maxLow(x.low, y.low), high: minHigh(x.high, y.high) }))),
  );
}

/** The versions in every range given (any version when none is given). */
export function intersectAll(ranges: Iterable<string>): Range {
  let result = ANY;
  for (const range of ranges) result = intersect(result, parseRange(range));
  return result;
}

const show = (version: Version) => version.join(".");

/** A range as npm writes it, in the shortest of the forms used here: `>=22.14.0`, `^20.19.0`. */
export function formatRange(range: Range): string {
  if (range.length === 0) return "<0.0.0";
  return range.map(({ low, high }) => {
    const start = low.inclusive ? `>=${show(low.version)}` : `>${show(low.version)}`;
    if (!high) return compare(low.version, ZERO) === 0 && low.inclusive ? "*" : start;
    if (low.inclusive && high.inclusive && compare(low.version, high.version) === 0) {
      return show(low.version);
    }
    if (
      low.inclusive && !high.inclusive &&
      compare(high.version, caretCeiling([...low.version])) === 0
    ) {
      return `^${show(low.version)}`;
    }
    const end = high.inclusive ? `<=${show(high.version)}` : `<${show(high.version)}`;
    return compare(low.version, ZERO) === 0 && low.inclusive ? end : `${start} ${end}`;
  }).join(" || ");
}

function parseVersion(text: string): Version {
  const parts = partial(text.trim(), text);
  if (parts.includes(null)) throw new Error(`not a full version: "${text}"`);
  return parts as unknown as Version;
}

function contains({ low, high }: Interval, version: Version): boolean {
  const above = compare(version, low.version);
  if (above < 0 || (above === 0 && !low.inclusive)) return false;
  if (!high) return true;
  const below = compare(version, high.version);
  return below < 0 || (below === 0 && high.inclusive);
}

/** Whether a version (`20.20.2`, `v20.20.2`) is in the range. */
export function satisfies(version: string, range: Range): boolean {
  const parsed = parseVersion(version);
  return range.some((interval) => contains(interval, parsed));
}

/** Whether a version is below every version of the range (not merely in a gap of it). */
export function below(version: string, range: Range): boolean {
  return range.length > 0 && !satisfies(version, range) &&
    compare(parseVersion(version), range[0].low.version) <= 0;
}

// ---------------------------------------------------------------------------------------------
// The installed packages.

interface PackageJson {
  name?: string;
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson | null {
  try {
    return JSON.parse(Deno.readTextFileSync(`${dir}/package.json`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

const parent = (dir: string) => dir.slice(0, dir.lastIndexOf("/"));

/** Where Node finds package `name` from `dir`: the nearest node_modules/<name> up to `root`. */
function resolve(name: string, dir: string, root: string): string | null {
  for (let at = dir; at.length >= root.length; at = parent(at)) {
    const candidate = `${at}/node_modules/${name}`;
    if (readPackage(candidate)) return candidate;
  }
  return null;
}

/** `name@version` → its `engines.node`, for a package and all it brings that declare one. */
function closure(dir: string, root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const seen = new Set<string>();
  const visit = (at: string) => {
    if (seen.has(at)) return;
    seen.add(at);
    const pkg = readPackage(at)!;
    if (pkg.engines?.node) found[`${pkg.name}@${pkg.version}`] = pkg.engines.node;
    const required = Object.keys(pkg.dependencies ?? {});
    // Optional ones (platform builds) and peers are followed when they are installed.
    const maybe = [
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
    ];
    for (const name of [...required, ...maybe]) {
      const next = resolve(name, at, root);
      if (next) visit(next);
      else if (required.includes(name) && !maybe.includes(name)) {
        throw new Error(`${pkg.name} needs ${name}, which is not installed under ${root}`);
      }
    }
  };
  visit(dir);
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}

/** Per direct dependency (`name@version` as installed), what `closure` finds from it. */
export function clientFacts(root: string): Record<string, Record<string, string>> {
  const pkg = readPackage(root);
  if (!pkg) throw new Error(`no package.json in ${root}`);
  const direct = [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
  ].sort();
  return Object.fromEntries(direct.map((name) => {
    const dir = resolve(name, root, root);
    if (!dir) throw new Error(`${name} is not installed in ${root}: run npm install there`);
    const installed = readPackage(dir)!;
    return [`${name}@${installed.version}`, closure(dir, root)];
  }));
}

if (import.meta.main) {
  const [command, ...args] = Deno.args;
  if (command === "facts" && args.length > 0) {
    const clients = Object.fromEntries(args.map((arg) => {
      const [name, dir] = arg.split("=");
      return [name, clientFacts(dir.replace(/\/$/, ""))];
    }));
    console.log(JSON.stringify(clients, null, 2));
  } else if (command === "check-node" && args.length === 2) {
    const [version, dir] = args;
    const declared = readPackage(dir)?.engines?.node;
    if (!declared) {
      console.log(`${dir}/package.json declares no Node range (engines.node)`);
    } else if (!satisfies(version, parseRange(declared))) {
      const where = below(version, parseRange(declared)) ? "below" : "outside";
      console.log(
        `Node ${version.replace(/^v/, "")} is ${where} what this client needs (${declared}): ` +
          "npm install warns EBADENGINE, and the client's tools may fail on it",
      );
    }
  } else {
    console.error(
      "usage: client_engines.ts facts <client>=<dir>... | check-node <version> <dir>",
    );
    Deno.exit(2);
  }
}
