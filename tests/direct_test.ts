/**
 * The direct start (src/cli/direct.ts) runs the plainest `init` command lines without gunshi. It
 * must take them as gunshi takes them: for every command line it accepts, gunshi resolves `init`
 * and hands its action the same directory and options, with no error; every other command line is
 * left to gunshi. And it must keep taking the ones people type first, or their start slows again.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { plainInit, runDirect } from "../src/cli/direct.ts";
import type { InitCommandLine } from "../src/cli/init_action.ts";
import { COMMANDS, run } from "../src/cli/run.ts";
import { VERSION } from "../src/version.ts";

/**
 * What gunshi hands init's action for `argv`, through run.ts as the CLI runs it; undefined when it
 * does not reach the action (an error, help, another command). Nothing runs or prints.
 */
async function gunshiReads(argv: string[]): Promise<InitCommandLine | undefined> {
  let read: InitCommandLine | undefined;
  const init = {
    ...COMMANDS.init,
    run: ({ values, positionals, commandPath }: InitCommandLine) => {
      read = { values, positionals, commandPath };
      return Promise.resolve();
    },
  };
  await printed(() => run(argv, { ...COMMANDS, init } as typeof COMMANDS));
  return read;
}

/** What `action` prints, on either stream, and its result. */
async function printed<T>(action: () => Promise<T>): Promise<{ output: string; result: T }> {
  const lines: string[] = [];
  const { log, error } = console;
  console.log = console.error = (...data: unknown[]) => lines.push(data.join(" "));
  try {
    return { result: await action(), output: lines.join("\n") };
  } finally {
    Object.assign(console, { log, error });
  }
}

/** Values as the action reads them: an option not given and one absent are the same. */
const given = (values: object) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

/** Words of the command lines the direct start takes: init's switches and directories. */
const PLAIN = [
  "quickstart",
  "my-bot",
  ".",
  "a b",
  "a=b",
  "12",
  "--dry-run",
  "--coding-agent",
  "--overwrite-guide",
  "--list-options",
  "--verbose",
];

/** Words near them that it must leave to gunshi: other options, values, forms of a switch. */
const OTHER = [
  "init",
  "--dry-run=true",
  "--no-dry-run",
  "--dry-run=",
  "--help",
  "-h",
  "--version",
  "--",
  "-",
  "",
  "-t",
  "lightweb",
  "--name",
  "--config",
  "-x",
  "--dry-rn",
  "update",
  "cloud",
];

/** `init` with plain words and now and then another, and any words at all. */
const commandLines = fc.oneof(
  fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...PLAIN) },
      { weight: 1, arbitrary: fc.constantFrom(...OTHER) },
    ),
    { maxLength: 5 },
  ).map((rest) => ["init", ...rest]),
  fc.array(fc.constantFrom(...PLAIN, ...OTHER), { maxLength: 6 }),
);

Deno.test("every command line the direct start takes, gunshi reads the same", async () => {
  let taken = 0;
  await fc.assert(
    fc.asyncProperty(commandLines, async (argv) => {
      const direct = plainInit(argv.filter((word) => word !== "--verbose"));
      if (!direct) return;
      taken++;
      const parsed = await gunshiReads(argv);
      assert.ok(parsed, `gunshi does not run init's action for ${JSON.stringify(argv)}`);
      assert.deepEqual(given(direct.values), given(parsed.values), JSON.stringify(argv));
      assert.deepEqual(direct.positionals, parsed.positionals, JSON.stringify(argv));
      assert.deepEqual(direct.commandPath, parsed.commandPath, JSON.stringify(argv));
    }),
    { numRuns: 1000 },
  );
  // The property says nothing if the draws never reach it. About 230 of the 1,000 draws reach it
  // (217 to 235 in six runs; one CI run drew 191), so the bound sits well below what chance gives.
  assert.ok(taken > 120, `only ${taken} command lines taken directly`);
});

Deno.test("--version, direct and through gunshi, prints the same", async () => {
  for (const argv of [["--version"], ["--version", "--verbose"]]) {
    const direct = await printed(() => runDirect(argv));
    const parsed = await printed(() => run(argv));
    assert.deepEqual(direct, { result: 0, output: VERSION });
    assert.deepEqual(parsed, direct);
  }
  assert.equal(await runDirect(["--version", "init"]), undefined);
});

Deno.test("the commands people type first start directly; the others go to gunshi", () => {
  for (
    const argv of [
      ["init", "quickstart"],
      ["init", "quickstart", "--dry-run"],
      ["init", "my-bot", "--dry-run"],
      ["init", "my-bot", "--coding-agent"],
      ["init", "--list-options"],
      ["init"],
      ["init", "--dry-run", "my-bot", "--overwrite-guide"],
    ]
  ) {
    assert.ok(plainInit(argv), `${argv.join(" ")} starts directly`);
  }
  for (
    const argv of [
      [],
      ["--version"],
      ["init", "--help"],
      ["init", "a", "b"],
      ["init", "my-bot", "-t", "lightweb"],
      ["init", "--dry-run", "--dry-run"],
      ["init", "--", "my-bot"],
      ["init", ""],
      ["update"],
    ]
  ) {
    assert.equal(plainInit(argv), undefined, `${JSON.stringify(argv)} goes to gunshi`);
  }
});
