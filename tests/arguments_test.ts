/**
 * An argument that starts with "-" and is not an option of its command may be a key pasted in the
 * wrong place: the parser's error names it only when it could not be a value (`--dry-rn`, `-x`),
 * and never drops part of it without a word (gunshi reads `-O-…` as `-O` and ignores the rest).
 */
import assert from "node:assert/strict";
import { COMMANDS, run } from "../src/cli/run.ts";
import { commandsUnder } from "../src/cli/completions.ts";
import { tempDir, voicebot } from "./helpers.ts";

/**
 * Every command path a user can type, the root's `[]` first, and `cloud serve revoke-key`, whose
 * argument is a key id: where a key is most likely to be pasted.
 */
const PATHS: string[][] = [
  [],
  ...commandsUnder(COMMANDS).map(([path]) => path),
  ["cloud", "serve", "revoke-key"],
];

/** A random secret as keys carry them: 32 bytes, base64url (so it may start with "-"). */
const randomSecret = () =>
  crypto.getRandomValues(new Uint8Array(32)).toBase64({ alphabet: "base64url", omitPadding: true });

/** The ways a secret is pasted where an option goes, each reported in the issue. */
const pasted = (secret: string) => [
  `-${secret}`,
  `--${secret}`,
  `-O-${secret}`,
  `-k-${secret}`,
  `-n${secret}`,
];

/** The first run of 6 characters of `secret` that `output` holds, if any. */
function leakedPart(output: string, secret: string): string | undefined {
  for (let i = 0; i + 6 <= secret.length; i++) {
    if (output.includes(secret.slice(i, i + 6))) return secret.slice(i, i + 6);
  }
}

/** `run(argv)` in this process, with what it printed (nothing of it runs: the parser refuses). */
async function runCaptured(argv: string[]): Promise<{ code: number; output: string }> {
  const printed: string[] = [];
  const { log, error } = console;
  console.log = console.error = (...data: unknown[]) => printed.push(data.join(" "));
  try {
    return { code: await run(argv), output: printed.join("\n") };
  } finally {
    Object.assign(console, { log, error });
  }
}

Deno.test("a pasted secret is refused in every command with no part of it shown, for many draws", async () => {
  for (let draw = 0; draw < 200; draw++) {
    const secret = draw % 2 ? randomSecret() : `-${randomSecret().slice(1)}`;
    const path = PATHS[draw % PATHS.length];
    for (const argument of pasted(secret)) {
      const { code, output } = await runCaptured([...path, argument]);
      assert.equal(code, 2, `${path.join(" ")} ${argument}: ${output}`);
      assert.match(output, /an argument that starts with "-" is not an option of this command/);
      const part = leakedPart(output, secret);
      assert.equal(part, undefined, `voicebot ${path.join(" ")} showed "${part}" of the argument`);
    }
  }
});

Deno.test("the pasted forms of the issue: exit 2, nothing shown, nothing written", async () => {
  await using dir = await tempDir();
  const secret = `-${randomSecret().slice(1)}`;
  const runs = [
    ["cloud", "serve", "revoke-key", `--${secret}`, "--database", `${dir.path}/s.db`],
    ["cloud", "serve", "revoke-key", `-O-${secret}`, "--database", `${dir.path}/s.db`],
    ["cloud", "secrets", "set", "my-set", `-k-${secret}`],
    ["cloud", "secrets", "set", "my-set", "--file", `--${secret}`],
    ["init", "my-bot", "--name", secret],
  ];
  for (const args of runs) {
    const result = await voicebot(args, { cwd: dir.path });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /not an option of this command \(not shown/);
    const part = leakedPart(result.stderr, secret);
    assert.equal(part, undefined, `voicebot ${args[0]} … showed "${part}" of the argument`);
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)], [], "nothing was written");
});

Deno.test("several pasted arguments are one problem, with the run's other problems", async () => {
  const { code, output } = await runCaptured([
    "cloud",
    "secrets",
    "set",
    `-${randomSecret()}`,
    `--${randomSecret()}`,
    "--regoin",
  ]);
  assert.equal(code, 2);
  assert.match(output, /2 arguments that start with "-" are not options of this command/);
  assert.match(output, /unknown option --regoin; did you mean "--region"\?/);
  assert.match(output, /missing NAME/);
});

