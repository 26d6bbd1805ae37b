import assert from "node:assert/strict";
import { tagProblem } from "./check_release_tag.ts";
import { pinnedDeno } from "../tests/skips.ts";

Deno.test("the tag guard takes v<version> and refuses anything else", () => {
  assert.equal(tagProblem("v1.2.3", "1.2.3"), undefined);
  for (const tag of [undefined, "", "1.2.3", "v1.2.4", "v1.2.3-rc1", "refs/tags/v1.2.3"]) {
    assert.ok(tagProblem(tag, "1.2.3"), `refuses ${tag}`);
  }
});

/** The workflow's jobs, each with the lines of its block (no YAML parser: one is not a dependency). */
function jobs(workflow: string): Map<string, string> {
  const lines = workflow.slice(workflow.search(/^jobs:$/m)).split("\n").slice(1);
  const found = new Map<string, string>();
  let current: string | undefined;
  for (const line of lines) {
    const header = line.match(/^ {2}([\w-]+):\s*$/);
    if (header) current = header[1];
    else if (current) found.set(current, `${found.get(current) ?? ""}${line}\n`);
  }
  return found;
}

Deno.test("release.yml runs the tag guard on the tag before any job builds or publishes", async () => {
  const workflow = await Deno.readTextFile(
    new URL("../.github/workflows/release.yml", import.meta.url),
  );
  const all = jobs(workflow);
  const guard = all.get("check-tag");
  assert.ok(guard, "a check-tag job");
  assert.match(guard, /run: deno run [^\n]*scripts\/check_release_tag\.ts "\$GITHUB_REF_NAME"\n/);
  assert.ok(all.size > 1, "jobs besides the guard");
  for (const [name, block] of all) {
    if (name === "check-tag") continue;
    assert.match(
      block,
      /^ {4}needs: (check-tag|\[[^\]]*\bcheck-tag\b[^\]]*\])\s*$/m,
      `${name} needs check-tag`,
    );
  }
});

Deno.test("release.yml publishes the npm package that `deno task npm` builds, with provenance", async () => {
  const workflow = await Deno.readTextFile(
    new URL("../.github/workflows/release.yml", import.meta.url),
  );
  const npm = jobs(workflow).get("npm");
  assert.ok(npm, "an npm job");
  assert.match(npm, /^ {6}id-token: write\b/m, "the OIDC token npm's provenance is signed with");
  const build = npm.indexOf("run: deno task npm\n");
  const publish = npm.indexOf(
    "run: npm publish --provenance --access public dist/npm/voicebot-cli-*.tgz\n",
  );
  assert.ok(build > 0 && publish > build, "builds the package, then publishes that tarball");
  assert.match(npm, /NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/);

  // Every job's Deno is the README's: the npm package depends on the Deno that built its bundle.
  const versions = [...workflow.matchAll(/deno-version: (\S+)/g)].map((match) => match[1]);
  assert.ok(versions.length >= 4, "each job sets up Deno");
  assert.deepEqual(new Set(versions), new Set([pinnedDeno()]));
});
