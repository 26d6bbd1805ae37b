/** Spawning the CLI as a user would: no terminal, no colour, a temporary HOME. */
import { join } from "pathe";

export const MAIN = new URL("../main.ts", import.meta.url).pathname;

/**
 * What the tests run: `deno run -A main.ts` by default, or the bundle (the stand-in for a compiled
 * binary) when VOICEBOT_TEST_BUNDLE names it, e.g. `dist/voicebot.js`.
 */
export const BUNDLE = Deno.env.get("VOICEBOT_TEST_BUNDLE");
export const ENTRY = BUNDLE ?? MAIN;

/**
 * The Deno cache of this test run. A spawned CLI gets it even though its HOME is a temporary one:
 * otherwise every run would fetch each npm package again into that HOME's cache.
 */
export const DENO_DIR: string = Deno.env.get("DENO_DIR") ?? JSON.parse(
  new TextDecoder().decode(
    (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" }).output())
      .stdout,
  ),
).denoDir;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** What `deno run` runs instead of ENTRY (a path or a URL). */
  entry?: string;
  /** More `deno run` flags, e.g. an import map. */
  denoFlags?: string[];
  /** A command that runs Deno, e.g. `setpriv` and its options: the CLI runs under it. */
  under?: readonly string[];
  /** Kill the CLI (SIGKILL, as `kill -9`) this many milliseconds after it starts, if still running. */
  killAfterMs?: number;
}

export async function voicebot(
  args: readonly string[],
  options: RunOptions = {},
): Promise<CliResult> {
  await using home = await tempDir();
  const [program, ...before] = [...options.under ?? [], Deno.execPath()];
  const child = new Deno.Command(program, {
    args: [
      ...before,
      ...["run", "-A", "--quiet", ...options.denoFlags ?? [], options.entry ?? ENTRY, ...args],
    ],
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      HOME: home.path,
      XDG_CONFIG_HOME: join(home.path, ".config"),
      DENO_DIR,
      ...options.env,
    },
    // A hung CLI fails its test instead of hanging the suite.
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  const kill = options.killAfterMs === undefined ? undefined : setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // It has ended already.
    }
  }, options.killAfterMs);
  const output = await child.output();
  clearTimeout(kill);
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** A temporary directory removed when the `await using` scope ends. */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "voicebot-test-" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}),
  };
}

/** A loopback port nothing listens on now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Every path under `root`, keyed by relative path (directories end in `/`), with what it is: a
 * file's mode and bytes, a link's target. To compare a tree before and after, modes and links too.
 */
export async function snapshot(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      const name = prefix + entry.name;
      if (entry.isSymlink) files.set(name, `-> ${await Deno.readLink(path)}`);
      else if (entry.isDirectory) {
        files.set(`${name}/`, "");
        await walk(path, `${name}/`);
      } else {
        const bytes = await Deno.readFile(path);
        const mode = ((await Deno.stat(path)).mode ?? 0) & 0o7777;
        const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
        files.set(name, `${mode.toString(8)} ${hex}`);
      }
    }
  };
  await walk(root, "");
  return files;
}

export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The relative paths of the files (not directories) under `root`, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  return [...(await snapshot(root)).keys()].filter((p) => !p.endsWith("/")).sort();
}

/** A copy of this repository's files (as git lists them), as a user's clone would have them. */
export async function cloneOfThisRepository(target: string) {
  const root = new URL("..", import.meta.url).pathname;
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: root,
    stdout: "piped",
  }).output();
  for (const path of new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean)) {
    if (!(await exists(join(root, path)))) continue; // deleted in the work tree
    await Deno.mkdir(join(target, path, ".."), { recursive: true });
    await Deno.copyFile(join(root, path), join(target, path));
  }
  await new Deno.Command("git", { args: ["init", "-q"], cwd: target }).output();
}

/**
 * Runs the CLI as a user whom a directory's mode keeps out. Root writes anywhere (its
 * capabilities override the mode), so as root it runs under setpriv without those capabilities.
 */
export function unprivileged(cwd: string): RunOptions {
  const under = Deno.uid() === 0
    ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
    : [];
  return { cwd, under };
}
