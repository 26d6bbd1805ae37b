/**
 * The scaffold's questions through to the summary: "Create it", "Change an answer" (the directory
 * too) or Escape back, and the summary's lines, which update shows as well.
 */
import {
  formatProblem,
  projectNameProblem,
  resolveConfig,
  suggestProjectName,
} from "../../init/config.ts";
import { CancelledError } from "../../errors.ts";
import { basename, resolve } from "../../paths.ts";
import { andList } from "../../words.ts";
import type { Prompter } from "../prompt.ts";
import { flagsOf, type WizardAnswers } from "./answers.ts";
import { unlessBack } from "./back.ts";
import { changeDirectory, conflictsIn, freeDirectory, type Target } from "./directory.ts";
import { type Answers, STEPS } from "./questions.ts";
import { inWords, walk } from "./walk.ts";

/** The scaffold's answers, and the questions to ask again on the way forward (see `walk`). */
export interface Walked {
  readonly answers: Answers;
  readonly again: Set<string>;
  /** The name the project takes from its directory, where the name question offered it. */
  nameDefault?: string;
}

const DIRECTORY = "directory";

/**
 * Asks the scaffold's questions, then shows the summary until the user creates the project or
 * cancels; "Change an answer" re-asks that question, then only what depends on it. Escape at the
 * summary asks the last question again, and from there back one at a time: past the first of the
 * scaffold's questions, out of here (`GoBack`). A directory whose files a scaffold would write
 * over sends the user back to the directory: nothing given is lost. `target` is changed in place,
 * so that the questions before these see the directory chosen here.
 */
export async function askScaffold(
  prompt: Prompter,
  cwd: string,
  target: Target,
  project: string | undefined,
  walked: Walked,
): Promise<WizardAnswers> {
  const { answers, again } = walked;
  const defaultName = () => basename(resolve(cwd, target.dir!));
  const moveTo = (to: Target) => {
    Object.assign(target, to);
    followDirectory(walked, defaultName());
  };
  followDirectory(walked, defaultName());
  // Escape at the first question goes out of here, back to "How do you want to build your bot?";
  // back here, the walk starts at the first question again, every answer kept.
  again.add(STEPS[0].id);
  await walk(prompt, answers, defaultName(), again);
  for (;;) {
    const dir = target.dir!;
    const flags = flagsOf(answers, defaultName());
    const { problems } = resolveConfig(flags, defaultName());
    if (problems.length > 0) {
      // Each answer was checked as given; should one still fail, back to its question.
      const found = problems.map((p) => ({
        p,
        step: STEPS.find((s) => p.key && s.keys.includes(p.key)),
      }));
      const step = found.find((f) => f.step)?.step;
      await prompt.warn(
        found.map(({ p, step }) => step ? inWords(step, p) : formatProblem(p)).join("\n"),
      );
      if (!step) throw new Error(`the wizard's answers fail: ${problems.map(formatProblem)}`);
      await unlessBack(walk(prompt, answers, defaultName(), new Set([step.id])));
      continue;
    }
    await prompt.note("Summary", summaryLines(dir, answers));
    const next = await unlessBack(prompt.select("Create this project?", [
      { value: "create", label: "Create it" },
      { value: "change", label: "Change an answer" },
      { value: "cancel", label: "Cancel" },
    ], "create"));
    if (next === "cancel") throw new CancelledError();
    if (next === undefined) {
      // Escape: the last question again, and from there back on, out of here at the first.
      again.add(STEPS.findLast((step) => step.id in answers)!.id);
      await walk(prompt, answers, defaultName(), again);
    } else if (next === "create") {
      const conflicts = await conflictsIn(cwd, dir, flags, target.overwriteGuide);
      if (conflicts.length === 0) return { dir, overwriteGuide: target.overwriteGuide, flags };
      await prompt.warn(
        `${dir} already has ${
          andList(conflicts)
        }, with other content: the project would write over ${
          conflicts.length === 1 ? "it" : "them"
        }. Choose another directory (your answers are kept).`,
      );
      moveTo(await changeDirectory(prompt, cwd, target, project, freeDirectory(cwd, dir)));
    } else {
      const which = await unlessBack(prompt.select("Which answer?", [
        { value: DIRECTORY, label: "Directory", hint: dir },
        ...STEPS.filter((step) => step.id in answers).map((step) => ({
          value: step.id,
          label: step.label,
          hint: step.show(answers),
        })),
      ], DIRECTORY));
      if (which === DIRECTORY) {
        moveTo(await changeDirectory(prompt, cwd, target, project, dir));
      } else if (which !== undefined) {
        await unlessBack(walk(prompt, answers, defaultName(), new Set([which])));
      }
    }
  }
}

/**
 * A project name taken as the directory's default follows the directory when it changes; a name
 * typed stays. (A name typed that is the directory's own is taken as its default.)
 */
function followDirectory(walked: Walked, directoryName: string) {
  const name = projectNameProblem(directoryName)
    ? suggestProjectName(directoryName)
    : directoryName;
  if (walked.nameDefault !== undefined && walked.answers.project_name === walked.nameDefault) {
    walked.answers.project_name = name;
  }
  walked.nameDefault = name;
}

/** The summary: the directory first, then each question asked, by its label, with its answer. */
export function summaryLines(dir: string, answers: Answers): string[] {
  const lines = [`Directory: ${dir}`];
  for (const step of STEPS) {
    if (step.id in answers) lines.push(`${step.label}: ${step.show(answers)}`);
  }
  return lines;
}
