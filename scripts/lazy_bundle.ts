/**
 * Run by `deno task bundle` after `deno bundle`: makes what the bundle loads lazily load only when
 * it is used, and what it runs come compiled from Deno's cache, so that a start costs little more
 * than Deno's own. Three rewrites:
 *
 * 1. The chunks loaded with `import()`. Deno's module graph follows every `import("./chunk.js")`
 *    whose specifier is a string literal when the program starts: it reads and parses each lazy
 *    chunk (the server, the wizard, the client: about 1 MB), although none of them runs for
 *    `--version` or `init`, which cost 10 to 15 ms more for it. Written
 *    `import(new URL("./chunk.js", import.meta.url).href)`, the graph leaves them alone and Deno
 *    loads a chunk when the `import()` runs. (`deno compile` builds from the sources, not from the
 *    bundle: its binaries hold every module either way.)
 *
 * 2. The `require` shim, so that starting the CLI from the bundle loads no `node:` module and never
 *    touches Node's `process`. A CommonJS package that requires a Node built-in (cli-table3 did,
 *    through its optional `@colors/colors`; no package of the CLI does today) makes esbuild, which
 *    keeps Node built-ins external, emit its `__require` helper for those calls, and helpers go
 *    into the one runtime chunk that every chunk imports, the entry included. For
 *    `--platform=deno`, `deno bundle` then replaces that helper with
 *    `import{createRequire}from"node:module";var __require=createRequire(import.meta.url)`, which
 *    runs as soon as the runtime chunk loads: on every start, whatever the command. This rewrites
 *    that one statement into a stand-in that calls `createRequire` on its first use, in the lazily
 *    loaded chunk that needs it.
 *
 * 3. The functions, so that their compiled code comes from Deno's code cache. Deno keeps V8's code
 *    for a module as it was when the module was first compiled, and V8 compiles a function
 *    declaration only when it is first called: every start compiled again each function it ran
 *    (a fifth of `init quickstart --dry-run`'s own time, more for `--help` or a scaffold). A
 *    function expression in parentheses is compiled with its module, and so comes from the cache.
 *    Each top-level `function f(){}` becomes `var f=(function f(){});`, moved to the start of its
 *    chunk, so that it is there before any of the chunk's code runs, as a declaration is. (A
 *    declaration is there even before its chunk runs, which only a chunk in an import cycle
 *    could see: the build fails if the chunks import each other in a cycle.)
 *
 * Each rewrite fails the build when it finds its target in a form it does not know, so a new Deno
 * cannot bring the cost back unnoticed (tests/hot_path_test.ts checks the bundle's start too).
 *
 *   deno run --allow-read=dist --allow-write=dist scripts/lazy_bundle.ts dist
 */
import { parse } from "acorn";
import { join } from "pathe";

/** What `deno bundle` writes, minified or not; the first group is the helper's name. */
const EAGER_REQUIRE =
  /import\s*\{\s*createRequire as __deno_internal_createRequire\s*\}\s*from\s*"node:module";\s*var (\w+)\s*=\s*__deno_internal_createRequire\(import\.meta\.url\);/g;

/** The same helper, made on its first call or property read (`require.resolve`). */
function lazyRequire(name: string): string {
  const cache = `__voicebot_require_${name}`;
  const make = `(${cache}??=globalThis.process.getBuiltinModule("node:module")` +
    `.createRequire(import.meta.url))`;
  return `var ${cache},${name}=new Proxy(function(){},{apply:(_,t,a)=>Reflect.apply(${make},t,a),` +
    `get:(_,k)=>${make}[k]});`;
}

/** `source` with Deno's eager `createRequire` made lazy, and how many it replaced. */
export function makeRequireLazy(source: string): { source: string; replaced: number } {
  let replaced = 0;
  const result = source.replace(EAGER_REQUIRE, (_, name: string) => {
    replaced++;
    return lazyRequire(name);
  });
  if (result.includes("__deno_internal_createRequire")) {
    throw new Error(
      "deno bundle wrote its createRequire shim in a form scripts/lazy_bundle.ts does not know",
    );
  }
  return { source: result, replaced };
}

