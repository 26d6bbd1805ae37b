/**
 * The `--help` screens and the parser's complaints, in voicebot's words. run.ts hands gunshi
 * `helpRenderer`'s function as its `renderUsage`, and rewords its validation errors with
 * `parserProblems`.
 *
 * A help screen is drawn from the command definitions: usage lines name the positionals (the
 * schema's `metavar`, else the name in capitals; `[X]` when optional, `X [X ...]` when repeated),
 * options that take a value show it as required (`--port <port>`), and every column wraps at the
 * width of the terminal (`COLUMNS` when set, else the terminal's, else 80). After the options: the
 * command's examples and environment variables (`HelpData`, beside its definition), and the
 * address of its reference page (`learnMore`).
 *
 * On the hot path of `--help`: no `node:` module, nothing loaded lazily.
 */
import {
  type Args,
  type ArgSchema,
  ArgsValidationErrorKeys,
  CommandNotFoundError,
  isArgsValidationError,
} from "gunshi";
import { closest, didYouMean } from "../suggest.ts";
import { readsAsName } from "../secrets/names.ts";
import { wrap } from "../words.ts";
import { VERSION } from "../version.ts";
import { type CommandShape, entriesOf, type SubCommands } from "./completions.ts";
import type { EnvVar } from "./output.ts";

/** What follows the positionals in a usage line, for commands that take more after `--`. */
const USAGE_TAILS: Record<string, string> = {
  "cloud secrets run": "-- COMMAND [ARGS ...]",
};

/** Global options: gunshi's two, and run.ts's `--verbose` (taken off before gunshi parses). */
const GLOBAL_OPTIONS: [string, string][] = [
  ["-h, --help", "Show this help"],
  ["--verbose", "Show the details of an unexpected error"],
];
const VERSION_OPTION: [string, string] = ["-v, --version", "Print the version"];

/**
 * What a command's help shows besides its options, as plain data beside its definition: command
 * lines that work as written, each with its caption (`EXAMPLES:`), and every environment variable
 * the command reads (`ENVIRONMENT:`).
 */
export interface HelpData {
  /** Each `[caption, line]` (a command's definition infers arrays, not pairs). */
  helpExamples?: readonly (readonly string[])[];
  environment?: readonly EnvVar[];
  /** The exit codes of its own (`EXIT CODES:`), each `[code, meaning]`; every command has the root's. */
  exitCodes?: readonly (readonly string[])[];
  /**
   * For a command whose first positional is an action word (`cloud serve create-key`): each
   * action's own screen, shown for `voicebot cloud serve ACTION --help`.
   */
  actions?: Readonly<Record<string, ActionHelp>>;
}

/**
 * An argument as an action's screen shows it: a positional is required there, and of a description
 * written for several actions (`create-key: the organization; list-keys: ...`) only this one's part.
 */
function forAction(arg: ArgSchema, action: string): ArgSchema {
  const shown = isPositional(arg) ? { ...arg, required: true } : arg;
  for (const part of (arg.description ?? "").split("; ")) {
    const [, actions, flag, text] = /^([a-z-]+(?:, [a-z-]+)*)(?: (--[a-z-]+))?: (.*)$/.exec(part) ??
      [];
    if (!actions?.split(", ").includes(action)) continue;
    const description = flag ? `With ${flag}: ${text}` : text[0].toUpperCase() + text.slice(1);
    return { ...shown, description };
  }
  return shown;
}

/** An action's help: what it does, the command's arguments it takes, and its examples. */
export interface ActionHelp {
  readonly description: string;
  /** Names in the command's args: the positionals after the action word, then the options. */
  readonly args: readonly string[];
  readonly helpExamples?: readonly (readonly string[])[];
}

/** A command of the tree, with what its help shows. */
export type HelpCommand = CommandShape & HelpData;

/**
 * The reference page of each command group, in the docs/ that the JSR package ships; a command
 * has the page of its longest listed prefix. Help's Learn more points there, with an address
 * pinned to this version, so that it says what this install does, whichever way it was installed
 * (JSR, npm or a binary); tests/docs_test.ts holds each page to its commands and options.
 */