Deno.test("a word no command takes is refused by every command, exit 2, shown only when it reads as a name", async () => {
  const checked: string[] = [];
  for (const [path, command] of commandsUnder(COMMANDS)) {
    const positionals = Object.values(command.args ?? {}).filter((a) => a.type === "positional");
    // Groups answer a word with "unknown command"; init and update report theirs with the rest of
    // their problems (tests/init_validation_test.ts); repeated positionals take any number.
    if (command.subCommands || ["init", "update"].includes(path[0])) continue;
    if (positionals.some((arg) => arg.multiple)) continue;
    const taken = positionals.map((arg) => arg.choices?.[0] ?? "my-set");
    for (
      const [extra, shown] of [["staging", /unexpected argument: "staging" \(usage: voicebot /], [
        randomSecret().replace(/^-/, "x"),
        /unexpected argument: one not shown \(it may be a value\) \(usage: voicebot /,
      ]] as const
    ) {
      const { code, output } = await runCaptured([...path, ...taken, extra]);
      const what = `voicebot ${[...path, ...taken].join(" ")} ${extra}`;
      assert.equal(code, 2, `${what}: ${output}`);
      assert.match(output, shown, what);
      if (!extra.startsWith("staging")) assert.equal(leakedPart(output, extra), undefined, what);
    }
    checked.push(path.join(" "));
  }
  for (const named of ["cloud auth logout", "cloud auth status", "cloud secrets history"]) {
    assert.ok(checked.includes(named), `the walk reached ${named}: ${checked.join(", ")}`);
  }
});

Deno.test("auth logout names no organization by a word: logged in to default, `logout staging` forgets nothing", async () => {
  await using dir = await tempDir();
  const config = `${dir.path}/config.json`;
  const env = { VOICEBOT_CONFIG: config };
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      current: "default",
      organizations: {
        default: {
          apiUrl: "http://127.0.0.1:9/v1",
          apiKey: `vb_sk_0123456789abcdef_${"a".repeat(43)}`,
        },
        staging: {
          apiUrl: "http://127.0.0.1:9/v1",
          apiKey: `vb_sk_fedcba9876543210_${"b".repeat(43)}`,
        },
      },
    }),
    { mode: 0o600 },
  );
  const before = await Deno.readTextFile(config);
  for (const args of [["logout", "staging"], ["status", "staging"], ["switch", "staging", "x"]]) {
    const result = await voicebot(["cloud", "auth", ...args], { env });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /unexpected argument: "(staging|x)"/);
  }
  const logout = await voicebot(["cloud", "auth", "logout", "staging"], { env });
  assert.match(logout.stderr, /to name an organization: -o staging/);
  assert.equal(await Deno.readTextFile(config), before, "no key was forgotten");
  // The file is one the CLI reads: logging out of staging by its option works.
  const byOption = await voicebot(["cloud", "auth", "logout", "-o", "staging", "--json"], { env });
  assert.equal(byOption.code, 0, byOption.stderr);
  assert.equal(JSON.parse(byOption.stdout).organization, "staging");
  const config2 = JSON.parse(await Deno.readTextFile(config));
  assert.deepEqual([config2.current, Object.keys(config2.organizations)], ["default", ["default"]]);
});

Deno.test("what could not be a value is named: a typed option, one letter, a value after =", async () => {
  for (
    const [argv, named] of [
      [["init", "--dry-rn"], /unknown option --dry-rn; did you mean "--dry-run"\?/],
      [["init", "-x"], /unknown option -x\b/],
      [["cloud", "secrets", "list", "--jsno=yes"], /unknown option --jsno; did you mean/],
    ] as const
  ) {
    const { code, output } = await runCaptured([...argv]);
    assert.equal(code, 2, output);
    assert.match(output, named);
    assert.doesNotMatch(output, /=yes/, "a value given with = is never shown");
  }
});

Deno.test("options, negations and clusters of known letters still parse", async () => {
  await using dir = await tempDir();
  const result = await voicebot(
    ["init", "bot", "-t", "lightweb", "-m", "cascade", "--stt", "deepgram_stt", "--no-recording"]
      .concat(["--llm=openai_llm", "--tts", "cartesia_tts", "--dry-run"]),
    { cwd: dir.path },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /"project_name": "bot"/);
});

