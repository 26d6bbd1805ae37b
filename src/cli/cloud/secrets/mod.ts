/** The `cloud secrets` group. Each command loads the client, zod and tables when it runs. */
import { define } from "gunshi";
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
  run: () => {
    console.log(
      [
        "Usage: voicebot cloud secrets <command>",
        "",
        "Commands:",
        "  list [NAME]              List secret sets, or one set's status and keys (never values)",
        "  set NAME [KEY=value ...] [-f .env]  Create or update a secret set",
        "  diff NAME [-f .env | KEY=value ...] Compare local secrets with a set, by key",
        "  unset NAME KEY           Remove one key from a set",
        "  delete NAME              Delete a whole set (irreversible)",
        "  image-pull-secret NAME HOST [user:password]  Store registry credentials",
        "  run NAME ... -- COMMAND  Run COMMAND with the sets' values in its environment",
        "  history NAME [--purge]   Show a secret set's versions (no values); drop old ones",
        "  rollback NAME VERSION    Make a kept version of a secret set current again",
        "",
        "Common options: -o ORG (organization), --api-url URL, --json.",
        "Run `voicebot cloud secrets <command> --help` for a command's options.",
      ].join("\n"),
    );
  },
});