export const PAGES: Record<string, string> = {
  init: "docs/init.md",
  update: "docs/update.md",
  migrate: "docs/migrate.md",
  cloud: "docs/cli.md",
  "cloud auth": "docs/secrets.md",
  "cloud secrets": "docs/secrets.md",
  "cloud audit": "docs/secrets.md",
  "cloud serve": "docs/serve.md",
  completions: "docs/cli.md",
};
const PACKAGE_FILES = `https://jsr.io/@voicebot/cli/${VERSION}/`;

/** The address of the page that documents the command at `path` (the README for the root). */
export function learnMore(path: readonly string[]): string {
  const group = Object.keys(PAGES).filter((prefix) => {
    const words = prefix.split(" ");
    return words.every((word, i) => path[i] === word);
  }).sort((a, b) => b.length - a.length)[0];
  return PACKAGE_FILES + (group ? PAGES[group] : "README.md");
}

/** Narrower than this, columns stop making sense: screens are drawn at least this wide. */
const MIN_WIDTH = 40;

/** The width help wraps at: `COLUMNS` when set, else the terminal's, else 80. */
export function helpWidth(): number {
  const columns = Number(readEnv("COLUMNS"));
  if (Number.isInteger(columns) && columns > 0) return Math.max(columns, MIN_WIDTH);
  try {
    if (Deno.stdout.isTerminal()) return Math.max(Deno.consoleSize().columns, MIN_WIDTH);
  } catch {
    // No console size to read: the default below.
  }
  return 80;
}

/** An environment variable, when reading it needs no permission prompt (`deno run` without -A). */
function readEnv(name: string): string | undefined {
  const state = Deno.permissions.querySync?.({ name: "env", variable: name }).state;
  return state === "granted" ? Deno.env.get(name) : undefined;
}

/** What the help renderer reads of gunshi's command context. */
export interface HelpContext {
  description?: string;
  args: Args;
  commandPath: readonly string[];
  /** True for a group called without one of its commands (`voicebot cloud --help`). */
  omitted: boolean;
  /** The words that are no options, the command's path first. */
  positionals?: readonly string[];
  env: { subCommands?: SubCommands; description?: string };
}

/** The help renderer of a tree: the screen of the command in `ctx`, found by its path in `root`. */
export function helpRenderer(root: HelpCommand) {
  return (ctx: HelpContext): Promise<string> =>
    Promise.resolve(helpText(ctx, helpWidth(), commandAt(root, ctx.commandPath)));
}

/** The command at `path` under `root` (the root itself for an empty path). */
function commandAt(root: HelpCommand, path: readonly string[]): HelpCommand | undefined {
  let command: HelpCommand | undefined = root;
  for (const word of path) {
    command = entriesOf(command?.subCommands).find(([name]) => name === word)?.[1];
  }
  return command;
}

