/**
 * The `--config` JSON file: parsed and type-checked with zod/mini. Loaded only when a file is given,
 * so that runs without one do not pay for zod at start.
 */
import * as z from "zod/mini";
import {
  CONFIG_KEYS,
  type ConfigKey,
  FIELDS,
  type FieldType,
  type Problem,
  type ScaffoldInput,
} from "./config.ts";
import { didYouMean } from "../suggest.ts";
import { quoted } from "../words.ts";

// `null` is accepted as "not set", so a dry-run's output can be fed back with --config.
const SCHEMA_OF: Record<FieldType, z.ZodMiniType> = {
  string: z.optional(z.nullable(z.string())),
  strings: z.optional(z.nullable(z.array(z.string()))),
  boolean: z.optional(z.nullable(z.boolean())),
};
/**
 * What `voicebot.json` adds to the answers: the version of voicebot that made the project, which
 * `voicebot update` reads. Accepted in any config file and not an answer: `init` ignores it.
 */
export const VERSION_KEY = "voicebot_version";

const ConfigFile = z.strictObject({
  ...Object.fromEntries(CONFIG_KEYS.map((key) => [key, SCHEMA_OF[FIELDS[key].type]])),
  [VERSION_KEY]: z.optional(z.string()),
});

/** Pipecat's scaffolder's config keys, read as ours, so that its config files work unchanged. */
const PIPECAT_KEYS: Readonly<Record<string, ConfigKey>> = {
  name: "project_name",
  transport: "transports",
  stt: "stt_service",
  llm: "llm_service",
  tts: "tts_service",
  realtime: "realtime_service",
  video: "video_service",
  observability: "enable_observability",
  enable_krisp: "enable_denoise",
  enable_eval: "eval",
};

/** A key Pipecat's dry run derives from another (the client follows `client_framework`): not read. */
const DERIVED_KEYS = new Set(["generate_client"]);

/**
 * Parses a config file's text, ours or one written for Pipecat's scaffolder. Returns the input it
 * gives, or every problem with it: not JSON, not an object, unknown keys, values of the wrong type.
 * `unreadable` says that nothing could be read from it, so what it gives is not known; `version`
 * is the voicebot version a project's record names.
 */
export function parseConfigFile(
  source: string,
  label: string,
): { input: ScaffoldInput; problems: Problem[]; unreadable?: true; version?: string } {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      input: {},
      problems: [{ field: label, message: `not valid JSON (${reason})` }],
      unreadable: true,
    };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return {
      input: {},
      problems: [{
        field: label,
        message: `must be a JSON object of settings, got ${kindOf(data)}`,
      }],
      unreadable: true,
    };
  }
  const problems: Problem[] = [];
  const { settings, given } = withOurKeys(data as Record<string, unknown>, label, problems);
  const result = z.safeParse(ConfigFile, settings);
  const invalid = new Set<string>();
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          invalid.add(key);
          problems.push({
            key,
            field: `${label}: "${key}"`,
            message: `unknown key; ${
              didYouMean(key, [...CONFIG_KEYS, ...Object.keys(PIPECAT_KEYS)])
            }the keys are: ${CONFIG_KEYS.join(", ")}`,
          });
        }
        continue;
      }
      const [key, index] = issue.path as [string, number | undefined];
      invalid.add(key);
      const value = index === undefined ? settings[key] : (settings[key] as unknown[])[index];
      const written = given.get(key) ?? key;
      const where = index === undefined ? `"${written}"` : `"${written}"[${index}]`;
      problems.push({
        key,
        field: `${label}: ${where}`,
        message: `expected ${expectedKind(key as ConfigKey | typeof VERSION_KEY, index)}, got ${
          kindOf(value)
        }`,
      });
    }
  }
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key === VERSION_KEY) continue;
    if (!invalid.has(key) && value !== null && value !== undefined) input[key] = value;
  }
  const version = invalid.has(VERSION_KEY)
    ? undefined
    : settings[VERSION_KEY] as string | undefined;
  return { input: input as ScaffoldInput, problems, ...(version ? { version } : {}) };
}

/**
 * The settings under our keys: Pipecat's keys renamed, its derived keys dropped. `given` maps each
 * of our keys to the key the file wrote, for messages. A setting given under both names with two
 * different values is a problem.
 */
function withOurKeys(
  data: Record<string, unknown>,
  label: string,
  problems: Problem[],
): { settings: Record<string, unknown>; given: Map<string, string> } {
  const settings: Record<string, unknown> = {};
  const given = new Map<string, string>();
  for (const [written, value] of Object.entries(data)) {
    if (DERIVED_KEYS.has(written)) continue;
    const key = Object.hasOwn(PIPECAT_KEYS, written) ? PIPECAT_KEYS[written] : written;
    const earlier = given.get(key);
    if (earlier !== undefined && JSON.stringify(settings[key]) !== JSON.stringify(value)) {
      problems.push({
        key,
        field: `${label}: "${earlier}" and "${written}"`,
        message: "both set the same option, to different values; keep one",
      });
    }
    settings[key] = value;
    given.set(key, written);
  }
  return { settings, given };
}

const EXPECTED: Record<FieldType, string> = {
  string: "a string",
  strings: "an array of strings",
  boolean: "true or false",
};

function expectedKind(key: ConfigKey | typeof VERSION_KEY, index: number | undefined): string {
  return index === undefined && key !== VERSION_KEY ? EXPECTED[FIELDS[key].type] : EXPECTED.string;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${quoted(value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}
