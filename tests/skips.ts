/**
 * The tests that do not run everywhere, in groups: what each group needs and how to run it. A
 * test's `ignore:` is always `skipped(<group>...)` from here, and `deno task test` first prints one
 * line per skipped group (scripts/skip_note.ts, from the same conditions), so the list printed and
 * the tests skipped cannot part. tests/skips_test.ts holds both.
 *
 * This module runs in the note script with narrow permissions (deno.json's "test" task): it reads
 * the variables below and PATH, reads files (PATH's directories, README.md, deno.json), and runs
 * the python3s on PATH only to ask for python-dotenv. It imports nothing.
 */

export interface SkipGroup {
  /** The tests in the group, for the note: "the PostgreSQL backend's tests (...)". */
  tests: string;
  /** Why the group cannot run here, or undefined when it can. */
  missing(): string | undefined;
  /** What to type or install to run the group; `deno` is the README's pinned `npx --yes deno@X`. */
  howTo(deno: string): string;
  /**
   * With CI=true the group runs even where it cannot, so that what CI lacks fails instead of
   * being skipped (`.ci/run` provides it).
   */
  runsOnCi?: boolean;
}

const env = (name: string) => Deno.env.get(name) || undefined;

/** Each executable file named `program` in PATH's directories, in PATH's order. */
function everyOnPath(program: string): string[] {
  const found: string[] = [];
  for (const dir of (env("PATH") ?? "").split(":")) {
    if (!dir) continue;
    try {
      const info = Deno.statSync(`${dir}/${program}`);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) found.push(`${dir}/${program}`);
    } catch {
      // Not there (or not readable): the next directory.
    }
  }
  return found;
}

/** Whether `program` is an executable file in one of PATH's directories (as `command -v` finds). */
export const onPath = (program: string): boolean => everyOnPath(program).length > 0;

let dotenvPython: string | null | undefined;

/**
 * The first python3 on PATH that imports python-dotenv 1.x, or undefined: not always the first
 * python3, since `npx` puts Node's directory first (on Debian /usr/bin, whose python3 may lack it
 * while a pyenv or venv python3 further on has it). The tests that ask python-dotenv run this one.
 */
export function pythonWithDotenv(): string | undefined {
  dotenvPython ??= everyOnPath("python3").find((python) => {
    try {
      return new Deno.Command(python, {
        args: [
          "-c",
          "import importlib.metadata as m, dotenv; assert m.version('python-dotenv')[:2] == '1.'",
        ],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).outputSync().success;
    } catch {
      return false;
    }
  }) ?? null;
  return dotenvPython ?? undefined;
}

function programs(...names: string[]): string | undefined {
  const absent = names.filter((name) => !onPath(name));
  return absent.length ? `no ${absent.join(" or ")} on PATH` : undefined;
}

const fileExists = (path: string) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
};

/** Where bash-completion keeps the helpers the bash completion tests load. */
export const BASH_COMPLETION = "/usr/share/bash-completion/bash_completion";

/** The newest Debian PostgreSQL's programs (initdb, pg_ctl), if installed. */
export function postgresBin(): string | undefined {
  try {
    const versions = [...Deno.readDirSync("/usr/lib/postgresql")].map((entry) => entry.name)
      .filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
    const bin = `/usr/lib/postgresql/${versions.at(-1)}/bin`;
    return fileExists(`${bin}/initdb`) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** The `postgres` user's ids, from /etc/passwd: PostgreSQL runs as it when the tests run as root. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const line = Deno.readTextFileSync("/etc/passwd").split("\n")
      .find((entry) => entry.startsWith("postgres:"));
    const [, , uid, gid] = line?.split(":") ?? [];
    return line ? { uid: Number(uid), gid: Number(gid) } : undefined;
  } catch {
    return undefined;
  }
}

/** deno.json's version, for the npm tarball's name. */
function packageVersion(): string {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  return config.version;
}

