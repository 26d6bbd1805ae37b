import assert from "node:assert/strict";
import { ShellCompDirective } from "@bomb.sh/tab";
import init from "./init.ts";
import update from "./update.ts";
import cloud from "./cloud/mod.ts";
import {
  type CommandShape,
  patchBash,
  PATH_ARGS,
  pathAt,
  type SubCommands,
} from "./completions.ts";

const TREE = { init, update, cloud } as unknown as SubCommands;

function commandAt(path: string): CommandShape | undefined {
  let level: SubCommands | undefined = TREE;
  let command: CommandShape | undefined;
  for (const word of path.split(" ")) {
    command = level instanceof Map ? level.get(word) : level?.[word];
    level = command?.subCommands;
  }
  return command;
}

Deno.test("every path argument completion names a real command and argument", () => {
  for (const [path, args] of Object.entries(PATH_ARGS)) {
    const command = commandAt(path);
    assert.ok(command, `command ${path}`);
    for (const name of Object.keys(args)) assert.ok(command.args?.[name], `${path}: ${name}`);
  }
});

Deno.test("a path argument's value is left to the shell's file or directory completion", () => {
  const files = `:${ShellCompDirective.ShellCompDirectiveDefault}`;
  const directories = `:${ShellCompDirective.ShellCompDirectiveFilterDirs}`;
  assert.equal(pathAt(TREE, ["init", "--config", ""]), files);
  assert.equal(pathAt(TREE, ["init", "-c", "bo"]), files);
  assert.equal(pathAt(TREE, ["init", "--name", "x", "--config", ""]), files);
  assert.equal(pathAt(TREE, ["cloud", "secrets", "set", "app", "-f", ""]), files);
  assert.equal(pathAt(TREE, ["cloud", "serve", "--port", "0", "--database", ""]), files);
  assert.equal(pathAt(TREE, ["init", ""]), directories);
  assert.equal(pathAt(TREE, ["init", "--recording", "my"]), directories);
  assert.equal(
    pathAt(TREE, ["init", "qu"]),
    `quickstart\t\n:${ShellCompDirective.ShellCompDirectiveNoFileComp}`,
  );
  // Not a path: the command tree answers.
  for (
    const words of [
      ["init", "my-bot", ""], // init takes one directory
      ["init", "--name", ""],
      ["init", "--config", "bot.json", "--"],
      ["cloud", ""],
      ["cloud", "serve", ""],
      ["cloud", "secrets", "list", ""],
    ]
  ) {
    assert.equal(pathAt(TREE, words), undefined, words.join(" "));
  }
});

Deno.test("the bash script patch fails loudly on a script it does not know", () => {
  assert.throws(() => patchBash("complete -F other voicebot\n"), /cannot patch/);
});
