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

// `null` is accepted as "not set", so a dry-run's output can be fed back with --config.
const SCHEMA_OF: Record<FieldType, z.ZodMiniType> = {
  string: z.optional(z.nullable(z.string())),
  strings: z.optional(z.nullable(z.array(z.string()))),
  boolean: z.optional(z.nullable(z.boolean())),
};
const ConfigFile = z.strictObject(
  Object.fromEntries(CONFIG_KEYS.map((key) => [key, SCHEMA_OF[FIELDS[key].type]])),
);

/**
 * Parses a config file's text. Returns the input it gives, or every problem with it: not JSON,
 * not an object, unknown keys, values of the wrong type.
 */
export function parseConfigFile(
  source: string,
  label: string,
): { input: ScaffoldInput; problems: Problem[] } {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { input: {}, problems: [{ field: label, message: `not valid JSON (${reason})` }] };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return {
      input: {},
      problems: [{
        field: label,
        message: `must be a JSON object of settings, got ${kindOf(data)}`,
      }],
    };
  }
  const result = z.safeParse(ConfigFile, data);
  const problems: Problem[] = [];
  const invalid = new Set<string>();
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          invalid.add(key);
          problems.push({
            key,
            field: `${label}: "${key}"`,
            message: `unknown key; the keys are: ${CONFIG_KEYS.join(", ")}`,
          });
        }
        continue;
      }
      const [key, index] = issue.path as [string, number | undefined];
      invalid.add(key);
      const value = index === undefined
        ? (data as Record<string, unknown>)[key]
        : (data as Record<string, unknown[]>)[key][index];
      const where = index === undefined ? `"${key}"` : `"${key}"[${index}]`;
      problems.push({
        key,
        field: `${label}: ${where}`,
        message: `expected ${expectedKind(key as ConfigKey, index)}, got ${kindOf(value)}`,
      });
    }
  }
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!invalid.has(key) && value !== null && value !== undefined) input[key] = value;
  }
  return { input: input as ScaffoldInput, problems };
}

const EXPECTED: Record<FieldType, string> = {
  string: "a string",
  strings: "an array of strings",
  boolean: "true or false",
};

function expectedKind(key: ConfigKey, index: number | undefined): string {
  return index === undefined ? EXPECTED[FIELDS[key].type] : EXPECTED.string;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}