export function helpText(ctx: HelpContext, width: number, data: HelpData = {}): string {
  const action = ctx.positionals?.[ctx.commandPath.length];
  const own = action === undefined ? undefined : data.actions?.[action];
  if (own) {
    // The action's screen: its words in the usage line, its options only, the command's environment.
    return helpText(
      {
        ...ctx,
        description: own.description,
        args: Object.fromEntries(
          own.args.map((name) => [name, forAction(ctx.args[name], action!)]),
        ),
        commandPath: [...ctx.commandPath, action!],
        positionals: undefined,
      },
      width,
      { helpExamples: own.helpExamples, environment: data.environment },
    );
  }
  const root = ctx.commandPath.length === 0;
  const commands = ctx.omitted ? visibleCommands(ctx.env.subCommands) : [];
  const out: string[] = [];
  const description = (root ? ctx.env.description : ctx.description) ?? "";
  const [summary, ...details] = description.split("\n").map((line) => line.trim());
  if (summary) out.push(...wrap(summary, width));
  for (const detail of details.filter(Boolean)) out.push(...indent(wrap(detail, width - 2), 2));
  if (out.length) out.push("");

  out.push("USAGE:");
  out.push(
    ...indent(wrap(usageLine(ctx.commandPath, ctx.args, commands.length > 0), width - 2, 4), 2),
  );
  out.push("");

  if (commands.length) {
    out.push("COMMANDS:");
    out.push(...table(commands.map(([name, cmd]) => [name, firstLine(cmd.description)]), width));
    out.push("");
    const path = ["voicebot", ...ctx.commandPath, "COMMAND", "--help"].join(" ");
    out.push(...wrap(`Run \`${path}\` for a command's options.`, width), "");
  }

  const positionals = Object.entries(ctx.args).filter(([, arg]) =>
    isShown(arg) && isPositional(arg)
  );
  if (positionals.length) {
    out.push("ARGUMENTS:");
    out.push(
      ...table(positionals.map(([name, arg]) => [positionalName(name, arg), describe(arg)]), width),
    );
    out.push("");
  }

  const options = Object.entries(ctx.args).filter(([name, arg]) =>
    isShown(arg) && !isPositional(arg) && name !== "help" && name !== "version"
  );
  out.push("OPTIONS:");
  out.push(
    ...table(
      [
        ...options.map(([name, arg]): [string, string] => [optionLabel(name, arg), describe(arg)]),
        ...GLOBAL_OPTIONS,
        ...(root ? [VERSION_OPTION] : []),
      ],
      width,
    ),
  );
  out.push("");

  const examples = data.helpExamples ?? [];
  if (examples.length) {
    out.push("EXAMPLES:");
    for (const [caption, line] of examples) {
      out.push(...wrap(caption, width - 4).map((text) => `  # ${text}`));
      // A long line goes on with a backslash, so that it still pastes as one command.
      const parts = wrap(line, width - 4, 4);
      out.push(...indent(parts.map((part, i) => i < parts.length - 1 ? `${part} \\` : part), 2));
    }
    out.push("");
  }
  const environment = data.environment ?? [];
  if (environment.length) {
    out.push("ENVIRONMENT:");
    out.push(...table(environment.map(([name, text]) => [name, text]), width));
    out.push("");
  }
  const codes = data.exitCodes ?? [];
  if (codes.length) {
    out.push("EXIT CODES:");
    out.push(...table(codes.map(([code, text]) => [code, text]), width));
    const others = root
      ? "Commands with codes of their own list them in their help."
      : "Other codes are every command's: see `voicebot --help`.";
    out.push(...indent(wrap(others, width - 2), 2), "");
  }
  // An address is never cut: on a line of its own when it does not fit after the words.
  const address = learnMore(ctx.commandPath);
  const line = `Learn more: ${address}`;
  out.push(...(line.length <= width ? [line] : ["Learn more:", address]), "");
  return out.join("\n");
}

/** `voicebot cloud secrets set NAME [KEY=value ...] [OPTIONS]`; a group: `voicebot cloud COMMAND`. */
export function usageLine(path: readonly string[], args: Args, group = false): string {
  const positionals = Object.entries(args)
    .filter(([, arg]) => isShown(arg) && isPositional(arg))
    .map(([name, arg]) => positionalUsage(name, arg));
  return [
    "voicebot",
    ...path,
    ...(group ? ["COMMAND"] : positionals),
    "[OPTIONS]",
    ...(group ? [] : [USAGE_TAILS[path.join(" ")] ?? ""]),
  ].filter(Boolean).join(" ");
}

/** A positional as the usage line writes it: `NAME`, `[NAME]`, `NAME [NAME ...]` or `[NAME ...]`. */
function positionalUsage(name: string, arg: ArgSchema): string {
  const shown = positionalName(name, arg);
  const required = isRequiredPositional(arg);
  if (arg.multiple) return required ? `${shown} [${shown} ...]` : `[${shown} ...]`;
  return required ? shown : `[${shown}]`;
}

/** As gunshi decides: `required` when set, else required unless it has a default. */
function isRequiredPositional(arg: ArgSchema): boolean {
  if (arg.multiple) return arg.required === true;
  return arg.required ?? arg.default === undefined;
}

/** The name a positional goes by in help and errors: its metavar, else its name in capitals. */
export function positionalName(name: string, arg: ArgSchema): string {
  return arg.metavar ?? name.toUpperCase().replaceAll("-", "_");
}

