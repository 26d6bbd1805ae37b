import assert from "node:assert/strict";
import { V8_FLAGS } from "./v8_flags.ts";

Deno.test("deno task compile shows deno compile's own error when it fails", async () => {
  // In an empty directory there is no main.ts: deno compile fails at once, with no network.
  const dir = await Deno.makeTempDir();
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-run",
        "--allow-read",
        `--allow-write=${dir}/dist`,
        new URL("compile.ts", import.meta.url).pathname,
        "x86_64-unknown-linux-gnu",
      ],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 1);
    assert.match(stderr, /Cannot find module 'file:\/\/.*\/main\.ts'/, "deno compile's message");
    const commandLine = /deno (compile .*) failed \(its output is above\)/.exec(stderr)?.[1];
    assert.ok(commandLine, stderr);
    // The binaries run with the V8 flags of every launcher.
    for (const flag of V8_FLAGS) assert.ok(commandLine.split(" ").includes(flag), commandLine);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
