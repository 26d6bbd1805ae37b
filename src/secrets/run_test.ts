// The environment `secrets run` gives a command, and how it reads sets that are not ready yet.
import assert from "node:assert/strict";
import {
  ChildExited,
  CommandNotStarted,
  ProvisioningFailedError,
  UsageError,
  VoicebotError,
} from "../errors.ts";
import type { RuntimeRead } from "./client.ts";
import {
  checkRuntimeOffered,
  childEnvironment,
  isUnsafeVariable,
  readSets,
  runCommand,
  SECRETS_MARKER_ENV,
} from "./run.ts";

const own = {
  HOME: "/home/me",
  PATH: "/usr/bin",
  SHARED: "from-env",
  KEEP_ME: "from-env",
  VOICEBOT_RUNTIME_KEY: "vb_rk_x",
  VOICEBOT_API_KEY: "vb_sk_x",
  voicebot_database_url: "postgres://x",
};

Deno.test("child environment: later sets win, the sets win over the environment unless --keep-env", () => {
  const { env, given, kept } = childEnvironment(own, [
    { name: "base", secrets: [["SHARED", "base"], ["ONLY_BASE", "1"], ["KEEP_ME", "base"]] },
    { name: "over", secrets: [["SHARED", "over"], ["ONLY_OVER", "2"]] },
  ], { keepEnv: ["KEEP_ME", "NOT_IN_ANY_SET"] });
  assert.equal(env.SHARED, "over");
  assert.equal(env.ONLY_BASE, "1");
  assert.equal(env.ONLY_OVER, "2");
  assert.equal(env.KEEP_ME, "from-env");
  assert.equal(env.HOME, "/home/me");
  assert.deepEqual(kept, ["KEEP_ME"]);
  assert.deepEqual(given, [
    { key: "ONLY_BASE", set: "base" },
    { key: "ONLY_OVER", set: "over" },
    { key: "SHARED", set: "over" },
  ]);
});

Deno.test("child environment: voicebot's own variables never pass; the marker names the sets", () => {
  const { env } = childEnvironment(own, [
    { name: "a", secrets: [["X", "1"]] },
    { name: "b", secrets: [] },
  ]);
  assert.deepEqual(
    Object.keys(env).filter((name) => name.toUpperCase().startsWith("VOICEBOT_")),
    [SECRETS_MARKER_ENV],
  );
  assert.equal(env[SECRETS_MARKER_ENV], "a,b");
});

Deno.test("child environment: variables that change what runs are refused, all named, unless allowed", () => {
  const sets = [
    { name: "a", secrets: [["PATH", "/evil"], ["LD_PRELOAD", "/x.so"], ["OK", "1"]] },
    { name: "b", secrets: [["PYTHONSTARTUP", "x.py"], ["NODE_OPTIONS", "--require x"]] },
  ] as { name: string; secrets: [string, string][] }[];
  assert.throws(() => childEnvironment(own, sets), (error) => {
    assert.ok(error instanceof UsageError);
    assert.deepEqual(error.problems.map((p) => p.split(" ")[0] + " " + p.split(" ")[1]), [
      "a: PATH",
      "a: LD_PRELOAD",
      "b: PYTHONSTARTUP",
      "b: NODE_OPTIONS",
    ]);
    assert.doesNotMatch(JSON.stringify(error), /evil|x\.so|--require/, "names, never values");
    return true;
  });
  const allowed = childEnvironment(own, sets, {
    allowVars: ["PATH", "LD_PRELOAD", "PYTHONSTARTUP", "NODE_OPTIONS"],
  });
  assert.equal(allowed.env.PATH, "/evil");
  // voicebot's own stay refused whatever --allow-var says.
  assert.throws(
    () =>
      childEnvironment(own, [{ name: "a", secrets: [["VOICEBOT_SECRETS", "x"]] }], {
        allowVars: ["VOICEBOT_SECRETS"],
      }),
    UsageError,
  );
});

Deno.test("unsafe variables: loaders, interpreters' paths and startup files, any case", () => {
  for (
    const name of [
      "PATH",
      "Path",
      "LD_LIBRARY_PATH",
      "DYLD_INSERT_LIBRARIES",
      "PYTHONPATH",
      "UV_INDEX_URL",
      "npm_config_registry",
      "BASH_ENV",
      "NODE_OPTIONS",
      "GLIBC_TUNABLES",
    ]
  ) {
    assert.ok(isUnsafeVariable(name), name);
  }
  for (const name of ["OPENAI_API_KEY", "DAILY_API_KEY", "NODE_ENV", "LOG_LEVEL", "PATHNAME"]) {
    assert.ok(!isUnsafeVariable(name), name);
  }
});

Deno.test("child environment: a value no environment can hold is refused", () => {
  assert.throws(
    () => childEnvironment({}, [{ name: "a", secrets: [["NUL", "a\0b"]] }]),
    (error) => error instanceof UsageError && /NUL/.test(error.problems[0]),
  );
});

