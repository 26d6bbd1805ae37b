import assert from "node:assert/strict";
import fc from "fast-check";
import * as pathe from "pathe";
import { basename, dirname, isAbsolute, join, normalize, relative, resolve } from "./paths.ts";

const segment = fc.constantFrom("a", "bb", "c.d", ".", "..", "", "e-f", "g_h");
// Paths start with a name: a leading `//` is a UNC path, which init never meets.
const relativePath = fc.tuple(fc.constantFrom("a", "bb"), fc.array(segment, { maxLength: 6 }))
  .map(([head, rest]) => [head, ...rest].join("/"));
const absolutePath = relativePath.map((p) => `/${p}`);
const anyPath = fc.oneof(relativePath, absolutePath);
/** pathe keeps a trailing slash, as Node does; ours drops it. Nothing in init depends on it. */
const trim = (p: string) => (p.length > 1 ? p.replace(/\/$/, "") : p);

Deno.test("paths agree with pathe on POSIX paths", () => {
  fc.assert(fc.property(anyPath, (p) => normalize(p) === trim(pathe.normalize(p))));
  fc.assert(fc.property(anyPath, anyPath, (a, b) => join(a, b) === trim(pathe.join(a, b))));
  fc.assert(
    fc.property(absolutePath, anyPath, (a, b) => resolve(a, b) === trim(pathe.resolve(a, b))),
  );
  fc.assert(fc.property(anyPath, (p) => dirname(p) === pathe.dirname(trim(pathe.normalize(p)))));
  fc.assert(fc.property(anyPath, (p) => basename(p) === pathe.basename(trim(pathe.normalize(p)))));
  fc.assert(fc.property(anyPath, (p) => isAbsolute(p) === pathe.isAbsolute(p)));
  fc.assert(
    fc.property(
      absolutePath,
      absolutePath,
      (a, b) => relative(a, b) === trim(pathe.relative(a, b)),
    ),
  );
});

Deno.test("paths handle Windows drives and backslashes", () => {
  assert.equal(normalize("C:\\Users\\me\\bot\\..\\x"), "C:/Users/me/x");
  assert.equal(resolve("C:\\work", "my-bot"), "C:/work/my-bot");
  assert.equal(resolve("C:\\work", "D:\\other"), "D:/other");
  assert.equal(dirname("C:\\bot"), "C:/");
  assert.equal(basename("C:\\work\\my-bot"), "my-bot");
  assert.ok(isAbsolute("C:\\x") && !isAbsolute("x\\y"));
  assert.equal(relative("C:/work", "C:/work/bot/server"), "bot/server");
});
