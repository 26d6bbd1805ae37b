/** Data goes to stdout, diagnostics to stderr. Colours go through `%c`, which honours NO_COLOR. */
import type { Interrupted } from "../init/writer.ts";

/** An environment variable a command reads, and what it does there: `[name, description]`. */
export type EnvVar = readonly string[];

/** Every command's messages are coloured on a terminal: each help names this variable. */
export const NO_COLOR: EnvVar = ["NO_COLOR", "Set (to anything): no colours in messages"];

const RED = "color: red; font-weight: bold";
const YELLOW = "color: yellow";
const GREEN = "color: green";
const DIM = "color: gray";

export function printError(
  message: string,
  problems: readonly string[] = [],
  hint?: string,
  note?: string,
) {
  console.error(`%cerror%c: ${message}`, RED, "");
  for (const problem of problems) console.error(`  - ${problem}`);
  if (note) printNote(note);
  if (hint) console.error(`%chint%c: ${hint}`, YELLOW, "");
}

/** Where messages go while a terminal's frame of questions is open (prompt.ts `drawInFrame`). */
export interface Frame {
  note(message: string): void;
  success(message: string): void;
  warning(message: string): void;
}

let frame: Frame | undefined;

/** Messages go into `to` from now on; `undefined`: back to plain lines. */
export function drawIn(to: Frame | undefined) {
  frame = to;
}

export function printWarning(message: string) {
  if (frame) return frame.warning(message);
  console.error(`%cwarning%c: ${message}`, YELLOW, "");
}

export function printSuccess(message: string) {
  if (frame) return frame.success(message);
  console.error(`%c✔%c ${message}`, GREEN, "");
}

export function printNote(message: string) {
  if (frame) return frame.note(message);
  console.error(`%c${message}`, DIM);
}

/**
 * A command line to paste, indented. Never inside the questions' frame: a gutter before it would
 * be pasted with it.
 */
export function printCommand(line: string) {
  console.error(`%c  ${line}`, DIM);
}

/** True when stdin and stdout are both terminals: only then may anything prompt. */
export function isInteractive(): boolean {
  return Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
}

/** Pretty JSON on stdout, for `--json` and `--dry-run`. */
export function printJson(value: unknown) {
  console.log(JSON.stringify(value, null, 2));
}

/** Earlier writes in `where` that were stopped part-way (a kill, a power cut), which a run undid. */
export function printInterrupted(interrupted: readonly Interrupted[], where: string) {
  for (const { folder, undone, left } of interrupted) {
    if (left.length > 0) {
      printWarning(
        `an earlier voicebot run in ${where} was stopped while it wrote, and not all of it could be undone; check these paths:`,
      );
      for (const path of left) console.error(`  - ${path}`);
    } else if (undone > 0) {
      const files = undone === 1
        ? "the 1 file it had changed is put back as it was"
        : `the ${undone} files it had changed are put back as they were`;
      printNote(`An earlier voicebot run in ${where} was stopped while it wrote; ${files}.`);
    } else printNote(`Removed ${folder}, which an earlier voicebot run in ${where} left behind.`);
  }
}