/** The groups, by the name a test's `skipped()` gives. */
export const GROUPS = {
  postgres: {
    tests: "the PostgreSQL backend's tests (each backendTest, tests/server_backup_test.ts)",
    missing: () =>
      env("VOICEBOT_TEST_POSTGRES_URL") ? undefined : "VOICEBOT_TEST_POSTGRES_URL is not set",
    howTo: (deno) =>
      `VOICEBOT_TEST_POSTGRES_URL=postgres://USER:PASSWORD@127.0.0.1:5432/DATABASE ${deno} task test`,
    runsOnCi: true,
  },
  "postgres-server": {
    tests: "the tests that restart a PostgreSQL server of their own (tests/server_outage_test.ts)",
    // What the PostgreSQL backend's tests need, and the server's own programs besides.
    missing: () =>
      (env("VOICEBOT_TEST_POSTGRES_URL") ? undefined : "VOICEBOT_TEST_POSTGRES_URL is not set") ??
        (postgresBin() === undefined
          ? "no PostgreSQL server programs under /usr/lib/postgresql"
          : postgresUser() === undefined
          ? "no postgres user to run PostgreSQL as"
          : undefined),
    howTo: (deno) =>
      "install PostgreSQL (Debian: apt-get install postgresql), then " +
      `VOICEBOT_TEST_POSTGRES_URL=postgres://USER:PASSWORD@127.0.0.1:5432/DATABASE ${deno} task test`,
    runsOnCi: true,
  },
  bundle: {
    tests: "the bundle's tests (tests/bundle_test.ts, tests/hot_path_test.ts)",
    missing: () => env("VOICEBOT_TEST_BUNDLE") ? undefined : "VOICEBOT_TEST_BUNDLE is not set",
    howTo: (deno) =>
      `${deno} task bundle && VOICEBOT_TEST_BUNDLE="$PWD/dist/voicebot.js" ${deno} test -A ` +
      "--frozen tests/bundle_test.ts tests/hot_path_test.ts",
  },
  npm: {
    tests: "the npm package's tests, its journey with no Deno on the PATH included " +
      "(tests/npm_package_test.ts)",
    missing: () =>
      env("VOICEBOT_TEST_NPM_TARBALL") ? undefined : "VOICEBOT_TEST_NPM_TARBALL is not set",
    howTo: (deno) =>
      `${deno} task npm && VOICEBOT_TEST_NPM_TARBALL="$PWD/dist/npm/voicebot-cli-${packageVersion()}.tgz" ` +
      `${deno} test -A --frozen tests/npm_package_test.ts`,
  },
  "bash-completion": {
    tests: "bash's completion tests (tests/completions_test.ts)",
    missing: () =>
      programs("bash") ?? (fileExists(BASH_COMPLETION) ? undefined : `no ${BASH_COMPLETION}`),
    howTo: () => "install bash-completion (Debian: apt-get install bash-completion)",
  },
  zsh: {
    tests: "zsh's completion tests (tests/completions_test.ts)",
    missing: () => programs("zsh"),
    howTo: () => "install zsh (Debian: apt-get install zsh)",
  },
  fish: {
    tests: "fish's completion tests (tests/completions_test.ts)",
    missing: () => programs("fish"),
    howTo: () => "install fish (Debian: apt-get install fish)",
  },
  tmux: {
    tests: "the tests in a terminal (tests/init_interactive_test.ts, bash's in " +
      "tests/completions_test.ts)",
    missing: () => programs("tmux"),
    howTo: () => "install tmux (Debian: apt-get install tmux)",
  },
  "python-dotenv": {
    tests: "python-dotenv asked live (tests/dotenv_reference_test.ts)",
    missing: () =>
      programs("python3") ??
        (pythonWithDotenv() ? undefined : "no python3 on PATH has python-dotenv 1.x"),
    howTo: () => `python3 -m pip install "python-dotenv>=1,<2"`,
    runsOnCi: true,
  },
  setpriv: {
    tests: "the tests of directories that cannot be written (tests/init_test.ts), which run the " +
      "CLI under setpriv as root, whose permissions would let it write anywhere",
    missing: () => programs("setpriv"),
    howTo: () => "install setpriv (Debian: apt-get install util-linux)",
  },
  pcc: {
    tests:
      "the platform's own CLI, pcc, run for real against the server (tests/platform_cli_test.ts)",
    missing: () => env("VOICEBOT_TEST_PCC") ? undefined : "VOICEBOT_TEST_PCC is not set",
    howTo: (deno) =>
      "build pcc (daily-co/pipecat-cloud 0.6.0) from its source into a virtualenv, then " +
      `VOICEBOT_TEST_PCC=/path/to/venv/bin/pcc ${deno} test -A --frozen tests/platform_cli_test.ts`,
  },
  "pipecat-runtime": {
    tests: "generated bots under Pipecat's real runner (tests/pipecat_runtime_test.ts)",
    missing: () =>
      env("VOICEBOT_TEST_PIPECAT_PYTHON") && env("VOICEBOT_TEST_PIPECAT_GIT")
        ? undefined
        : "VOICEBOT_TEST_PIPECAT_PYTHON and VOICEBOT_TEST_PIPECAT_GIT are not set",
    howTo: (deno) =>
      "make a Python environment that runs Pipecat v1.7.0 and a git directory of Pipecat " +
      "(scripts/check_pipecat_runtime.sh says what it needs), then " +
      "VOICEBOT_TEST_PIPECAT_PYTHON=/path/to/venv/bin/python " +
      `VOICEBOT_TEST_PIPECAT_GIT=/path/to/pipecat.git ${deno} test -A --frozen ` +
      "tests/pipecat_runtime_test.ts",
  },
  "release-install": {
    tests: "the README's release-binary install (tests/readme_test.ts)",
    missing: () => programs("curl", "sha256sum"),
    howTo: () => "install curl and sha256sum (Debian: apt-get install curl coreutils)",
  },
} satisfies Record<string, SkipGroup>;

