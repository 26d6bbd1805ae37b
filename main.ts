#!/usr/bin/env -S deno run -A
/**
 * voicebot: create voice and video AI bot projects, and manage their secrets.
 *
 * @module
 */
import { runDirect } from "./src/cli/direct.ts";

if (import.meta.main) {
  // `deno task voicebot` runs in the repository's root; its task passes the directory it was typed
  // in, so that `init my-bot` and relative paths mean what the user meant.
  const taskCwd = Deno.env.get("VOICEBOT_TASK_CWD");
  if (taskCwd) Deno.chdir(taskCwd);
  // The parser and the command tree load only for a command line that needs them.
  Deno.exitCode = await runDirect(Deno.args) ??
    await import("./src/cli/run.ts").then(({ run }) => run(Deno.args));
}
