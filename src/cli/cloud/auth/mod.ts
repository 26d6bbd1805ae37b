/** The `cloud auth` group: login, switch, logout, status. */
import { define } from "gunshi";
import { noCommandGiven } from "../../help.ts";
import login from "./login.ts";
import logout from "./logout.ts";
import status from "./status.ts";
import switchCommand from "./switch.ts";

export default define({
  name: "auth",
  description:
    "Log in to the secrets API, switch organizations, log out, show the credentials in use.",
  subCommands: { login, switch: switchCommand, logout, status },
  run: noCommandGiven,
});
