/** `voicebot cloud auth status`: the organization, URL and key fingerprint a command would use. */
import { define } from "gunshi";
import { printJson } from "../../output.ts";
import { connectionArgs } from "../connect.ts";

export default define({
  name: "status",
  description: "Show the organization, API URL and key fingerprint in use (never the key).",
  args: connectionArgs,
  run: async (ctx) => {
    const { status } = await import("../../../config/auth.ts");
    const result = await status({
      organization: ctx.values.organization,
      apiUrl: ctx.values["api-url"],
    });
    if (ctx.values.json) return printJson(result);
    const from = (source: string | undefined) => (source ? `  (from ${source})` : "");
    console.log(
      [
        `Organization:  ${result.organization ?? "(none named)"}${
          from(result.sources.organization)
        }`,
        `API URL:       ${result.apiUrl}${from(result.sources.apiUrl)}`,
        `API key:       ${result.keyFingerprint}${from(result.sources.apiKey)}`,
        `Config file:   ${result.configPath}`,
        ...(result.stored.length > 1
          ? [
            "Stored organizations:",
            ...result.stored.map((s) =>
              `  ${s.current ? "*" : " "} ${s.organization}  ${s.apiUrl}  ${s.keyFingerprint}`
            ),
          ]
          : []),
      ].join("\n"),
    );
  },
});
