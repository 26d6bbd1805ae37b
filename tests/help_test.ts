/**
 * Every `--help` of the command tree, rendered by the CLI itself, held to the rules of a help that
 * reads well; and the parser's errors, in our words. The tree is walked from the real command
 * definitions, so a new command is covered without a word here.
 */
import assert from "node:assert/strict";
import { type Args, type ArgSchema, cli } from "gunshi";
import { COMMANDS } from "../src/cli/run.ts";
import { commandsUnder, type SubCommands } from "../src/cli/completions.ts";
import type { HelpCommand } from "../src/cli/help.ts";
import { TRANSPORT_CHOICES, TRANSPORTS } from "../src/init/catalog.ts";
import { VERSION } from "../src/version.ts";
import { type CliResult, voicebot } from "./helpers.ts";

/** The root, then every command a user can type, parents before children. */
const TREE: [string[], HelpCommand][] = [
  [[], { args: {}, subCommands: COMMANDS }],
  ...commandsUnder(COMMANDS),
];

/** The words gunshi uses when its errors leak through unreworded. */
const GUNSHI_WORDING =
  /Optional argument|Positional argument|should be '|is required$|Unknown option|Command not found|Negatable of|Display this/m;

/** `tasks` run at most `limit` at a time: a CLI process each, not dozens at once. */
async function pooled<T>(tasks: (() => Promise<T>)[], limit = 6): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

const positionals = (args: Args = {}) =>
  Object.entries(args).filter(([, arg]) => arg.type === "positional" && !arg.hidden);
const options = (args: Args = {}) =>
  Object.entries(args).filter(([, arg]) => arg.type !== "positional" && !arg.hidden);
const shownName = (name: string, arg: ArgSchema) => arg.metavar ?? name.toUpperCase();
const visibleChildren = (command: HelpCommand) =>
  Object.entries(command.subCommands ?? {}).filter(([, child]) => !child.internal);

