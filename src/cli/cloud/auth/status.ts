/** `voicebot cloud auth status`: the organization, URL and key in use, and what the API says. */
import { define } from "gunshi";
import { NO_COLOR, printJson, printNote, printWarning } from "../../output.ts";
import { connectionArgs, ENV } from "../connect.ts";

export default define({
  name: "status",
  description:
    "Show the organization, API URL and key in use (never the key), whose it is, and more.",
  helpExamples: [
    ["The organization, API URL and key in use, and whose key it is", "voicebot cloud auth status"],
    ["For organization staging, as JSON", "voicebot cloud auth status -o staging --json"],
  ],
  // No VOICEBOT_API_TIMEOUT: its one request is not bounded by it.
  environment: [ENV.apiKey, ENV.org, ENV.apiUrl, ENV.config, NO_COLOR],
  args: connectionArgs,
  run: async (ctx) => {
    const { status } = await import("../../../config/auth.ts");
    const result = await status({
      organization: ctx.values.organization,
      apiUrl: ctx.values["api-url"],
      insecure: ctx.values.insecure,
    });
    const warn = () =>
      result.warning && printWarning(`${result.warning.message} ${result.warning.hint}`);
    if (ctx.values.json) {
      warn();
      return printJson(result);
    }
    const from = (source: string | undefined) => (source ? `  (from ${source})` : "");
    const api = result.api;
    const lines = result.problem ? [] : [
      `Organization:  ${
        result.organization ??
          (result.sources?.apiKey === "env"
            ? "(not named: that of the key in VOICEBOT_API_KEY)"
            : "(none named)")
      }${from(result.sources?.organization)}`,
      `API URL:       ${result.apiUrl}${from(result.sources?.apiUrl)}`,
      `API key:       ${result.keyFingerprint}${from(result.sources?.apiKey)}`,
      `The API says:  ${
        !api || "unsupported" in api
          ? "(this API cannot say whose key it is)"
          : "unreachable" in api
          ? `(not reached: ${api.unreachable})`
          : `organization "${api.organization}", key ${api.keyId}`
      }`,
    ];
    lines.push(`Config file:   ${result.configPath}`);
    if (result.stored.length > 0) {
      lines.push(
        "Stored organizations (* current):",
        ...result.stored.map((s) =>
          `  ${s.current ? "*" : " "} ${s.organization}  ${s.apiUrl}  ${s.keyFingerprint}`
        ),
      );
    }
    console.log(lines.join("\n"));
    warn();
    if (result.problem) {
      printNote(`${result.problem.message}${result.problem.hint ? ` ${result.problem.hint}` : ""}`);
    }
  },
});
