/**
 * The release workflow's guard: a tag releases only the version deno.json says.
 *
 *   deno run --allow-read scripts/check_release_tag.ts v0.1.0
 *
 * Exits 0 when the tag is `v` + deno.json's version, 1 otherwise (with why on stderr).
 */
import meta from "../deno.json" with { type: "json" };

export function tagProblem(tag: string | undefined, version: string): string | undefined {
  if (!tag) return "no tag given: pass the tag, e.g. `v" + version + "`.";
  if (tag !== `v${version}`) {
    return `tag ${tag} does not match deno.json's version ${version}: tag v${version}, or change the version first.`;
  }
}

if (import.meta.main) {
  const problem = tagProblem(Deno.args[0], meta.version);
  if (problem) {
    console.error(`error: ${problem}`);
    Deno.exit(1);
  }
  console.error(`tag ${Deno.args[0]} matches deno.json's version.`);
}
