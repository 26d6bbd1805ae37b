/**
 * Fast start. What `main.ts` loads before any command runs (its static imports) is our own small
 * modules, gunshi only when the command line needs a parser; `init`'s core loads when `init` runs,
 * and touches no Node built-in either. The server, database drivers, prompts and tables load
 * inside the commands that need them. Work done while running counts too: the hot path never
 * reads Node's `process` (its first use sets up the Node compatibility layer) and never builds an
 * ICU collator (`localeCompare`, `Intl.Collator`: about 20 ms on its first call). The client
 * commands (`secrets list`, `set`, `diff`) load zod only as `zod/mini`, whatever they import at
 * run time.
 *
 * When VOICEBOT_TEST_BUNDLE names the bundle (.ci/run's bundle-e2e check), the bundle is held to
 * the same: its entry and the chunks it imports statically import no `node:` module, and the hot
 * commands run from it touch neither `process` nor a collator.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { BUNDLE, MAIN, tempDir } from "./helpers.ts";
import { type GroupName, skipped } from "./skips.ts";

interface ModuleInfo {
  specifier: string;
  dependencies?: { isDynamic?: boolean; code?: { specifier?: string } }[];
}

/**
 * Every module `entry` (relative to this file, or absolute) reaches through static imports, or,
 * with `dynamic`, through `await import()` too: all that a command may load once it runs.
 */
async function staticGraph(entry: string, options: { dynamic?: boolean } = {}): Promise<string[]> {
  const path = new URL(entry, import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", path],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(output.code, 0);
  const info: { roots: string[]; modules: ModuleInfo[] } = JSON.parse(
    new TextDecoder().decode(output.stdout),
  );
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const reached = new Set<string>();
  const pending = [...info.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (reached.has(specifier)) continue;
    reached.add(specifier);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if ((options.dynamic || !dep.isDynamic) && dep.code?.specifier) {
        pending.push(dep.code.specifier);
      }
    }
  }
  return [...reached];
}

function assertLean(graph: string[], allowedPackages: string[]) {
  assert.deepEqual(graph.filter((s) => s.startsWith("node:")), [], "no node: module");
  const packages = graph.filter((s) => s.startsWith("npm:"));
  const unexpected = packages.filter((p) => !allowedPackages.some((ok) => p.startsWith(ok)));
  assert.deepEqual(unexpected, [], `only ${allowedPackages.join(", ")}`);
}

/**
 * The parser loads only for a command line that needs it: `--version` and the plain `init` command
 * lines (src/cli/direct.ts) load no package at all, and init's action none either.
 */
Deno.test("main.ts loads our own modules only at start; gunshi loads with run.ts", async () => {
  assertLean(await staticGraph("../main.ts"), []);
  assertLean(await staticGraph("../src/cli/init_action.ts"), []);
  const parser = await staticGraph("../src/cli/run.ts");
  assert.ok(parser.some((s) => s.startsWith("npm:gunshi@")), "run.ts loads gunshi");
  assertLean(parser, ["npm:gunshi@", "npm:/gunshi@"]);
});

Deno.test({
  name: "the bundle's entry loads no node: module and no npm: package at start",
  ignore: skipped("bundle"),
  fn: async () => {
    const graph = await staticGraph(BUNDLE!);
    assert.ok(graph.length > 1, "the entry imports its shared chunks");
    assertLean(graph, []);
  },
});

/**
 * The templates and mustache (a fifth of the CLI's code) load only when a file's bytes or a client
 * folder's names are needed (project.ts's loadTemplates): `init quickstart --dry-run` into a new
 * directory, which the bench times, names the files and never loads them.
 */
Deno.test("init's core loads no node: module, zod only as zod/mini, the templates only later", async () => {
  const core = await staticGraph("../src/init/mod.ts");
  assertLean(core, []);
  assert.deepEqual(core.filter((s) => s.endsWith("/templates.gen.ts")), [], "no templates");
  const later = await staticGraph("../src/init/mod.ts", { dynamic: true });
  assert.ok(later.some((s) => s.endsWith("/templates.gen.ts")), "the templates, when needed");
  assertLean(later.filter((s) => !s.startsWith("npm:zod@4.6.7/mini")), ["npm:mustache@"]);
  assertLean(await staticGraph("../src/init/config_file.ts"), ["npm:zod@4.6.7/mini"]);
});

/**
 * The client commands the bench times (`secrets list`, `set --dry-run`, `diff`) load the API
 * client, its config and the dotenv reader when they run, through `await import()`; all of that
 * reads the API's answers with `zod/mini`. Classic `zod` (the wire schemas, schemas.ts, which the
 * server validates with) costs about a whole Deno start to load: none of it on this path, not even
 * behind a dynamic import.
 */
Deno.test("the client commands load zod only as zod/mini, dynamic imports included", async () => {
  for (const command of ["list", "set", "diff"]) {
    const graph = await staticGraph(`../src/cli/cloud/secrets/${command}.ts`, { dynamic: true });
    // The walk reaches what loads only at run time: the client and its response schemas.
    for (const module of ["src/secrets/client.ts", "src/secrets/responses.ts"]) {
      assert.ok(graph.some((s) => s.endsWith(module)), `${command}: reaches ${module}`);
    }
    const zod = graph.filter((s) => /^npm:\/?zod@/.test(s));
    assert.ok(zod.length > 0, `${command}: reaches zod/mini`);
    assert.deepEqual(zod.filter((s) => !s.endsWith("/mini")), [], `${command}: no classic zod`);
  }
});

/**
 * Loaded before main.ts (`deno run --preload`): reports reading `process`, and calling
 * `localeCompare` or `Intl.Collator`.
 */
const WATCH = `
const note = (what) => console.error("hot-path-watch: " + what);
const process = Object.getOwnPropertyDescriptor(globalThis, "process");
Object.defineProperty(globalThis, "process", {
  configurable: true,
  get() {
    note("process");
    return process.get.call(this);
  },
});
const localeCompare = String.prototype.localeCompare;
String.prototype.localeCompare = function (...args) {
  note("localeCompare");
  return localeCompare.apply(this, args);
};
const Collator = Intl.Collator;
Intl.Collator = function (...args) {
  note("Intl.Collator");
  return new Collator(...args);
};
`;

const HOT_COMMANDS = [
  ["--version"],
  ["--help"],
  ["init", "--help"],
  ["init", "--list-options"],
  ["init", "quickstart", "--dry-run"],
  ["init", "quickstart"],
];

/** Each entry and the groups of tests/skips.ts its tests need (the bundle runs when it is named). */
const ENTRIES: [string, string, GroupName[]][] = [
  ["main.ts", MAIN, []],
  ["the bundle", BUNDLE ?? "", ["bundle"]],
];

for (const [kind, entry, needs] of ENTRIES) {
  for (const args of HOT_COMMANDS) {
    Deno.test({
      name: `\`voicebot ${
        args.join(" ")
      }\` from ${kind} touches neither process nor an ICU collator`,
      ignore: skipped(...needs),
      fn: async () => {
        await using dir = await tempDir();
        const watch = join(dir.path, "watch.js");
        await Deno.writeTextFile(watch, WATCH);
        const output = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--quiet", "--preload", watch, entry, ...args],
          cwd: dir.path,
          stdin: "null",
          stdout: "null",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).output();
        const stderr = new TextDecoder().decode(output.stderr);
        assert.equal(output.code, 0, stderr);
        assert.deepEqual(stderr.match(/hot-path-watch: .*/g) ?? [], []);
      },
    });
  }
}