/** A reader that answers each read of a set from a script, and a clock the sleeps move. */
function scripted(answers: Record<string, RuntimeRead[]>) {
  let now = 0;
  const reads: string[] = [];
  return {
    reads,
    options: {
      now: () => now,
      sleep: (ms: number) => Promise.resolve(void (now += ms)),
    },
    reader: {
      readRuntimeSet: (name: string) => {
        reads.push(name);
        const queue = answers[name];
        return Promise.resolve(queue.length > 1 ? queue.shift()! : queue[0]);
      },
    },
  };
}

const ready = (secrets: [string, string][]): RuntimeRead => ({
  ready: true,
  name: "x",
  region: "us-west",
  secrets,
});

Deno.test("readSets: a pending set is read again until ready, within the timeout", async () => {
  const { reader, options, reads } = scripted({
    a: [{ ready: false, status: "pending", retryAfterMs: 1000 }, ready([["A", "1"]])],
  });
  const waited: string[] = [];
  const sets = await readSets(reader, ["a"], {
    ...options,
    timeoutMs: 5000,
    onWait: (name) => waited.push(name),
  });
  assert.deepEqual(sets, [{ name: "a", secrets: [["A", "1"]] }]);
  assert.deepEqual(reads, ["a", "a"]);
  assert.deepEqual(waited, ["a"]);
});

Deno.test("readSets: still pending at the timeout fails; a failed set fails at once", async () => {
  const pending = scripted({ a: [{ ready: false, status: "pending", retryAfterMs: 1000 }] });
  await assert.rejects(
    readSets(pending.reader, ["a"], { ...pending.options, timeoutMs: 3000 }),
    (error) => error instanceof VoicebotError && /still pending after 3 s/.test(error.message),
  );
  assert.ok(pending.reads.length >= 3 && pending.reads.length <= 4, String(pending.reads.length));

  const failed = scripted({
    a: [{ ready: false, status: "failed", errorMessage: "no capacity", retryAfterMs: 30_000 }],
  });
  await assert.rejects(
    readSets(failed.reader, ["a"], { ...failed.options, timeoutMs: 60_000 }),
    (error) => error instanceof ProvisioningFailedError && /no capacity/.test(error.message),
  );
  assert.equal(failed.reads.length, 1);
});

Deno.test("child environment: a key that is not a variable name is refused, not shown", () => {
  assert.throws(
    () => childEnvironment({}, [{ name: "a", secrets: [["B=C", "x"]] }]),
    (error) =>
      error instanceof UsageError && error.problems[0] === "a: a key that is not a variable name",
  );
});

/** runCommand with this environment, no watch, no masking. */
const runWith = (command: string[], env: Record<string, string>) =>
  runCommand(command, { env, given: [], kept: [], setValues: [] }, {
    interactive: false,
    graceMs: 1_000,
    say: () => {},
  });

Deno.test("runCommand: a command the system will not start is 127 or 126, with its reason", async () => {
  await assert.rejects(
    runWith(["voicebot-no-such-command"], {}),
    (error) => error instanceof CommandNotStarted && error.exitCode === 127,
  );
  // More environment than the system takes (Linux: a quarter of the stack limit, at most 6 MB).
  const huge = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`BIG_${i}`, "x".repeat(100 * 1024)]),
  );
  await assert.rejects(
    runWith(["true"], { PATH: Deno.env.get("PATH")!, ...huge }),
    (error) =>
      error instanceof CommandNotStarted && error.exitCode === 126 && !/xxxx/.test(error.message),
  );
  await runWith(["true"], { PATH: Deno.env.get("PATH")! });
  await assert.rejects(
    runWith(["false"], { PATH: Deno.env.get("PATH")! }),
    (error) => error instanceof ChildExited && error.status === 1,
  );
});

Deno.test("runtime keys: asked of the server first; a server without them is exit 2", async () => {
  const probe = (runtime: boolean) => {
    const calls: string[] = [];
    return {
      calls,
      discoverExtensions: () => (calls.push("discover"), Promise.resolve()),
      // Read only once discovered: before, the client knows nothing of the server.
      offers: (extension: string) => (calls.push(extension), runtime && calls[0] === "discover"),
    };
  };
  const voicebot = probe(true);
  await checkRuntimeOffered(voicebot, "https://api.test/v1");
  assert.deepEqual(voicebot.calls, ["discover", "runtime"]);

  const documented = probe(false);
  const refused = await checkRuntimeOffered(documented, "https://api.test/v1").catch((e) => e);
  assert.ok(refused instanceof UsageError, String(refused));
  assert.match(refused.message, /https:\/\/api\.test\/v1 does not offer runtime keys/);
  assert.match(refused.message, /the runtime key was not sent/);
  assert.deepEqual(documented.calls, ["discover", "runtime"]);
});
