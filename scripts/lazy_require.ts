/**
 * Run by `deno task bundle` after `deno bundle`: makes the bundle's `require` shim lazy, so that
 * starting the CLI from the bundle loads no `node:` module and never touches Node's `process`.
 *
 * Why: a CommonJS package that requires a Node built-in (cli-table3 did, through its optional
 * `@colors/colors`; no package of the CLI does today) makes esbuild, which keeps Node built-ins
 * external, emit its `__require` helper for those calls, and helpers go
 * into the one runtime chunk that every chunk imports, the entry included. For `--platform=deno`,
 * `deno bundle` then replaces that helper with
 * `import{createRequire}from"node:module";var __require=createRequire(import.meta.url)`, which runs
 * as soon as the runtime chunk loads: on every start, whatever the command.
 *
 * This rewrites that one statement into a stand-in that calls `createRequire` on its first use, in
 * the lazily loaded chunk that needs it. It fails when Deno's statement is there in a form it does
 * not know, so a new Deno cannot bring the cost back unnoticed (tests/hot_path_test.ts checks the
 * bundle's start too).
 *
 *   deno run --allow-read=dist --allow-write=dist scripts/lazy_require.ts dist
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
      "deno bundle wrote its createRequire shim in a form scripts/lazy_require.ts does not know",
    );
  }
  return { source: result, replaced };
}

async function main(dir: string) {
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = join(dir, entry.name);
    const result = makeRequireLazy(await Deno.readTextFile(path));
    if (result.replaced === 0) continue;
    await Deno.writeTextFile(path, result.source);
  }
}

if (import.meta.main) await main(Deno.args[0] ?? "dist");
