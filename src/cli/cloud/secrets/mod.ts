/** The `cloud secrets` group. Each command loads the client, zod and tables when it runs. */
import { define } from "gunshi";
import list from "./list.ts";
import unset from "./unset.ts";
import remove from "./delete.ts";

export default define({
  name: "secrets",
  description: "Manage the secret sets and image pull secrets of an organization.",
  subCommands: { list, unset, delete: remove },
  run: () => {
    console.log(
      [
        "Usage: voicebot cloud secrets <command>",
        "",
        "Commands:",
        "  list [NAME]              List secret sets, or one set's status and keys (never values)",
        "  unset NAME KEY           Remove one key from a set",
        "  delete NAME              Delete a whole set (irreversible)",
        "",
        "Common options: -o ORG (organization), --api-url URL, --json.",
        "Run `voicebot cloud secrets <command> --help` for a command's options.",
      ].join("\n"),
    );
  },
});
