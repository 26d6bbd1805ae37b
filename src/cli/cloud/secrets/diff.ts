/**
 * `voicebot cloud secrets diff <name> [--file .env | KEY=value ...]`: by key, what is only local,
 * only remote, the same or different. No value is sent or printed.
 */
import { define } from "gunshi";
import { DifferencesFound } from "../../../errors.ts";
import type { SetDiff } from "../../../secrets/diff.ts";
import { printJson } from "../../output.ts";
import { connectionArgs, connectionEnv } from "../connect.ts";
import { connectApi } from "./api.ts";
import { fileArg, readSecretsInput } from "./io.ts";

const LABELS = {
  "only-local": "only local",
  "only-remote": "only remote",
  same: "same",
  different: "different",
} as const;

export default define({
  name: "diff",
  description: "Compare local secrets with a stored set by key, without sending any value.\n" +
    "Exit status: 0, or with --exit-code 1 when anything differs; 2, 3, 4 as other commands.",
  exitCodes: [["0", "With --exit-code: the values are the same"], [
    "1",
    "With --exit-code: they differ",
  ]],
  helpExamples: [
    [
      "Which keys of .env differ from set my-bot (no value is sent)",
      "voicebot cloud secrets diff my-bot --file .env",
    ],
    [
      "In a script: exit 1 when anything differs",
      "voicebot cloud secrets diff my-bot --file .env --exit-code",
    ],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The stored set" },
    secrets: {
      type: "positional",
      multiple: true,
      metavar: "KEY=value",
      description: "Local secrets, instead of --file",
    },
    ...fileArg,
    "exit-code": {
      type: "boolean",
      description:
        "Exit 1 when any key is only local, only remote or different (as git diff --exit-code)",
    },
    ...connectionArgs,
  },
  run: async (ctx) => {
    const values = ctx.values;
    const { name, secrets } = await readSecretsInput(
      ctx.positionals.slice(ctx.commandPath.length),
      values.file,
      {
        usage: "`voicebot cloud secrets diff NAME --file .env` (`-f -` reads stdin).",
        allowEmpty: true,
      },
    );
    const { diffSet } = await import("../../../secrets/diff.ts");
    const api = await connectApi(values);
    const result = await diffSet(
      (n) => api.getSet(n),
      name,
      new Map([...secrets].map(([key, { value }]) => [key, value])),
    );
    const differs = result.keys.some(({ state }) => state !== "same");
    if (values.json) {
      printJson(result);
    } else {
      printTable(name, result);
    }
    if (differs && values["exit-code"]) throw new DifferencesFound(`"${name}" differs.`);
  },
});

function printTable(name: string, result: SetDiff) {
  const width = Math.max(3, ...result.keys.map(({ key }) => key.length));
  console.log(`${"KEY".padEnd(width)}  STATE`);
  for (const { key, state } of result.keys) console.log(`${key.padEnd(width)}  ${LABELS[state]}`);
  const counts = Object.keys(LABELS).map((state) =>
    [state, result.keys.filter((k) => k.state === state).length] as const
  ).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${LABELS[state as keyof typeof LABELS]}`);
  console.error(`"${name}" (${result.region}): ${counts.join(", ")}.`);
}
