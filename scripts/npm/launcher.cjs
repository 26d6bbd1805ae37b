// @voicebot/cli's launcher: runs the bundled CLI (bundle/voicebot.js) on the Deno that npm
// installed beside it, from the pinned `deno` package.
//
// `bin/voicebot` starts here with Node only where the install step could not replace it with a
// shell script that starts Deno directly (Windows, or an install that skipped scripts): that path
// costs one Node start more. `install()` is that install step.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const ENTRY = path.join(ROOT, "bundle", "voicebot.js");
const BIN = path.join(ROOT, "bin", "voicebot");

/**
 * Deno's arguments before the CLI's own. --no-config: a deno.json in the user's directory belongs
 * to their project, not to this CLI, and must not change how it runs. The V8 flag is every
 * launcher's (scripts/v8_flags.ts says why).
 */
const DENO_RUN = ["run", "-A", "--no-config", "--v8-flags=--no-allocation-site-pretenuring"];

/** Runs the CLI with Node's arguments, through the `deno` package's own launcher. */
function run() {
  process.argv.splice(2, 0, ...DENO_RUN, ENTRY);
  require("deno/bin.cjs");
}

/**
 * The Deno executable npm installed, or undefined. The `deno` package's install step links it into
 * that package; npm runs packages' install steps in no order this one can rely on, so before that
 * it is found in the platform package the link is made from.
 */
function denoExecutable() {
  const denoPackage = path.dirname(require.resolve("deno/package.json"));
  const linked = path.join(denoPackage, "deno");
  if (fs.existsSync(linked)) return linked;
  const target = process.platform === "linux"
    ? `linux-${process.arch}-glibc`
    : `${process.platform}-${process.arch}`;
  try {
    const platform = require.resolve(`@deno/${target}/package.json`, { paths: [denoPackage] });
    const executable = path.join(path.dirname(platform), "deno");
    return fs.existsSync(executable) ? executable : undefined;
  } catch {
    return undefined;
  }
}

/** `text` as one word for sh. */
const shellWord = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The install step: on Linux and macOS, bin/voicebot becomes a shell script that starts Deno on
 * the bundle, so that a run costs one runtime start, Deno's. Windows keeps the Node launcher
 * (npm's command shim runs it with Node), as does any machine where Deno is not found.
 */
function install() {
  if (process.platform === "win32") return;
  const deno = denoExecutable();
  if (!deno) return;
  const script = [
    "#!/bin/sh",
    "# Written by @voicebot/cli's install step: the bundled CLI on the Deno npm installed with it.",
    `deno=${shellWord(deno)}`,
    `[ -x "$deno" ] || { echo "voicebot: Deno is missing at $deno; install @voicebot/cli again" >&2; exit 1; }`,
    `exec "$deno" ${DENO_RUN.join(" ")} ${shellWord(ENTRY)} "$@"`,
    "",
  ].join("\n");
  const staged = `${BIN}.${process.pid}`;
  fs.writeFileSync(staged, script, { mode: 0o755 });
  fs.renameSync(staged, BIN);
}

module.exports = { run, install };
