/**
 * The CLI run from its modules served over HTTP, as `deno run -A jsr:@voicebot/cli` loads them:
 * a loopback server serves the files `deno publish` ships (deno.json's "publish" set) and
 * nothing else; the CLI runs in an empty directory, its bare imports resolved by the served
 * deno.json as an import map. Whatever it reads from disk beside the modules would be missing.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { listFiles, tempDir, voicebot } from "./helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** Whether deno.json's "publish" set ships `path` (its includes, minus the test files it excludes). */
async function published(path: string): Promise<boolean> {
  const { publish } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const included = publish.include.some((entry: string) =>
    entry.endsWith("/") ? path.startsWith(entry) : path === entry
  );
  return included && !path.endsWith("_test.ts");
}

/** Serves the published files; `refused` collects every other path asked for. */
function serve(refused: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname).slice(1);
    if (path.includes("..") || !(await published(path))) {
      refused.push(path);
      return new Response("not published", { status: 404 });
    }
    const type = path.endsWith(".json") ? "application/json" : "application/typescript";
    return new Response(await Deno.readFile(join(ROOT, path)), {
      headers: { "content-type": type },
    });
  });
}

/** A Deno cache of its own for the served modules, sharing the machine's npm packages. */
async function denoDir(parent: string): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  })
    .output();
  const { npmCache } = JSON.parse(new TextDecoder().decode(info.stdout));
  const dir = join(parent, "deno-dir");
  await Deno.mkdir(dir);
  await Deno.symlink(npmCache, join(dir, "npm"));
  return dir;
}

Deno.test("init --list-options, init quickstart and cloud secrets run run from modules served over HTTP", async () => {
  await using work = await tempDir();
  const refused: string[] = [];
  const server = serve(refused);
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const cache = await denoDir(work.path);
    const cwd = join(work.path, "cwd");
    await Deno.mkdir(cwd);
    const run = (...args: string[]) =>
      voicebot(args, {
        cwd,
        entry: `${base}/main.ts`,
        denoFlags: ["--no-lock", `--import-map=${base}/deno.json`],
        env: { DENO_DIR: cache },
      });

    const options = await run("init", "--list-options");
    assert.equal(options.code, 0, options.stderr);
    assert.ok(JSON.parse(options.stdout).stt.includes("deepgram_stt"));

    const quickstart = await run("init", "quickstart");
    assert.equal(quickstart.code, 0, quickstart.stderr);
    const files = await listFiles(join(cwd, "voicebot-quickstart"));
    for (
      const file of ["AGENTS.md", "server/bot.py", "server/pyproject.toml", "server/.env.example"]
    ) {
      assert.ok(files.includes(file), `${file} in ${files}`);
    }

    // `cloud secrets run` loads its modules when it runs, and starts the command it is given.
    const runtimeKey = `vb_rk_${"1".repeat(16)}_${"A".repeat(43)}`;
    // As voicebot's server: every answer names its extensions, a request without a key is 401.
    const headers = { "Voicebot-Extensions": "runtime" };
    const api = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
      const authorization = request.headers.get("authorization");
      if (authorization === null) {
        return Response.json({ error: "no key", code: "UNAUTHORIZED" }, { status: 401, headers });
      }
      const readsBot = new URL(request.url).pathname === "/v1/runtime/secrets/bot" &&
        authorization === `Bearer ${runtimeKey}`;
      return readsBot
        ? Response.json({
          name: "bot",
          region: "us-west",
          status: "ready",
          secrets: [{ secretKey: "GREETING", secretValue: "hello from the set" }],
        }, { headers })
        : Response.json({ error: "no", code: "NOT_FOUND" }, { status: 404, headers });
    });
    try {
      const secrets = await voicebot([
        ...["cloud", "secrets", "run", "bot", "--"],
        // The value reversed: printed as it is, masking would hide it.
        ...["python3", "-c", "import os; print(os.environ['GREETING'][::-1])"],
      ], {
        cwd,
        entry: `${base}/main.ts`,
        denoFlags: ["--no-lock", `--import-map=${base}/deno.json`],
        env: {
          DENO_DIR: cache,
          VOICEBOT_RUNTIME_KEY: runtimeKey,
          VOICEBOT_API_URL: `http://127.0.0.1:${api.addr.port}/v1`,
        },
      });
      assert.equal(secrets.code, 0, secrets.stderr);
      assert.equal(secrets.stdout, "tes eht morf olleh\n");
    } finally {
      await api.shutdown();
    }
    assert.deepEqual(refused, [], "only published files are asked for");
  } finally {
    await server.shutdown();
  }
});
