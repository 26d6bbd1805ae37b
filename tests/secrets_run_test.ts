/**
 * `voicebot cloud secrets run` end to end, on every storage backend: the real server on 127.0.0.1
 * port 0, runtime keys made with `cloud serve create-key --runtime`, and the CLI spawned with a
 * child that prints digests of its environment (never the values).
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { AUTH_CACHE_MS } from "../src/server/auth.ts";
import { type Backend, backendTest, databaseArgs, withDeadline } from "./helpers_server.ts";
import { runtimeKey, type Session, startSession, transcript } from "./helpers_secrets.ts";
import { DENO_DIR, ENTRY, listFiles } from "./helpers.ts";
import { pythonWithDotenv } from "./skips.ts";

const BOT_ENV = new URL("./bot_env.py", import.meta.url).pathname;
/** bot.py reads .env with python-dotenv: a python3 that has it (see pythonWithDotenv). */
const PYTHON = pythonWithDotenv() ?? "python3";
/** A child that prints, as JSON, the SHA-256 of each variable named in its arguments. */
const DIGESTS = [
  "import hashlib, json, os, sys",
  "digest = lambda v: None if v is None else hashlib.sha256(v.encode()).hexdigest()",
  'print(json.dumps({"digests": {n: digest(os.environ.get(n)) for n in sys.argv[1:]},',
  '  "voicebot": sorted(n for n in os.environ if n.startswith("VOICEBOT_"))}))',
].join("\n");

/** The values this file stores: none may appear in any output, log or file. */
const VALUES = {
  a: "run-v4lue-a",
  shared1: "sh4red-first",
  shared2: "sh4red-second",
  b: "run v4lue b\nwith a second line",
  other: "n0t-for-this-key",
};
const written: string[] = Object.values(VALUES);

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest).toHex();
}

/** `voicebot cloud secrets run ARGS` with the runtime key and the server's URL in the environment. */
function run(
  session: Session,
  key: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
) {
  return session.run(["cloud", "secrets", "run", ...args], {
    cwd: options.cwd,
    env: { VOICEBOT_RUNTIME_KEY: key, VOICEBOT_API_URL: session.baseUrl, ...options.env },
  });
}

/** Writes a secret set with the private key. */
const put = (session: Session, name: string, secrets: Record<string, string>) =>
  session.put(name, { type: "secret", secrets });

async function withSession(
  backend: Backend,
  fn: (session: Session) => Promise<void>,
  serverArgs: string[] = [],
) {
  await using session = await startSession(serverArgs, { backend });
  await fn(session);
  // The server never logs a value, whatever the test did.
  for (const value of written) {
    assert.ok(!session.server.stderr().includes(value), "a value reached the server's log");
  }
}

