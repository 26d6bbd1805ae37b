/**
 * `deno task compile`: the standalone binaries of a release, one per platform, in dist/bin/, with
 * SHA256SUMS beside them (`sha256sum -c` format). Downloads each platform's Deno runtime, so it
 * needs the network. `deno task compile x86_64-unknown-linux-gnu` builds only the targets named.
 */
import { V8_FLAGS } from "./v8_flags.ts";

const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/**
 * What the CLI uses: files (projects, its config and SQLite database), the environment (HOME,
 * XDG_*, NO_COLOR, keys), the network (the cloud API, `cloud serve`) and system information
 * (the PostgreSQL driver reads the user name), and subprocesses: `cloud secrets run` starts the
 * command it is given. No FFI.
 */
export const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-sys",
  "--allow-run",
];

const OUT = "dist/bin";

async function main(requested: string[]) {
  const unknown = requested.filter((target) => !TARGETS.includes(target));
  if (unknown.length) {
    throw new Error(`unknown target ${unknown.join(", ")}; targets: ${TARGETS.join(", ")}`);
  }
  const targets = requested.length ? requested : TARGETS;
  await Deno.remove(OUT, { recursive: true }).catch(() => {});
  await Deno.mkdir(OUT, { recursive: true });
  const sums: string[] = [];
  for (const target of targets) {
    const name = `voicebot-${target}${target.includes("windows") ? ".exe" : ""}`;
    const args = [
      "compile",
      "--frozen",
      ...PERMISSIONS,
      ...V8_FLAGS,
      "--target",
      target,
      "--output",
      `${OUT}/${name}`,
      "main.ts",
    ];
    // deno compile's own output, its errors above all, goes to ours: a release job shows why.
    const { success } = await new Deno.Command(Deno.execPath(), {
      args,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!success) throw new Error(`deno ${args.join(" ")} failed (its output is above)`);
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(`${OUT}/${name}`));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    sums.push(`${hex}  ${name}`);
  }
  await Deno.writeTextFile(`${OUT}/SHA256SUMS`, sums.join("\n") + "\n");
  console.log(`${OUT}/: ${targets.length} binaries and SHA256SUMS`);
}

if (import.meta.main) await main(Deno.args);
