/**
 * A model of which fields one run of `voicebot init` must name, for property tests: start from a
 * valid configuration, drop some keys and give others an invalid value, and every dropped key that
 * is required and every invalid one must be named in the same run, nothing else. One exception:
 * with no valid mode and none of its services given, which services are missing depends on the
 * mode, so only the mode is named (its message says what each mode takes).
 */
import fc from "fast-check";
import { type ConfigKey, FIELDS, type ScaffoldInput } from "../src/init/config.ts";

/** Valid configurations to break: cascade and realtime, web and telephony. */
export const BASES: readonly ScaffoldInput[] = [
  {
    transports: ["lightweb"],
    mode: "cascade",
    stt_service: "deepgram_stt",
    llm_service: "openai_llm",
    tts_service: "cartesia_tts",
    client_framework: "vanilla",
    project_name: "my-bot",
  },
  {
    transports: ["hosted"],
    mode: "realtime",
    realtime_service: "openai_realtime",
    video_service: "tavus_video",
  },
  {
    transports: ["carrier1"],
    mode: "cascade",
    stt_service: "deepgram_stt",
    llm_service: "anthropic_llm",
    tts_service: "elevenlabs_tts",
    bot_type: "telephony",
  },
];

const SERVICES_OF = {
  cascade: ["stt_service", "llm_service", "tts_service"],
  realtime: ["realtime_service"],
} as const satisfies Record<string, readonly ConfigKey[]>;

/** An invalid value for each key a base gives (a string key: a typo no list holds). */
const INVALID: Partial<Record<ConfigKey, string | string[]>> = {
  transports: ["pigeon"],
  mode: "hybrid",
  stt_service: "nope_stt",
  llm_service: "nope_llm",
  tts_service: "nope_tts",
  realtime_service: "nope_realtime",
  video_service: "nope_video",
  client_framework: "svelte",
  project_name: "Not A Name",
  bot_type: "kiosk",
};

export type Fate = "keep" | "drop" | "invalid";

export interface Case {
  readonly base: ScaffoldInput;
  readonly fates: Readonly<Record<string, Fate>>;
}

/** A base, and for each of its keys whether it is kept, dropped or made invalid. */
export const cases: fc.Arbitrary<Case> = fc.constantFrom(...BASES).chain((base) =>
  fc.record(
    Object.fromEntries(
      Object.keys(base).map((key) => [key, fc.constantFrom<Fate>("keep", "drop", "invalid")]),
    ),
  ).map((fates) => ({ base, fates }))
);

/** What the case gives: the base's keys, less the dropped ones, the invalid ones replaced. */
export function inputOf({ base, fates }: Case): ScaffoldInput {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) {
    if (fates[key] === "keep") input[key] = value;
    if (fates[key] === "invalid") input[key] = INVALID[key as ConfigKey];
  }
  return input as ScaffoldInput;
}

/** The config keys the run must name, sorted. */
export function expectedKeys({ base, fates }: Case): string[] {
  const mode = base.mode as keyof typeof SERVICES_OF;
  const services: readonly ConfigKey[] = SERVICES_OF[mode];
  const given = (key: ConfigKey) => fates[key] !== "drop";
  const modeKnown = fates.mode === "keep";
  // Without a valid mode, the services given imply the mode; with none given, nothing is implied.
  const implied = modeKnown || services.some(given);
  const required: ConfigKey[] = ["transports", "mode", ...(implied ? services : [])];
  const named = new Set<string>();
  for (const key of Object.keys(base) as ConfigKey[]) {
    if (fates[key] === "invalid") named.add(key);
    if (fates[key] === "drop" && required.includes(key)) named.add(key);
  }
  return [...named].sort();
}

/** The flags that give `input`, as a user types them. */
export function flagsOf(input: ScaffoldInput): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const { flag } = FIELDS[key as ConfigKey];
    for (const one of Array.isArray(value) ? value : [value]) args.push(flag, String(one));
  }
  return args;
}

/** The flag of each config key, for reading problem lines (`--stt (stt_service): ...`). */
export function keyOfLine(line: string): string | undefined {
  return line.match(/^\s*- --[a-z-]+ \(([a-z_]+)\): /)?.[1];
}
