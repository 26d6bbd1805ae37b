/**
 * The wizard's answers as flags and back: the flags the questions' answers stand for, a recorded
 * configuration as those answers, the flags an update changed, and the command line that makes the
 * same project without a question.
 */
import type { ConfigKey, ScaffoldConfig, ScaffoldInput } from "../../init/config.ts";
import { FIELDS, resolveConfig } from "../../init/config.ts";
import { findTransport } from "../../init/catalog.ts";
import { shellQuote } from "../../words.ts";
import { type Answers, FEATURES, ticked } from "./questions.ts";

/** What the wizard hands to init: where, whether to overwrite guides, and the flags. */
export interface WizardAnswers {
  readonly dir: string;
  readonly overwriteGuide: boolean;
  /** Empty on the coding-agent path. */
  readonly flags: ScaffoldInput;
}

/** The flags the answers stand for, as the command line gives them (those given so far). */
export function flagsOf(answers: Answers, defaultName: string): ScaffoldInput {
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
export function changedFlags(before: Answers, after: Answers, name: string): ScaffoldInput {
  const [from, to] = [flagsOf(before, name), flagsOf(after, name)];
  return Object.fromEntries(
    Object.entries(to).filter(([key, value]) =>
      JSON.stringify(from[key as keyof ScaffoldInput]) !== JSON.stringify(value)
    ),
  ) as ScaffoldInput;
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
