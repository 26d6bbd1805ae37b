/**
 * No value, credential or API key reaches a screen or a log: every `cloud auth` and
 * `cloud secrets` command, spawned against the real server, succeeding and failing, with and
 * without `--verbose`, with values shaped like tokens and with random ones that look like nothing
 * in particular (so that redaction by pattern cannot pass this test). Nothing of any value may
 * appear in stdout, stderr or the server's log.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import type { CliResult } from "./helpers.ts";
import { runtimeKey, startSession } from "./helpers_secrets.ts";

/** Random lower-case letters: no digits, no case mix, no prefix, nothing a pattern could catch. */
function plainRandom(length: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return [...crypto.getRandomValues(new Uint8Array(length))]
    .map((byte) => letters[byte % letters.length])
    .join("");
}

const tokenRandom = () =>
  crypto.getRandomValues(new Uint8Array(18)).toBase64({ alphabet: "base64url" });

/** The values this run writes, made fresh for each run. */
const VALUES = {
  openai: `sk-proj-${tokenRandom()}`,
  github: `ghp_${tokenRandom()}`,
  padded: crypto.getRandomValues(new Uint8Array(16)).toBase64(),
  plain: plainRandom(16),
  words: `${plainRandom(7)} ${plainRandom(6)} ${plainRandom(8)}`,
  multiline: `${plainRandom(9)}\n${plainRandom(9)}`,
  quoted: `it's "${plainRandom(10)}"`,
  referenced: plainRandom(15),
  fileOnly: plainRandom(17),
  registryPassword: plainRandom(18),
  wrongKey: `vb_sk_${"0".repeat(16)}_${plainRandom(24)}`,
};

