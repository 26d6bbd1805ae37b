/**
 * The walk through the scaffold's questions: those not answered yet, or whose answer no longer
 * fits, are asked, each answer checked by the flags' own rules as it is given, Escape going back.
 */
import { type Problem, resolveConfig } from "../../init/config.ts";
import { GoBack, type Prompter } from "../prompt.ts";
import { flagsOf } from "./answers.ts";
import { type Answers, type Step, STEPS } from "./questions.ts";

/**
 * Walks the steps in order: a step that no longer applies loses its answer; one whose answer is
 * missing, no longer fits the answers before it, or is in `again`, is asked; the others keep theirs.
 * Each answer is checked as it is given, by the flags' own rules (`resolveConfig`), and its
 * question asked again with the problem shown until it passes. Escape (`GoBack`) asks the question
 * before again, then this one; at the first question, the walk throws `GoBack` itself.
 */
export async function walk(
  prompt: Prompter,
  answers: Answers,
  defaultName: string,
  again: Set<string> = new Set(),
): Promise<void> {
  let i = 0;
  while (i < STEPS.length) {
    const step = STEPS[i];
    if (!step.applies(answers)) {
      delete answers[step.id];
      i++;
      continue;
    }
    if (step.id in answers && step.fits(answers) && !again.has(step.id)) {
      i++;
      continue;
    }
    let answer: unknown;
    try {
      answer = await step.ask(prompt, answers, defaultName);
    } catch (error) {
      if (!(error instanceof GoBack)) throw error;
      const back = STEPS.findLastIndex((s, j) => j < i && s.applies(answers) && s.id in answers);
      if (back < 0) throw error;
      if (step.id in answers) again.add(step.id);
      again.add(STEPS[back].id);
      i = back;
      continue;
    }
    answers[step.id] = answer;
    const problems = answerProblems(step, answers, defaultName);
    if (problems.length > 0) {
      await prompt.warn(problems.join("\n"));
      again.add(step.id);
      continue;
    }
    again.delete(step.id);
    i++;
  }
}

/**
 * What the flags' rules find wrong with a step's answer, given the answers before it. Those after
 * it are left out (they may yet be asked again, as a web transport is after a change to a phone
 * bot), and so is what is only missing: a later question's.
 */
function answerProblems(step: Step, answers: Answers, defaultName: string): string[] {
  const upTo = STEPS.slice(0, STEPS.indexOf(step) + 1).filter((s) => s.id in answers);
  const given = Object.fromEntries(upTo.map((s) => [s.id, answers[s.id]]));
  const { problems } = resolveConfig(flagsOf(given, defaultName), defaultName);
  return problems
    .filter((problem) => !problem.missing && problem.key && step.keys.includes(problem.key))
    .map((problem) => inWords(step, problem));
}

/**
 * A problem as the wizard says it: the question's label (or the feature's), then the problem in
 * the questions' words, which name no flag.
 */
export function inWords(step: Step, problem: Problem): string {
  return `${step.labelOf?.(problem.key!) ?? step.label}: ${problem.answer ?? problem.message}`;
}
