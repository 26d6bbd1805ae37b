#!/usr/bin/env -S deno run -A
/**
 * voicebot: create voice and video AI bot projects, and manage their secrets.
 *
 * @module
 */
import { run } from "./src/cli/run.ts";

if (import.meta.main) {
  // `deno task voicebot` runs in the repository's root; its task passes the directory it was typed
  // in, so that `init my-bot` and relative paths mean what the user meant.
  const taskCwd = Deno.env.get("VOICEBOT_TASK_CWD");
  if (taskCwd) Deno.chdir(taskCwd);
  Deno.exitCode = await run(Deno.args);
}
