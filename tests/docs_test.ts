/**
 * The reference pages and the command tree hold each other: every command, and every long option of
 * every command, appears in the page of its group; every option a page names is one that a command
 * of that page has (or, listed below, one it borrows from a named command); and the README names no
 * option the CLI lacks. The tree is the one the CLI runs: the same command modules src/cli/run.ts
 * mounts, with its top level checked against the running CLI's own completion of it.
 */
import assert from "node:assert/strict";
import init from "../src/cli/init.ts";
import update from "../src/cli/update.ts";
import migrate from "../src/cli/migrate.ts";
import cloud from "../src/cli/cloud/mod.ts";
import { type CommandShape, completions, type SubCommands } from "../src/cli/completions.ts";
import { PAGES } from "../src/cli/help.ts";
import { V8_FLAGS } from "../scripts/v8_flags.ts";
import { voicebot } from "./helpers.ts";

/** What every command takes: gunshi's `--help` and `--version`, run.ts's `--verbose` (docs/cli.md). */
const GLOBAL = ["help", "version", "verbose"];

/** Options a page names that belong to a command of another page, by that command. */
const BORROWED: Record<string, Record<string, string[]>> = {
  "docs/secrets.md": { "cloud serve": ["runtime", "set"] },
  "docs/cli.md": {
    init: ["config", "dry-run", "list-options", "eval", "no-eval"],
    update: ["check"],
    "cloud secrets set": ["file", "wait"],
    "cloud secrets diff": ["exit-code"],
    "cloud secrets list": ["sets", "no-sets"],
    "cloud serve": ["database", "rate-limit"],
  },
};

/** A command line of another program, whose options are its own: the platform's CLI (serve.md). */
const ANOTHER_PROGRAM = /^pcc /;

/** The tree run.ts mounts; `complete` is internal (the completion scripts' helper). */
const TREE: SubCommands = { init, update, migrate, cloud, completions };

interface Command {
  path: string;
  /** Long option names, with `no-NAME` for a negatable one. */
  options: string[];
  /** The words a positional takes (`cloud serve`'s actions, the shells). */
  words: string[];
  /** Whether it holds commands of its own. */
  groups: boolean;
}

function commandsOf(commands: SubCommands, prefix: string[] = []): Command[] {
  const entries = commands instanceof Map ? [...commands] : Object.entries(commands);
  return entries.flatMap(([name, command]: [string, CommandShape]) => {
    if (command.internal || command.entry) return [];
    const path = [...prefix, name];
    const args = Object.entries(command.args ?? {});
    const options = args.filter(([, arg]) => arg.type !== "positional").flatMap((
      [option, arg],
    ) => arg.type === "boolean" && arg.negatable ? [option, `no-${option}`] : [option]);
    const words = args.flatMap(([, arg]) =>
      arg.type === "positional" && arg.choices ? [...arg.choices] : []
    );
    return [
      { path: path.join(" "), options, words, groups: command.subCommands !== undefined },
      ...commandsOf(command.subCommands ?? {}, path),
    ];
  });
}

const COMMANDS = commandsOf(TREE);

function pageOf(path: string): string {
  const group =
    Object.keys(PAGES).filter((prefix) => path === prefix || path.startsWith(`${prefix} `))
      .sort((a, b) => b.length - a.length)[0];
  assert.ok(group, `"${path}" has no page in PAGES`);
  return PAGES[group];
}

const read = (page: string) => Deno.readTextFile(new URL(`../${page}`, import.meta.url));

