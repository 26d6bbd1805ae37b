/**
 * `voicebot completions <shell>` prints a completion script; the script asks the hidden
 * `voicebot complete -- <words>` for the candidates at each TAB. Both walk the gunshi command tree
 * at run time, so every command, option and enumerated value the CLI has is completed, with no
 * list to keep in step. @bomb.sh/tab writes the scripts and matches the words.
 */
import { type Args, define } from "gunshi";
import { UsageError } from "../errors.ts";

const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;

export const completions = define({
  name: "completions",
  description:
    "Print the shell completion script for bash, zsh, fish or powershell (installation: see the README)",
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
    tree.setup("voicebot", "voicebot", shell);
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
    tree.parse(words);
  },
});

/** What completion reads of a gunshi command (a lazy command carries these fields too). */
interface CommandShape {
  description?: string;
  args?: Args;
  internal?: boolean;
  entry?: boolean;
  subCommands?: SubCommands;
}
type SubCommands = Map<string, CommandShape> | Record<string, CommandShape>;
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
  const visit = (commands: SubCommands | undefined, path: string[]) => {
    const entries = commands instanceof Map ? [...commands] : Object.entries(commands ?? {});
    for (const [name, command] of entries) {
      if (command.internal || command.entry) continue;
      const words = [...path, name];
      const node = root.command(words.join(" "), firstLine(command.description));
      addArgs(node, command.args ?? {}, words[0] === "init" ? choices : {});
      visit(command.subCommands, words);
    }
  };
  visit(subCommands as SubCommands, []);
  return root;
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

/** `init`'s values from its catalog, by option name. */
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
