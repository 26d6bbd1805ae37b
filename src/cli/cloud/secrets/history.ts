/**
 * `voicebot cloud secrets history <name> [--purge]`: the versions a set keeps, newest first, as
 * key names; `--purge` drops every version but the current one. voicebot's server only.
 */
import { define } from "gunshi";
import { printJson, printSuccess } from "../../output.ts";
import { connect, connectionArgs, connectionEnv } from "../connect.ts";
import { checkSetName, confirmArgs, confirmOrCancel, mustConfirm, notFoundHint } from "./common.ts";

export default define({
  name: "history",
  description: "Show the versions of a secret set: who wrote each, when, which keys (no values).",
  helpExamples: [
    [
      "The versions of set my-bot: who wrote each, when, which keys",
      "voicebot cloud secrets history my-bot",
    ],
    [
      "After a value leaked: drop every version but the current one",
      "voicebot cloud secrets history my-bot --purge",
    ],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The secret set" },
    purge: {
      type: "boolean",
      description: "Drop every version but the current one (for a value that leaked)",
    },
    ...confirmArgs,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const { name, json, purge } = ctx.values;
    checkSetName(name);
    const ask = purge &&
      mustConfirm({ ...ctx.values, action: `dropping the older versions of "${name}"` });
    const { client, where } = await connect(ctx.values);
    const notFound = notFoundHint(name, where);
    const set = await client.getSet(name).catch(notFound);
    client.requireExtension("versions", purge ? "history --purge" : "history");
    if (purge) {
      if (ask) {
        await confirmOrCancel(
          `Drop every version of "${name}" but the current one (${where})? Rollback to them is then impossible.`,
        );
      }
      const purged = await client.purgeVersions(name).catch(notFound);
      if (json) return printJson({ purged });
      return printSuccess(
        `Dropped ${purged} older version${
          purged === 1 ? "" : "s"
        } of "${name}"; the current one stays.`,
      );
    }
    const versions = await client.listVersions(name).catch(notFound);
    if (json) return printJson({ versions });
    if (versions.length === 0) {
      return console.error(
        set.type === "imagePullSecret"
          ? `"${name}" is an image pull secret, which keeps no versions.`
          : `"${name}" has no versions.`,
      );
    }
    const { table } = await import("../../../secrets/render.ts");
    const out = table(["version", "written", "by", "changes"]);
    versions.forEach((version, i) => {
      const changes = [
        version.created.length ? `created ${version.created.join(", ")}` : "",
        version.updated.length ? `updated ${version.updated.join(", ")}` : "",
        version.removed.length ? `removed ${version.removed.join(", ")}` : "",
        version.rollbackOf === undefined ? "" : `(rollback to ${version.rollbackOf})`,
      ].filter(Boolean).join("; ") || (version.keyId === "migration" ? "(before versions)" : "");
      const label = i === 0 ? `${version.version} (current)` : String(version.version);
      out.push([label, version.createdAt, version.keyId, changes]);
    });
    console.log(out.toString());
  },
});
