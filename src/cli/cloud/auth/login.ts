/** `voicebot cloud auth login`: read the key (hidden prompt, or stdin), check it, store it. */
import { define } from "gunshi";
import { UsageError } from "../../../errors.ts";
import { NO_COLOR, printJson, printSuccess } from "../../output.ts";
import { confirm, isInteractive, password } from "../../prompt.ts";
import { connectionArgs, ENV, timeoutMs, warnIfInsecure } from "../connect.ts";

/** Enough for any key; more on stdin is a mistake (a file piped by accident). */
const MAX_STDIN_BYTES = 64 * 1024;

export default define({
  name: "login",
  description: "Store an API key for an organization and make it current.\n" +
    "  The key is read at a hidden prompt on a terminal, else from stdin; it is checked with the API first.\n" +
    "  It is stored under the organization the API says it is for (-o must agree), else under -o.",
  helpExamples: [
    ["Log in: the key is asked at a hidden prompt", "voicebot cloud auth login"],
    [
      "Organization acme on your own server, the key on stdin",
      "voicebot cloud auth login -o acme --api-url https://secrets.example.com/v1 < key.txt",
    ],
  ],
  // Not VOICEBOT_API_KEY: the key to store is the one typed or piped.
  environment: [ENV.org, ENV.apiUrl, ENV.timeout, ENV.config, NO_COLOR],
  args: {
    ...connectionArgs,
    yes: {
      type: "boolean",
      short: "y",
      description: "Without -o: replace the organization's stored key without asking",
    },
  },
  run: async (ctx) => {
    const apiKey = await readKey();
    const { login } = await import("../../../config/auth.ts");
    const result = await login({
      organization: ctx.values.organization,
      apiUrl: ctx.values["api-url"],
      apiKey,
      timeoutMs: timeoutMs(),
      insecure: ctx.values.insecure,
      replace: ctx.values.yes ?? false,
      // On a terminal, a key that would replace another one stored is confirmed (default no).
      confirmReplace: isInteractive() ? (question) => confirm(question) : undefined,
    });
    await warnIfInsecure(ctx.values, result.apiUrl);
    if (ctx.values.json) return printJson(result);
    printSuccess(
      `Logged in to organization "${result.organization}"` +
        `${
          result.organizationFrom === "api" ? " (whose key it is, by the API)" : ""
        } at ${result.apiUrl} ` +
        `(key ${result.keyFingerprint}${
          result.replacedKeyFingerprint ? `, replacing ${result.replacedKeyFingerprint}` : ""
        }; it sees ${result.sets} set${result.sets === 1 ? "" : "s"}).`,
    );
  },
});

async function readKey(): Promise<string> {
  if (isInteractive()) return await password("API key (input hidden):");
  if (Deno.stdin.isTerminal()) {
    throw new UsageError("cannot read the API key: stdout is not a terminal, so nothing prompts.", {
      hint: "pipe the key on stdin: `voicebot cloud auth login < keyfile`.",
    });
  }
  const bytes = await new Response(Deno.stdin.readable).arrayBuffer();
  if (bytes.byteLength > MAX_STDIN_BYTES) {
    throw new UsageError("stdin holds more than an API key (over 64 KiB).");
  }
  const key = new TextDecoder().decode(bytes).trim();
  if (!key) {
    throw new UsageError("no API key on stdin.", {
      hint: "run it on a terminal to type the key at a hidden prompt, or pipe it: " +
        "`voicebot cloud auth login < keyfile`.",
    });
  }
  return key;
}