export type GroupName = keyof typeof GROUPS;

export const onCi = () => env("CI") === "true";

const answers = new Map<GroupName, string | undefined>();

/** Why `group` cannot run here (asked once per process), or undefined when it can. */
export function missing(group: GroupName): string | undefined {
  if (!answers.has(group)) answers.set(group, (GROUPS[group] as SkipGroup).missing());
  return answers.get(group);
}

/**
 * A test's `ignore:`: true when any of `groups` cannot run here, except a group that runs on CI
 * (CI=true), where its absence fails the test instead.
 */
export function skipped(...groups: GroupName[]): boolean {
  return groups.some((group) =>
    !((GROUPS[group] as SkipGroup).runsOnCi && onCi()) && missing(group) !== undefined
  );
}

/** The Deno version the README pins (its `npx --yes deno@X task test` line, as .ci/run reads it). */
export function pinnedDeno(): string {
  const readme = Deno.readTextFileSync(new URL("../README.md", import.meta.url));
  const pinned = readme.match(/^npx --yes deno@([0-9.]+) task test$/m)?.[1];
  if (!pinned) throw new Error("README.md has no line 'npx --yes deno@X.Y.Z task test'");
  return pinned;
}

/** The README's `npx --yes deno@X`, which runs Deno where its commands run. */
export const readmeDeno = (): string => `npx --yes deno@${pinnedDeno()}`;

/**
 * What `deno task test` prints first: one line per group that will not run here, with how to run
 * it; on CI, one line per group that will fail.
 */
export function note(): string[] {
  const deno = readmeDeno();
  const lines: string[] = [];
  for (const [name, group] of Object.entries(GROUPS) as [GroupName, SkipGroup][]) {
    const why = missing(name);
    if (why === undefined) continue;
    lines.push(
      skipped(name)
        ? `skipped: ${group.tests}: ${why}; to run them: ${group.howTo(deno)}`
        : `will FAIL: ${group.tests}: ${why}, and CI=true runs them; to run them: ${
          group.howTo(deno)
        }`,
    );
  }
  return lines;
}
