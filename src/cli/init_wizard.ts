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
import { guidesFor, QUICKSTART, scaffoldPaths } from "../init/mod.ts";
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
  const flags = await askScaffold(prompt, basename(resolve(cwd, dir)));
  return { dir, overwriteGuide, flags };
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

async function askScaffold(prompt: Prompter, defaultName: string): Promise<ScaffoldInput> {
  const flags: ScaffoldInput = {};
  const name = await prompt.text("Project name", {
    initial: projectNameProblem(defaultName) ? "" : defaultName,
    validate: (value) => projectNameProblem(value),
  });
  if (name !== defaultName) flags.project_name = name;

  const botType = await prompt.select("Bot type", [
    { value: "web", label: "Web", hint: "talk to it in a browser" },
    { value: "telephony", label: "Telephony", hint: "talk to it on the phone" },
  ], "web");
  flags.bot_type = botType;

  if (botType === "web") {
    const framework = await prompt.select("Web client", [
      { value: "uilib", label: "UI library client" },
      { value: "vanilla", label: "Plain JavaScript client" },
      { value: "none", label: "No client" },
    ], "uilib");
    flags.client_framework = framework;
    if (framework === "uilib") {
      flags.client_server = await prompt.select("Client dev server", [
        { value: "devserver_a", label: "Vite" },
        { value: "devserver_b", label: "Next.js" },
      ], "devserver_a");
    }
  }

  const transports = [await askTransport(prompt, flags, botType)];
  const second = await askLocalTransport(prompt, botType, transports[0]);
  if (second) transports.push(second);
  flags.transports = transports;

  const mode = await prompt.select("Mode", [
    { value: "cascade", label: "Cascade", hint: "speech-to-text, language model, text-to-speech" },
    { value: "realtime", label: "Realtime", hint: "one speech-to-speech model" },
  ], "cascade");
  flags.mode = mode;
  if (mode === "cascade") {
    flags.stt_service = await askService(prompt, "stt", "Speech-to-text service");
    flags.llm_service = await askService(prompt, "llm", "Language-model service");
    flags.tts_service = await askService(prompt, "tts", "Text-to-speech service");
  } else {
    flags.realtime_service = await askService(prompt, "realtime", "Realtime service");
  }

  flags.recording = await prompt.confirm("Record the conversation's audio?");
  flags.transcription = await prompt.confirm("Log the conversation's transcript?");
  if (botType === "web") {
    if (await prompt.confirm("Add a video avatar?")) {
      flags.video_service = await askService(prompt, "video", "Video avatar service");
    } else {
      flags.video_output = await prompt.confirm("Send video?");
    }
    // Only a realtime model that takes the camera's frames ever sees the user's video.
    if (mode === "realtime" && findService(flags.realtime_service!)?.camera) {
      flags.video_input = await prompt.confirm("Receive the user's video?");
    }
  }
  flags.enable_observability = await prompt.confirm("Trace the pipeline with OpenTelemetry?");
  flags.deploy_to_cloud = await prompt.confirm("Generate the cloud deployment files?", {
    initial: true,
  });
  if (flags.deploy_to_cloud) {
    flags.enable_denoise = await prompt.confirm("Enable noise cancellation on the cloud?");
  }
  flags.eval = await prompt.confirm("Make the bot eval-ready?");
  return flags;
}

/** A web bot's transport starts at the quickstart's first (SmallWebRTC: local, no account). */
async function askTransport(
  prompt: Prompter,
  flags: ScaffoldInput,
  botType: string,
): Promise<string> {
  const options = transportOptions((transport) => transport.group === botType);
  const initial = QUICKSTART.transports?.find((id) => options.some((o) => o.value === id));
  const choice = await prompt.select("Transport", options, initial);
  if (choice === "hosted_pstn" || choice === "carrier1_hosted_sip") {
    const key = choice === "hosted_pstn" ? "daily_pstn_mode" : "twilio_daily_sip_mode";
    const label = options.find((option) => option.value === choice)!.label;
    flags[key] = await prompt.select(`Call direction for ${label}`, [
      { value: "dial-in", label: "Dial-in", hint: "people call the bot" },
      { value: "dial-out", label: "Dial-out", hint: "the bot calls people" },
    ], "dial-in");
  }
  return choice;
}

/**
 * A second transport, to talk to the bot in a browser: only browser transports are offered,
 * SmallWebRTC first (it needs no account). Where one is left, it is named in the question
 * rather than picked from a list of one.
 */
async function askLocalTransport(
  prompt: Prompter,
  botType: string,
  first: string,
): Promise<string | undefined> {
  const options = transportOptions((transport) => transport.group === "web")
    .filter((option) => option.value !== first);
  const initial = QUICKSTART.transports?.find((id) => options.some((o) => o.value === id));
  options.sort((a, b) => Number(b.value === initial) - Number(a.value === initial));
  if (options.length === 0) return undefined;
  if (options.length === 1) {
    const only = options[0];
    const add = await prompt.confirm(
      `Add ${only.label} as a second transport${
        botType === "telephony" ? " for local testing" : ""
      }?`,
      { initial: false },
    );
    return add ? only.value : undefined;
  }
  if (!await prompt.confirm("Add a second transport for local testing?", { initial: false })) {
    return undefined;
  }
  return await prompt.select("Transport for local testing", options, initial);
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

async function askService(prompt: Prompter, kind: ServiceKind, message: string): Promise<string> {
  const options = SERVICES.filter((service) => service.kind === kind).map((service) => ({
    value: service.id,
    label: service.label,
    hint: service.id,
  }));
  return await prompt.search(message, options, defaultService(kind));
}

/** The summary shown before anything is written: the resolved configuration, or its problems. */
export function summarize(flags: ScaffoldInput, defaultName: string): string[] {
  const { config, problems } = resolveConfig(flags, defaultName);
  if (!config) return problems.map(formatProblem);
  return Object.entries(config)
    .filter(([, value]) => value !== null && value !== false)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : value}`);
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
