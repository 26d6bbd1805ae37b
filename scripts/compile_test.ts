import assert from "node:assert/strict";

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
    assert.match(stderr, /deno compile .* failed \(its output is above\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
