/**
 * docs/API.md states the numbers the server really uses (the limits, the flags' defaults), and its
 * compatibility table names every status the server adds to a documented route.
 */
import assert from "node:assert/strict";
import serve, {
  AUTH_CACHE_SECONDS,
  ROTATION_BATCH as CLI_ROTATION_BATCH,
} from "../src/cli/cloud/serve.ts";
import { AUTH_CACHE_MS, LAST_USED_PRECISION_MS } from "../src/server/auth.ts";
import { LIST_FRESHNESS_MS } from "../src/server/app.ts";
import { DEFAULT_LIMITS, DEFAULT_REGIONS, PROVISION_POLL_MS } from "../src/server/config.ts";
import { AUDIT_RETENTION_DAYS, VERSIONS_KEPT } from "../src/server/storage/common.ts";
import { ROTATION_BATCH } from "../src/server/rotation.ts";
import { PROVISION_BATCH } from "../src/server/provisioner.ts";
import { BUSY_TIMEOUT_MS } from "../src/server/storage/sqlite.ts";
import {
  CLOSE_TIMEOUT_SECONDS,
  CONNECT_TIMEOUT_SECONDS,
  POOL_SIZE,
} from "../src/server/storage/postgres.ts";
import { BODY_READ_TIMEOUT_MS, REQUEST_ID_PATTERN } from "../src/server/request.ts";
import { RELISTEN_FIRST_MS, RELISTEN_MAX_MS } from "../src/server/listen.ts";
import { CLOSE_TIMEOUT_MS, DRAIN_TIMEOUT_MS } from "../src/server/serve.ts";
import { BACKENDS, testApp } from "./helpers_server.ts";

const docs = await Deno.readTextFile(new URL("../docs/API.md", import.meta.url));
/** The prose with its line breaks undone, since `deno fmt` rewraps it. */
const flat = docs.replace(/\s+/g, " ");
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
  const args = serve.args as Record<string, { type: string; default?: unknown }>;
  for (const [name, arg] of Object.entries(args)) {
    if (name === "organization") continue; // the actions', documented with them
    if (arg.type === "positional") continue; // the action word, documented in the synopsis
    const documented = secondCell(`\`--${name}\``);
    if (name === "json") assert.ok(documented.startsWith("off"), "--json");
    else if (arg.default !== undefined) assert.equal(documented, `\`${arg.default}\``, `--${name}`);
    else assert.ok(!documented.startsWith("(no row"), `--${name} is documented`);
  }
  assert.equal(
    args.regions.default,
    DEFAULT_REGIONS.join(","),
    "the CLI and the app agree on the regions",
  );
});

Deno.test("docs/API.md: the request-id shape is the enforced one", () => {
  assert.ok(flat.includes(`\`${REQUEST_ID_PATTERN.source.slice(1, -1)}\``));
});

Deno.test("docs/API.md: the authentication cache time and last-used precision are the real ones", () => {
  const seconds = AUTH_CACHE_MS / 1000;
  assert.equal(AUTH_CACHE_SECONDS, seconds, "the CLI's message and the server agree");
  assert.match(
    flat,
    new RegExp(`memory for ${seconds} seconds \\(the authentication cache time\\)`),
  );
  assert.match(flat, new RegExp(`within the authentication cache time, ${seconds} seconds`));
  assert.match(flat, new RegExp(`at most once every ${LAST_USED_PRECISION_MS / 1000} seconds`));
});

Deno.test("docs/API.md: the shutdown and body-read bounds are the real ones", () => {
  const seconds = (ms: number) => ms / 1000;
  assert.match(flat, new RegExp(`up to ${seconds(DRAIN_TIMEOUT_MS)} seconds`));
  assert.match(flat, new RegExp(`waiting at most ${seconds(CLOSE_TIMEOUT_MS)} second`));
  assert.match(
    flat,
    new RegExp(
      `within these ${seconds(DRAIN_TIMEOUT_MS)} \\+ ${seconds(CLOSE_TIMEOUT_MS)} seconds`,
    ),
  );
  assert.match(flat, new RegExp(`arrive whole within ${seconds(BODY_READ_TIMEOUT_MS)} seconds`));
});

Deno.test("docs/API.md: the list freshness bound is the real one", () => {
  assert.match(flat, new RegExp(`at most every ${LIST_FRESHNESS_MS} milliseconds`));
  assert.match(flat, new RegExp(`within ${LIST_FRESHNESS_MS} milliseconds`));
});

Deno.test("docs/API.md: the delays of listening again after a failed accept are the real ones", () => {
  assert.match(flat, new RegExp(`again on the same port ${RELISTEN_FIRST_MS} milliseconds later`));
  assert.match(flat, new RegExp(`doubling delays up to ${RELISTEN_MAX_MS / 1000} second\\b`));
});

