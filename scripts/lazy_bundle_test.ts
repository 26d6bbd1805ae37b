import assert from "node:assert/strict";
import { makeChunksLazy, makeRequireLazy } from "./lazy_bundle.ts";

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
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/chunk.js`;
      await Deno.writeTextFile(path, source);
      const { a: require } = await import(`file://${path}`);
      assert.equal(require("node:os").EOL, "\n");
      assert.equal(typeof require.resolve, "function");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
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
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/lazy-AB12.js`, "export const loaded = true;");
    const { source, replaced } = makeChunksLazy(
      'export const load=async()=>(await import("./lazy-AB12.js")).loaded;' +
        'export const again=()=>import( "./lazy-AB12.js" );',
    );
    assert.equal(replaced, 2);
    assert.doesNotMatch(source, /import\(\s*"/, "no import() of a literal left");
    await Deno.writeTextFile(`${dir}/entry.js`, source);
    const entry = await import(`file://${dir}/entry.js`);
    assert.equal(await entry.load(), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an import() of a literal in a form it does not know fails the build", () => {
  assert.throws(() => makeChunksLazy("import('./other.js')"), /does not know/);
  assert.equal(makeChunksLazy('import("node:process")').replaced, 0, "a built-in stays");
  assert.deepEqual(makeChunksLazy("export const a = 1;"), {
    source: "export const a = 1;",
    replaced: 0,
  });
});