/** A chunk's `import("./chunk-X.js")`, as esbuild writes it, minified or not. */
const LITERAL_IMPORT = /\bimport\(\s*"(\.\/[\w.-]+\.js)"\s*\)/g;

/** `source` with each `import()` of a chunk out of Deno's start-up graph, and how many. */
export function makeChunksLazy(source: string): { source: string; replaced: number } {
  let replaced = 0;
  const result = source.replace(LITERAL_IMPORT, (_, specifier: string) => {
    replaced++;
    return `import(new URL("${specifier}",import.meta.url).href)`;
  });
  // Built-ins (`import("node:process")`) are not read from disk: they stay.
  if (/\bimport\(\s*["'`]\./.test(result)) {
    throw new Error(
      "deno bundle wrote an import() of a literal in a form scripts/lazy_bundle.ts does not know",
    );
  }
  return { source: result, replaced };
}

/** The `#!` line a chunk may start with, which stays first. */
const SHEBANG = /^#![^\n]*\n/;

/**
 * `source` with each top-level function declaration an eagerly compiled expression (3. above),
 * defined at the start of the module, and how many.
 */
export function makeFunctionsEager(source: string): { source: string; replaced: number } {
  const shebang = source.match(SHEBANG)?.[0] ?? "";
  const body = source.slice(shebang.length);
  const program = parse(body, { ecmaVersion: "latest", sourceType: "module" });
  let eager = "";
  let rest = "";
  let at = 0;
  let replaced = 0;
  for (const statement of program.body) {
    const exported = statement.type === "ExportNamedDeclaration";
    const declaration = exported ? statement.declaration : statement;
    if (declaration?.type !== "FunctionDeclaration") continue;
    const text = body.slice(declaration.start, declaration.end);
    eager += `${exported ? "export " : ""}var ${declaration.id.name}=(${text});`;
    rest += body.slice(at, statement.start);
    at = statement.end;
    replaced++;
  }
  rest += body.slice(at);
  return { source: shebang + eager + rest, replaced };
}

/** The chunks each chunk imports statically (`import ... from "./x.js"`, `import "./x.js"`). */
const STATIC_IMPORT = /\bimport\s*(?:[\w${}\s,*]*?\bfrom\s*)?"\.\/([\w.-]+\.js)"/g;

/** A cycle of static imports among `chunks` (name to source), as the names around it, if any. */
export function importCycle(chunks: ReadonlyMap<string, string>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const visit = (name: string, path: string[]): string[] | undefined => {
    if (state.get(name) === "open") return [...path.slice(path.indexOf(name)), name];
    if (state.get(name) === "done") return undefined;
    state.set(name, "open");
    for (const [, imported] of chunks.get(name)?.matchAll(STATIC_IMPORT) ?? []) {
      const cycle = visit(imported, [...path, name]);
      if (cycle) return cycle;
    }
    state.set(name, "done");
  };
  for (const name of chunks.keys()) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
}

async function main(dir: string) {
  const chunks = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) {
      chunks.set(entry.name, await Deno.readTextFile(join(dir, entry.name)));
    }
  }
  const cycle = importCycle(chunks);
  if (cycle) {
    throw new Error(
      `the bundle's chunks import each other in a cycle (${cycle.join(" -> ")}): ` +
        "scripts/lazy_bundle.ts cannot make their functions eager",
    );
  }
  for (const [name, original] of chunks) {
    const lazy = makeChunksLazy(original);
    const required = makeRequireLazy(lazy.source);
    const eager = makeFunctionsEager(required.source);
    if (lazy.replaced + required.replaced + eager.replaced === 0) continue;
    await Deno.writeTextFile(join(dir, name), eager.source);
  }
}

if (import.meta.main) await main(Deno.args[0] ?? "dist");
