/**
 * `voicebot init` in a terminal: ask what the flags would say, then hand the answers to the same
 * init core (and so the same validation) as a non-interactive run. Loaded only on a terminal.
 */
import type { ConfigKey, Problem, ScaffoldConfig, ScaffoldInput } from "../init/config.ts";
import {
  FIELDS,
  formatProblem,
  projectNameProblem,
  resolveConfig,
  suggestProjectName,
} from "../init/config.ts";
import {
  findService,
  findTransport,
  type ServiceKind,
  SERVICES,
  TRANSPORT_CHOICES,
  TRANSPORTS,
  VIDEO_TRANSPORTS,
} from "../init/catalog.ts";
import { serviceLabel, transportLabel } from "../init/answer_words.ts";
import { type GuideKind, sortGuides } from "../init/guides.ts";
import { guidesFor, initProject, projectAround, QUICKSTART, scaffoldPaths } from "../init/mod.ts";
import type { PlannedFile } from "../init/writer.ts";
import { CancelledError } from "../errors.ts";
import { basename, dirname, join, relative, resolve } from "../paths.ts";
import { andList, shellQuote } from "../words.ts";
import { GoBack, type Prompter, type SelectOption } from "./prompt.ts";

export interface WizardAnswers {
  readonly dir: string;
  readonly overwriteGuide: boolean;
  /** Empty on the coding-agent path. */
  readonly flags: ScaffoldInput;
}

const DEFAULT_DIR = "my-voice-bot";

/** Where the questions are: a question before the scaffold's, or the scaffold's own. */
type Stage = "project" | "directory" | "how" | "scaffold";

/** Where the project goes, as the questions have it so far: kept across a way back and forward. */
interface Target {
  dir?: string;
  overwriteGuide: boolean;
}

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

/**
 * Escape at the first question: there is no question before it, so it asks whether to leave
 * (Enter stays; Escape again, or yes, cancels), rather than end a run at one stray key.
 */
