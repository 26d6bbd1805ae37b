/**
 * `voicebot completions <shell>` prints a completion script; the script asks the hidden
 * `voicebot complete -- <words>` for the candidates at each TAB. Both walk the gunshi command tree
 * at run time, so every command, option and enumerated value the CLI has is completed, with no
 * list to keep in step. @bomb.sh/tab writes the scripts and matches the words.
 *
 * Two things @bomb.sh/tab 0.0.22 does not do are done here: arguments that name files or
 * directories (PATH_ARGS) answer with a directive that lets the shell complete paths (its own
 * answers always forbid file completion), and its bash script is made safe to source twice and
 * able to fall back to file names (`patchBash`).
 */
import { type Args, define } from "gunshi";
import { UsageError } from "../errors.ts";
import { NO_COLOR } from "./output.ts";

const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;

export const completions = define({
  name: "completions",
  description:
    "Print the shell completion script for bash, zsh, fish or powershell (how to install each: the page under Learn more)",
  // The voicebot part of docs/cli.md's install lines (tests/help_test.ts holds them to it).
  helpExamples: [
    [
      "bash, for you (needs the bash-completion package; first: mkdir -p ~/.local/share/bash-completion/completions)",
      "voicebot completions bash > ~/.local/share/bash-completion/completions/voicebot",
    ],
    [
      "fish (first: mkdir -p ~/.config/fish/completions)",
      "voicebot completions fish > ~/.config/fish/completions/voicebot.fish",
    ],
  ],
  environment: [NO_COLOR],
  args: {
    shell: { type: "positional", choices: SHELLS, description: `One of ${SHELLS.join(", ")}` },
  },
  run: async (ctx) => {
    const shell = ctx.values.shell;
    if (!(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(`unknown shell "${shell}".`, {
        hint: `\`voicebot completions ${SHELLS.join("|")}\`.`,
      });
    }
    const tree = await completionTree(ctx.env.subCommands);
    const script = printed(() => tree.setup("voicebot", "voicebot", shell));
    console.log(shell === "bash" ? patchBash(script) : script);
  },
});

/** What the scripts call: prints the candidates for the words after `--`, one per line. */
export const complete = define({
  name: "complete",
  description: "Print completion candidates (called by the completion scripts)",
  internal: true,
  run: async (ctx) => {
    const tree = await completionTree(ctx.env.subCommands);
    // The raw words after `--`: gunshi's `rest` drops the empty word that stands for "complete here".
    const words = ctx._.slice(ctx._.indexOf("--") + 1);
    const path = pathAt(ctx.env.subCommands as SubCommands, words);
    if (path) return console.log(path);
    tree.parse(words);
  },
});

interface PathArg {
  kind: "file" | "directory";
  /** Words it takes besides paths, offered instead of paths once their first letters are typed. */
  words?: readonly string[];
}

/** Arguments that name a path, by command: their values complete as files, or as directories. */
export const PATH_ARGS: Record<string, Record<string, PathArg>> = {
  init: { dir: { kind: "directory", words: ["quickstart"] }, config: { kind: "file" } },
  update: { dir: { kind: "directory" } },
  "cloud secrets set": { file: { kind: "file" } },
  "cloud secrets diff": { file: { kind: "file" } },
  "cloud serve": { database: { kind: "file" } },
};

/** The directives of the scripts' protocol (@bomb.sh/tab's, after cobra's). */
const FILES = 0; // the shell's own completion, when no candidate matches
const NO_FILES = 4;
const DIRECTORIES = 16;

/**
 * When the last word (the one being completed) is the value of a path argument: the answer to
 * print, candidates then `:directive`. Walks the words as gunshi would read them.
 */
export function pathAt(commands: SubCommands, words: readonly string[]): string | undefined {
  const typed = words.at(-1) ?? "";
  if (typed.startsWith("-")) return undefined;
  const path: string[] = [];
  let command: CommandShape | undefined;
  let level: SubCommands | undefined = commands;
  let positionals = 0;
  let pending: string | undefined; // an option waiting for its value
  for (const word of words.slice(0, -1)) {
    if (pending) {
      pending = undefined;
      continue;
    }
    if (word.startsWith("-")) {
      const arg = word.includes("=") ? undefined : findArg(command, word);
      if (arg && arg[1].type !== "boolean") pending = arg[0];
      continue;
    }
    const sub: CommandShape | undefined = entriesOf(level).find(([name]) => name === word)?.[1];
    if (sub && positionals === 0) {
      path.push(word);
      command = sub;
      level = sub.subCommands;
    } else positionals++;
  }
  const kinds = PATH_ARGS[path.join(" ")] ?? {};
  const positional = Object.entries(command?.args ?? {})
    .filter(([, arg]) => arg.type === "positional")[positionals]?.[0];
  const arg = pending ? kinds[pending] : positional ? kinds[positional] : undefined;
  if (!arg) return undefined;
  const offered = typed ? (arg.words ?? []).filter((word) => word.startsWith(typed)) : [];
  if (offered.length) return [...offered.map((word) => `${word}\t`), `:${NO_FILES}`].join("\n");
  return `:${arg.kind === "file" ? FILES : DIRECTORIES}`;
}

export function entriesOf(commands: SubCommands | undefined): [string, CommandShape][] {
  return commands instanceof Map ? [...commands] : Object.entries(commands ?? {});
}

/**
 * Every command a user can type under `commands`, parents before their children, with the words
 * that name it (`["cloud", "secrets", "set"]`): internal commands, and the entry command gunshi
 * lists at each level, left out. Completion and the help tests walk the tree with it.
 */
export function* commandsUnder(
  commands: SubCommands | undefined,
  path: readonly string[] = [],
): Generator<[string[], CommandShape]> {
  for (const [name, command] of entriesOf(commands)) {
    if (command.internal || command.entry) continue;
    const words = [...path, name];
    yield [words, command];
    yield* commandsUnder(command.subCommands, words);
  }
}

/** The argument `word` (`--name` or `-s`) names, with its name. */
function findArg(command: CommandShape | undefined, word: string) {
  return Object.entries(command?.args ?? {}).find(([name, arg]) =>
    word === `--${name}` || (arg.short !== undefined && word === `-${arg.short}`)
  );
}

/** What `write` prints with console.log (@bomb.sh/tab prints its scripts), as a string. */
function printed(write: () => void): string {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...data: unknown[]) => void lines.push(data.join(" "));
  try {
    write();
  } finally {
    console.log = log;
  }
  return lines.join("\n");
}

