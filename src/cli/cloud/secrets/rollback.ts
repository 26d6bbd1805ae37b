/**
 * `voicebot cloud secrets rollback <name> <version>`: make a kept version current again, as a new
 * write. Shows by key what it creates, overwrites and removes (told by fingerprint, no value
 * sent), confirms as `set --replace` does, then one request. voicebot's server only.
 */
import { define } from "gunshi";
import { ProvisioningFailedError, UsageError } from "../../../errors.ts";
import type { RollbackPlan } from "../../../secrets/versions.ts";
import { printJson, printNote, printSuccess } from "../../output.ts";
import { isInteractive } from "../../prompt.ts";
import { connect, connectionArgs, connectionEnv } from "../connect.ts";
import { secretsApi } from "./api.ts";
import { checkSetName, confirmArgs, confirmOrCancel, notFoundHint } from "./common.ts";
import { checkWaitArgs, waitArgs, waitWithSpinner } from "./io.ts";
import { keyLines, summaryOf } from "./set.ts";

export default define({
  name: "rollback",
  description: "Make a kept version of a secret set current again (see `history`).",
  exitCodes: [["6", "With --wait: the set failed to provision (its error is printed)"]],
  helpExamples: [
    [
      "What making version 3 current again would change",
      "voicebot cloud secrets rollback my-bot 3 --dry-run",
    ],
    [
      "Make it current, and wait until it is ready",
      "voicebot cloud secrets rollback my-bot 3 --wait",
    ],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The secret set" },
    // Not `version`: gunshi answers --version itself, and a value named so would clash with it.
    target: {
      type: "positional",
      metavar: "VERSION",
      description: "The version to restore (from `history`)",
    },
    "dry-run": { type: "boolean", description: "Show what would change; send nothing" },
    ...waitArgs,
    ...confirmArgs,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const values = ctx.values;
    checkSetName(values.name);
    const version = Number(values.target);
    if (!/^[1-9]\d{0,9}$/.test(values.target) || version > 2 ** 31 - 1) {
      throw new UsageError("argument 2 is not a version number (1, 2, ...).", {
        hint: `see the versions with \`voicebot cloud secrets history ${values.name}\`.`,
      });
    }
    checkWaitArgs(values, ctx.explicit);
    const { name } = values;
    const { client, where } = await connect(values);
    const { planRollback, changes } = await import("../../../secrets/versions.ts");
    const notFound = notFoundHint(name, where);
    const current = await client.getSet(name).catch(notFound);
    const plan = await planRollback(client, name, current, version);
    if (values["dry-run"]) {
      if (values.json) return printJson({ dryRun: true, ...plan });
      return console.log(describe(plan, "would"));
    }
    if (!changes(plan)) {
      if (values.json) return printJson({ ...plan, changed: false });
      return printSuccess(`"${name}" already holds version ${version}'s keys and values.`);
    }
    const skip = values.skip || values.yes;
    if (!skip && !isInteractive()) {
      throw new UsageError(
        `rolling "${name}" back needs a confirmation, and there is no terminal to ask on.`,
        {
          problems: describe(plan, "would").split("\n").slice(1).map((line) => line.trim()),
          hint: "add --yes (or --skip) to roll back anyway; nothing was sent.",
        },
      );
    }
    if (!skip) {
      console.error(describe(plan, "will"));
      await confirmOrCancel(
        `Roll "${name}" (${where}) back to version ${version}?`,
      );
    }
    const outcome = await client.rollback(name, version).catch(notFound);
    const written = `rolled "${name}" back to version ${version} (now version ${outcome.version})`;
    let set = outcome.set ?? {};
    if (values.wait) {
      set = summaryOf(
        await waitWithSpinner(
          secretsApi(client),
          name,
          values["wait-timeout"],
          !values.json,
          written,
        ),
      );
    }
    if (values.json) {
      const { created, updated, removed } = outcome;
      printJson({ set, version: outcome.version, rollbackOf: version, created, updated, removed });
    } else if (set.status !== "failed") {
      printSuccess(
        `Rolled "${name}" back to version ${version}, as version ${outcome.version}. Status: ${set.status}.`,
      );
    }
    if (set.status === "failed") {
      throw new ProvisioningFailedError(`"${name}" failed to provision: ${set.errorMessage}`);
    }
    if (!values.json && set.status !== "ready") {
      printNote(
        `Next: check it is ready with \`voicebot cloud secrets list ${name}\` (or add --wait).`,
      );
    }
  },
});

/** The plan as lines for a person: names only, never a value. */
function describe(plan: RollbackPlan, verb: "will" | "would"): string {
  const head = `Rolling "${plan.name}" back to version ${plan.version} ${verb}:`;
  return [head, ...keyLines(plan)].join("\n");
}
