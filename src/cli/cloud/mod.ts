/** The `cloud` group. Subcommands import their heavy parts (server, database, tables) lazily. */
import { define } from "gunshi";
import { noCommandGiven } from "../help.ts";
import serve from "./serve.ts";
import auth from "./auth/mod.ts";
import secrets from "./secrets/mod.ts";
import audit from "./audit.ts";

export default define({
  name: "cloud",
  description: "Work with the voicebot cloud: log in, manage secrets, serve the secrets API.",
  subCommands: { auth, secrets, audit, serve },
  run: noCommandGiven,
});
