/**
 * The secrets server under load, side by side with its ceiling on this machine: a bare
 * `Deno.serve` handler that answers with the same bytes. Both run as their own process; the
 * load comes from `wrk` (Debian's package, installed here when missing) on one thread.
 *
 * Cases, on SQLite and on PostgreSQL (VOICEBOT_BENCH_POSTGRES_URL, else
 * VOICEBOT_TEST_POSTGRES_URL; a fresh schema each): `GET /secrets` for an organization with 10
 * sets and one with 1,000 sets, and `PUT` merging one key (a new value each time) into a set,
 * with the documented body that the client sends. Reported: requests per second, p50 and p99 latency, and the server's throughput as a share of
 * the ceiling's, measured in the same run. Then scale-out: two server processes on one PostgreSQL database, written
 * through both at once, and 200 keys merged through both into one set, none lost.
 */
import { join } from "pathe";

const ROOT = new URL("..", import.meta.url).pathname;
/** `deno <VOICEBOT...>` runs the CLI from source. */
const VOICEBOT = ["run", "-A", "--quiet", join(ROOT, "main.ts")];
const DURATION = "5s";
const WARMUP = "1s";
const CONNECTIONS = 64;
/** PostgreSQL needs a master key; one for the run, which the databases do not outlive. */
const MASTER_KEY = crypto.getRandomValues(new Uint8Array(32)).toBase64();

interface Result {
  requestsPerSecond: number;
  p50: string;
  p99: string;
}

interface Row {
  name: string;
  server: Result;
  ceiling: Result;
}

/** A PostgreSQL URL for the bench (a fresh schema is made in it), else only SQLite runs. */
const POSTGRES_URL = Deno.env.get("VOICEBOT_BENCH_POSTGRES_URL") ??
  Deno.env.get("VOICEBOT_TEST_POSTGRES_URL");

export async function benchServer(): Promise<void> {
  await ensureWrk();
  const work = await Deno.makeTempDir({ prefix: "voicebot-bench-server-" });
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const backends: [string, string][] = [["SQLite", join(work, "bench.db")]];
    if (POSTGRES_URL) {
      const { url, drop } = await freshSchema(POSTGRES_URL);
      cleanups.push(drop);
      backends.push(["PostgreSQL", url]);
    } else {
      console.error("VOICEBOT_BENCH_POSTGRES_URL is not set: PostgreSQL is skipped.");
    }
    for (const [label, database] of backends) {
      await benchBackend(work, label, database, cleanups);
    }
    if (POSTGRES_URL) await scaleOut(work, cleanups);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await Deno.remove(work, { recursive: true });
  }
}

async function benchBackend(
  work: string,
  label: string,
  database: string,
  cleanups: (() => Promise<void>)[],
) {
  const server = await spawnServer(work, database, `${label}.log`);
  cleanups.push(server.stop);
  const baseUrl = /^Listening on (\S+)$/m.exec(server.stdout)![1];
  const smallKey = /^(vb_sk_\S+)$/m.exec(server.stdout)![1];
  const bigKey = await createKey(database, "big");

  console.error(`${label}: populating 10 sets and 1,000 sets...`);
  await populate(baseUrl, smallKey, 10);
  await populate(baseUrl, bigKey, 1000);
  await waitUntilReady(baseUrl, bigKey);
  await waitUntilReady(baseUrl, smallKey);
  const smallList = await body(baseUrl, smallKey, "GET", "/secrets");
  const bigList = await body(baseUrl, bigKey, "GET", "/secrets");
  const putBody = JSON.stringify(documentedPut({ BENCH_KEY: "value" }));
  const putResponse = await body(baseUrl, smallKey, "PUT", "/secrets/bench-put", putBody);

  const ceiling = await spawnCeiling(work, { small: smallList, big: bigList, put: putResponse });
  cleanups.push(ceiling.stop);

  const rows: Row[] = [];
  const measure = async (
    name: string,
    path: string,
    key: string,
    ceilingPath: string,
    script?: string,
  ) => {
    const scriptFile = script ? join(work, `${name.replace(/\W+/g, "_")}.lua`) : undefined;
    if (scriptFile) await Deno.writeTextFile(scriptFile, script!);
    rows.push({
      name,
      server: await wrk(`${baseUrl}${path}`, key, scriptFile),
      ceiling: await wrk(`${ceiling.origin}${ceilingPath}`, key, scriptFile),
    });
  };
  await measure("GET /secrets, 10 sets", "/secrets", smallKey, "/small");
  await measure("GET /secrets, 1,000 sets", "/secrets", bigKey, "/big");
  await measure(
    "PUT /secrets/{setName}, merge 1 key",
    "/secrets/bench-put",
    smallKey,
    "/put",
    PUT_SCRIPT(putBody),
  );
  report(label, rows, smallList.length, bigList.length);
  await ceiling.stop();
  await server.stop();
}

/** The documented PUT body, which `voicebot cloud secrets set` sends. */
const documentedPut = (values: Record<string, string>) => ({
  secrets: Object.entries(values).map(([secretKey, secretValue]) => ({ secretKey, secretValue })),
});

