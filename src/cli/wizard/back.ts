/**
 * Escape, the way back, as every question of the wizard (init's and update's) takes it: a
 * question's answer or "back", and the question asked at the first one, which has none before it.
 */
import { GoBack, type Prompter } from "../prompt.ts";

/**
 * Escape at the first question: there is no question before it, so it asks whether to leave
 * (Enter stays; Escape again, or yes, cancels), rather than end a run at one stray key.
 */
export async function leaveAtFirst(prompt: Prompter): Promise<boolean> {
  return await unlessBack(
    prompt.confirm("Leave? Nothing has been written (Esc again leaves).", { initial: false }),
  ) ?? true;
}

/** The question's answer, or undefined when the user pressed Escape to go back. */
export async function unlessBack<T>(question: Promise<T>): Promise<T | undefined> {
  try {
    return await question;
  } catch (error) {
    if (error instanceof GoBack) return undefined;
    throw error;
  }
}
