/** The `cloud secrets` group. Each command loads the client, zod and tables when it runs. */
import { define } from "gunshi";
import { noCommandGiven } from "../../help.ts";
import list from "./list.ts";
import unset from "./unset.ts";
import remove from "./delete.ts";
import set from "./set.ts";
import diff from "./diff.ts";
import imagePullSecret from "./image_pull_secret.ts";
import runWith from "./run.ts";
import history from "./history.ts";
import rollback from "./rollback.ts";

export default define({
  name: "secrets",
  description: "Manage the secret sets and image pull secrets of an organization.",
  subCommands: {
    list,
    set,
    diff,
    unset,
    delete: remove,
    "image-pull-secret": imagePullSecret,
    run: runWith,
    history,
    rollback,
  },
  run: noCommandGiven,
});