/** The long options a text names: `--name`, not `--` alone nor a part of a word. */
const optionsIn = (text: string) =>
  new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => match[1]));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test("docs: the tree walked here is the one the CLI runs", async () => {
  // Each group's commands, as the running CLI completes them, against the walk's.
  const groups = ["", ...COMMANDS.filter((command) => command.groups).map((c) => c.path)];
  assert.ok(groups.includes("cloud secrets"), "the walk reaches the nested groups");
  for (const group of groups) {
    const words = group ? group.split(" ") : [];
    const result = await voicebot(["complete", "--", ...words, ""]);
    assert.equal(result.code, 0, result.stderr);
    const running = result.stdout.split("\n").filter((line) => /^[a-z]/.test(line))
      .map((line) => line.split("\t")[0]);
    const walked = COMMANDS.filter((command) =>
      command.path.split(" ").length === words.length + 1 && command.path.startsWith(group)
    ).map((command) => command.path.split(" ").at(-1)!);
    assert.deepEqual(running.sort(), walked.sort(), `the commands of "voicebot ${group}"`);
  }
});

for (const page of new Set(Object.values(PAGES))) {
  Deno.test(`${page}: every command of its groups and every option of each is there`, async () => {
    const text = await read(page);
    const names = optionsIn(text);
    const missing: string[] = [];
    for (const command of COMMANDS.filter((command) => pageOf(command.path) === page)) {
      if (!new RegExp(`(voicebot |\`)${escape(command.path)}\\b`).test(text)) {
        missing.push(`the command \`${command.path}\``);
      }
      for (const option of command.options) {
        if (!names.has(option)) missing.push(`\`--${option}\` of \`${command.path}\``);
      }
      for (const word of command.words) {
        if (!new RegExp(`\`${escape(word)}\\b`).test(text)) {
          missing.push(`\`${word}\` of \`${command.path}\``);
        }
      }
    }
    assert.deepEqual(missing, [], `${page} leaves out:\n${missing.join("\n")}`);
  });

  Deno.test(`${page}: every option it names is one the tree has`, async () => {
    const own = new Set([
      ...GLOBAL,
      // Deno's own: what a JSR install is told to pass as our launchers do.
      ...optionsIn(V8_FLAGS.join(" ")),
      ...COMMANDS.filter((command) => pageOf(command.path) === page).flatMap((c) => c.options),
    ]);
    for (const [path, options] of Object.entries(BORROWED[page] ?? {})) {
      const command = COMMANDS.find((command) => command.path === path);
      for (const option of options) {
        assert.ok(command?.options.includes(option), `BORROWED: \`${path}\` has no --${option}`);
        own.add(option);
      }
    }
    const ours = (await read(page)).split("\n").filter((line) => !ANOTHER_PROGRAM.test(line));
    const stale = [...optionsIn(ours.join("\n"))].filter((option) => !own.has(option));
    assert.deepEqual(stale, [], `${page} names options its commands do not have`);
  });
}

Deno.test("README.md: every option it names is one the CLI has", async () => {
  const all = new Set([...GLOBAL, ...COMMANDS.flatMap((command) => command.options)]);
  const stale = [...optionsIn(await read("README.md"))].filter((option) => !all.has(option));
  assert.deepEqual(stale, []);
});

Deno.test("README.md links to every page, and every page links back", async () => {
  const readme = await read("README.md");
  for (const page of new Set([...Object.values(PAGES), "docs/API.md"])) {
    assert.ok(readme.includes(`](${page})`), `the README links to ${page}`);
    if (page !== "docs/API.md") {
      assert.ok((await read(page)).includes("](../README.md)"), `${page} links to the README`);
    }
  }
});

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

Deno.test("README.md and docs/*.md: every relative link reaches a file, and its heading", async () => {
  const pages = ["README.md"];
  for await (const entry of Deno.readDir(new URL("../docs/", import.meta.url))) {
    if (entry.name.endsWith(".md")) pages.push(`docs/${entry.name}`);
  }
  const broken: string[] = [];
  for (const page of pages) {
    const base = new URL(`../${page}`, import.meta.url);
    for (const [, target] of (await read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const url = new URL(path || base.pathname, base);
      const text = await Deno.readTextFile(url).catch(() => undefined);
      if (text === undefined) broken.push(`${page}: ${target} (no such file)`);
      else if (anchor !== undefined) {
        const anchors = [...text.matchAll(/^#+ (.+)$/gm)].map((heading) => slug(heading[1]));
        if (!anchors.includes(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