backendTest("secrets run: the command gets exactly its sets' values, later sets winning", async (
  backend,
) => {
  await withSession(backend, async (session) => {
    await put(session, "base", { A: VALUES.a, SHARED: VALUES.shared1 });
    await put(session, "over", { SHARED: VALUES.shared2, B: VALUES.b });
    await put(session, "other", { OTHER: VALUES.other });
    const key = await runtimeKey(session, ["base", "over"]);

    const names = ["A", "SHARED", "B", "OTHER", "HOME"];
    const child = ["--", "python3", "-c", DIGESTS, ...names];
    // voicebot's own credentials are in the environment it runs in: the command never sees them.
    const env = { VOICEBOT_API_KEY: session.key, SHARED: "from-the-environment" };
    const result = await run(session, key, ["base", "over", ...child], { env });
    assert.equal(result.code, 0, result.stderr);
    const seen = JSON.parse(result.stdout);
    assert.deepEqual(seen.digests, {
      A: await sha256(VALUES.a),
      SHARED: await sha256(VALUES.shared2),
      B: await sha256(VALUES.b),
      OTHER: null,
      HOME: await sha256(session.home),
    });
    assert.deepEqual(seen.voicebot, ["VOICEBOT_SECRETS"]);

    const kept = await run(session, key, ["base", "over", "--keep-env", "SHARED", ...child], {
      env,
    });
    assert.equal(JSON.parse(kept.stdout).digests.SHARED, await sha256("from-the-environment"));

    // The command's status is voicebot's.
    const failing = await run(session, key, ["base", "--", "python3", "-c", "raise SystemExit(5)"]);
    assert.equal(failing.code, 5);

    // --dry-run: the names and where each comes from, never a value; nothing runs.
    const dry = await run(session, key, ["base", "over", "--dry-run", "--", "false"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.stdout.trim().split("\n").map((line) => line.split(/\s+/)), [
      ["A", "from", "base"],
      ["B", "from", "over"],
      ["SHARED", "from", "over"],
    ]);
    const json = await run(session, key, ["base", "over", "--dry-run", "--json"]);
    assert.deepEqual(JSON.parse(json.stdout).given.map((g: { key: string }) => g.key), [
      "A",
      "B",
      "SHARED",
    ]);

    // A set the key is not bound to: exit 4, and nothing is started.
    const marker = join(session.home, "started");
    const other = await run(session, key, ["other", "--", "touch", marker]);
    assert.equal(other.code, 4, other.stderr);
    assert.match(other.stderr, /this runtime key reads no set named "other"/);
    assert.equal(await Deno.stat(marker).catch(() => undefined), undefined);
  });
});

backendTest("a runtime key cannot list, write or delete: the management commands exit 3", async (
  backend,
) => {
  await withSession(backend, async (session) => {
    await put(session, "base", { A: VALUES.a });
    const key = await runtimeKey(session, ["base"]);
    const env = { VOICEBOT_API_KEY: key, VOICEBOT_API_URL: session.baseUrl };
    for (
      const args of [
        ["list"],
        ["list", "base"],
        ["set", "base", "A=changed", "--yes"],
        ["unset", "base", "A", "--skip"],
        ["delete", "base", "--skip"],
      ]
    ) {
      const result = await session.run(["cloud", "secrets", ...args], { env });
      assert.equal(result.code, 3, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, /runtime key/);
    }
    assert.deepEqual((await session.get("base")).body.keys, ["A"]);
    const still = await run(session, key, ["base", "--", "python3", "-c", DIGESTS, "A"]);
    assert.equal(JSON.parse(still.stdout).digests.A, await sha256(VALUES.a));
  });
});

backendTest("secrets run: a revoked runtime key stops working within the documented bound", async (
  backend,
) => {
  await withSession(backend, async (session) => {
    await put(session, "base", { A: VALUES.a });
    const key = await runtimeKey(session, ["base"]);
    assert.equal((await run(session, key, ["base", "--", "true"])).code, 0);
    const { args, env } = databaseArgs(session.database);
    const revoked = await session.run(
      ["cloud", "serve", "revoke-key", key.split("_")[2], ...args],
      { env },
    );
    assert.equal(revoked.code, 0, revoked.stderr);
    await new Promise((resolve) => setTimeout(resolve, AUTH_CACHE_MS + 200));
    const refused = await run(session, key, ["base", "--", "true"]);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /revoked or expired/);
  });
});

