/**
 * `voicebot cloud secrets set <name> [KEY=value ...] [--file .env]`: check everything, show what
 * the write will do, confirm when it overwrites or removes keys, then one atomic PUT.
 */
import { define } from "gunshi";
import { ProvisioningFailedError, UsageError } from "../../../errors.ts";
import { printJson, printNote, printSuccess } from "../../output.ts";
import { isInteractive } from "../../prompt.ts";
import type { SetPlan } from "../../../secrets/set.ts";
import type { SecretSetSummary } from "../../../secrets/responses.ts";
import { connectionArgs, connectionEnv } from "../connect.ts";
import { connectApi } from "./api.ts";
import { confirmArgs, confirmOrCancel } from "./common.ts";
import { checkWaitArgs, fileArg, readSecretsInput, waitArgs, waitWithSpinner } from "./io.ts";

export default define({
  name: "set",
  description: "Create or update a secret set from KEY=value arguments and/or a dotenv file.",
  exitCodes: [["6", "With --wait: the set failed to provision (its error is printed)"]],
  helpExamples: [
    [
      "Create or update set my-bot from the project's .env",
      "voicebot cloud secrets set my-bot --file .env",
    ],
    [
      "See what would change first; nothing is sent",
      "voicebot cloud secrets set my-bot --file .env --dry-run",
    ],
    [
      "The dotenv text from stdin (-f -), here from a file",
      "voicebot cloud secrets set my-bot -f - < .env.production",
    ],
    [
      "A new set in region eu-central; wait until it is ready",
      "voicebot cloud secrets set my-bot --file .env -r eu-central --wait",
    ],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The secret set (created if new)" },
    secrets: {
      type: "positional",
      multiple: true,
      metavar: "KEY=value",
      description: "A key and its value, besides those of --file",
    },
    ...fileArg,
    region: {
      type: "string",
      short: "r",
      description: "Region of a new set (default: the organization's default region)",
    },
    replace: {
      type: "boolean",
      description: "The set ends with exactly these keys; others are removed",
    },
    ...waitArgs,
    "dry-run": { type: "boolean", description: "Check and show what would change; send nothing" },
    "allow-empty": {
      type: "boolean",
      description: "Store empty values (else an empty one is refused: fill it in or leave it out)",
    },
    ...confirmArgs,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const values = ctx.values;
    checkWaitArgs(values, ctx.explicit);
    const { name, secrets } = await readSecretsInput(
      ctx.positionals.slice(ctx.commandPath.length),
      values.file,
      {
        usage: "`voicebot cloud secrets set NAME --file .env` (`-f -` reads stdin).",
        allowEmpty: values["allow-empty"] ?? false,
      },
    );
    const { planSet, applySet } = await import("../../../secrets/set.ts");
    const api = await connectApi(values);
    const plan = await planSet(api, name, secrets, {
      region: values.region,
      replace: values.replace ?? false,
    });

    if (values["dry-run"]) {
      if (values.json) printJson({ dryRun: true, ...plan });
      else console.log(describePlan(plan, "would"));
      return;
    }
    const destructive = plan.updated.length > 0 || plan.removed.length > 0;
    const skip = values.skip || values.yes;
    if (!skip && isInteractive()) {
      console.error(describePlan(plan, "will"));
      await confirmOrCancel(`Write ${secrets.size} key(s) to "${name}" in ${where(plan.region)}?`);
    } else if (!skip && destructive) {
      throw new UsageError(
        `this would ${
          plan.removed.length ? "remove" : "overwrite"
        } keys of "${name}", which needs a confirmation, and there is no terminal to ask on.`,
        {
          problems: describePlan(plan, "would").split("\n").slice(1).map((line) => line.trim()),
          hint: "add --yes (or --skip) to write anyway; nothing was sent.",
        },
      );
    }

    const outcome = await applySet(api, plan, secrets);
    const { report } = outcome;
    const region = outcome.set.region ?? plan.region;
    const parts = Object.entries(report)
      .filter(([, keys]) => keys.length)
      .map(([what, keys]) => `${what} ${keys.join(", ")}`);
    const changed = Object.entries(report).some(([what, keys]) =>
      what !== "unchanged" && keys.length > 0
    );
    const verb = plan.isNew ? "created" : changed ? "updated" : "changed nothing in";
    const written = `${verb} secret set "${name}" in ${where(region)} (${parts.join("; ")})`;
    let set = outcome.set;
    if (values.wait) {
      set = summaryOf(
        await waitWithSpinner(api, name, values["wait-timeout"], !values.json, written),
      );
    }
    if (values.json) {
      printJson({ set, ...report });
    } else if (set.status !== "failed") {
      printSuccess(
        plan.isNew || changed
          ? `${plan.isNew ? "Created" : "Updated"} secret set "${name}" in ${where(region)}: ${
            parts.join("; ")
          }. Status: ${set.status}.`
          : `Nothing to change in secret set "${name}" in ${where(region)}: ${
            "unchanged" in report ? report.unchanged.join(", ") : ""
          } already hold these values. Status: ${set.status}.`,
      );
      if ("written" in report && report.written.length) printNote(NOT_COMPARED);
    }
    if (set.status === "failed") {
      throw new ProvisioningFailedError(`"${name}" failed to provision: ${set.errorMessage}`);
    }
    if (!values.json) {
      printNote(
        set.status === "ready"
          ? `Next: use the set "${name}" in the agent's configuration (its region is ${region}).`
          : `Next: check it is ready with \`voicebot cloud secrets list ${name}\` (or add --wait).`,
      );
    }
  },
});

/** Why a plan or report says `written` rather than updated or unchanged. */
const NOT_COMPARED = "This server has no value fingerprints (an extension of voicebot's server), " +
  "so whether a written key held that value already is not known.";

/** A set's region as a sentence names it. */
const where = (region: string | undefined) => region ?? "the organization's default region";

/** The summary fields of a set: its detail also carries the fingerprint key, never printed. */
export function summaryOf(set: SecretSetSummary): SecretSetSummary {
  const { name, type, region, status, errorMessage } = set;
  return { name, type, region, status, ...(errorMessage === undefined ? {} : { errorMessage }) };
}

/** The plan as lines for a person: names only, never a value. */
export function describePlan(plan: SetPlan, verb: "will" | "would"): string {
  const head = `Secret set "${plan.name}" in ${where(plan.region)}${
    plan.isNew ? " (new)" : ""
  } ${verb}:`;
  const lines = [head, ...keyLines(plan, plan.compared)];
  if (!plan.compared && plan.updated.length) lines.push(`  (${NOT_COMPARED})`);
  return lines.join("\n");
}

/** What a write does to each key, a line per kind of change (`set` and `rollback`): names only. */
export function keyLines(
  keys: { created: string[]; updated: string[]; unchanged: string[]; removed: string[] },
  compared = true,
): string[] {
  const lines: string[] = [];
  if (keys.created.length) lines.push(`  create     ${keys.created.join(", ")}`);
  if (keys.updated.length) {
    lines.push(`  ${compared ? "overwrite" : "write    "}  ${keys.updated.join(", ")}`);
  }
  if (keys.unchanged.length) lines.push(`  unchanged  ${keys.unchanged.join(", ")}`);
  if (keys.removed.length) lines.push(`  remove     ${keys.removed.join(", ")}`);
  return lines;
}
