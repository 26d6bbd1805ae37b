/** docs/API.md states the numbers the server really uses: the limits and the flags' defaults. */
import assert from "node:assert/strict";
import serve from "../src/cli/cloud/serve.ts";
import { DEFAULT_LIMITS, DEFAULT_REGIONS } from "../src/server/config.ts";
import { REQUEST_ID_PATTERN } from "../src/server/request.ts";

const docs = await Deno.readTextFile(new URL("../docs/API.md", import.meta.url));
const rows = docs.split("\n").filter((line) => line.startsWith("|"))
  .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
const secondCell = (first: string) =>
  rows.find((cells) => cells[0] === first)?.[1] ?? `(no row ${first})`;

Deno.test("docs/API.md: the limits table matches the enforced limits", () => {
  const number = (n: number) => n.toLocaleString("en-US");
  assert.match(
    secondCell("request body"),
    new RegExp(`^${number(DEFAULT_LIMITS.maxBodyBytes)} bytes`),
  );
  assert.match(
    secondCell("one value, or the credentials"),
    new RegExp(`^${number(DEFAULT_LIMITS.maxValueBytes)} bytes`),
  );
  assert.match(secondCell("keys per set"), new RegExp(`^${number(DEFAULT_LIMITS.maxKeysPerSet)} `));
  assert.match(
    secondCell("sets per organization"),
    new RegExp(`^${number(DEFAULT_LIMITS.maxSetsPerOrganization)} `),
  );
});

Deno.test("docs/API.md: every serve flag is documented with its real default", () => {
  const args = serve.args as Record<string, { default?: unknown }>;
  for (const [name, arg] of Object.entries(args)) {
    if (name === "organization") continue; // create-key's, documented with it
    const documented = secondCell(`\`--${name}\``);
    if (arg.default !== undefined) assert.equal(documented, `\`${arg.default}\``, `--${name}`);
    else assert.ok(!documented.startsWith("(no row"), `--${name} is documented`);
  }
  assert.equal(
    args.regions.default,
    DEFAULT_REGIONS.join(","),
    "the CLI and the app agree on the regions",
  );
});

Deno.test("docs/API.md: the request-id shape is the enforced one", () => {
  assert.ok(docs.includes(`\`${REQUEST_ID_PATTERN.source.slice(1, -1)}\``));
});
