/**
 * The terminal flow of `voicebot update`, made of init's summary and questions. Loaded only on a
 * terminal.
 */
import type { ScaffoldConfig, ScaffoldInput } from "../../init/config.ts";
import { CancelledError } from "../../errors.ts";
import type { Prompter } from "../prompt.ts";
import { answersOf, changedFlags } from "./answers.ts";
import { leaveAtFirst, unlessBack } from "./back.ts";
import { type Answers, STEPS } from "./questions.ts";
import { summaryLines } from "./summary.ts";
import { walk } from "./walk.ts";

/**
 * `voicebot update` in a terminal: the project's answers as the summary shows them, then "update
 * to this version" or "change an answer" (the scaffold's own questions, and those that depend on
 * the one changed). Returns the answers changed (none: the same answers at this version). A
 * project whose answers the questions cannot hold (three transports) can only be updated as it
 * is; its answers change with options.
 */
export async function askUpdate(
  prompt: Prompter,
  config: ScaffoldConfig,
  heading: { dir: string; action: string },
): Promise<ScaffoldInput> {
  const name = config.project_name;
  const recorded = answersOf(config);
  const answers: Answers = { ...recorded };
  for (;;) {
    const changed = recorded ? changedFlags(recorded, answers, name) : {};
    const lines = recorded ? summaryLines(heading.dir, answers) : [`Directory: ${heading.dir}`];
    await prompt.note(
      Object.keys(changed).length > 0 ? "With your changes" : "This project",
      lines,
    );
    const next = await unlessBack(prompt.select("What do you want to do?", [
      {
        value: "update",
        label: Object.keys(changed).length > 0 ? "Update it with these answers" : heading.action,
      },
      ...recorded ? [{ value: "change", label: "Change an answer" }] : [],
      { value: "cancel", label: "Cancel" },
    ], "update"));
    if (next === "cancel") throw new CancelledError();
    if (next === undefined) {
      // The first question: there is none before it to go back to.
      if (await leaveAtFirst(prompt)) throw new CancelledError();
      continue;
    }
    if (next === "update") return changed;
    const which = await unlessBack(prompt.select(
      "Which answer?",
      STEPS.filter((step) => step.id in answers).map((step) => ({
        value: step.id,
        label: step.label,
        hint: step.show(answers),
      })),
      STEPS.find((step) => step.id in answers)!.id,
    ));
    if (which !== undefined) await unlessBack(walk(prompt, answers, name, new Set([which])));
  }
}
