/** `voicebot cloud secrets list [name]`: the organization's sets, or one set's keys. */
import { define } from "gunshi";
import { UsageError } from "../../../errors.ts";
import { printJson, printNote } from "../../output.ts";
import { connect, connectionArgs, connectionEnv } from "../connect.ts";
import { checkSetName, notFoundHint } from "./common.ts";

export default define({
  name: "list",
  description: "List secret sets (with a name: that set's status and keys, never values).",
  helpExamples: [
    ["The organization's secret sets", "voicebot cloud secrets list"],
    ["One set's status and keys (never its values)", "voicebot cloud secrets list my-bot"],
    ["Image pull secrets too, as JSON", "voicebot cloud secrets list --no-sets --json"],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", required: false, description: "A set to show" },
    sets: {
      type: "boolean",
      default: true,
      negatable: true,
      description: "Secret sets only; --no-sets shows image pull secrets too",
    },
    region: {
      type: "string",
      short: "r",
      description: "Only sets in this region (default: every region)",
    },
    ...connectionArgs,
  },
  run: async (ctx) => {
    const { name, sets: setsOnly, region, json } = ctx.values;
    if (name !== undefined) checkSetName(name);
    const { client, where } = await connect(ctx.values);
    const { colourEnabled, renderSetDetail, renderSetsTable } = await import(
      "../../../secrets/render.ts"
    );

    if (name !== undefined) {
      const set = await client.getSet(name).catch(notFoundHint(name, where));
      if (region !== undefined && set.region !== region) {
        throw new UsageError(`set "${name}" is in region ${set.region}, not ${region}.`);
      }
      // The fingerprint key is for `diff` to compute with, not to print.
      const { fingerprintKey: _, ...shown } = set;
      if (json) return printJson(shown);
      return console.log(renderSetDetail(shown, colourEnabled()));
    }

    const sets = (await client.listSets()).filter((set) =>
      (!setsOnly || set.type === "secret") && (region === undefined || set.region === region)
    );
    if (json) return printJson({ sets });
    if (sets.length === 0) {
      printNote(
        `No ${setsOnly ? "secret sets" : "secret sets or image pull secrets"} in ${where}` +
          `${region ? ` in region ${region}` : ""}.`,
      );
      printNote(
        "Create one from a dotenv file, values off the command line: " +
          "`voicebot cloud secrets set NAME --file .env`.",
      );
      return;
    }
    console.log(renderSetsTable(sets, colourEnabled()));
  },
});
