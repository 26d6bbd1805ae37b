/** `voicebot cloud secrets unset <name> <secret_key>`: remove one key from a set. */
import { define } from "gunshi";
import { NotFoundError } from "../../../errors.ts";
import { showableKey } from "../../../secrets/names.ts";
import type { SecretsClient } from "../../../secrets/client.ts";
import { printJson, printSuccess } from "../../output.ts";
import { summaryOf } from "./set.ts";
import { connect, connectionArgs, connectionEnv } from "../connect.ts";
import {
  checkKeyName,
  checkSetName,
  confirmArgs,
  confirmOrCancel,
  mustConfirm,
  notFoundHint,
  RETRY_FOUND_IT_GONE,
} from "./common.ts";

export default define({
  name: "unset",
  description: "Remove one key (and its value) from a secret set.",
  helpExamples: [
    [
      "Remove one key from set my-bot, asking first",
      "voicebot cloud secrets unset my-bot OLD_API_KEY",
    ],
    ["Without asking, in a script", "voicebot cloud secrets unset my-bot OLD_API_KEY --yes"],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The secret set" },
    secret_key: { type: "positional", metavar: "KEY", description: "The key to remove" },
    ...confirmArgs,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const { name, secret_key: key, json } = ctx.values;
    checkSetName(name);
    checkKeyName(key);
    // A key that reads like a token may be a value typed where the key goes: it is named only
    // once the set is known to hold it.
    const shown = showableKey(key) ? `key ${key}` : undefined;
    const label = shown ?? "a key (not shown: it reads like a value)";
    const ask = mustConfirm({ ...ctx.values, action: `removing ${label} from set "${name}"` });
    const { client, where } = await connect(ctx.values);
    if (ask) {
      const set = await client.getSet(name).catch(notFoundHint(name, where));
      if (!set.keys.includes(key)) throw missingKey(name, shown, where);
      await confirmOrCancel(
        `Remove key ${key} from set "${name}" (region ${set.region}, ${where})? Its value is lost.`,
      );
    }
    const outcome = await client.deleteKey(name, key).catch(async (error) => {
      if (!(error instanceof NotFoundError)) throw error;
      // The API answers 404 NOT_FOUND for a missing set and a missing key alike: which one it
      // was, the set's own route tells (its message is not read).
      if (!(await setExists(client, name))) return notFoundHint(name, where)(error);
      throw missingKey(name, shown, where, error);
    });
    // Already gone (an attempt whose answer was lost removed it), or an answer without the set
    // (the documented one): the set is read for its status.
    const answered = outcome.alreadyGone ? undefined : outcome.response.set;
    const set = answered ??
      summaryOf(await client.getSet(name).catch(notFoundHint(name, where)));
    if (json) return printJson({ removed: key, set, alreadyGone: outcome.alreadyGone });
    printSuccess(
      `Removed ${key} from set "${name}" (status ${set.status ?? "unknown"})` +
        (outcome.alreadyGone ? `; ${RETRY_FOUND_IT_GONE}.` : "."),
    );
  },
});

/** Whether GET /secrets/{name} finds the set (a 404 says no; any other error is thrown). */
async function setExists(client: SecretsClient, name: string): Promise<boolean> {
  try {
    await client.getSet(name);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

function missingKey(
  name: string,
  shown: string | undefined,
  where: string,
  cause?: NotFoundError,
) {
  const what = shown ?? "such key (the one given is not shown: it reads like a value)";
  return new NotFoundError(`set "${name}" in ${where} has no ${what}.`, {
    hint: `see its keys with \`voicebot cloud secrets list ${name}\`.`,
    api: cause?.api,
  });
}