// gunshi reads a string option's empty value as no option, so the command ran on its default.
Deno.test("an empty value of any string option is refused, naming the option", async () => {
  let checked = 0;
  for (const [path, command] of commandsUnder(COMMANDS)) {
    for (const [name, arg] of Object.entries(command.args ?? {})) {
      if (arg.type !== "string") continue;
      const forms = [
        [`--${name}`, ""],
        [`--${name}=`],
        ...(arg.short ? [[`-${arg.short}`, ""]] : []),
      ];
      for (const form of forms) {
        const { code, output } = await runCaptured([...path, ...form]);
        assert.equal(code, 2, `${path.join(" ")} ${form.join(" ")}: ${output}`);
        assert.match(output, new RegExp(`--${name} is empty \\(an unset variable\\?\\)`), output);
        checked++;
      }
    }
  }
  assert.ok(checked > 80, `only ${checked} forms`);
});

Deno.test("create-key with an empty --expires-in makes no key, and no database", async () => {
  await using dir = await tempDir();
  const database = `${dir.path}/keys.db`;
  const createKey = [
    "cloud",
    "serve",
    "create-key",
    "-o",
    "acme",
    "--create",
    "--database",
    database,
  ];
  for (const empty of [["--expires-in", ""], ["--expires-in="]]) {
    const result = await voicebot([...createKey, ...empty], { cwd: dir.path });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "", "no key printed");
    assert.match(result.stderr, /--expires-in is empty \(an unset variable\?\): give it a value/);
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)], [], "nothing was written");
  // The same run with a duration does make a key: the refusal above was the empty value's.
  const made = await voicebot([...createKey, "--expires-in", "1d"], { cwd: dir.path });
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, /^vb_sk_/);
  assert.match(made.stderr, /valid until/);
});

Deno.test("--x with --no-x is refused in every command that has both, naming the pair", async () => {
  let checked = 0;
  for (const [path, command] of commandsUnder(COMMANDS)) {
    // update says first that there is no project here (exit 4), then its problems: its own test.
    if (path[0] === "update") continue;
    for (const [name, arg] of Object.entries(command.args ?? {})) {
      if (arg.type !== "boolean" || !arg.negatable) continue;
      for (const pair of [[`--${name}`, `--no-${name}`], [`--no-${name}`, `--${name}`]]) {
        const { code, output } = await runCaptured([...path, ...pair]);
        assert.equal(code, 2, `${path.join(" ")} ${pair.join(" ")}: ${output}`);
        assert.match(output, new RegExp(`--${name} and --no-${name}: they contradict each other`));
        checked++;
      }
    }
  }
  assert.ok(checked >= 10, `only ${checked} pairs`);
});

Deno.test("a negative number is the option's value, refused by the option's own check", async () => {
  await using dir = await tempDir();
  const cases: [string[], RegExp][] = [
    [["cloud", "serve", "--rate-limit", "-1"], /--rate-limit must be 0 or more/],
    [["cloud", "serve", "--port", "-3"], /--port must be 0 to 65535, not -3/],
    [
      ["cloud", "secrets", "set", "my-set", "A=1", "--wait", "--wait-timeout", "-5"],
      /--wait-timeout must be more than 0 seconds/,
    ],
  ];
  for (const [args, expected] of cases) {
    const database = ["--database", `${dir.path}/secrets.db`];
    const run = await voicebot(args[1] === "serve" ? [...args, ...database] : args, {
      cwd: dir.path,
    });
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, expected);
    assert.doesNotMatch(run.stderr, /unknown option|expects a number/);
  }
  assert.deepEqual([...Deno.readDirSync(dir.path)], [], "no database was made");
});

Deno.test("--wait-timeout without --wait would be ignored: refused by name, before anything is sent", async () => {
  await using dir = await tempDir();
  for (
    const args of [
      ["set", "my-set", "A=1", "--wait-timeout", "30"],
      ["rollback", "my-set", "1", "--wait-timeout", "30"],
      ["image-pull-secret", "pull", "ghcr.io", "--wait-timeout", "30"],
    ]
  ) {
    // No server listens: a request sent would fail otherwise than with exit 2.
    const run = await voicebot(["cloud", "secrets", ...args], {
      cwd: dir.path,
      env: { VOICEBOT_API_URL: "http://127.0.0.1:9/", VOICEBOT_API_KEY: "vb_test" },
    });
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, /^error: --wait-timeout: only with --wait/m);
  }
});