export async function leaveAtFirst(prompt: Prompter): Promise<boolean> {
  return await unlessBack(
    prompt.confirm("Leave? Nothing has been written (Esc again leaves).", { initial: false }),
  ) ?? true;
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

/** The guides a directory takes (`guidesFor`), and which kind they are. */
type FoundGuides = { guides: PlannedFile[]; kind: GuideKind };

/**
 * After the directory at `root`: the guide refresh offer, where a guide there came from another
 * voicebot version. Escape there asks for the directory again.
 */
async function directoryChosen(
  prompt: Prompter,
  root: string,
  { guides, kind }: FoundGuides,
  overwriteGuide: boolean,
): Promise<{ kind: GuideKind; overwriteGuide: boolean }> {
  const refresh = await offerGuideRefresh(prompt, root, guides, kind);
  return { kind, overwriteGuide: overwriteGuide || refresh };
}

/**
 * The target directory, checked as soon as it is given: files already there that a scaffold
 * could write over are named, and settled there: another directory, or cancel, or (with
 * `guidesHere`, before the scaffold's questions) going on there with a coding agent, whose guides
 * never overwrite, the files kept. A scaffold is not offered there: init never overwrites, so it
 * would only be refused after its questions. (A scaffolded project is not checked: only its own
 * guides are left to write.) `fallback` is shown grey and taken by Enter; typing replaces it.
 * Beside `project`, nothing inside it is taken. Returns the directory with the guides it takes,
 * and whether only they are to be written there.
 */
async function askDirectory(
  prompt: Prompter,
  cwd: string,
  { given, fallback: offered, project, guidesHere = false }: {
    given?: string;
    fallback: string;
    project?: string;
    guidesHere?: boolean;
  },
): Promise<{ dir: string; guidesOnly?: true } & FoundGuides> {
  let dir = given;
  let fallback = offered;
  for (;;) {
    dir ??= await prompt.text("Where should the project go?", {
      placeholder: fallback,
      defaultValue: fallback,
      validate: (value) => directoryProblem(cwd, value, project),
    });
    const root = resolve(cwd, dir);
    const found = await guidesFor(root);
    const clashes = found.kind === "project" ? [] : await existingScaffoldFiles(root);
    if (clashes.length === 0) {
      if (found.kind !== "project") await sayWhatIsThere(prompt, dir, root);
      return { dir, ...found };
    }
    const shown = clashes.length > 6
      ? [...clashes.slice(0, 5), `${clashes.length - 5} more`]
      : clashes;
    const them = clashes.length === 1 ? "it" : "them";
    const choice = await unlessBack(prompt.select(
      `${dir} already has ${
        andList(shown)
      }: a scaffolded bot would write over ${them}, and init never overwrites.`,
      [
        { value: "other", label: "Choose another directory" },
        ...guidesHere
          ? [{
            value: "guides",
            label: `Go on in ${dir} with a coding agent`,
            hint: "writes only the guides; your files are kept",
          }]
          : [],
        { value: "cancel", label: "Cancel" },
      ],
      "other",
    )) ?? "other";
    if (choice === "cancel") throw new CancelledError();
    if (choice === "guides") return { dir, guidesOnly: true, ...found };
    fallback = freeDirectory(cwd, dir);
    dir = undefined;
  }
}

/** A directory that has files already, none in the way: what is there, and that it stays. */
async function sayWhatIsThere(prompt: Prompter, dir: string, root: string) {
  let names: string[];
  try {
    names = [...Deno.readDirSync(root)].map((entry) =>
      entry.isDirectory ? `${entry.name}/` : entry.name
    )
      .sort();
  } catch {
    return; // missing: it will be created
  }
  if (names.length === 0) return;
  const shown = names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
  await prompt.info(
    `${dir} already has ${andList(shown)}: the project goes beside ${
      names.length === 1 ? "it" : "them"
    }, and nothing there is overwritten.`,
  );
}

/** The files under `root` that some scaffold writes (whether they differ is known only later). */
async function existingScaffoldFiles(root: string): Promise<string[]> {
  return (await scaffoldPaths()).filter((path) => {
    try {
      Deno.statSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  });
}

function directoryProblem(cwd: string, value: string, project?: string): string | undefined {
  if (value.trim() === "") return "a directory is needed, e.g. my-voice-bot";
  // As a TARGET_DIR, `quickstart` means the preset, not a directory of that name.
  if (value === "quickstart") return "quickstart names the preset (`voicebot init quickstart`)";
  const root = resolve(cwd, value);
  if (project && !relative(project, root).startsWith("..")) {
    return `that is inside the project ${basename(project)}; a new one goes beside it, e.g. ${
      relative(cwd, join(dirname(project), DEFAULT_DIR))
    }`;
  }
  try {
    if (!Deno.statSync(root).isDirectory) return `${value} is a file`;
  } catch {
    // Missing: it will be created.
  }
  return undefined;
}

/** A guide stamped by another voicebot version is offered for refresh (default yes). */
async function offerGuideRefresh(
  prompt: Prompter,
  root: string,
  guides: readonly PlannedFile[],
  kind: GuideKind,
): Promise<boolean> {
  const { kept } = sortGuides(root, guides, kind, false);
  const stale = kept.filter((guide) => guide.age !== null);
  if (stale.length === 0) return false;
  const names = stale.map((guide) => `${guide.path} (voicebot ${guide.writtenBy})`).join(", ");
  return await prompt.confirm(
    `${names} came from another voicebot version. Replace with this version's?`,
    { initial: true },
  );
}

/** The answers by step id: a step's value, or absent when it was not asked (or no longer applies). */
export type Answers = Record<string, unknown>;

/** The scaffold's answers, and the questions to ask again on the way forward (see `walk`). */
interface Walked {
  readonly answers: Answers;
  readonly again: Set<string>;
  /** The name the project takes from its directory, where the name question offered it. */
  nameDefault?: string;
}

/**
 * One question of the scaffold: its label in the summary, when it is asked (given the answers
 * before it), whether a kept answer still fits them, how it is asked (with the current answer
 * pre-selected), and what its answer reads as.
 */
interface Step {
  readonly id: string;
  readonly label: string;
  /** The config keys it decides: a problem on one of them sends the user back to this step. */
  readonly keys: readonly string[];
  applies(answers: Answers): boolean;
  fits(answers: Answers): boolean;
  ask(prompt: Prompter, answers: Answers, defaultName: string): Promise<unknown>;
  show(answers: Answers): string;
  /** How a problem with `key` is introduced (default: the step's label). */
  labelOf?(key: string): string;
}

const always = () => true;
const isWeb = (a: Answers) => a.bot_type === "web";
/** A web bot with a transport that carries video (not only the websocket, audio only). */
const hasVideo = (a: Answers) =>
  isWeb(a) && [a.transport, a.second].some((id) => VIDEO_TRANSPORTS.has(id as string));

function choiceStep(
  id: string,
  label: string,
  keys: string[],
  options: (a: Answers) => (SelectOption<string> & { label: string })[],
  fallback: (a: Answers) => string | undefined,
  applies: (a: Answers) => boolean = always,
  ask: "select" | "search" = "select",
): Step {
  return {
    id,
    label,
    keys,
    applies,
    fits: (a) => options(a).some((o) => o.value === a[id]),
    ask: (prompt, a) => {
      const list = options(a);
      const current = list.some((o) => o.value === a[id]) ? a[id] as string : fallback(a);
      return ask === "select"
        ? prompt.select(label, list, current)
        : prompt.search(label, list, current);
    },
    show: (a) => options(a).find((o) => o.value === a[id])?.label ?? String(a[id]),
  };
}

function serviceStep(
  id: string,
  kind: ServiceKind,
  label: string,
  applies: (a: Answers) => boolean,
) {
  return choiceStep(
    id,
    label,
    [id],
    () => serviceOptions(kind),
    () => defaultService(kind),
    applies,
    "search",
  );
}

const DIRECTIONS = [
  { value: "dial-in", label: "Dial-in", hint: "people call the bot" },
  { value: "dial-out", label: "Dial-out", hint: "the bot calls people" },
];

const hasDirection = (a: Answers) =>
  a.transport === "hosted_pstn" || a.transport === "carrier1_hosted_sip";

/** The yes/no features, asked as one list of ticks. */
const FEATURES: readonly {
  id: string;
  /** The flag's key; the avatar's is its service, asked next. */
  key?: ConfigKey;
  label: string;
  hint?: string;
  applies: (a: Answers) => boolean;
}[] = [
  { id: "recording", key: "recording", label: "Record the conversation's audio", applies: always },
  {
    id: "transcription",
    key: "transcription",
    label: "Log the conversation's transcript",
    applies: always,
  },
  { id: "avatar", label: "Video avatar", hint: "its service is asked next", applies: hasVideo },
  {
    id: "video_output",
    key: "video_output",
    label: "Send video",
    hint: "a video avatar always does",
    applies: hasVideo,
  },
  // Only a realtime model that takes the camera's frames ever sees the user's video.
  {
    id: "video_input",
    key: "video_input",
    label: "Receive the user's video",
    applies: (a) =>
      hasVideo(a) && a.mode === "realtime" &&
      findService(a.realtime_service as string)?.camera === true,
  },
  {
    id: "enable_observability",
    key: "enable_observability",
    label: "Trace the pipeline with OpenTelemetry",
    applies: always,
  },
  {
    id: "deploy_to_cloud",
    key: "deploy_to_cloud",
    label: "Cloud deployment files",
    hint: "Dockerfile and cloud-deploy.toml",
    applies: always,
  },
  {
    id: "enable_denoise",
    key: "enable_denoise",
    label: "Noise cancellation on the cloud",
    hint: "needs the cloud deployment files",
    applies: always,
  },
  {
    id: "eval",
    key: "eval",
    label: "Eval-ready",
    hint: "an eval transport and starter scenarios",
    applies: always,
  },
];

/** Ticked to start with, as the flags' defaults are. */
const DEFAULT_FEATURES = ["deploy_to_cloud"];

function featureOptions(a: Answers): (SelectOption<string> & { label: string })[] {
  return FEATURES.filter((feature) => feature.applies(a))
    .map(({ id, label, hint }) => ({ value: id, label, hint }));
}

const ticked = (a: Answers, id: string) =>
  Array.isArray(a.features) && (a.features as string[]).includes(id);

/**
 * The project name, its default shown grey and taken by Enter. A name the flags would refuse gets
 * a valid one made from it (`Restaurant Booker` → `restaurant-booker`), which the problem names as
 * its example and Enter then takes.
 */
async function askProjectName(prompt: Prompter, name: string): Promise<string> {
  let fallback = projectNameProblem(name) ? suggestProjectName(name) : name;
  for (;;) {
    const value = await prompt.text("Project name", {
      placeholder: fallback,
      defaultValue: fallback,
    });
    const problem = projectNameProblem(value);
    if (!problem) return value;
    fallback = suggestProjectName(value);
    await prompt.warn(`${problem}; Enter takes it, or type another name.`);
  }
}

/** Every question of the scaffold, in the order asked. */
const STEPS: readonly Step[] = [
  {
    id: "project_name",
    label: "Project name",
    keys: ["project_name"],
    applies: always,
    fits: (a) => typeof a.project_name === "string" && !projectNameProblem(a.project_name),
    ask: (prompt, a, defaultName) =>
      askProjectName(prompt, typeof a.project_name === "string" ? a.project_name : defaultName),
    show: (a) => String(a.project_name),
  },
  choiceStep("bot_type", "Bot type", ["bot_type"], () => [
    { value: "web", label: "Web", hint: "talk to it in a browser" },
    { value: "telephony", label: "Telephony", hint: "talk to it on the phone" },
  ], () => "web"),
  choiceStep(
    "client_framework",
    "Web client",
    ["client_framework"],
    () => [
      { value: "uilib", label: "React client with Pipecat's voice UI kit" },
      { value: "vanilla", label: "Plain JavaScript client" },
      { value: "none", label: "No client" },
    ],
    () => "uilib",
    isWeb,
  ),
  choiceStep(
    "client_server",
    "Client dev server",
    ["client_server"],
    () => [
      { value: "devserver_a", label: "Vite" },
      { value: "devserver_b", label: "Next.js" },
    ],
    () => "devserver_a",
    (a) => isWeb(a) && a.client_framework === "uilib",
  ),
  choiceStep(
    "transport",
    "Transport",
    ["transports"],
    botTransports,
    (a) => quickstartTransport(botTransports(a)),
  ),
  {
    ...choiceStep(
      "direction",
      "Call direction",
      ["daily_pstn_mode", "twilio_daily_sip_mode"],
      () => DIRECTIONS,
      () => "dial-in",
      hasDirection,
    ),
    ask: (prompt, a) => {
      const label = transportOptions(always).find((o) => o.value === a.transport)!.label;
      return prompt.select(
        `Call direction for ${label}`,
        DIRECTIONS,
        (a.direction as string) ?? "dial-in",
      );
    },
  },
  {
    id: "second",
    label: "Second transport",
    keys: ["transports"],
    applies: always,
    fits: (a) =>
      a.second === null || localOptions(a.transport as string).some((o) => o.value === a.second),
    ask: (prompt, a) => askLocalTransport(prompt, a),
    show: (a) =>
      a.second === null
        ? "none"
        : localOptions(a.transport as string).find((o) => o.value === a.second)?.label ??
          String(a.second),
  },
  choiceStep("mode", "Mode", ["mode"], () => [
    { value: "cascade", label: "Cascade", hint: "speech-to-text, language model, text-to-speech" },
    { value: "realtime", label: "Realtime", hint: "one speech-to-speech model" },
  ], () => "cascade"),
  serviceStep("stt_service", "stt", "Speech-to-text service", (a) => a.mode === "cascade"),
  serviceStep("llm_service", "llm", "Language-model service", (a) => a.mode === "cascade"),
  serviceStep("tts_service", "tts", "Text-to-speech service", (a) => a.mode === "cascade"),
  serviceStep("realtime_service", "realtime", "Realtime service", (a) => a.mode === "realtime"),
  {
    id: "features",
    label: "Features",
    keys: FEATURES.flatMap((feature) => feature.key ? [feature.key] : []),
    applies: always,
    fits: (a) =>
      Array.isArray(a.features) &&
      (a.features as string[]).every((id) => featureOptions(a).some((o) => o.value === id)),
    ask: (prompt, a) =>
      prompt.multiselect(
        "Add features (Space ticks, Enter goes on)",
        featureOptions(a),
        Array.isArray(a.features) ? a.features as string[] : DEFAULT_FEATURES,
      ),
    show: (a) => {
      const on = featureOptions(a).filter((option) => ticked(a, option.value));
      return on.length === 0 ? "none" : on.map((option) => option.label).join(", ");
    },
    labelOf: (key) => FEATURES.find((feature) => feature.key === key)?.label ?? "Features",
  },
  serviceStep(
    "video_service",
    "video",
    "Video avatar service",
    (a) => hasVideo(a) && ticked(a, "avatar"),
  ),
];

/**
 * Walks the steps in order: a step that no longer applies loses its answer; one whose answer is
 * missing, no longer fits the answers before it, or is in `again`, is asked; the others keep theirs.
 * Each answer is checked as it is given, by the flags' own rules (`resolveConfig`), and its
 * question asked again with the problem shown until it passes. Escape (`GoBack`) asks the question
 * before again, then this one; at the first question, the walk throws `GoBack` itself.
 */
async function walk(
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
function inWords(step: Step, problem: Problem): string {
  return `${step.labelOf?.(problem.key!) ?? step.label}: ${problem.answer ?? problem.message}`;
}

/** The flags the answers stand for, as the command line gives them (those given so far). */
function flagsOf(answers: Answers, defaultName: string): ScaffoldInput {
  const flags: ScaffoldInput = {};
  const copy = (key: ConfigKey) => {
    // deno-lint-ignore no-explicit-any
    if (answers[key] !== undefined) (flags as any)[key] = answers[key];
  };
  if (answers.project_name !== undefined && answers.project_name !== defaultName) {
    flags.project_name = answers.project_name as string;
  }
  copy("bot_type");
  copy("client_framework");
  copy("client_server");
  if ("direction" in answers) {
    const key = answers.transport === "hosted_pstn" ? "daily_pstn_mode" : "twilio_daily_sip_mode";
    flags[key] = answers.direction as string;
  }
  if (answers.transport !== undefined) {
    flags.transports = [
      answers.transport as string,
      ...(answers.second ? [answers.second as string] : []),
    ];
  }
  copy("mode");
  for (const key of ["stt_service", "llm_service", "tts_service", "realtime_service"] as const) {
    copy(key);
  }
  if (Array.isArray(answers.features)) {
    for (const feature of FEATURES) {
      if (!feature.key || !feature.applies(answers)) continue;
      // A video avatar sends video: the flag is left to its default, on.
      if (feature.id === "video_output" && ticked(answers, "avatar")) continue;
      // deno-lint-ignore no-explicit-any
      (flags as any)[feature.key] = ticked(answers, feature.id);
    }
  }
  copy("video_service");
  return flags;
}

/** The summary: the directory first, then each question asked, by its label, with its answer. */
export function summaryLines(dir: string, answers: Answers): string[] {
  const lines = [`Directory: ${dir}`];
  for (const step of STEPS) {
    if (step.id in answers) lines.push(`${step.label}: ${step.show(answers)}`);
  }
  return lines;
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
async function askScaffold(
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

/** Beside a directory that is taken, the first free one of its name: `other` gives `other-2`. */
function freeDirectory(cwd: string, dir: string): string {
  const root = resolve(cwd, dir);
  const stem = basename(root).replace(/-\d+$/, "");
  for (let n = 2;; n++) {
    const candidate = join(dirname(root), `${stem}-${n}`);
    if (!pathExists(candidate)) return relative(cwd, candidate);
  }
}

function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

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

/**
 * A configuration as the questions' answers, or undefined when they cannot hold it: their answers
 * must make the very same configuration.
 */
export function answersOf(config: ScaffoldConfig): Answers | undefined {
  const [first, second, ...more] = config.transports.map((id) => findTransport(id)!);
  if (more.length > 0) return undefined;
  const web = config.bot_type === "web";
  const answers: Answers = {
    project_name: config.project_name,
    bot_type: config.bot_type,
    ...web ? { client_framework: config.client_framework ?? "none" } : {},
    ...config.client_framework === "uilib" ? { client_server: config.client_server } : {},
    transport: first.choice,
    ...first.direction ? { direction: first.direction } : {},
    second: second?.choice ?? null,
    mode: config.mode,
  };
  for (const key of ["stt_service", "llm_service", "tts_service", "realtime_service"] as const) {
    if (config[key] !== null) answers[key] = config[key];
  }
  answers.features = FEATURES.filter((feature) =>
    feature.id === "avatar"
      ? config.video_service !== null
      : feature.key && config[feature.key] === true &&
        !(feature.id === "video_output" && config.video_service !== null)
  ).map((feature) => feature.id);
  if (config.video_service !== null) answers.video_service = config.video_service;
  const made = resolveConfig(flagsOf(answers, config.project_name), config.project_name).config;
  return JSON.stringify(made) === JSON.stringify(config) ? answers : undefined;
}

/**
 * The flags whose values the answers changed. One the new answers no longer give (the
 * speech-to-text service of a bot gone realtime) is left out: update lets a recorded answer that
 * does not go with the new ones give way.
 */
function changedFlags(before: Answers, after: Answers, name: string): ScaffoldInput {
  const [from, to] = [flagsOf(before, name), flagsOf(after, name)];
  return Object.fromEntries(
    Object.entries(to).filter(([key, value]) =>
      JSON.stringify(from[key as keyof ScaffoldInput]) !== JSON.stringify(value)
    ),
  ) as ScaffoldInput;
}

/** The question's answer, or undefined when the user pressed Escape to go back. */
async function unlessBack<T>(question: Promise<T>): Promise<T | undefined> {
  try {
    return await question;
  } catch (error) {
    if (error instanceof GoBack) return undefined;
    throw error;
  }
}

/**
 * Another directory, from the summary, `fallback` offered (or Escape: the same one), and its
 * guide refresh offer.
 */
async function changeDirectory(
  prompt: Prompter,
  cwd: string,
  target: Target,
  project: string | undefined,
  fallback: string,
): Promise<Target> {
  const other = await unlessBack(askDirectory(prompt, cwd, { fallback, project }));
  if (other === undefined) return target;
  const chosen = await unlessBack(
    directoryChosen(prompt, resolve(cwd, other.dir), other, target.overwriteGuide),
  );
  return chosen ? { dir: other.dir, overwriteGuide: chosen.overwriteGuide } : target;
}

/** The files of this project that a real run would refuse to write over. */
async function conflictsIn(
  cwd: string,
  dir: string,
  flags: ScaffoldInput,
  overwriteGuide: boolean,
): Promise<readonly string[]> {
  const plan = await initProject({ cwd, dir, flags, dryRun: true, overwriteGuide });
  return plan.kind === "dry-run" ? plan.conflicts : [];
}

/**
 * A second transport, to talk to the bot in a browser: only browser transports are offered,
 * SmallWebRTC first (it needs no account). Where one is left, it is named in the question
 * rather than picked from a list of one.
 */
async function askLocalTransport(prompt: Prompter, answers: Answers): Promise<string | null> {
  const options = localOptions(answers.transport as string);
  const current = typeof answers.second === "string" ? answers.second : undefined;
  if (options.length === 0) return null;
  if (options.length === 1) {
    const only = options[0];
    const add = await prompt.confirm(
      `Add ${only.label} as a second transport${
        answers.bot_type === "telephony" ? " for local testing" : ""
      }?`,
      { initial: current === only.value },
    );
    return add ? only.value : null;
  }
  if (
    !await prompt.confirm("Add a second transport for local testing?", {
      initial: current !== undefined,
    })
  ) {
    return null;
  }
  const initial = options.some((o) => o.value === current) ? current : options[0].value;
  return await prompt.select("Transport for local testing", options, initial);
}

/**
 * The browser transports a second one can be, SmallWebRTC (it needs no account) first: those
 * with a page to talk to the bot in, so not the websocket, which needs an app of its own (and
 * beside a carrier would shut out its calls: the runner's token guards both).
 */
function localOptions(first: string): (SelectOption<string> & { label: string })[] {
  const options = transportOptions((t) => t.group === "web" && t.id !== "websocket")
    .filter((option) => option.value !== first);
  const initial = quickstartTransport(options);
  return options.sort((a, b) => Number(b.value === initial) - Number(a.value === initial));
}

/** The transports of the bot's type (web or telephony). */
function botTransports(answers: Answers): (SelectOption<string> & { label: string })[] {
  return transportOptions((transport) => transport.group === answers.bot_type);
}

/** The quickstart's transport (SmallWebRTC) where it is one of `options`: the pre-selected one. */
function quickstartTransport(options: readonly SelectOption<string>[]): string | undefined {
  return QUICKSTART.transports?.find((id) => options.some((o) => o.value === id));
}

function transportOptions(
  keep: (transport: (typeof TRANSPORTS)[number]) => boolean,
): (SelectOption<string> & { label: string })[] {
  return TRANSPORT_CHOICES
    .map((choice) => ({ choice, transport: TRANSPORTS.find((t) => t.choice === choice)! }))
    .filter(({ transport }) => keep(transport))
    .map(({ choice, transport }) => ({
      value: choice,
      label: transportLabel(transport),
    }));
}

/**
 * Each list starts at the quickstart's service (Deepgram, OpenAI, Cartesia); the realtime list at
 * the realtime service of the quickstart's language-model vendor (OpenAI Realtime).
 */
function defaultService(kind: ServiceKind): string | undefined {
  const preset: Partial<Record<ServiceKind, string | undefined>> = {
    stt: QUICKSTART.stt_service,
    llm: QUICKSTART.llm_service,
    tts: QUICKSTART.tts_service,
    realtime: QUICKSTART.llm_service?.replace(/_llm$/, "_realtime"),
  };
  const id = preset[kind];
  return id !== undefined && findService(id)?.kind === kind ? id : undefined;
}

function serviceOptions(kind: ServiceKind): (SelectOption<string> & { label: string })[] {
  return SERVICES.filter((service) => service.kind === kind).map((service) => ({
    value: service.id,
    label: serviceLabel(service),
    hint: service.id,
  }));
}

/**
 * The command that makes the same files without a question, in a terminal or not: on the
 * coding-agent path (no scaffold answers), the one that writes the same guides.
 */
export function commandLine(answers: WizardAnswers): string {
  const args = ["voicebot", "init", answers.dir];
  if (Object.keys(answers.flags).length === 0) args.push("--coding-agent");
  for (const [key, value] of Object.entries(answers.flags)) {
    const flag = FIELDS[key as keyof typeof FIELDS].flag;
    if (typeof value === "boolean") args.push(value ? flag : flag.replace(/^--/, "--no-"));
    else if (Array.isArray(value)) { for (const item of value) args.push(flag, item); }
    else args.push(flag, value as string);
  }
  if (answers.overwriteGuide) args.push("--overwrite-guide");
  return args.map(shellQuote).join(" ");
}