backendTest(
  "secrets run: a set still pending is waited for up to --wait-timeout, then fails",
  async (
    backend,
  ) => {
    await withSession(backend, async (session) => {
      await put(session, "slow", { A: VALUES.a });
      const key = await runtimeKey(session, ["slow"]);
      const started = Date.now();
      const result = await run(session, key, ["slow", "--wait-timeout", "1.5", "--", "true"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /Waiting for "slow" to be ready/);
      assert.match(result.stderr, /"slow" is still pending after 1.5 s; nothing was started/);
      assert.ok(Date.now() - started >= 1000, "it waited");
    }, ["--provision-delay", "600000"]);
  },
);

backendTest("secrets run: SIGTERM and SIGINT reach the command, and its status comes back", async (
  backend,
) => {
  await withSession(backend, async (session) => {
    await put(session, "base", { A: VALUES.a });
    const key = await runtimeKey(session, ["base"]);
    const script = [
      "import signal, sys, time",
      "signal.signal(signal.SIGTERM, lambda *_: sys.exit(7))",
      "signal.signal(signal.SIGINT, lambda *_: sys.exit(8))",
      "print('ready', flush=True)",
      "time.sleep(60)",
    ].join("\n");
    const cases: [Deno.Signal, string, number][] = [
      ["SIGTERM", script, 7],
      ["SIGINT", script, 8],
      // A command that does not handle it dies of it, and voicebot says so as a shell would.
      ["SIGTERM", "import time; print('ready', flush=True); time.sleep(60)", 128 + 15],
    ];
    for (const [signal, source, status] of cases) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", ENTRY, "cloud", "secrets", "run", "base", "--"]
          .concat(["python3", "-c", source]),
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        clearEnv: true,
        env: {
          PATH: Deno.env.get("PATH")!,
          HOME: session.home,
          DENO_DIR,
          NO_COLOR: "1",
          VOICEBOT_RUNTIME_KEY: key,
          VOICEBOT_API_URL: session.baseUrl,
        },
      }).spawn();
      try {
        // Both pipes drained all along; the first line of stdout says the command is running.
        const stderr = new Response(child.stderr).text();
        const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
        const first = await withDeadline(lines.read(), 30_000);
        if (first.value?.trim() !== "ready") {
          child.kill("SIGKILL");
          assert.fail(`not started: ${first.value}\n${await stderr}`);
        }
        const rest = (async () => {
          while (!(await lines.read()).done) { /* drained */ }
        })();
        child.kill(signal);
        const { code } = await withDeadline(child.status, 15_000);
        await withDeadline(Promise.all([rest, stderr]), 15_000);
        assert.equal(code, status, `${signal}: ${await stderr}`);
      } finally {
        try {
          child.kill("SIGKILL");
        } catch {
          // It has ended.
        }
      }
    }
  });
});

backendTest(
  "secrets run refuses before reading: a private key, a key file others can read, http:// elsewhere, variables that change what runs",
  async (
    backend,
  ) => {
    await withSession(backend, async (session) => {
      await put(session, "base", { A: VALUES.a });
      await put(session, "sneaky", { PATH: "/tmp/evil", LD_PRELOAD: "/tmp/evil.so", OK: "1" });
      const key = await runtimeKey(session, ["base", "sneaky"]);

      const privateKey = await run(session, session.key, ["base", "--", "true"]);
      assert.equal(privateKey.code, 3, privateKey.stderr);
      assert.match(privateKey.stderr, /private API key; `secrets run` takes a runtime key/);

      const file = join(session.home, "runtime-key");
      await Deno.writeTextFile(file, key + "\n", { mode: 0o644 });
      await Deno.chmod(file, 0o644);
      const open = await run(session, "", ["base", "--key-file", file, "--", "true"]);
      assert.equal(open.code, 2, open.stderr);
      assert.match(open.stderr, /can be read by others \(mode 644\)[\s\S]*chmod 600/);
      await Deno.chmod(file, 0o600);
      const fromFile = await run(session, "", ["base", "--key-file", file, "--", "true"]);
      assert.equal(fromFile.code, 0, fromFile.stderr);

      const cleartext = await run(session, key, ["base", "--", "true"], {
        env: { VOICEBOT_API_URL: "http://192.0.2.1:8787/v1" },
      });
      assert.equal(cleartext.code, 2, cleartext.stderr);
      assert.match(cleartext.stderr, /unencrypted; nothing was sent/);

      const sneaky = await run(session, key, ["sneaky", "--", "true"]);
      assert.equal(sneaky.code, 2, sneaky.stderr);
      assert.match(sneaky.stderr, /sneaky: PATH changes which program runs/);
      assert.match(sneaky.stderr, /sneaky: LD_PRELOAD changes which program runs/);
      assert.doesNotMatch(sneaky.stderr, /evil/);
    });
  },
);

