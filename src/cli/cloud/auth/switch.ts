/** `voicebot cloud auth switch ORG`: make a stored organization current, its key not typed again. */
import { define } from "gunshi";
import { UsageError } from "../../../errors.ts";
import { NO_COLOR, printJson, printSuccess } from "../../output.ts";
import { ENV } from "../connect.ts";

export default define({
  name: "switch",
  description: "Make a stored organization current (its key is not asked for again).",
  helpExamples: [
    ["Act in organization staging from now on", "voicebot cloud auth switch staging"],
    ["The same, and print what it did as JSON", "voicebot cloud auth switch staging --json"],
  ],
  environment: [ENV.config, NO_COLOR],
  args: {
    organization: {
      type: "positional",
      metavar: "ORG",
      description: "The stored organization to use",
    },
    json: { type: "boolean", description: "Print one JSON document on stdout" },
  },
  run: async (ctx) => {
    const organization = ctx.values.organization;
    if (!organization) {
      throw new UsageError("missing the organization.", {
        hint:
          "`voicebot cloud auth switch ORG`; `voicebot cloud auth status` lists the stored ones.",
      });
    }
    const { switchOrganization } = await import("../../../config/auth.ts");
    const result = await switchOrganization({ organization });
    if (ctx.values.json) return printJson(result);
    printSuccess(
      `Organization "${result.organization}" is current (${result.apiUrl}, key ${result.keyFingerprint})` +
        (result.previous && result.previous !== result.organization
          ? `; it was "${result.previous}".`
          : "."),
    );
  },
});
