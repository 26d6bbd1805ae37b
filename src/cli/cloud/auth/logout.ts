/** `voicebot cloud auth logout`: forget an organization's stored key. */
import { define } from "gunshi";
import { NO_COLOR, printJson, printNote, printSuccess } from "../../output.ts";
import { ENV } from "../connect.ts";

export default define({
  name: "logout",
  description: "Forget the stored API key of an organization (default: the current one).",
  helpExamples: [
    ["Forget the current organization's key", "voicebot cloud auth logout"],
    ["Forget organization staging's", "voicebot cloud auth logout -o staging"],
  ],
  environment: [ENV.org, ENV.config, NO_COLOR],
  args: {
    organization: {
      type: "string",
      short: "o",
      metavar: "org",
      description: "Organization to log out of (default: VOICEBOT_ORG, else the current one)",
    },
    json: { type: "boolean", description: "Print one JSON document on stdout" },
  },
  run: async (ctx) => {
    const { logout } = await import("../../../config/auth.ts");
    const result = await logout({ organization: ctx.values.organization });
    if (ctx.values.json) return printJson(result);
    if (result.removed) printSuccess(`Logged out of organization "${result.organization}".`);
    else if (result.organization === undefined) {
      printNote("Not logged in to any organization: nothing to forget.");
    } else printNote(`No key was stored for organization "${result.organization}".`);
    if (result.current === undefined && result.stored.length > 0) {
      const { pickHint } = await import("../../../config/credentials.ts");
      printNote(
        `No organization is current now; keys are still stored for ${
          result.stored.map((name) => `"${name}"`).join(", ")
        }: ${pickHint(result.stored)}`,
      );
    }
  },
});