/** `-f, --file <file>`, `--[no-]recording`: a value is always shown as required (`<...>`). */
function optionLabel(name: string, arg: ArgSchema): string {
  const flag = arg.type === "boolean" && arg.negatable ? `--[no-]${name}` : `--${name}`;
  const value = arg.type === "boolean" ? "" : ` <${arg.metavar ?? name}>`;
  return `${arg.short ? `-${arg.short}, ` : ""}${flag}${value}`;
}

/** The description, with the default and the choices when it does not say them already. */
function describe(arg: ArgSchema): string {
  let text = (arg.description ?? "").replaceAll("\n", " ");
  if (arg.default !== undefined && !/default/i.test(text)) {
    const value = arg.type === "boolean" ? (arg.default ? "on" : "off") : String(arg.default);
    text += ` (default: ${value})`;
  }
  const choices = arg.choices ?? [];
  if (choices.length && !choices.every((choice) => text.includes(choice))) {
    text += ` (one of: ${choices.join(", ")})`;
  }
  return text;
}

const isPositional = (arg: ArgSchema) => arg.type === "positional";
const isShown = (arg: ArgSchema) => arg.hidden !== true;
const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0].trim();

/** A command group (or the root) called without one of its commands: a usage error (2). */
export class NoCommandGiven extends Error {
  constructor(
    readonly commandPath: readonly string[],
    /** The group's commands and the first line of each one's description. */
    readonly commands: readonly (readonly [string, string])[],
  ) {
    super("no command given");
  }
}

/** The `run` of a command group: reached only without one of its commands. */
export function noCommandGiven(
  ctx: { commandPath: readonly string[]; env: { subCommands?: SubCommands } },
): never {
  const commands = visibleCommands(ctx.env.subCommands);
  throw new NoCommandGiven(
    ctx.commandPath,
    commands.map(([name, command]) => [name, firstLine(command.description)]),
  );
}

/** The commands a group lists: not itself (gunshi adds it as an `entry`), not internal ones. */
function visibleCommands(commands: SubCommands | undefined): [string, CommandShape][] {
  return entriesOf(commands).filter(([, command]) => !command.entry && !command.internal);
}

/**
 * Two columns, indented by 2: labels, then descriptions wrapped inside their column. The column
 * is as wide as the widest label, up to 40% of the width; a longer label has its description on
 * the lines below it.
 */
function table(rows: readonly (readonly [string, string])[], width: number): string[] {
  const widest = Math.max(...rows.map(([label]) => label.length));
  const column = 2 + Math.min(widest, Math.floor(width * 0.4)) + 2;
  const lines: string[] = [];
  for (const [label, text] of rows) {
    const labels = indent(wrap(label, width - 2, 4), 2);
    const texts = text ? wrap(text, width - column) : [];
    const last = labels.length - 1;
    if (texts.length && labels[last].length + 2 <= column) {
      labels[last] = labels[last].padEnd(column) + texts.shift();
    }
    lines.push(...labels, ...indent(texts, column));
  }
  return lines;
}

function indent(lines: readonly string[], by: number): string[] {
  return lines.map((line) => (line ? " ".repeat(by) + line : line));
}

/** Where a parser error happened: the command gunshi resolved (from its context). */
export interface ErrorPlace {
  commandPath: readonly string[];
  args: Args;
  /** The commands at that level, for "did you mean". */
  subCommands?: SubCommands;
}

/**
 * Commands that read the words after their positionals themselves: init and update report them
 * among every other problem of their run (scaffold_options.ts's givenAnswers), and `complete`
 * completes them.
 */
const OWN_WORDS = new Set(["init", "update", "complete"]);

/** Whether the command reports its own unexpected words and contradictions, with its problems. */
export const reportsItsOwnWords = (commandPath: readonly string[]) =>
  OWN_WORDS.has(commandPath.join(" "));

/**
 * The words a command would otherwise ignore, after the positionals it takes, as a problem; none
 * for a command that takes any number of them (`multiple`) or reads its own (OWN_WORDS), nor for a
 * group, whose word is an unknown command. A word is quoted only when it reads as a name; else it
 * is only counted, as it may be a value typed in the wrong place.
 */
