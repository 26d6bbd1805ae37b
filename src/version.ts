// The one version source: deno.json's `version` feeds --version and the guide stamps.
import meta from "../deno.json" with { type: "json" };

export const VERSION: string = meta.version;
