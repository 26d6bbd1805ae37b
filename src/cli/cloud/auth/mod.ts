/** The `cloud auth` group: login, logout, status. */
import { define } from "gunshi";
import login from "./login.ts";
import logout from "./logout.ts";
import status from "./status.ts";

export default define({
  name: "auth",
  description: "Log in to the secrets API, log out, and show the credentials in use.",
  subCommands: { login, logout, status },
  run: () => {
    console.log(
      [
        "Usage: voicebot cloud auth <command>",
        "",
        "Commands:",
        "  login [-o ORG] [--api-url URL]  Store an API key (hidden prompt, or stdin) and make ORG current",
        "  logout [-o ORG]                 Forget the stored key of ORG",
        "  status [--json]                 Show the organization, API URL and key fingerprint in use",
      ].join("\n"),
    );
  },
});