export function unexpectedWords(
  ctx: {
    commandPath: readonly string[];
    positionals: readonly string[];
    rest: readonly string[];
    args: Args;
    validationError?: AggregateError;
  },
): string | undefined {
  // A group (or the root) given a word: an unknown command, which the parser names already.
  const errors = ctx.validationError?.errors ?? [];
  if (errors.some((error) => error instanceof CommandNotFoundError)) return;
  if (reportsItsOwnWords(ctx.commandPath)) return;
  const positionals = Object.values(ctx.args).filter(isPositional);
  if (positionals.some((arg) => arg.multiple)) return;
  const first = ctx.commandPath.length + positionals.length;
  // Words after `--` too: only `secrets run` takes them (a repeated positional, above).
  const words = [...ctx.positionals.slice(first), ...ctx.rest];
  if (words.length === 0) return;
  const named = words.filter(readsAsName).map((word) => `"${word}"`);
  const hidden = words.length - named.length;
  const notShown = hidden === 0 ? [] : [
    hidden === 1 ? "one not shown (it may be a value)" : `${hidden} not shown (they may be values)`,
  ];
  const usage = usageLine(ctx.commandPath, ctx.args);
  // `auth logout staging`: an organization named where a command takes none but -o.
  const organization = words.length === 1 && positionals.length === 0 &&
      "organization" in ctx.args && readsAsName(words[0])
    ? `; to name an organization: -o ${words[0]}`
    : "";
  return `unexpected argument${words.length === 1 ? "" : "s"}: ${
    [...named, ...notShown].join(" and ")
  } (usage: ${usage})${organization}`;
}

/** gunshi's validation errors, in our words: a message, the problems when several, a hint. */
export interface Problems {
  message: string;
  problems: string[];
  hint: string;
}

/**
 * Every problem gunshi found in one run (unknown commands and options, missing positionals, values
 * of the wrong type), each naming the option, what it expects and an example. Never quotes what was
 * typed as a value: it may be a secret typed in the wrong place.
 */
export function parserProblems(errors: readonly unknown[], place?: ErrorPlace): Problems {
  const path = place?.commandPath ?? [];
  const args = place?.args ?? {};
  let hint = `run \`${["voicebot", ...path, "--help"].join(" ")}\` to see its options.`;
  // Arguments that hideUnknownArguments put out of sight: one problem, however many, naming none.
  const hidden = errors.filter(isHiddenArgument);
  const collapsed = hidden.length
    ? [
      ...errors.filter((error) => !isHiddenArgument(error)),
      new Error(hiddenProblem(hidden.length)),
    ]
    : errors;
  const problems = collapsed.map((error): string => {
    if (error instanceof CommandNotFoundError) {
      const commands = visibleCommands(place?.subCommands).map(([name]) => name);
      const known = commands.length ? commands : error.candidates;
      hint = `run \`${
        ["voicebot", ...error.commandPath, "--help"].join(" ")
      }\` to see the commands.`;
      const near = didYouMean(error.commandName, known) ||
        didYouMean(`--${error.commandName}`, ["--help", "--version"]);
      return `unknown command "${error.commandName}"${near ? `; ${near.trim()}` : ""}`;
    }
    if (!isArgsValidationError(error)) return String((error as Error)?.message ?? error);
    const values = error.values as Record<string, unknown>;
    if (error.code === ArgsValidationErrorKeys.unknownOption) {
      const typed = String(values.rawName);
      const emptied = typed.startsWith(EMPTY_MARK) ? typed.slice(EMPTY_MARK.length) : undefined;
      if (emptied !== undefined && args[emptied]) {
        const option = `--${emptied}`;
        const value = example(emptied, args[emptied]);
        return `${option} is empty (an unset variable?): give it a value, e.g. ${option} ${value}`;
      }
      const candidates = (values.candidates as string[] | undefined) ?? [];
      const near = typed.startsWith("--")
        ? closest(typed, [...candidates, "--verbose"])
        : undefined;
      return `unknown option ${typed}${near ? `; did you mean "${near}"?` : ""}`;
    }
    const name = String(values.name ?? (error as { name?: string }).name);
    const schema = args[name] ?? (error as { schema?: ArgSchema }).schema;
    if (!schema) return error.message;
    const option = `--${name}`;
    if (error.code === ArgsValidationErrorKeys.requiredPositional) {
      hint = `usage: ${usageLine(path, args)}`;
      const shown = positionalName(name, schema);
      const what = schema.description ? `: ${lowerFirst(schema.description)}` : "";
      const example = schema.choices?.length
        ? `, e.g. ${["voicebot", ...path, schema.choices[0]].join(" ")}`
        : "";
      return `missing ${shown}${what}${example}`;
    }
    if (error.code === ArgsValidationErrorKeys.invalidChoice) {
      const choices = schema.choices ?? [];
      const near = typeof values.actual === "string" ? closest(values.actual, choices) : undefined;
      return `${option} expects one of ${choices.join(", ")}${
        near ? `; did you mean "${near}"?` : ""
      }, e.g. ${option} ${near ?? choices[0]}`;
    }
    if (error.code === ArgsValidationErrorKeys.customParse) {
      return `${option}: ${values.reason ?? error.message}`;
    }
    if (
      error.code === ArgsValidationErrorKeys.requiredOption ||
      error.code === ArgsValidationErrorKeys.invalidType
    ) {
      return `${option} ${expects(schema)} e.g. ${option} ${example(name, schema)}`;
    }
    const conflicts = [schema.conflicts ?? []].flat();
    if (conflicts.length) {
      return `${option} cannot go with ${conflicts.map((other) => `--${other}`).join(" or ")}`;
    }
    return error.message;
  });
  return {
    message: problems.length === 1
      ? problems[0]
      : `${problems.length} problems with the arguments:`,
    problems: problems.length === 1 ? [] : problems,
    hint,
  };
}

