#!/usr/bin/env -S deno run -A
/**
 * voicebot: create voice and video AI bot projects, and manage their secrets.
 *
 * @module
 */
import { run } from "./src/cli/run.ts";

if (import.meta.main) {
  Deno.exitCode = await run(Deno.args);
}