/**
 * The bash script, sourced a second time, no longer stops at its `readonly` directives, and falls
 * back to file names when the CLI asks for them (directive 0: bash needs `-o default` for that).
 */
export function patchBash(script: string): string {
  const patched = script
    .replace(/^readonly (ShellCompDirective\w+)=(\d+)$/gm, "[[ -n ${$1:-} ]] || readonly $1=$2")
    .replace(
      /^complete -F __voicebot_complete voicebot$/m,
      "complete -o default -F __voicebot_complete voicebot",
    );
  if (/^readonly /m.test(patched) || !patched.includes("complete -o default -F")) {
    throw new Error("@bomb.sh/tab's bash script changed: src/cli/completions.ts cannot patch it");
  }
  return patched;
}

/** What completion reads of a gunshi command (a lazy command carries these fields too). */
export interface CommandShape {
  description?: string;
  args?: Args;
  internal?: boolean;
  entry?: boolean;
  subCommands?: SubCommands;
}
export type SubCommands = Map<string, CommandShape> | Record<string, CommandShape>;
type Complete = (value: string, description: string) => void;
interface TabCommand {
  argument(name: string, handler: (complete: Complete) => void): unknown;
  option(
    name: string,
    description: string,
    handlerOrAlias?: ((complete: Complete) => void) | string,
    alias?: string,
  ): unknown;
}

/** The tab tree of every command under `subCommands`, named as they are typed ("cloud serve"). */
async function completionTree(subCommands: unknown) {
  const { RootCommand } = await import("@bomb.sh/tab");
  const root = new RootCommand();
  const choices = await optionChoices();
  root.option("version", "Print the version", "v");
  addGlobalOptions(root);
  for (const [words, command] of commandsUnder(subCommands as SubCommands)) {
    const node = root.command(words.join(" "), firstLine(command.description));
    // init and update take the same scaffold options, whose values are the catalog's.
    addArgs(node, command.args ?? {}, ["init", "update"].includes(words[0]) ? choices : {});
    addGlobalOptions(node);
  }
  return root;
}

/** What every command takes: gunshi's `--help`, and run.ts's `--verbose`. */
function addGlobalOptions(node: TabCommand) {
  node.option("help", "Show this help", "h");
  node.option("verbose", "Show the details of an unexpected error");
}

/**
 * Options with their short alias. Enum options, positionals with `choices` and catalog-backed
 * options complete their values.
 */
function addArgs(node: TabCommand, args: Args, catalog: Record<string, readonly string[]>) {
  const option = node.option.bind(node);
  const offer = (values: readonly string[] | undefined) => (complete: Complete) => {
    for (const value of values ?? []) complete(value, "");
  };
  for (const [name, schema] of Object.entries(args)) {
    if (schema.type === "positional") {
      if (schema.choices) node.argument(name, offer(schema.choices));
      continue;
    }
    const description = firstLine(schema.description);
    if (schema.type === "boolean") {
      option(name, description, schema.short);
      if (schema.negatable) option(`no-${name}`, description);
      continue;
    }
    const values = schema.type === "enum" ? schema.choices : catalog[name];
    option(name, description, offer(values), schema.short);
  }
}

/** The scripts read one candidate per line: a description keeps its first line. */
const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0];

/** The scaffold options' values (init's, update's) from the catalog, by option name. */
async function optionChoices(): Promise<Record<string, readonly string[]>> {
  const catalog = await import("../init/catalog.ts");
  const listed = catalog.listOptions();
  return {
    "bot-type": catalog.BOT_TYPES,
    transport: catalog.TRANSPORT_CHOICES,
    mode: catalog.MODES,
    stt: listed.stt,
    llm: listed.llm,
    tts: listed.tts,
    realtime: listed.realtime,
    video: listed.video,
    "client-framework": catalog.CLIENT_FRAMEWORKS,
    "client-server": catalog.CLIENT_SERVERS,
    "daily-pstn-mode": catalog.CALL_DIRECTIONS,
    "twilio-daily-sip-mode": catalog.CALL_DIRECTIONS,
  };
}