/** gunshi's error for an argument that hideUnknownArguments replaced. */
function isHiddenArgument(error: unknown): boolean {
  return isArgsValidationError(error) &&
    error.code === ArgsValidationErrorKeys.unknownOption &&
    (error.values as Record<string, unknown>).rawName === NOT_SHOWN;
}

function hiddenProblem(count: number): string {
  const what = count === 1
    ? 'an argument that starts with "-" is not an option of this command'
    : `${count} arguments that start with "-" are not options of this command`;
  return `${what} (not shown: it may be a value, such as a key)`;
}

/** What an option takes, up to the example: `expects a number of seconds,`. */
function expects(schema: ArgSchema): string {
  if (schema.type === "number") {
    return `expects a number${schema.metavar ? ` of ${schema.metavar}` : ""},`;
  }
  return `needs a value${schema.description ? `: ${lowerFirst(schema.description)};` : ","}`;
}

/** A value to show after the option: the default, the first choice, or its placeholder. */
function example(name: string, schema: ArgSchema): string {
  if (schema.type === "number") return String(schema.default ?? 10);
  if (schema.choices?.length) return schema.choices[0];
  if (typeof schema.default === "string" && schema.default) return schema.default;
  return `<${schema.metavar ?? name}>`;
}

/** "The secret set" as it reads after a colon; an acronym (`API base URL`) stays as it is. */
const lowerFirst = (text: string) =>
  /^[A-Z](?![A-Z])/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;

/**
 * Calls `visit` with each word of `argv` before `--` that starts with "-", and the options of the
 * command it goes with: the words that name commands descend the tree, as gunshi reads them.
 */
function forEachDashWord(
  argv: readonly string[],
  commands: SubCommands,
  visit: (word: string, index: number, args: Args) => void,
): void {
  let level: SubCommands | undefined = commands;
  let args: Args = {};
  let descending = true;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") return;
    if (word.startsWith("-")) {
      visit(word, i, args);
      continue;
    }
    const command: CommandShape | undefined = descending
      ? entriesOf(level).find(([name]) => name === word)?.[1]
      : undefined;
    if (command) {
      args = command.args ?? {};
      level = command.subCommands;
    } else descending = false;
  }
}

/**
 * A number option's value as gunshi can read it. gunshi 0.37.2 fails with a TypeError on a number
 * option given no value (`--port` last, or before another option): written `--port=`, it is an
 * empty value, which gunshi reports as the wrong type, with every other problem of the run. And it
 * takes a negative value (`--wait-timeout -5`) for an option of its own: written
 * `--wait-timeout=-5`, it is the option's value, which the command's own check refuses by name.
 */
