/** `voicebot cloud secrets delete <name>`: delete a whole set; irreversible. */
import { define } from "gunshi";
import { printJson, printSuccess } from "../../output.ts";
import { connect, connectionArgs, connectionEnv } from "../connect.ts";
import {
  checkSetName,
  confirmArgs,
  confirmOrCancel,
  mustConfirm,
  notFoundHint,
  RETRY_FOUND_IT_GONE,
} from "./common.ts";

export default define({
  name: "delete",
  description:
    "Delete a whole secret set or image pull secret, with every value in it (irreversible).",
  helpExamples: [
    [
      "Delete set my-bot and every value in it, asking first",
      "voicebot cloud secrets delete my-bot",
    ],
    [
      "Without asking, in organization staging",
      "voicebot cloud secrets delete my-bot --yes -o staging",
    ],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The set to delete" },
    ...confirmArgs,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const { name, json } = ctx.values;
    checkSetName(name);
    const ask = mustConfirm({ ...ctx.values, action: `deleting set "${name}"` });
    const { client, credentials, where } = await connect(ctx.values);
    const notFound = notFoundHint(name, where);
    if (ask) {
      const set = await client.getSet(name).catch(notFound);
      const what = set.type === "imagePullSecret"
        ? `image pull secret for ${set.host ?? "its registry"}`
        : `${set.keys.length} key${set.keys.length === 1 ? "" : "s"}`;
      await confirmOrCancel(
        `Delete set "${name}" (${what}, region ${set.region}, ${where})? This cannot be undone.`,
      );
    }
    const { alreadyGone } = await client.deleteSet(name).catch(notFound);
    if (json) {
      return printJson({ deleted: name, organization: credentials.organization, alreadyGone });
    }
    printSuccess(`Deleted set "${name}"${alreadyGone ? `; ${RETRY_FOUND_IT_GONE}` : ""}.`);
  },
});
