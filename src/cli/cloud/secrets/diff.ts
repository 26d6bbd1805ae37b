/**
 * `voicebot cloud secrets diff <name> [--file .env | KEY=value ...]`: by key, what is only local,
 * only remote, the same or different. No value is sent or printed.
 */
import { define } from "gunshi";
import { printJson } from "../../output.ts";
import { connectionArgs } from "../connect.ts";
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
    "  voicebot cloud secrets diff NAME [--file .env | KEY=value ...]",
  args: {
    ...fileArg,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const values = ctx.values;
    const { name, secrets } = await readSecretsInput(
      ctx.positionals.slice(ctx.commandPath.length),
      values.file,
      {
        usage: "`voicebot cloud secrets diff NAME --file .env` or `... diff NAME KEY=value ...`.",
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
    if (values.json) return printJson(result);
    const width = Math.max(3, ...result.keys.map(({ key }) => key.length));
    console.log(`${"KEY".padEnd(width)}  STATE`);
    for (const { key, state } of result.keys) console.log(`${key.padEnd(width)}  ${LABELS[state]}`);
    const counts = Object.keys(LABELS).map((state) =>
      [state, result.keys.filter((k) => k.state === state).length] as const
    ).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${LABELS[state as keyof typeof LABELS]}`);
    console.error(`"${name}" (${result.region}): ${counts.join(", ")}.`);
  },
});