export function withNumberValues(argv: readonly string[], commands: SubCommands): string[] {
  const out: (string | undefined)[] = [...argv];
  forEachDashWord(argv, commands, (word, i, args) => {
    if (!word.startsWith("--") || args[word.slice(2)]?.type !== "number") return;
    const next = argv[i + 1];
    if (next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out[i] = `${word}=${next}`;
      out[i + 1] = undefined;
    } else if ((next ?? "-").startsWith("-")) out[i] = `${word}=`;
  });
  return out.filter((word) => word !== undefined);
}

const NEGATIVE_NUMBER = /^-(\d+\.?\d*|\.\d+)$/;

/** What markEmptyValues puts in place of a string option and its empty value: `--(empty)name`. */
const EMPTY_MARK = "--(empty)";

/**
 * gunshi 0.37.2 reads an empty value of a string option (`--expires-in ""`, `--expires-in=`, as an
 * unset variable gives) as no option at all, so the command would run on its default: a key that
 * never expires, the default database. Each is replaced by a mark that gunshi refuses as an
 * unknown option, with the run's other problems, and parserProblems names the option.
 */
export function markEmptyValues(argv: readonly string[], commands: SubCommands): string[] {
  const out: (string | undefined)[] = [...argv];
  forEachDashWord(argv, commands, (word, i, args) => {
    const [written, value] = word.startsWith("--")
      ? splitOnce(word.slice(2), "=")
      : [word, undefined];
    const name = word.startsWith("--")
      ? written
      : Object.entries(args).find(([, arg]) => `-${arg.short}` === word)?.[0];
    if (name === undefined || args[name]?.type !== "string") return;
    if (value === "") out[i] = EMPTY_MARK + name;
    else if (value === undefined && argv[i + 1] === "") {
      out[i] = EMPTY_MARK + name;
      out[i + 1] = undefined;
    }
  });
  return out.filter((word) => word !== undefined);
}

/** `text` split at the first `separator`; the second part undefined when there is none. */
function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** What hideUnknownArguments puts in place of an argument: an option name no command has. */
const NOT_SHOWN = "--(not shown)";

/** Options every command takes: gunshi's `--help` and `--version` (`-h`, `-v`). */
const BUILT_IN: Args = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
};

/**
 * An argument that starts with "-" and is none of its command's options is named in the error
 * only when it could not be a value: `--` and a lower-case name of words joined by "-", at most 34
 * characters in all (`--dry-rn`), or "-" and one character (`-x`). Anything else (`--sk_Live…`,
 * `-O-…`, `-aB3…`) may be a key pasted in the wrong place: it is replaced by NOT_SHOWN, so that
 * gunshi still refuses it with the run's other problems and parserProblems says so without quoting
 * it. gunshi would otherwise echo it, or read `-O-…` as `-O` and drop the rest without a word.
 */
export function hideUnknownArguments(argv: readonly string[], commands: SubCommands): string[] {
  const out = [...argv];
  forEachDashWord(argv, commands, (word, i, args) => {
    if (word !== "-" && !isOptionOf(word, { ...BUILT_IN, ...args }) && !isOptionLike(word)) {
      out[i] = NOT_SHOWN;
    }
  });
  return out;
}

/** `--name`, `--name=value`, `--no-name` (negatable) or `-abc` (every letter an option's short). */
function isOptionOf(word: string, args: Args): boolean {
  const option = (name: string) => args[name] !== undefined && !isPositional(args[name]);
  if (word.startsWith("--")) {
    const name = word.slice(2).split("=")[0];
    const negated = name.startsWith("no-") ? args[name.slice(3)] : undefined;
    return option(name) || (negated?.type === "boolean" && negated.negatable === true);
  }
  const shorts = new Set(Object.values(args).map((arg) => arg.short).filter(Boolean));
  return [...word.slice(1)].every((letter) => shorts.has(letter));
}

/** Could not be a value: what an option looks like, short enough (see hideUnknownArguments). */
function isOptionLike(word: string): boolean {
  const name = word.split("=")[0];
  return /^--[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) && name.length <= 34 ||
    /^-[A-Za-z0-9]$/.test(word);
}