backendTest(
  "the quickstart's README: its set uploaded, .env deleted, `secrets run` starts the bot with every value",
  async (
    backend,
  ) => {
    await withSession(backend, async (session) => {
      const work = join(session.home, "work");
      await Deno.mkdir(work);
      const init = await session.run(["init", "quickstart"], { cwd: work });
      assert.equal(init.code, 0, init.stderr);
      const project = join(work, "voicebot-quickstart");
      const server = join(project, "server");
      const readme = await Deno.readTextFile(join(project, "README.md"));
      const line = (prefix: string) => {
        const found = readme.split("\n").find((text) => text.startsWith(prefix));
        assert.ok(found, `the README shows \`${prefix}...\``);
        return found.split(" ").slice(1);
      };
      const setCommand = line("voicebot cloud secrets set ");
      const runCommand = line("voicebot cloud secrets run ");

      // .env.example filled in, as the README says, and uploaded with the README's command.
      const example = await Deno.readTextFile(join(server, ".env.example"));
      const names = [...example.matchAll(/^([A-Z0-9_]+)=$/gm)].map(([, name]) => name);
      assert.ok(names.includes("OPENAI_API_KEY"), names.join(", "));
      const valueOf = (name: string, kind = "uploaded") => `${kind}-v4lue-of-${name}`;
      written.push(...names.map((name) => valueOf(name)));
      const env = Object.fromEntries(names.map((name) => [name, valueOf(name)]));
      await Deno.writeTextFile(
        join(server, ".env"),
        example.replace(/^([A-Z0-9_]+)=$/gm, (_, name) => `${name}=${env[name]}`),
      );
      const set = await session.run(setCommand, {
        cwd: project,
        env: { VOICEBOT_API_KEY: session.key, VOICEBOT_API_URL: session.baseUrl },
      });
      assert.equal(set.code, 0, set.stderr);
      const setName = setCommand[3];
      const key = await runtimeKey(session, [setName]);
      await Deno.remove(join(server, ".env"));

      // The README's command, from server/, with python3 and a stand-in for Pipecat where it has
      // `uv run`: bot.py's own module code runs, then the harness prints the digests.
      const dash = runCommand.indexOf("--");
      assert.deepEqual(runCommand.slice(dash), ["--", "uv", "run", "bot.py"]);
      const command = [
        ...runCommand.slice(3, dash + 1),
        PYTHON,
        BOT_ENV,
        "bot.py",
        ...names,
      ];
      const expected = Object.fromEntries(
        await Promise.all(names.map(async (name) => [name, await sha256(env[name])])),
      );
      const withoutEnv = await run(session, key, command, { cwd: server });
      assert.equal(withoutEnv.code, 0, withoutEnv.stderr);
      assert.deepEqual(JSON.parse(withoutEnv.stdout).digests, expected);

      // A stale .env beside the bot does not win over the stored values...
      const stale = example.replace(
        /^([A-Z0-9_]+)=$/gm,
        (_, name) => `${name}=${valueOf(name, "stale")}`,
      );
      await Deno.writeTextFile(join(server, ".env"), stale);
      const withStale = await run(session, key, command, { cwd: server });
      assert.equal(withStale.code, 0, withStale.stderr);
      assert.deepEqual(JSON.parse(withStale.stdout).digests, expected);
      // ...although the same bot, started without `secrets run`, reads it (as it should locally).
      const plain = new Deno.Command(PYTHON, {
        args: [BOT_ENV, "bot.py", "OPENAI_API_KEY"],
        cwd: server,
        stdout: "piped",
        clearEnv: true,
        env: { PATH: Deno.env.get("PATH")! },
      });
      const local = JSON.parse(new TextDecoder().decode((await plain.output()).stdout));
      assert.equal(local.digests.OPENAI_API_KEY, await sha256(valueOf("OPENAI_API_KEY", "stale")));

      // No uploaded value was written to any file of the project or of HOME.
      await Deno.remove(join(server, ".env"));
      for (const file of await listFiles(session.home)) {
        const text = await Deno.readTextFile(join(session.home, file)).catch(() => "");
        for (const name of names) {
          assert.ok(!text.includes(valueOf(name)), `${file} holds the value of ${name}`);
        }
      }
    });
  },
);

Deno.test("no value or runtime key appears in anything the CLI printed in this file", () => {
  const printed = transcript.join("\n");
  for (const value of written) assert.ok(!printed.includes(value), "a value was printed");
  // Keys are printed once, by create-key, on stdout: alone on their line, never elsewhere.
  const keyLines = printed.split("\n").filter((line) => /vb_rk_[0-9a-f]{16}_/.test(line));
  assert.ok(keyLines.every((line) => /^vb_rk_\S+$/.test(line)), JSON.stringify(keyLines));
});
