/** The `cloud` group. Subcommands import their heavy parts (server, database, tables) lazily. */
import { define } from "gunshi";
import serve from "./serve.ts";
import secrets from "./secrets.ts";

export default define({
  name: "cloud",
  description: "Work with the voicebot cloud: serve the secrets API.",
  subCommands: { serve, secrets },
  run: () => {
    // Only reached with no subcommand: show what the group holds.
    console.log(
      [
        "Usage: voicebot cloud <command>",
        "",
        "Commands:",
        "  serve                    Serve the secrets API (SQLite by default, PostgreSQL with --database postgres://...)",
        "  serve create-key -o ORG  Print a new API key for organization ORG (created if new)",
        "",
        "Run `voicebot cloud <command> --help` for a command's options.",
      ].join("\n"),
    );
  },
});