/**
 * wrk's PUT of `putBody` with BENCH_KEY given a new value on every request: the server leaves a key
 * written with the value it holds as it is (unchanged), so the same body again would measure a
 * write that writes nothing.
 */
const PUT_SCRIPT = (putBody: string) =>
  `wrk.method = "PUT"\nwrk.headers["Content-Type"] = "application/json"\nlocal n = 0\n` +
  `request = function()\n  n = n + 1\n` +
  `  return wrk.format(nil, nil, nil, (string.gsub('${putBody}', '"value"', '"value-' .. n .. '"')))\n` +
  `end\n`;

/**
 * Two server processes on one PostgreSQL database, wrk writing through both at once; then 200
 * distinct keys merged into one set through both, concurrently, and every one of them read back.
 */
async function scaleOut(work: string, cleanups: (() => Promise<void>)[]) {
  const { url, drop } = await freshSchema(POSTGRES_URL!);
  cleanups.push(drop);
  const one = await spawnServer(work, url, "scale-one.log");
  cleanups.push(one.stop);
  const two = await spawnServer(work, url, "scale-two.log");
  cleanups.push(two.stop);
  const key = /^(vb_sk_\S+)$/m.exec(one.stdout)![1];
  const urls = [one, two].map((server) => /^Listening on (\S+)$/m.exec(server.stdout)![1]);
  const putBody = JSON.stringify(documentedPut({ BENCH_KEY: "value" }));
  const script = join(work, "scale_put.lua");
  await Deno.writeTextFile(script, PUT_SCRIPT(putBody));
  for (const [i, baseUrl] of urls.entries()) {
    await body(baseUrl, key, "PUT", `/secrets/scale-${i}`, putBody);
  }
  const results = await Promise.all(
    urls.map((baseUrl, i) => wrk(`${baseUrl}/secrets/scale-${i}`, key, script)),
  );
  const total = results.reduce((sum, result) => sum + result.requestsPerSecond, 0);

  const writes = Array.from({ length: 200 }, (_, n) =>
    body(
      urls[n % 2],
      key,
      "PUT",
      "/secrets/merged",
      JSON.stringify(documentedPut({ [`K${n}`]: `v${n}` })),
    ));
  await Promise.all(writes);
  const { keys } = JSON.parse(await body(urls[0], key, "GET", "/secrets/merged"));
  const lost = 200 - new Set(keys).size;
  console.log(
    `\nScale-out: two server processes on one PostgreSQL, PUT through both at once ` +
      `(wrk -t1 -c${CONNECTIONS} each)\n` +
      results.map((result, i) =>
        `  process ${i + 1}: ${
          result.requestsPerSecond.toFixed(0)
        } req/s, p50 ${result.p50}, p99 ${result.p99}`
      ).join("\n") +
      `\n  together: ${total.toFixed(0)} req/s` +
      `\n  200 keys merged into one set through both at once: ${lost} lost`,
  );
  await one.stop();
  await two.stop();
  if (lost > 0) throw new Error(`${lost} acknowledged keys were lost`);
}

/** `voicebot cloud serve` on the database; a URL goes through the environment, as documented. */
function spawnServer(work: string, database: string, log: string): Promise<Spawned> {
  const isUrl = database.startsWith("postgres");
  return spawn(
    [
      ...VOICEBOT,
      "cloud",
      "serve",
      "--port",
      "0",
      ...(isUrl ? [] : ["--database", database]),
      "--rate-limit",
      "0",
      "--provision-delay",
      "0",
    ],
    join(work, log),
    isUrl ? { VOICEBOT_DATABASE_URL: database } : {},
  );
}

