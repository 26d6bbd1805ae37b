/**
 * `voicebot init` in a terminal: ask what the flags would say, then hand the answers to the same
 * init core (and so the same validation) as a non-interactive run. Loaded only on a terminal.
 */
import { guidesFor, projectAround } from "../../init/mod.ts";
import { CancelledError } from "../../errors.ts";
import { basename, dirname, join, relative, resolve } from "../../paths.ts";
import { GoBack, type Prompter } from "../prompt.ts";
import type { WizardAnswers } from "./answers.ts";
import { leaveAtFirst, unlessBack } from "./back.ts";
import { askDirectory, DEFAULT_DIR, directoryChosen, type Target } from "./directory.ts";
import { askScaffold, type Walked } from "./summary.ts";

/** Where the questions are: a question before the scaffold's, or the scaffold's own. */
type Stage = "project" | "directory" | "how" | "scaffold";

/**
 * The questions, with a way back: Escape at a question (a `GoBack` from the prompter) goes back
 * to the one before, its answer kept, from the summary all the way to the first question; there,
 * it asks before it cancels. Without a directory inside a scaffolded project, the first question
 * is whether to refresh its guides or make a new project beside it.
 */
export async function runWizard(
  prompt: Prompter,
  cwd: string,
  given: { dir?: string; overwriteGuide: boolean },
): Promise<WizardAnswers> {
  const project = given.dir === undefined ? projectAround(cwd) : undefined;
  let givenDir = given.dir;
  const target: Target = { overwriteGuide: given.overwriteGuide };
  let beside: string | undefined;
  const visited: Stage[] = [];
  let stage: Stage = project ? "project" : "directory";
  // Kept across a way back to the questions before the scaffold's, and forward again.
  let how = "agent";
  const scaffold: Walked = { answers: {}, again: new Set() };
  prompt = withKeysHint(prompt);
  for (;;) {
    try {
      if (stage === "project") {
        const choice = await askInProject(prompt, cwd, project!);
        if (choice === "refresh") {
          const dir = relative(cwd, project!) || ".";
          const guides = await guidesFor(project!);
          const chosen = await unlessBack(
            directoryChosen(prompt, project!, guides, target.overwriteGuide),
          );
          if (chosen === undefined) continue; // Escape: this question again
          return { dir, overwriteGuide: chosen.overwriteGuide, flags: {} };
        }
        beside = project;
        visited.push(stage);
        stage = "directory";
      } else if (stage === "directory") {
        const fallback = target.dir ??
          (beside ? relative(cwd, join(dirname(beside), DEFAULT_DIR)) : DEFAULT_DIR);
        const asked = givenDir === undefined;
        const picked = await askDirectory(prompt, cwd, {
          given: givenDir,
          fallback,
          project: beside,
          guidesHere: true,
        });
        givenDir = undefined;
        const chosen = await unlessBack(
          directoryChosen(prompt, resolve(cwd, picked.dir), picked, target.overwriteGuide),
        );
        if (chosen === undefined) continue; // Escape: the directory again
        target.dir = picked.dir;
        target.overwriteGuide = chosen.overwriteGuide;
        // A scaffolded project is made already: only its guides are left to write. Where a scaffold
        // would meet files of the user's, going on there was the guides' way.
        if (chosen.kind === "project" || picked.guidesOnly) {
          return { dir: picked.dir, overwriteGuide: target.overwriteGuide, flags: {} };
        }
        // A directory given on the command line is not a question to go back to.
        if (asked) visited.push(stage);
        stage = "how";
      } else if (stage === "how") {
        how = await prompt.select("How do you want to build your bot?", [
          {
            value: "agent",
            label: "With a coding agent",
            hint: "writes the guides and GETTING_STARTED.md",
          },
          { value: "scaffold", label: "Scaffold a bot now", hint: "answer a few questions" },
        ], how);
        if (how === "agent") {
          return { dir: target.dir!, overwriteGuide: target.overwriteGuide, flags: {} };
        }
        visited.push(stage);
        stage = "scaffold";
      } else {
        return await askScaffold(prompt, cwd, target, beside, scaffold);
      }
    } catch (error) {
      if (!(error instanceof GoBack)) throw error;
      const back = visited.pop();
      if (back !== undefined) stage = back;
      else if (await leaveAtFirst(prompt)) throw new CancelledError();
    }
  }
}

/** The prompter, saying once, before its first question or word, what Esc and Ctrl-C do. */
function withKeysHint(prompt: Prompter): Prompter {
  let said = false;
  const first = <A extends unknown[], R>(ask: (...args: A) => Promise<R>) => async (...args: A) => {
    if (!said) {
      said = true;
      await prompt.info("Esc goes back one question; Ctrl-C cancels.");
    }
    return await ask(...args);
  };
  return {
    ...prompt,
    info: first(prompt.info),
    confirm: first(prompt.confirm),
    text: first(prompt.text),
    select: first(prompt.select) as Prompter["select"],
    search: first(prompt.search) as Prompter["search"],
    multiselect: first(prompt.multiselect) as Prompter["multiselect"],
  };
}

/** Inside a scaffolded project, without a directory: refresh its guides, or make one beside it. */
async function askInProject(
  prompt: Prompter,
  cwd: string,
  project: string,
): Promise<"refresh" | "beside"> {
  const choice = await prompt.select(
    `${cwd === project ? "This is" : "This is inside"} the voicebot project ${basename(project)}.`,
    [
      {
        value: "refresh",
        label: "Refresh its guides",
        hint: "writes this version's AGENTS.md and ASSISTANT.md; edited ones are kept",
      },
      {
        value: "beside",
        label: "Make a new project beside it",
        hint: `in ${relative(cwd, dirname(project)) || "."}`,
      },
      { value: "cancel", label: "Cancel" },
    ],
    "refresh",
  );
  if (choice === "cancel") throw new CancelledError();
  return choice as "refresh" | "beside";
}
