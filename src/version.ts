// The one version source: deno.json's `version` feeds --version, guide stamps and the User-Agent.
import meta from "../deno.json" with { type: "json" };

export const VERSION: string = meta.version;
export const USER_AGENT = `voicebot/${VERSION}`;