Deno.test("README.md and docs/*.md show a PostgreSQL URL with a password only in VOICEBOT_DATABASE_URL", async () => {
  const pages: [string, string][] = [];
  for (
    const name of [
      "README.md",
      ...[...Deno.readDirSync(new URL("../docs/", import.meta.url))]
        .map((entry) => `docs/${entry.name}`).filter((name) => name.endsWith(".md")),
    ]
  ) {
    pages.push([name, await Deno.readTextFile(new URL(`../${name}`, import.meta.url))]);
  }
  assert.ok(pages.some(([name]) => name === "docs/serve.md"), "docs/serve.md, where --database is");
  for (const [name, text] of pages) {
    for (const line of text.split("\n")) {
      if (/postgres(ql)?:\/\/[^\s`]*:[^\s`]*@/i.test(line)) {
        assert.match(line, /VOICEBOT_DATABASE_URL=postgres/, `${name}: ${line}`);
      }
      assert.doesNotMatch(line, /--database`?\s+`?postgres/i, `${name}: ${line}`);
    }
  }
});

Deno.test("docs/API.md: the provisioner's pace and the databases' connection numbers are the real ones", () => {
  const seconds = PROVISION_POLL_MS / 1000;
  assert.match(flat, new RegExp(`otherwise it looks every ${seconds} second`));
  assert.match(flat, new RegExp(`picked up within ${seconds} second after its delay`));
  assert.match(flat, new RegExp(`at most ${PROVISION_BATCH} sets a round`));
  assert.match(flat, new RegExp(`at most ${POOL_SIZE} connections to the database`));
  assert.match(
    flat,
    new RegExp(`after ${CONNECT_TIMEOUT_SECONDS} seconds \\(the connect timeout\\)`),
  );
  assert.match(flat, new RegExp(`waits at most ${CLOSE_TIMEOUT_SECONDS} seconds for the queries`));
  assert.match(flat, new RegExp(`at most ${CLOSE_TIMEOUT_SECONDS} seconds for PostgreSQL`));
  assert.match(flat, new RegExp(`busy timeout ${BUSY_TIMEOUT_MS / 1000} s\\b`));
});

Deno.test("docs/API.md: versions kept, audit retention and the rotation batch are the real ones", () => {
  assert.match(flat, new RegExp(`the last ${VERSIONS_KEPT} versions of each set`));
  assert.match(flat, new RegExp(`Retention:\\*\\* ${AUDIT_RETENTION_DAYS} days`));
  assert.match(flat, new RegExp(`batches of \`--batch-size\` \\(${ROTATION_BATCH}\\) items`));
  // The CLI's default (it may not import the server) is the server's.
  assert.equal(CLI_ROTATION_BATCH, ROTATION_BATCH);
});

Deno.test("docs/API.md: the compatibility table names every status the server adds to a documented route", async () => {
  await using t = await testApp(BACKENDS[0]);
  const served = (await t.json("GET", "/v1/openapi.json", { key: null })).body;
  const contract = JSON.parse(
    await Deno.readTextFile(new URL("./data/platform-secrets.openapi.json", import.meta.url)),
  );
  const section = docs.slice(
    docs.indexOf("## Compatibility with the documented platform API"),
    docs.indexOf("**The client** (`voicebot cloud secrets`)"),
  );
  const table = section.split("\n").filter((line) => line.startsWith("|"))
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
  const statuses = table.find((cells) => cells[0] === "statuses: those listed per route");
  assert.ok(statuses, "the table has its row of statuses");
  let added = 0;
  for (const [path, item] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      const documented = Object.keys((operation as { responses: object }).responses);
      const ours = Object.keys(served.paths[path][method].responses);
      const route = `${method.toUpperCase()} ${path}`;
      for (const status of ours.filter((status) => !documented.includes(status))) {
        // voicebot's own PUT bodies are answered 201 or 200 (see Routes): not a documented request.
        if (method === "put" && (status === "200" || status === "201")) continue;
        added++;
        if (status === "400") {
          // A 400 the documentation does not list gets a row of its own, naming the route.
          const named = new RegExp(`\`${route.replace(/[{}?]/g, "\\$&")}[\`?]`);
          assert.ok(
            table.some(([first, second]) => named.test(first) && second.includes("400")),
            `${route}: 400 is not in the compatibility table`,
          );
        } else {
          assert.ok(statuses[1].includes(status), `${route}: ${status} is not in the table`);
        }
      }
    }
  }
  assert.ok(added > 0, "the served document adds statuses (429 at least)");
});
