/** The `cloud` group. Subcommands import their heavy parts (server, database, tables) lazily. */
import { define } from "gunshi";
import serve from "./serve.ts";
import auth from "./auth/mod.ts";
import secrets from "./secrets/mod.ts";
import audit from "./audit.ts";

export default define({
  name: "cloud",
  description: "Work with the voicebot cloud: log in, manage secrets, serve the secrets API.",
  subCommands: { auth, secrets, audit, serve },
  run: () => {
    // Only reached with no subcommand: show what the group holds.
    console.log(
      [
        "Usage: voicebot cloud <command>",
        "",
        "Commands:",
        "  auth login|logout|status Log in with an API key, log out, show the credentials in use",
        "  secrets list|set|diff|unset|delete|image-pull-secret|run|history|rollback  Manage secret sets and image pull secrets",
        "  audit                    Show the organization's audit trail: who changed what, and when",
        "  serve                    Serve the secrets API (SQLite by default, PostgreSQL with --database postgres://...)",
        "  serve create-key -o ORG  Print a new API key for organization ORG (created if new)",
        "",
        "Run `voicebot cloud <command> --help` for a command's options.",
      ].join("\n"),
    );
  },
});
