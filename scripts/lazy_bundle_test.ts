import assert from "node:assert/strict";
import { parse } from "acorn";
import { importCycle, makeChunksLazy, makeFunctionsEager, makeRequireLazy } from "./lazy_bundle.ts";

/**
 * Writes `files` (name to source) into a temporary directory of their own, imports `entry` from it
 * and runs `check` on that module; the directory goes after the check, which may load more.
 */
async function withChunks(
  files: Record<string, string>,
  entry: string,
  // deno-lint-ignore no-explicit-any
  check: (module: any) => Promise<void> | void,
) {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, source] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, source);
    }
    await check(await import(`file://${dir}/${entry}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// What deno 2.9's `deno bundle --minify --platform=deno` writes into the shared runtime chunk.
const MINIFIED =
  'var g=Object.create;import{createRequire as __deno_internal_createRequire} from "node:module";' +
  "var m=__deno_internal_createRequire(import.meta.url);var n=1;export{m as a,n as b};";
const PLAIN = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\nexport { __require as a };\n";

Deno.test("the require shim loads node:module on its first use, not when its chunk loads", async () => {
  for (const original of [MINIFIED, PLAIN]) {
    const { source, replaced } = makeRequireLazy(original);
    assert.equal(replaced, 1);
    assert.doesNotMatch(source, /^import|[;\n]import/, "no static import left");
    await withChunks({ "chunk.js": source }, "chunk.js", (chunk) => {
      const require = chunk.a;
      assert.equal(require("node:os").EOL, "\n");
      assert.equal(typeof require.resolve, "function");
    });
  }
});

Deno.test("a chunk without the shim is left as it is", () => {
  assert.deepEqual(makeRequireLazy("export const a = 1;"), {
    source: "export const a = 1;",
    replaced: 0,
  });
});

Deno.test("a form of the shim it does not know fails the build", () => {
  assert.throws(
    () =>
      makeRequireLazy(
        'import{createRequire as __deno_internal_createRequire}from"node:module";' +
          "const m=__deno_internal_createRequire(import.meta.url);",
      ),
    /does not know/,
  );
});

Deno.test("a chunk loaded with import() is out of Deno's start-up graph, and still loads", async () => {
  const { source, replaced } = makeChunksLazy(
    'export const load=async()=>(await import("./lazy-AB12.js")).loaded;' +
      'export const again=()=>import( "./lazy-AB12.js" );',
  );
  assert.equal(replaced, 2);
  assert.doesNotMatch(source, /import\(\s*"/, "no import() of a literal left");
  const files = { "lazy-AB12.js": "export const loaded = true;", "entry.js": source };
  await withChunks(files, "entry.js", async (entry) => {
    assert.equal(await entry.load(), true);
  });
});

Deno.test("an import() of a literal in a form it does not know fails the build", () => {
  assert.throws(() => makeChunksLazy("import('./other.js')"), /does not know/);
  assert.equal(makeChunksLazy('import("node:process")').replaced, 0, "a built-in stays");
  assert.deepEqual(makeChunksLazy("export const a = 1;"), {
    source: "export const a = 1;",
    replaced: 0,
  });
});

/**
 * A chunk as esbuild writes one: code that runs when it loads and calls a function declared below
 * it, an exported function, a recursive one and an async one, after a `#!` line.
 */
const CHUNK = `#!/usr/bin/env -S deno run -A
import { inc } from "./dep.js";
const early = twice(inc(1));
function twice(n) { return n * 2; }
export function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }
async function later() { return early + (await Promise.resolve(1)); }
export { early, later };
`;

Deno.test("a chunk's functions become compiled with it, and are there before its code runs", async () => {
  const { source, replaced } = makeFunctionsEager(CHUNK);
  assert.equal(replaced, 3);
  assert.ok(source.startsWith("#!/usr/bin/env -S deno run -A\n"), "the #! line stays first");
  const body = source.slice(source.indexOf("\n") + 1);
  const program = parse(body, { ecmaVersion: "latest", sourceType: "module" });
  const declarations = program.body.map((node) =>
    node.type === "ExportNamedDeclaration" ? node.declaration?.type : node.type
  );
  assert.ok(!declarations.includes("FunctionDeclaration"), "no function declaration left");
  // The form V8 compiles with its module: a function expression in parentheses.
  for (const name of ["twice", "fact", "later"]) {
    assert.match(source, new RegExp(`var ${name}=\\((async )?function ${name}\\(`));
  }
  const files = { "dep.js": "export const inc = (n) => n + 1;", "chunk.js": source };
  await withChunks(files, "chunk.js", async (chunk) => {
    assert.equal(chunk.early, 4, "a function called before its place in the chunk");
    assert.equal(chunk.fact(5), 120);
    assert.equal(await chunk.later(), 5);
  });
});

Deno.test("a chunk without a function declaration is left as it is", () => {
  assert.deepEqual(makeFunctionsEager("export const a = () => 1;"), {
    source: "export const a = () => 1;",
    replaced: 0,
  });
});

Deno.test("chunks that import each other in a cycle are found, as the build must refuse them", () => {
  const chunks = new Map([
    ["voicebot.js", 'import{a as b}from"./chunk-A.js";import"./chunk-C.js";'],
    ["chunk-A.js", 'import { c } from "./chunk-B.js"; export const a = c;'],
    ["chunk-B.js", 'export const c = 1; const l = () => import("./voicebot.js");'],
    ["chunk-C.js", "export {};"],
  ]);
  assert.equal(importCycle(chunks), undefined, "an import() is no cycle");
  chunks.set("chunk-C.js", 'import"./chunk-A.js";import*as v from"./voicebot.js";');
  assert.deepEqual(importCycle(chunks), ["voicebot.js", "chunk-C.js", "voicebot.js"]);
});
