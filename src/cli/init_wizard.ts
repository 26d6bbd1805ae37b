/**
 * `voicebot init` in a terminal: ask what the flags would say, then hand the answers to the same
 * init core (and so the same validation) as a non-interactive run. Loaded only on a terminal.
 */
import type { ScaffoldInput } from "../init/config.ts";
import { FIELDS, formatProblem, projectNameProblem, resolveConfig } from "../init/config.ts";
import {
  findService,
  type ServiceKind,
  SERVICES,
  TRANSPORT_CHOICES,
  TRANSPORTS,
} from "../init/catalog.ts";
import { type GuideKind, sortGuides } from "../init/guides.ts";
import { guidesFor, initProject, QUICKSTART, scaffoldPaths } from "../init/mod.ts";
import type { PlannedFile } from "../init/writer.ts";
import { CancelledError } from "../errors.ts";
import { basename, join, resolve } from "../paths.ts";
import { andList, shellQuote } from "../words.ts";
import type { Prompter, SelectOption } from "./prompt.ts";

export interface WizardAnswers {
  readonly dir: string;
  readonly overwriteGuide: boolean;
  /** Empty on the coding-agent path. */
  readonly flags: ScaffoldInput;
}

const DEFAULT_DIR = "my-voice-bot";

export async function runWizard(
  prompt: Prompter,
  cwd: string,
  given: { dir?: string; overwriteGuide: boolean },
): Promise<WizardAnswers> {
  const { dir, guides, kind } = await askDirectory(prompt, cwd, given.dir);
  const root = resolve(cwd, dir);
  const overwriteGuide = given.overwriteGuide ||
    await offerGuideRefresh(prompt, root, guides, kind);
  // A scaffolded project is made already: only its guides are left to write.
  if (kind === "project") return { dir, overwriteGuide, flags: {} };
  const how = await prompt.select("How do you want to build your bot?", [
    {
      value: "agent",
      label: "With a coding agent",
      hint: "writes the guides and GETTING_STARTED.md",
    },
    { value: "scaffold", label: "Scaffold a bot now", hint: "answer a few questions" },
  ], "agent");
  if (how === "agent") return { dir, overwriteGuide, flags: {} };
  return await askScaffold(prompt, cwd, { dir, overwriteGuide });
}

/**
 * The target directory, checked as soon as it is given: files already there that a scaffold
 * could write over are named, with the choice of another directory, going on, or cancelling.
 * (A scaffolded project is not checked: only its own guides are left to write.)
 */
async function askDirectory(
  prompt: Prompter,
  cwd: string,
  given: string | undefined,
): Promise<{ dir: string; guides: PlannedFile[]; kind: GuideKind }> {
  let dir = given;
  for (;;) {
    dir ??= await prompt.text("Where should the project go?", {
      placeholder: DEFAULT_DIR,
      initial: DEFAULT_DIR,
      validate: (value) => directoryProblem(cwd, value),
    });
    const root = resolve(cwd, dir);
    const { guides, kind } = await guidesFor(root);
    const clashes = kind === "project" ? [] : existingScaffoldFiles(root);
    if (clashes.length === 0) return { dir, guides, kind };
    const shown = clashes.length > 6
      ? [...clashes.slice(0, 5), `${clashes.length - 5} more`]
      : clashes;
    const choice = await prompt.select(
      `${dir} already has ${andList(shown)}: a scaffolded bot would write over ${
        clashes.length === 1 ? "it" : "them"
      }.`,
      [
        { value: "other", label: "Choose another directory" },
        {
          value: "here",
          label: `Go on in ${dir}`,
          hint: "the guides never overwrite; a scaffold stops before writing over a file",
        },
        { value: "cancel", label: "Cancel" },
      ],
      "other",
    );
    if (choice === "cancel") throw new CancelledError();
    if (choice === "here") return { dir, guides, kind };
    dir = undefined;
  }
}