/** The lines of a section (`COMMANDS:`), up to the blank line that ends it. */
function section(text: string, title: string): string[] {
  const lines = text.split("\n");
  const start = lines.indexOf(`${title}:`);
  if (start < 0) return [];
  const end = lines.indexOf("", start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The rules every help screen keeps, at `width` columns. */
function checkHelp(path: string[], command: HelpCommand, run: CliResult, width: number) {
  const where = `voicebot ${[...path, "--help"].join(" ")} (${width} columns)`;
  assert.equal(run.code, 0, `${where}: ${run.stderr}`);
  assert.equal(run.stderr, "", where);
  const text = run.stdout;

  for (const line of text.split("\n")) {
    assert.ok(line.length <= width, `${where}: a line of ${line.length} columns:\n${line}`);
  }

  // The usage line names the command and each positional, in order.
  const usage = section(text, "USAGE").join(" ").replace(/\s+/g, " ").trim();
  const children = visibleChildren(command);
  assert.ok(usage.startsWith(["voicebot", ...path].join(" ")), `${where}: usage is ${usage}`);
  let from = 0;
  for (const [name, arg] of children.length ? [] : positionals(command.args)) {
    const at = usage.indexOf(shownName(name, arg), from);
    assert.ok(at >= 0, `${where}: the usage line leaves out ${shownName(name, arg)}: ${usage}`);
    from = at;
  }

  // A group lists its commands, each once, and never itself.
  const listed = section(text, "COMMANDS").filter((line) => /^ {2}\S/.test(line))
    .map((line) => line.trim().split(/\s+/)[0]);
  assert.deepEqual(listed, children.map(([name]) => name), `${where}: the commands listed`);
  if (path.length) {
    assert.ok(!listed.includes(path.at(-1)!), `${where}: lists itself`);
    assert.doesNotMatch(text, new RegExp(`\\[${path.at(-1)}\\]`), `${where}: lists itself`);
  }

  // Every option is there, and one that takes a value shows it as required.
  const optionLines = section(text, "OPTIONS");
  for (const [name, arg] of options(command.args)) {
    const flag = arg.type === "boolean" && arg.negatable ? `--[no-]${name}` : `--${name}`;
    const label = new RegExp(`^ {2}(-\\w, )?${flag.replace(/[[\]]/g, "\\$&")}( |$)`);
    const line = optionLines.find((line) => label.test(line));
    assert.ok(line, `${where}: ${flag} is not listed`);
    if (arg.type !== "boolean") {
      assert.match(line, new RegExp(`${flag} <[^>]+>`), `${where}: ${flag}'s value: ${line}`);
    }
  }
  assert.doesNotMatch(text, /--[\w-]+ \[/, `${where}: a value that looks optional`);
  assert.match(text, /^ {2}--verbose +Show the details/m, where);
  assert.doesNotMatch(text, GUNSHI_WORDING, where);
}

Deno.test("every --help keeps the rules, at 80 columns and at 50", async (t) => {
  assert.ok(TREE.length > 20, `the walk found ${TREE.length} commands`);
  for (const width of [80, 50]) {
    // Not a terminal: 80 by default, COLUMNS when set.
    const env: Record<string, string> = width === 80 ? {} : { COLUMNS: String(width) };
    const runs = await pooled(TREE.map(([path]) => () => voicebot([...path, "--help"], { env })));
    await t.step(`${width} columns`, () => {
      TREE.forEach(([path, command], i) => checkHelp(path, command, runs[i], width));
    });
  }
});

Deno.test("every command's parser errors are ours: all at once, with what is expected, exit 2", async () => {
  const cases = TREE.map(([path, command]) => {
    const numbers = options(command.args).filter(([, arg]) => arg.type === "number");
    const args = [
      ...path,
      "--no-such-option",
      ...numbers.flatMap(([name]) => [`--${name}`, "lots"]),
    ];
    return { path, command, numbers, args };
  });
  const runs = await pooled(cases.map(({ args }) => () => voicebot(args)));
  cases.forEach(({ command, numbers, args }, i) => {
    const run = runs[i];
    const where = `voicebot ${args.join(" ")}`;
    assert.equal(run.code, 2, `${where}: ${run.stderr}`);
    assert.equal(run.stdout, "", where);
    assert.doesNotMatch(run.stderr, GUNSHI_WORDING, `${where}:\n${run.stderr}`);
    assert.match(run.stderr, /unknown option --no-such-option/, where);
    // "lots" is never echoed: a value typed in the wrong place may be a secret.
    assert.doesNotMatch(run.stderr, /lots/, where);
    for (const [name] of numbers) {
      assert.match(
        run.stderr,
        new RegExp(`--${name} expects a number\\b.*e\\.g\\. --${name} \\d+`),
        where,
      );
    }
    // Required positionals not given are named too (a group has none: it is not run).
    if (!visibleChildren(command).length) {
      for (const [name, arg] of positionals(command.args)) {
        if (arg.required === false || arg.default !== undefined) continue;
        if (arg.multiple && arg.required !== true) continue;
        assert.match(run.stderr, new RegExp(`missing ${shownName(name, arg)}\\b`), where);
      }
    }
    if (numbers.length) assert.match(run.stderr, /^error: \d+ problems with the arguments:$/m);
    assert.match(run.stderr, /^hint: /m, where);
  });
});

Deno.test("parser errors say what the option expects, with an example", async () => {
  for (
    const [args, expected] of [
      [
        ["cloud", "secrets", "set", "app", "--wait-timeout", "soon"],
        /^error: --wait-timeout expects a number of seconds, e\.g\. --wait-timeout 120$/m,
      ],
      // No value at all (gunshi 0.37.2 itself fails with a TypeError there).
      [["cloud", "serve", "--port"], /^error: --port expects a number, e\.g\. --port 8787$/m],
      [["cloud", "serve", "--port", "--json"], /^error: --port expects a number/m],
      [["init", "--name"], /^error: --name needs a value: project name .*; e\.g\. --name <name>$/m],
      [
        ["completions"],
        /^error: missing SHELL: one of bash, zsh, fish, powershell, e\.g\. voicebot completions bash\nhint: usage: voicebot completions SHELL/m,
      ],
      [
        ["cloud", "secrets", "set"],
        /^hint: usage: voicebot cloud secrets set NAME \[KEY=value \.\.\.\] \[OPTIONS\]$/m,
      ],
      [["version"], /^error: unknown command "version"; did you mean "--version"\?$/m],
      [["cloud", "help"], /^error: unknown command "help"; did you mean "--help"\?$/m],
      [["clod"], /^error: unknown command "clod"; did you mean "cloud"\?$/m],
      [["complet"], /^error: unknown command "complet"; did you mean "completions"\?$/m],
      [
        ["init", "--transprot", "x", "--verbos"],
        /unknown option --transprot; did you mean "--transport"\?\n.*unknown option --verbos; did you mean "--verbose"\?/,
      ],
    ] as const
  ) {
    const run = await voicebot(args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, expected, run.stderr);
    assert.doesNotMatch(run.stderr, GUNSHI_WORDING, run.stderr);
  }
});

Deno.test("a group called without one of its commands names them all, and exits 2", async () => {
  const groups = TREE.filter(([, command]) => visibleChildren(command).length > 0);
  assert.ok(groups.length >= 4, "the root, cloud, cloud auth, cloud secrets");
  const runs = await pooled(groups.map(([path]) => () => voicebot(path)));
  groups.forEach(([path, command], i) => {
    const run = runs[i];
    const where = ["voicebot", ...path].join(" ");
    assert.equal(run.code, 2, `${where}: ${run.stderr}`);
    assert.equal(run.stdout, "", where);
    assert.match(run.stderr, /^error: no command given; the commands are:\n/, where);
    const named = [...run.stderr.matchAll(/^ {2}- ([\w-]+): /gm)].map((match) => match[1]);
    assert.deepEqual(named, visibleChildren(command).map(([name]) => name), where);
    assert.match(run.stderr, new RegExp(`hint: run \`${where} COMMAND --help\``));
  });
});

/** The examples a help screen shows, each a command line with its `\` continuations joined. */
function examplesIn(text: string): string[] {
  const lines = section(text, "EXAMPLES").filter((line) => !/^ {2}# /.test(line));
  return lines.join("\n").replace(/ \\\n\s+/g, " ").split("\n").map((line) => line.trim());
}

/** The tree with every `run` replaced by one that records the path it ran: parsing only. */
function parsingTree(commands: SubCommands, ran: string[][], path: string[] = []): SubCommands {
  return Object.fromEntries(
    Object.entries(commands).map(([name, command]) => [name, {
      ...command,
      run: () => void ran.push([...path, name]),
      subCommands: command.subCommands && parsingTree(command.subCommands, ran, [...path, name]),
    }]),
  );
}

/** Whether gunshi, strict as run.ts makes it, takes `argv` as a run of `path` (it throws if not). */
async function parses(argv: string[]): Promise<string[] | undefined> {
  const ran: string[][] = [];
  await cli(argv, { name: "voicebot", run: () => void ran.push([]) }, {
    name: "voicebot",
    strict: true,
    renderHeader: null,
    renderUsage: null,
    renderValidationErrors: null,
    subCommands: parsingTree(COMMANDS as SubCommands, ran),
  });
  return ran[0];
}

Deno.test("every --help shows 2 to 5 examples of itself that the parser takes as they are", async () => {
  const runs = await pooled(TREE.map(([path]) => () => voicebot([...path, "--help"])));
  for (const [i, [path, command]] of TREE.entries()) {
    const where = `voicebot ${[...path, "--help"].join(" ")}`;
    const examples = examplesIn(runs[i].stdout);
    if (visibleChildren(command).length && path.length) continue; // a group: its commands show them
    assert.ok(
      examples.length >= 2 && examples.length <= 5,
      `${where}: ${examples.length} examples`,
    );
    assert.equal(examples.length, command.helpExamples?.length ?? examples.length, where);
    for (const example of examples) {
      assert.ok(
        `${example} `.startsWith(["voicebot", ...path, ""].join(" ")),
        `${where}: ${example}`,
      );
      assert.doesNotMatch(example, /["'`]/, `${where}: a quote the split below does not read`);
      // The words up to a pipe or a redirection are voicebot's.
      const words = example.split(" ").slice(1);
      const end = words.findIndex((word) => /^(\||<|>|>>)$/.test(word));
      const argv = end < 0 ? words : words.slice(0, end);
      const ran = await parses(argv).catch((error) => {
        throw new Error(`${where}: "${example}" is refused: ${error}`);
      });
      assert.ok(ran, `${where}: "${example}" ran nothing`);
      assert.deepEqual(ran.slice(0, path.length), path, `${where}: "${example}" ran ${ran}`);
    }
  }
});

/** Variables src/ reads: `Deno.env.get("X")`, `env("X")`, `readEnv("X")`, or `X_ENV = "X"`. */
async function variablesRead(): Promise<Set<string>> {
  const read = new Set<string>();
  const pattern =
    /(?:Deno\.env\.get|\benv|readEnv)\(\s*"([A-Z_][A-Z0-9_]*)"\s*\)|_ENV\s*=\s*"([A-Z_][A-Z0-9_]*)"/g;
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (/(?<!_test)\.ts$/.test(entry.name) && entry.name !== "templates.gen.ts") {
        for (const match of (await Deno.readTextFile(url)).matchAll(pattern)) {
          read.add(match[1] ?? match[2]);
        }
      }
    }
  };
  await walk(new URL("../src/", import.meta.url));
  return read;
}

/** Set by `secrets run` for the command it starts, never read. */
const SET_NOT_READ = ["VOICEBOT_SECRETS"];
/** Read only when the tests set it (the writer stops dead at a chosen step): not for users. */
const TEST_HOOKS = ["VOICEBOT_TEST_KILL_AFTER_STEP"];

Deno.test("ENVIRONMENT: each variable a help names is read in src/, and each VOICEBOT_* read is named", async () => {
  const read = await variablesRead();
  assert.ok(read.has("VOICEBOT_API_KEY") && read.has("NO_COLOR"), [...read].join(", "));
  const runs = await pooled(TREE.map(([path]) => () => voicebot([...path, "--help"])));
  const named = new Set<string>();
  TREE.forEach(([path, command], i) => {
    const where = `voicebot ${[...path, "--help"].join(" ")}`;
    if (visibleChildren(command).length && path.length) return;
    const listed = section(runs[i].stdout, "ENVIRONMENT").filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(/\s+/)[0]);
    assert.ok(listed.length > 0, `${where}: no ENVIRONMENT section`);
    assert.ok(listed.includes("NO_COLOR"), `${where}: its messages are coloured`);
    for (const name of listed) {
      assert.ok(read.has(name), `${where}: ${name} is read nowhere in src/`);
      named.add(name);
    }
  });
  const unnamed = [...read].filter((name) =>
    name.startsWith("VOICEBOT_") && !named.has(name) && !SET_NOT_READ.includes(name) &&
    !TEST_HOOKS.includes(name)
  );
  assert.deepEqual(unnamed, [], "read in src/ and named in no help");
  // docs/cli.md's table lists them all, and no other.
  const page = await Deno.readTextFile(new URL("../docs/cli.md", import.meta.url));
  const table = page.slice(page.indexOf("## Environment"), page.indexOf("## Exit codes"));
  const documented = [...table.matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1]);
  assert.deepEqual(documented.toSorted(), [...named].toSorted(), "docs/cli.md's Environment");
});

Deno.test("Learn more: every help ends with the address of its page in this version's package", async () => {
  const base = `https://jsr.io/@voicebot/cli/${VERSION}/`;
  const published: string[] = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  ).publish.include;
  const runs = await pooled(TREE.map(([path]) => () => voicebot([...path, "--help"])));
  for (const [i, [path]] of TREE.entries()) {
    const where = `voicebot ${[...path, "--help"].join(" ")}`;
    const text = runs[i].stdout;
    const match = text.match(/^Learn more:\s+(\S+)\n$/m);
    assert.ok(match, `${where}: no Learn more line`);
    const address = match[1];
    assert.ok(address.startsWith(base), `${where}: ${address}`);
    const file = address.slice(base.length);
    assert.ok(
      published.includes(file) || (file.startsWith("docs/") && published.includes("docs/*.md")),
      `${where}: ${file} is not in the published package`,
    );
    const page = await Deno.readTextFile(new URL(`../${file}`, import.meta.url));
    if (path.length) {
      // As tests/docs_test.ts finds a command on its page.
      assert.match(page, new RegExp(`(voicebot |\`)${path.join(" ")}\\b`), `${where}: ${file}`);
    }
    // A path in the repository means nothing after an install: only the address says docs/.
    assert.doesNotMatch(text.replaceAll(address, ""), /docs\//, `${where}: a bare docs/ path`);
  }
});

Deno.test("a one-letter option means the same long option in every command", () => {
  const meaning = new Map<string, Set<string>>();
  for (const [, command] of TREE) {
    for (const [name, arg] of options(command.args)) {
      if (!arg.short) continue;
      meaning.set(arg.short, (meaning.get(arg.short) ?? new Set()).add(name));
    }
  }
  assert.ok(meaning.has("s") && meaning.has("o"), [...meaning.keys()].join(" "));
  for (const [short, names] of meaning) {
    assert.equal(names.size, 1, `-${short} means ${[...names].join(" and ")}`);
  }
});

Deno.test("init --help: the wizard on a terminal, the guides without one, vendors beside transports", async () => {
  const run = await voicebot(["init", "--help"]);
  assert.equal(run.code, 0, run.stderr);
  const text = run.stdout.replace(/\s+/g, " ");
  assert.match(
    text,
    /with no scaffold option, --config or quickstart: on a terminal it asks the questions \(the wizard\); with no terminal, or with --coding-agent, it writes the guides/i,
  );
  const transport = section(run.stdout, "OPTIONS").join(" ").replace(/\s+/g, " ")
    .match(/--transport <transport> (.*?) -m, --mode/)?.[1];
  assert.ok(transport, run.stdout);
  for (const choice of TRANSPORT_CHOICES) {
    const vendor = TRANSPORTS.find((t) => t.choice === choice)!.vendor;
    assert.ok(transport.includes(`${choice} (${vendor})`), `${choice} (${vendor}): ${transport}`);
  }
});

/** A help screen's exit codes: the first word of each row of its EXIT CODES section. */
const exitCodesOf = (stdout: string) =>
  section(stdout, "EXIT CODES").filter((line) => /^ {2}\S+ {2,}/.test(line))
    .map((line) => line.trim().split(/\s+/)[0]);

Deno.test("EXIT CODES: the root's help has every command's; each command has its own; docs/cli.md says the same", async () => {
  const runs = await pooled(TREE.map(([path]) => () => voicebot([...path, "--help"])));
  const codes = new Map(TREE.map(([path], i) => [path.join(" "), exitCodesOf(runs[i].stdout)]));
  assert.deepEqual(codes.get(""), ["0", "1", "2", "3", "4", "5", "130"]);
  const page = await Deno.readTextFile(new URL("../docs/cli.md", import.meta.url));
  const table = page.slice(
    page.indexOf("## Exit codes"),
    page.indexOf("## ", page.indexOf("## Exit codes") + 3),
  );
  const rows = [...table.matchAll(/^\| (\d+) +\| (.*) \|$/gm)].map(([, code, text]) => ({
    code,
    text,
  }));
  assert.ok(rows.length >= 10, table);
  const paths = [...codes.keys()].filter(Boolean).sort((a, b) => b.length - a.length);
  for (const { code, text } of rows) {
    // The commands the row names (`update --check`, `cloud secrets run`); none: every command's.
    const named = [...text.matchAll(/`([^`]+)`/g)]
      .map(([, words]) => paths.find((path) => `${words} `.startsWith(`${path} `)))
      .filter((path) => path !== undefined);
    // Every command has the root's codes; a code of a command's own is in that command's help.
    if (codes.get("")!.includes(code)) continue;
    assert.ok(named.length > 0, `docs/cli.md: exit code ${code} names no command`);
    for (const path of named) {
      assert.ok(
        codes.get(path)!.includes(code),
        `voicebot ${path} --help has no exit code ${code}`,
      );
    }
  }
  const documented = new Set(rows.map((row) => row.code));
  for (const [path, listed] of codes) {
    for (const code of listed.filter((code) => code !== "N")) {
      assert.ok(documented.has(code), `voicebot ${path} --help: ${code} is not in docs/cli.md`);
    }
  }
});

Deno.test("cloud serve ACTION --help shows that action's own screen: its usage, its options, its examples", async () => {
  const { SERVE_ACTIONS } = await import("../src/cli/cloud/serve.ts");
  const runs = await pooled(
    SERVE_ACTIONS.map((action) => () => voicebot(["cloud", "serve", action, "--help"])),
  );
  SERVE_ACTIONS.forEach((action, i) => {
    const { code, stdout, stderr } = runs[i];
    assert.equal(code, 0, stderr);
    assert.match(
      section(stdout, "USAGE").join(" "),
      new RegExp(`voicebot cloud serve ${action}\\b`),
    );
    const options = section(stdout, "OPTIONS").join("\n");
    assert.match(options, /--database/, action);
    assert.doesNotMatch(options, /--port|--rate-limit|--host/, `${action}: the server's options`);
    assert.doesNotMatch(
      stdout,
      new RegExp(`(?<![\\w-])${action}: `),
      `${action}: no "${action}:" prefix`,
    );
    // Each example's first line (a long one goes on, indented further, after a backslash).
    const examples = section(stdout, "EXAMPLES").filter((line) => /^ {2}[^ #]/.test(line));
    assert.ok(examples.length > 0, action);
    for (const line of examples) {
      assert.match(line, new RegExp(`voicebot cloud serve ${action}\\b`));
    }
  });
  const revoke = runs[SERVE_ACTIONS.indexOf("revoke-key")].stdout;
  assert.match(revoke, /voicebot cloud serve revoke-key KEY_ID \[OPTIONS\]/);
});

Deno.test("completions --help installs as docs/cli.md does: each example is a line of its table", async () => {
  const { completions } = await import("../src/cli/completions.ts");
  const page = await Deno.readTextFile(new URL("../docs/cli.md", import.meta.url));
  const examples = (completions as HelpCommand).helpExamples ?? [];
  assert.ok(examples.length >= 2);
  for (const [, line] of examples) assert.ok(page.includes(`${line}\``), line);
});