/** A new schema in the PostgreSQL database, and how to drop it. */
async function freshSchema(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `bench_${crypto.getRandomValues(new Uint8Array(6)).toHex()}`;
  const { default: postgres } = await import("postgres");
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set("search_path", schema);
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

function report(label: string, rows: Row[], smallBytes: number, bigBytes: number) {
  console.log(
    `\n${label}: secrets server vs. a bare Deno.serve returning the same bytes (wrk -t1 -c${CONNECTIONS} -d${DURATION}; ` +
      `list bodies ${smallBytes} and ${bigBytes} bytes)\n`,
  );
  const header = ["case", "server req/s", "p50", "p99", "ceiling req/s", "p50", "p99", "ratio"];
  const widths = [34, 13, 9, 9, 14, 9, 9, 6];
  const line = (cells: string[]) =>
    cells.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join(" ");
  console.log(line(header));
  for (const { name, server, ceiling } of rows) {
    console.log(line([
      name,
      server.requestsPerSecond.toFixed(0),
      server.p50,
      server.p99,
      ceiling.requestsPerSecond.toFixed(0),
      ceiling.p50,
      ceiling.p99,
      (server.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2),
    ]));
  }
}

/** wrk, after a short warm-up; parses requests/s and the latency percentiles. */
async function wrk(url: string, key: string, script?: string): Promise<Result> {
  const args = (duration: string) => [
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${duration}`,
    "--latency",
    "-H",
    `Authorization: Bearer ${key}`,
    ...(script ? ["-s", script] : []),
    url,
  ];
  await new Deno.Command("wrk", { args: args(WARMUP), stdout: "null", stderr: "null" }).output();
  const { stdout, code } = await new Deno.Command("wrk", {
    args: args(DURATION),
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(stdout);
  if (code !== 0) throw new Error(`wrk failed:\n${text}`);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (non2xx) throw new Error(`${non2xx[1]} requests failed during the run:\n${text}`);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)![1]),
    p50: /^\s+50%\s+(\S+)/m.exec(text)![1],
    p99: /^\s+99%\s+(\S+)/m.exec(text)![1],
  };
}

async function ensureWrk() {
  const found = await new Deno.Command("sh", { args: ["-c", "command -v wrk"], stdout: "null" })
    .output();
  if (found.code === 0) return;
  console.error("installing wrk from Debian's packages...");
  const install = await new Deno.Command("sh", {
    args: ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk"],
    stdout: "null",
  }).output();
  if (install.code !== 0) {
    throw new Error("wrk is missing and could not be installed: `apt-get install wrk`.");
  }
}

interface Spawned {
  stdout: string;
  stop: () => Promise<void>;
}

/**
 * Starts `deno <args>` with stderr appended to `logFile` by the shell, as a service manager
 * would, so that no other process spends CPU relaying logs. Resolves on its `Listening on` line.
 */
async function spawn(
  args: string[],
  logFile: string,
  env: Record<string, string> = {},
): Promise<Spawned> {
  const child = new Deno.Command("sh", {
    args: ["-c", 'log=$1; shift; exec "$@" 2>>"$log"', "sh", logFile, Deno.execPath(), ...args],
    stdin: "null",
    stdout: "piped",
    env: { VOICEBOT_MASTER_KEY: MASTER_KEY, ...env },
  }).spawn();
  let stdout = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  while (!/^Listening on /m.test(stdout)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`exited before listening: ${stdout}`);
    stdout += value;
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* keep the pipe empty */ }
  })();
  let stopped: Promise<void> | undefined;
  return {
    stdout,
    stop: () =>
      stopped ??= (async () => {
        child.kill("SIGTERM");
        await child.status;
        await drained;
      })(),
  };
}

/** The ceiling: a bare Deno.serve answering each case's path with that case's exact bytes. */
async function spawnCeiling(
  work: string,
  bodies: Record<string, string>,
): Promise<Spawned & { origin: string }> {
  const script = join(work, "ceiling.ts");
  await Deno.writeTextFile(
    script,
    `const bodies = ${JSON.stringify(bodies)};
const encoded = Object.fromEntries(Object.entries(bodies).map(([k, v]) => ["/" + k, new TextEncoder().encode(v)]));
const headers = { "content-type": "application/json" };
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("Listening on http://127.0.0.1:" + port) },
  async (request) => {
    if (request.body) await request.arrayBuffer();
    return new Response(encoded[new URL(request.url).pathname], { headers });
  });
`,
  );
  const spawned = await spawn(["run", "-A", script], join(work, "ceiling.log"));
  return { ...spawned, origin: /^Listening on (\S+)$/m.exec(spawned.stdout)![1] };
}

async function createKey(database: string, organization: string): Promise<string> {
  const isUrl = database.startsWith("postgres");
  const { stdout, code } = await new Deno.Command(Deno.execPath(), {
    args: [
      ...VOICEBOT,
      "cloud",
      "serve",
      "create-key",
      "-o",
      organization,
      ...(isUrl ? [] : ["--database", database]),
    ],
    env: { VOICEBOT_MASTER_KEY: MASTER_KEY, ...(isUrl ? { VOICEBOT_DATABASE_URL: database } : {}) },
    stdin: "null",
    stderr: "null",
  }).output();
  if (code !== 0) throw new Error("create-key failed");
  return new TextDecoder().decode(stdout).trim();
}

async function body(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  json?: string,
): Promise<string> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(json ? { "content-type": "application/json" } : {}),
    },
    body: json,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text;
}

async function populate(baseUrl: string, key: string, count: number) {
  for (let start = 0; start < count; start += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, (_, i) => {
        const n = start + i;
        const payload = n % 10 === 9
          ? {
            type: "imagePullSecret",
            host: "registry.example.com",
            credentials: btoa("robot:pass"),
          }
          : { type: "secret", secrets: { API_KEY: `value-${n}`, OTHER: "x" } };
        return body(
          baseUrl,
          key,
          "PUT",
          `/secrets/set-${String(n).padStart(4, "0")}`,
          JSON.stringify(payload),
        );
      }),
    );
  }
}

async function waitUntilReady(baseUrl: string, key: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { sets } = JSON.parse(await body(baseUrl, key, "GET", "/secrets"));
    if (sets.every((set: { status: string }) => set.status !== "pending")) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("sets stayed pending");
}

if (import.meta.main) await benchServer();