Deno.test("no value, credential or API key appears in any output or in the server's log", async () => {
  await using session = await startSession();
  const dir = join(session.home, "work");
  await Deno.mkdir(dir);
  const env = { VOICEBOT_API_URL: session.baseUrl };
  const dotenv = join(dir, ".env");
  await Deno.writeTextFile(
    dotenv,
    [
      `OPENAI_API_KEY=${VALUES.openai}`,
      `export GITHUB_TOKEN='${VALUES.github}'`,
      `WORDS="${VALUES.words}"`,
      `MULTI="${VALUES.multiline}"`,
      `QUOTED=\`${VALUES.quoted}\``,
      `BASE=${VALUES.referenced}`,
      "DERIVED=${BASE}/x",
      `FILE_ONLY=${VALUES.fileOnly} # a comment`,
    ].join("\n") + "\n",
  );
  const broken = join(dir, "broken.env");
  await Deno.writeTextFile(
    broken,
    [
      `A="${VALUES.plain}`, // never closed
      `${VALUES.padded}`, // a value without its key
      `B=\${${VALUES.referenced}}`, // a reference whose name is a value
      `C='${VALUES.words}' trailing ${VALUES.plain}`,
      `D=${VALUES.openai}`,
      `D=${VALUES.github}`, // the same key, another value
    ].join("\n") + "\n",
  );

  const runs: { args: string[]; result: CliResult }[] = [];
  /**
   * Runs `args` without, then with `--verbose` (before a `--`, whose words are a command's);
   * `ok` is whether each should succeed.
   */
  const run = async (
    args: string[],
    options: { stdin?: string; ok: boolean | [boolean, boolean]; env?: Record<string, string> },
  ) => {
    const oks = typeof options.ok === "boolean" ? [options.ok, options.ok] : options.ok;
    const dashes = args.includes("--") ? args.indexOf("--") : args.length;
    for (const [i, verbose] of [false, true].entries()) {
      const all = verbose ? args.toSpliced(dashes, 0, "--verbose") : args;
      const result = await session.run(all, {
        stdin: options.stdin,
        env: { ...env, ...options.env },
        cwd: dir,
      });
      runs.push({ args: all, result });
      assert.equal(result.code === 0, oks[i], `${all.join(" ")}: ${result.stderr}`);
    }
  };
  const secrets = (...args: string[]) => ["cloud", "secrets", ...args];

  // auth: a wrong key, then the right one, status, and a second organization.
  await run(["cloud", "auth", "login", "-o", "default"], { stdin: VALUES.wrongKey, ok: false });
  await run(["cloud", "auth", "login", "-o", "default", "--yes"], { stdin: session.key, ok: true });
  await run(["cloud", "auth", "login", "-o", "acme"], { stdin: session.key, ok: false }); // not acme's
  await run(["cloud", "auth", "switch", "default"], { ok: true });
  await run(["cloud", "auth", "switch", "nobody"], { ok: false });
  await run(["cloud", "auth", "status"], { ok: true });
  await run(["cloud", "auth", "status", "--json"], { ok: true });

  // set: arguments, a file, stdin, a dry run, and each kind of refusal.
  await run(secrets("set", "app", `PLAIN=${VALUES.plain}`, "--yes"), { ok: true });
  await run(secrets("set", "app", "-f", dotenv, "--yes", "--wait"), { ok: true });
  await run(secrets("set", "app", "-f", "-", "--yes", "--json"), {
    stdin: `STDIN_ONE=${VALUES.plain}\n`,
    ok: true,
  });
  await run(secrets("set", "app", `PLAIN=${VALUES.github}`, "--dry-run"), { ok: true });
  await run(secrets("set", "app", `PLAIN=${VALUES.github}`), { ok: false }); // overwrite, no --yes
  await run(secrets("set", "app", "-f", broken), { ok: false });
  await run(secrets("set", "app", VALUES.padded, VALUES.openai, `X=${VALUES.plain}`), {
    ok: false,
  });
  await run(secrets("set", "app", `BIG=${VALUES.plain.repeat(5000)}`), { ok: false });
  await run(secrets("set", `OPENAI_API_KEY=${VALUES.openai}`), { ok: false }); // no set name
  await run(secrets("set", "reg", `A=${VALUES.plain}`), { ok: true });

  // diff, list, unset, delete.
  await run(secrets("diff", "app", "-f", dotenv), { ok: true });
  await run(secrets("diff", "app", `PLAIN=${VALUES.words}`, "--exit-code"), { ok: false });
  await run(secrets("diff", "missing", `PLAIN=${VALUES.words}`), { ok: false });
  await run(secrets("list"), { ok: true });
  await run(secrets("list", "app"), { ok: true });
  await run(secrets("list", "app", "--json"), { ok: true });
  await run(secrets("unset", "app", "PLAIN", "--skip"), { ok: [true, false] }); // gone the 2nd time
  await run(secrets("unset", "app", "NOT_THERE", "--skip"), { ok: false });

  // image pull secrets: each way to pass the credentials, and refusals.
  await run(
    secrets("image-pull-secret", "regcred", "ghcr.io", "--username", "robot", "--password-stdin"),
    {
      stdin: VALUES.registryPassword,
      ok: true,
    },
  );
  await run(secrets("image-pull-secret", "regcred2", "ghcr.io"), {
    stdin: `robot:${VALUES.registryPassword}`,
    ok: true,
  });
  await run(secrets("image-pull-secret", "reg", "ghcr.io", `robot:${VALUES.registryPassword}`), {
    ok: false, // "reg" is a secret set
  });
  await run(
    secrets("image-pull-secret", "regcred3", "not a host", `robot:${VALUES.registryPassword}`),
    {
      ok: false,
    },
  );
  await run(secrets("delete", "regcred", "--skip"), { ok: [true, false] });

  // Versions, rollback, purge and the audit trail, from the CLI.
  await run(secrets("history", "app"), { ok: true });
  await run(secrets("history", "app", "--json"), { ok: true });
  await run(secrets("rollback", "app", "2", "--dry-run"), { ok: true });
  await run(secrets("rollback", "app", "2", "--yes"), { ok: true });
  await run(secrets("rollback", "app", "99", "--yes"), { ok: false });
  await run(["cloud", "audit"], { ok: true });
  await run(["cloud", "audit", "--json"], { ok: true });

  // The raw body of every route that answers about values without giving one, and of the
  // runtime route's refusals: a field no schema check looks at would still be seen here.
  const runtime = await runtimeKey(session, ["app"]);
  const raw = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(session.baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    runs.push({
      args: [method, path],
      result: { code: response.ok ? 0 : 1, stdout: text, stderr: "" },
    });
    return { status: response.status, text };
  };
  const versions = JSON.parse((await raw(session.key, "GET", "/secrets/app/versions")).text);
  assert.ok(versions.versions.length >= 3, JSON.stringify(versions));
  for (const { version } of versions.versions) {
    assert.equal((await raw(session.key, "GET", `/secrets/app/versions/${version}`)).status, 200);
  }
  assert.equal((await raw(session.key, "GET", "/secrets/app")).status, 200);
  // Version 2 is the set as it stands after the CLI's rollback: written again, or left as it is.
  const rollback = await raw(session.key, "POST", "/secrets/app/rollback", { version: 2 });
  assert.ok([200, 202].includes(rollback.status), rollback.text);
  assert.equal((await raw(session.key, "GET", "/audit")).status, 200);
  assert.equal((await raw(session.key, "GET", "/me")).status, 200);
  assert.equal((await raw(session.key, "GET", "/regions")).status, 200);
  assert.equal((await raw(session.key, "GET", "/runtime/secrets/app")).status, 403);
  assert.equal((await raw(runtime, "GET", "/secrets/app")).status, 401);
  assert.equal((await raw(runtime, "GET", "/runtime/secrets/reg")).status, 404);
  assert.equal((await raw(VALUES.wrongKey, "GET", "/runtime/secrets/app")).status, 401);
  await run(secrets("history", "app", "--purge", "--skip"), { ok: [true, true] });
  assert.equal((await raw(session.key, "POST", "/secrets/app/versions/purge")).status, 200);

  // `secrets run`: a command that prints every value it gets, masked; with --no-masking, one that
  // prints only names; --watch with a command that ends. None of voicebot's own output holds one.
  const runEnv = { VOICEBOT_RUNTIME_KEY: runtime };
  const printAll = "import os; [print(k, v) for k, v in os.environ.items()]";
  const printNames = "import os; print(sorted(os.environ))";
  await run(secrets("run", "app", "--", "python3", "-c", printAll), { ok: true, env: runEnv });
  await run(secrets("run", "app", "--watch", "--", "python3", "-c", printAll), {
    ok: true,
    env: runEnv,
  });
  await run(secrets("run", "app", "--no-masking", "--", "python3", "-c", printNames), {
    ok: true,
    env: runEnv,
  });
  await run(secrets("run", "app", "--dry-run", "--json"), { ok: true, env: runEnv });
  await run(secrets("run", "app", "reg", "--", "true"), { ok: false, env: runEnv });

  // A wrong key in the environment, and a server that is gone.
  await run(secrets("set", "app", `PLAIN=${VALUES.plain}`, "--yes"), { ok: true });
  const wrong = await session.run(secrets("set", "app", `PLAIN=${VALUES.plain}`, "--verbose"), {
    env: { ...env, VOICEBOT_API_KEY: VALUES.wrongKey },
  });
  runs.push({ args: ["wrong key"], result: wrong });
  assert.equal(wrong.code, 3, wrong.stderr);
  await run(["cloud", "auth", "logout"], { ok: true });
  const { stderr: serverLog } = await session.server.stop();
  await run(secrets("set", "app", `PLAIN=${VALUES.plain}`, "--yes"), { ok: false });
  runs.push({
    args: ["gone"],
    result: await session.run(secrets("list"), { env: { ...env, VOICEBOT_API_KEY: session.key } }),
  });

  assert.ok(runs.filter((r) => r.result.code === 0).length >= 60);
  assert.ok(runs.filter((r) => r.result.code !== 0).length >= 30);
  const secretsShown = [...Object.values(VALUES), session.key];
  const parts = (value: string) => [
    value,
    // Each part too: a value may be shown without its padding, or a line at a time.
    ...value.split(/[\n= ]+/).filter((part) => part.length >= 6),
  ];
  for (const { args, result } of runs) {
    for (const value of secretsShown) {
      for (const part of parts(value)) {
        assert.ok(!result.stdout.includes(part), `${args.join(" ")}: stdout shows a value`);
        assert.ok(
          !result.stderr.includes(part),
          `${args.join(" ")}: stderr shows a value: ${part} in ${result.stderr}`,
        );
      }
    }
  }
  for (const value of secretsShown) {
    for (const part of parts(value)) {
      assert.ok(!serverLog.includes(part), "the server log shows a value");
    }
  }
  assert.ok(serverLog.includes("PUT"), "the server logged the requests");
});
