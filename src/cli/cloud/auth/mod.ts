/** The `cloud auth` group: login, switch, logout, status. */
import { define } from "gunshi";
import login from "./login.ts";
import logout from "./logout.ts";
import status from "./status.ts";
import switchCommand from "./switch.ts";

export default define({
  name: "auth",
  description:
    "Log in to the secrets API, switch organizations, log out, show the credentials in use.",
  subCommands: { login, switch: switchCommand, logout, status },
  run: () => {
    console.log(
      [
        "Usage: voicebot cloud auth <command>",
        "",
        "Commands:",
        "  login [-o ORG] [--api-url URL]  Store an API key (hidden prompt, or stdin) and make ORG current",
        "  switch ORG                      Make a stored organization current (no key typed again)",
        "  logout [-o ORG]                 Forget the stored key of ORG",
        "  status [--json]                 Show the organization, URL and key in use, and whose key it is",
      ].join("\n"),
    );
  },
});
