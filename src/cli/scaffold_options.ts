/**
 * The scaffold options `init` and `update` share: each sets one answer of the configuration, and
 * `scaffoldFlags` reads them into the core's input.
 */
import type { Args, ArgToken } from "gunshi";
import type { Problem, ScaffoldInput } from "../init/config.ts";
import { contradictionOf, contradictions } from "./contradictions.ts";

export const text = (description: string, short?: string) =>
  ({ type: "string", description, ...(short ? { short } : {}) }) as const;
const toggle = (description: string) =>
  ({ type: "boolean", negatable: true, description }) as const;

export const SCAFFOLD_ARGS = {
  name: text("Project name (default: the target directory's name)", "n"),
  "bot-type": text("web or telephony (default: inferred from the transports)", "b"),
  transport: {
    type: "string",
    short: "t",
    multiple: true,
    description:
      "Transport, repeatable: hosted (Daily), lightweb (SmallWebRTC), websocket (protobuf frames, no account), carrier1 (Twilio), carrier2 (Telnyx), carrier3 (Plivo), carrier4 (Exotel), hosted_pstn (Daily PSTN), carrier1_hosted_sip (Twilio + Daily SIP)",
  },
  mode: text(
    "cascade (speech-to-text, language model, text-to-speech) or realtime (speech to speech); required to scaffold",
    "m",
  ),
  stt: text("Speech-to-text service, cascade mode (<vendor>_stt)"),
  llm: text("Language-model service, cascade mode (<vendor>_llm)"),
  tts: text("Text-to-speech service, cascade mode (<vendor>_tts)"),
  realtime: text("Realtime service, realtime mode (<vendor>_realtime)"),
  video: text("Video avatar service, web bots only (<vendor>_video)"),
  "client-framework": text(
    "Web client: uilib (React), vanilla or none; web bots only (default: none)",
  ),
  "client-server": text(
    "Dev server for the uilib client: devserver_a (Vite) or devserver_b (Next.js) (default: devserver_a)",
  ),
  "daily-pstn-mode": text("dial-in or dial-out; required with transport hosted_pstn"),
  "twilio-daily-sip-mode": text(
    "dial-in or dial-out; required with transport carrier1_hosted_sip",
  ),
  recording: toggle("Record the conversation's audio (default: off)"),
  transcription: toggle("Log the conversation's transcript (default: off)"),
  "video-input": toggle(
    "Receive the user's video (web bots; only a realtime model sees it; default: off)",
  ),
  "video-output": toggle("Send video (web bots only; default: off, on with --video)"),
  "deploy-to-cloud": toggle("Generate the Dockerfile and cloud-deploy.toml (default: on)"),
  "enable-denoise": toggle(
    "Noise cancellation on the cloud; needs cloud deployment (default: off)",
  ),
  "enable-krisp": toggle("Pipecat's name for --enable-denoise (default: off)"),
  observability: toggle("OpenTelemetry tracing of the pipeline (default: off)"),
  eval: toggle(
    "Make the bot eval-ready: eval transport, starter scenarios, dependencies (default: off)",
  ),
} as const;

/**
 * The same options for `update`, where an answer not given keeps the recorded one: no defaults
 * (those are init's) and nothing "required to scaffold" (the record has it).
 */
export const UPDATE_SCAFFOLD_ARGS = Object.fromEntries(
  Object.entries(SCAFFOLD_ARGS).map(([name, arg]) => [
    name,
    {
      ...arg,
      description: arg.description.replace(/ \(default: [^)]*\)$/, "")
        .replace(/; default: [^)]*\)$/, ")").replace(/; required to scaffold$/, ""),
    },
  ]),
) as unknown as typeof SCAFFOLD_ARGS;

/** The values the scaffold options were given as, by gunshi's names. */
export type ScaffoldValues = {
  readonly [K in keyof typeof SCAFFOLD_ARGS]?: (typeof SCAFFOLD_ARGS)[K] extends { type: "boolean" }
    ? boolean
    : (typeof SCAFFOLD_ARGS)[K] extends { multiple: true } ? string[]
    : string;
};

/**
 * What `init` or `update` (`command`, which takes one directory) was given: the answers its
 * options set, those given only, and what is wrong with its command line (words after the
 * directory, options that disagree), to be reported with every other problem of the run.
 */
export function givenAnswers(
  command: string,
  ctx: {
    positionals: readonly string[];
    commandPath: readonly string[];
    values: ScaffoldValues;
    /** gunshi's, for `--x` with `--no-x`; absent on the direct start, which takes neither. */
    tokens?: readonly ArgToken[];
    args?: Args;
  },
): { flags: ScaffoldInput; problems: Problem[] } {
  const problems: Problem[] = contradictions(ctx).map(contradictionOf);
  const extra = ctx.positionals.slice(ctx.commandPath.length + 1);
  if (extra.length > 0) {
    problems.push({
      field: `unexpected argument${extra.length === 1 ? "" : "s"}`,
      message: `${extra.join(" ")} (${command} takes one directory; options start with --)`,
    });
  }
  const flags = Object.fromEntries(
    Object.entries(scaffoldFlags(ctx.values, problems)).filter(([, value]) => value !== undefined),
  );
  return { flags, problems };
}

/**
 * The answers the options give, a key for each (undefined where not given); what is wrong with
 * them together (`--enable-denoise` and `--enable-krisp` that disagree) goes in `problems`.
 */
function scaffoldFlags(values: ScaffoldValues, problems: Problem[]): ScaffoldInput {
  const denoise = values["enable-denoise"] ?? values["enable-krisp"];
  if (values["enable-krisp"] !== undefined && values["enable-krisp"] !== denoise) {
    problems.push({
      key: "enable_denoise",
      field: "--enable-denoise and --enable-krisp",
      message: "they disagree; they are one option (Krisp is the noise cancellation), give one",
    });
  }
  return {
    project_name: values.name,
    bot_type: values["bot-type"],
    transports: values.transport,
    mode: values.mode,
    stt_service: values.stt,
    llm_service: values.llm,
    tts_service: values.tts,
    realtime_service: values.realtime,
    video_service: values.video,
    client_framework: values["client-framework"],
    client_server: values["client-server"],
    daily_pstn_mode: values["daily-pstn-mode"],
    twilio_daily_sip_mode: values["twilio-daily-sip-mode"],
    recording: values.recording,
    transcription: values.transcription,
    video_input: values["video-input"],
    video_output: values["video-output"],
    deploy_to_cloud: values["deploy-to-cloud"],
    enable_denoise: denoise,
    enable_observability: values.observability,
    eval: values.eval,
  };
}
