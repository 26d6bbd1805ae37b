/**
 * Run by `deno task bundle` after `deno bundle`: makes what the bundle loads lazily load only when
 * it is used, so that a start costs little more than Deno's own. Two rewrites:
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
 * Each rewrite fails the build when it finds its target in a form it does not know, so a new Deno
 * cannot bring the cost back unnoticed (tests/hot_path_test.ts checks the bundle's start too).
 *
 *   deno run --allow-read=dist --allow-write=dist scripts/lazy_bundle.ts dist
 */
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

async function main(dir: string) {
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = join(dir, entry.name);
    const chunks = makeChunksLazy(await Deno.readTextFile(path));
    const result = makeRequireLazy(chunks.source);
    if (chunks.replaced + result.replaced === 0) continue;
    await Deno.writeTextFile(path, result.source);
  }
}

if (import.meta.main) await main(Deno.args[0] ?? "dist");
