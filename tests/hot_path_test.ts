/**
 * Fast start: what `main.ts` loads before any command runs (its static imports) touches no Node
 * built-in and only the small npm packages of the hot path. The server, database drivers, prompts
 * and tables load with `await import()` inside the commands that need them.
 */
import assert from "node:assert/strict";

const HOT_PATH_PACKAGES = ["npm:gunshi@", "npm:mustache@", "npm:pathe@", "npm:zod@"];

interface ModuleInfo {
  specifier: string;
  dependencies?: { isDynamic?: boolean; code?: { specifier?: string } }[];
}

Deno.test("the static import graph of main.ts has no node: module and only hot-path packages", async () => {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", main],
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
      if (!dep.isDynamic && dep.code?.specifier) pending.push(dep.code.specifier);
    }
  }
  const nodeModules = [...reached].filter((s) => s.startsWith("node:"));
  assert.deepEqual(nodeModules, [], "no node: module on the hot path");
  const packages = [...reached].filter((s) => s.startsWith("npm:"));
  const unexpected = packages.filter((p) =>
    !HOT_PATH_PACKAGES.some((allowed) => p.startsWith(allowed))
  );
  assert.deepEqual(unexpected, [], "only the hot path's own packages load at start");
  assert.ok(
    packages.some((p) => p.startsWith("npm:zod@") && p.endsWith("/mini")),
    "zod/mini, not classic zod",
  );
});