/** The files under `root` that some scaffold writes (whether they differ is known only later). */
function existingScaffoldFiles(root: string): string[] {
  return scaffoldPaths().filter((path) => {
    try {
      Deno.statSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  });
}

function directoryProblem(cwd: string, value: string): string | undefined {
  if (value.trim() === "") return "a directory is needed, e.g. my-voice-bot";
  // As a TARGET_DIR, `quickstart` means the preset, not a directory of that name.
  if (value === "quickstart") return "quickstart names the preset (`voicebot init quickstart`)";
  try {
    if (!Deno.statSync(resolve(cwd, value)).isDirectory) return `${value} is a file`;
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
type Answers = Record<string, unknown>;

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
}

const yesNo = (value: unknown) => (value ? "yes" : "no");
const always = () => true;
const isWeb = (a: Answers) => a.bot_type === "web";

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

function confirmStep(
  id: string,
  question: string,
  label: string,
  keys: string[],
  initial: boolean,
  applies: (a: Answers) => boolean = always,
): Step {
  return {
    id,
    label,
    keys,
    applies,
    fits: (a) => typeof a[id] === "boolean",
    ask: (prompt, a) =>
      prompt.confirm(question, {
        initial: typeof a[id] === "boolean" ? a[id] as boolean : initial,
      }),
    show: (a) => yesNo(a[id]),
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

/** Every question of the scaffold, in the order asked. */
const STEPS: readonly Step[] = [
  {
    id: "project_name",
    label: "Project name",
    keys: ["project_name"],
    applies: always,
    fits: (a) => typeof a.project_name === "string" && !projectNameProblem(a.project_name),
    ask: (prompt, a, defaultName) =>
      prompt.text("Project name", {
        initial: typeof a.project_name === "string"
          ? a.project_name
          : projectNameProblem(defaultName)
          ? ""
          : defaultName,
        validate: (value) => projectNameProblem(value),
      }),
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
      { value: "uilib", label: "UI library client" },
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
  confirmStep(
    "recording",
    "Record the conversation's audio?",
    "Record audio",
    ["recording"],
    false,
  ),
  confirmStep(
    "transcription",
    "Log the conversation's transcript?",
    "Log the transcript",
    ["transcription"],
    false,
  ),
  confirmStep("avatar", "Add a video avatar?", "Video avatar", ["video_service"], false, isWeb),
  serviceStep(
    "video_service",
    "video",
    "Video avatar service",
    (a) => isWeb(a) && a.avatar === true,
  ),
  confirmStep(
    "video_output",
    "Send video?",
    "Send video",
    ["video_output"],
    false,
    (a) => isWeb(a) && a.avatar === false,
  ),
  // Only a realtime model that takes the camera's frames ever sees the user's video.
  confirmStep(
    "video_input",
    "Receive the user's video?",
    "Receive the user's video",
    ["video_input"],
    false,
    (a) =>
      isWeb(a) && a.mode === "realtime" && findService(a.realtime_service as string)?.camera ===
        true,
  ),
  confirmStep(
    "enable_observability",
    "Trace the pipeline with OpenTelemetry?",
    "OpenTelemetry tracing",
    ["enable_observability"],
    false,
  ),
  confirmStep(
    "deploy_to_cloud",
    "Generate the cloud deployment files?",
    "Cloud deployment files",
    ["deploy_to_cloud"],
    true,
  ),
  confirmStep(
    "enable_denoise",
    "Enable noise cancellation on the cloud?",
    "Noise cancellation on the cloud",
    ["enable_denoise"],
    false,
    (a) => a.deploy_to_cloud === true,
  ),
  confirmStep("eval", "Make the bot eval-ready?", "Eval-ready", ["eval"], false),
];

/**
 * Walks the steps in order: a step that no longer applies loses its answer; one whose answer is
 * missing, no longer fits the answers before it, or is in `again`, is asked; the others keep theirs.
 */
async function walk(
  prompt: Prompter,
  answers: Answers,
  defaultName: string,
  again: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const step of STEPS) {
    if (!step.applies(answers)) {
      delete answers[step.id];
      continue;
    }
    if (step.id in answers && step.fits(answers) && !again.has(step.id)) continue;
    answers[step.id] = await step.ask(prompt, answers, defaultName);
  }
}

/** The flags the answers stand for, as the command line gives them. */
function flagsOf(answers: Answers, defaultName: string): ScaffoldInput {
  const flags: ScaffoldInput = {};
  if (answers.project_name !== defaultName) flags.project_name = answers.project_name as string;
  flags.bot_type = answers.bot_type as string;
  if ("client_framework" in answers) flags.client_framework = answers.client_framework as string;
  if ("client_server" in answers) flags.client_server = answers.client_server as string;
  if ("direction" in answers) {
    const key = answers.transport === "hosted_pstn" ? "daily_pstn_mode" : "twilio_daily_sip_mode";
    flags[key] = answers.direction as string;
  }
  flags.transports = [
    answers.transport as string,
    ...(answers.second ? [answers.second as string] : []),
  ];
  flags.mode = answers.mode as string;
  for (const key of ["stt_service", "llm_service", "tts_service", "realtime_service"] as const) {
    if (key in answers) flags[key] = answers[key] as string;
  }
  flags.recording = answers.recording as boolean;
  flags.transcription = answers.transcription as boolean;
  if ("video_service" in answers) flags.video_service = answers.video_service as string;
  if ("video_output" in answers) flags.video_output = answers.video_output as boolean;
  if ("video_input" in answers) flags.video_input = answers.video_input as boolean;
  flags.enable_observability = answers.enable_observability as boolean;
  flags.deploy_to_cloud = answers.deploy_to_cloud as boolean;
  if ("enable_denoise" in answers) flags.enable_denoise = answers.enable_denoise as boolean;
  flags.eval = answers.eval as boolean;
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
 * cancels; "Change an answer" re-asks that question, then only what depends on it. An answer the
 * configuration still refuses, or a directory whose files a scaffold would write over, sends the
 * user back to that question: nothing given is lost.
 */
async function askScaffold(
  prompt: Prompter,
  cwd: string,
  start: { dir: string; overwriteGuide: boolean },
): Promise<WizardAnswers> {
  let { dir, overwriteGuide } = start;
  const answers: Answers = {};
  const defaultName = () => basename(resolve(cwd, dir));
  await walk(prompt, answers, defaultName());
  for (;;) {
    const flags = flagsOf(answers, defaultName());
    const { problems } = resolveConfig(flags, defaultName());
    if (problems.length > 0) {
      // Should not happen: each answer was checked as given. Back to the question, answers kept.
      const step = STEPS.find((s) => problems.some((p) => p.key && s.keys.includes(p.key)));
      await prompt.warn(problems.map(formatProblem).join("\n"));
      if (!step) throw new Error(`the wizard's answers fail: ${problems.map(formatProblem)}`);
      await walk(prompt, answers, defaultName(), new Set([step.id]));
      continue;
    }
    await prompt.note("Summary", summaryLines(dir, answers));
    const next = await prompt.select("Create this project?", [
      { value: "create", label: "Create it" },
      { value: "change", label: "Change an answer" },
      { value: "cancel", label: "Cancel" },
    ], "create");
    if (next === "cancel") throw new CancelledError();
    if (next === "create") {
      const conflicts = await conflictsIn(cwd, dir, flags, overwriteGuide);
      if (conflicts.length === 0) return { dir, overwriteGuide, flags };
      await prompt.warn(
        `${dir} already has ${
          andList(conflicts)
        }, with other content: the project would write over ${
          conflicts.length === 1 ? "it" : "them"
        }. Choose another directory (your answers are kept).`,
      );
      ({ dir, overwriteGuide } = await changeDirectory(prompt, cwd, overwriteGuide));
      continue;
    }
    const which = await prompt.select("Which answer?", [
      { value: DIRECTORY, label: "Directory", hint: dir },
      ...STEPS.filter((step) => step.id in answers).map((step) => ({
        value: step.id,
        label: step.label,
        hint: step.show(answers),
      })),
    ], DIRECTORY);
    if (which === DIRECTORY) {
      ({ dir, overwriteGuide } = await changeDirectory(prompt, cwd, overwriteGuide));
    } else {
      await walk(prompt, answers, defaultName(), new Set([which]));
    }
  }
}

async function changeDirectory(
  prompt: Prompter,
  cwd: string,
  overwriteGuide: boolean,
): Promise<{ dir: string; overwriteGuide: boolean }> {
  const { dir, guides, kind } = await askDirectory(prompt, cwd, undefined);
  const refresh = await offerGuideRefresh(prompt, resolve(cwd, dir), guides, kind);
  return { dir, overwriteGuide: overwriteGuide || refresh };
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

/** The browser transports a second one can be, SmallWebRTC (it needs no account) first. */
function localOptions(first: string): (SelectOption<string> & { label: string })[] {
  const options = transportOptions((transport) => transport.group === "web")
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
      label: transport.direction ? transport.label.replace(/ dial-(in|out)$/, "") : transport.label,
      hint: choice,
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
    label: service.label,
    hint: service.id,
  }));
}

/** The command that makes the same project without a terminal. */
export function commandLine(answers: WizardAnswers): string {
  const args = ["voicebot", "init", answers.dir];
  for (const [key, value] of Object.entries(answers.flags)) {
    const flag = FIELDS[key as keyof typeof FIELDS].flag;
    if (typeof value === "boolean") args.push(value ? flag : flag.replace(/^--/, "--no-"));
    else if (Array.isArray(value)) { for (const item of value) args.push(flag, item); }
    else args.push(flag, value as string);
  }
  if (answers.overwriteGuide) args.push("--overwrite-guide");
  return args.map(shellQuote).join(" ");
}
