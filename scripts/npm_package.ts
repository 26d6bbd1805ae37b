/**
 * `deno task npm`: the npm package `@voicebot/cli`, from the bundle (`deno task bundle`, which the
 * task runs first), into dist/npm/package/, packed by `npm pack` into
 * dist/npm/voicebot-cli-<version>.tgz.
 *
 * The package holds the bundle and its chunks, a `voicebot` command (scripts/npm/), the README,
 * the docs it links to and the LICENSE. Its one dependency is the `deno` npm package at the
 * version of the Deno that built the bundle, which is the Deno it then runs on. Set
 * GITHUB_REPOSITORY (as GitHub Actions does) to name the repository, which npm's provenance needs.
 *
 *   deno run --allow-read --allow-write=dist --allow-env --allow-run=npm scripts/npm_package.ts
 */
import { join } from "pathe";

const ROOT = new URL("..", import.meta.url).pathname;
const OUT = join(ROOT, "dist/npm");
const PACKAGE = join(OUT, "package");

/** Files of the repository shipped as they are: what the README is and links to. */
const DOCUMENTS = ["README.md", "LICENSE", "DEVELOPERS.md", "docs"];

/** package.json of the npm package, from deno.json's name, version and license. */
function packageJson(
  deno: { name: string; version: string; license: string },
  denoVersion: string,
  repository?: string,
): Record<string, unknown> {
  return {
    name: deno.name,
    version: deno.version,
    description: "Create voice and video AI bots (Pipecat) and manage their secrets.",
    license: deno.license,
    ...repository
      ? { repository: { type: "git", url: `git+https://github.com/${repository}.git` } }
      : {},
    bin: { voicebot: "bin/voicebot" },
    files: ["bin/", "lib/", "bundle/", ...DOCUMENTS],
    scripts: { postinstall: "node lib/install.cjs" },
    dependencies: { deno: denoVersion },
    engines: { node: ">=18" },
  };
}

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (!info.isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    await copyTree(join(from, entry.name), join(to, entry.name));
  }
}

/** Builds the package from dist/ and packs it; returns the tarball's path. */
export async function buildNpmPackage(): Promise<string> {
  const deno = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  await Deno.stat(join(ROOT, "dist/voicebot.js")).catch(() => {
    throw new Error("dist/voicebot.js is missing: run `deno task bundle` first");
  });
  await Deno.remove(OUT, { recursive: true }).catch(() => {});
  for (const dir of ["bin", "lib", "bundle"]) {
    await Deno.mkdir(join(PACKAGE, dir), { recursive: true });
  }
  for await (const entry of Deno.readDir(join(ROOT, "dist"))) {
    if (entry.isFile && entry.name.endsWith(".js")) {
      await Deno.copyFile(join(ROOT, "dist", entry.name), join(PACKAGE, "bundle", entry.name));
    }
  }
  await Deno.copyFile(join(ROOT, "scripts/npm/voicebot"), join(PACKAGE, "bin/voicebot"));
  await Deno.chmod(join(PACKAGE, "bin/voicebot"), 0o755);
  for (const file of ["launcher.cjs", "install.cjs"]) {
    await Deno.copyFile(join(ROOT, "scripts/npm", file), join(PACKAGE, "lib", file));
  }
  for (const document of DOCUMENTS) {
    await copyTree(join(ROOT, document), join(PACKAGE, document));
  }
  const manifest = packageJson(deno, Deno.version.deno, Deno.env.get("GITHUB_REPOSITORY"));
  await Deno.writeTextFile(join(PACKAGE, "package.json"), JSON.stringify(manifest, null, 2) + "\n");

  const packed = await new Deno.Command("npm", {
    args: ["pack", "--pack-destination", OUT, "--json"],
    cwd: PACKAGE,
    stdin: "null",
    stderr: "inherit",
  }).output();
  if (!packed.success) throw new Error("npm pack failed");
  const [{ filename }] = JSON.parse(new TextDecoder().decode(packed.stdout));
  return join(OUT, filename);
}

/**
 * `npm install --global` of `tarball` into `prefix`, as a user installs it (from npm's cache when
 * it can); returns the installed `voicebot` command. Bounded: an install that hangs fails.
 */
export async function installNpmPackage(
  tarball: string,
  prefix: string,
  ...flags: string[]
): Promise<string> {
  const installed = await new Deno.Command("npm", {
    args: [
      "install",
      "--global",
      "--prefix",
      prefix,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      ...flags,
      tarball,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(300_000),
  }).output();
  if (!installed.success) {
    throw new Error(
      `npm install of ${tarball} failed:\n${new TextDecoder().decode(installed.stderr)}`,
    );
  }
  return join(prefix, "bin/voicebot");
}

if (import.meta.main) console.log(await buildNpmPackage());
