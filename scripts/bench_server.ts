/**
 * The secrets server under load, side by side with its ceiling on this machine (a bare
 * `Deno.serve` handler that answers with the same bytes) and with an earlier build of itself
 * (EARLIER, from a git worktree: the build before versions and the audit trail, whose speed the
 * server is held to). Each runs as its own process; the load comes from `wrk` (Debian's package,
 * installed here when missing) on one thread, the three measured in turn, ROUNDS times, per case.
 *
 * Cases, on SQLite and on PostgreSQL (VOICEBOT_BENCH_POSTGRES_URL, else
 * VOICEBOT_TEST_POSTGRES_URL; a fresh schema each): `GET /secrets` for an organization with 10
 * sets and one with 1,000 sets, `PUT` merging one key (a new value each time) into a set (with
 * voicebot's own body, which the earlier build takes too, and with the documented body that the
 * client sends), and the runtime read (`GET /runtime/secrets/{setName}`,
 * what every bot start asks; not in the earlier build). Reported: requests per second, p50 and p99
 * latency, the server process's CPU time a request (Linux), and the server's throughput as a share
 * of the ceiling's and of the earlier build's, and its CPU a request as a share of the earlier's.
 * Then scale-out: two server processes on one PostgreSQL database, written through both at once,
 * and 200 keys merged through both into one set, none lost.
 */
import { join } from "pathe";
import { V8_FLAGS } from "./v8_flags.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/**
 * The CLI from source: this tree's, or a worktree's; both with the V8 flags our launchers pass, so
 * that a difference between the two builds is one of their code.
 */
const voicebot = (root = ROOT) => ["run", "-A", "--quiet", ...V8_FLAGS, join(root, "main.ts")];
/** The build before versions and the audit trail (issue 32 holds the server to its speed). */
const EARLIER = "2ec6f0e";
const DURATION = "3s";
const WARMUP = "1s";
/**
 * Each case is measured this many times on each of the three, one after another in turn, and the
 * median run is reported: what the machine does meanwhile falls on all three alike. Five, not
 * three: on a shared machine one slow round in three moved a median ratio by a tenth.
 */
const ROUNDS = 5;
const CONNECTIONS = 64;
/**
 * With taskset and two cores or more, wrk runs on the first core and the servers on the others:
 * the scheduler never puts the load and what it measures on one core, which otherwise moves a
 * figure by a fifth from one run to the next.
 */
const CORES = navigator.hardwareConcurrency;
const PINNED = CORES >= 2 &&
  (await new Deno.Command("sh", { args: ["-c", "command -v taskset"], stdout: "null" }).output())
      .code === 0;
/** `program args...` as the command to run, on `cores` when pinning. */
const onCores = (cores: string, program: string, args: string[]): [string, string[]] =>
  PINNED ? ["taskset", ["-c", cores, program, ...args]] : [program, args];
const LOAD_CORES = "0";
const SERVER_CORES = `1-${CORES - 1}`;
/** PostgreSQL needs a master key; one for the run, which the databases do not outlive. */
const MASTER_KEY = crypto.getRandomValues(new Uint8Array(32)).toBase64();

interface Result {
  requestsPerSecond: number;
  p50: string;
  p99: string;
  /**
   * The server process's CPU time (all its threads) per request answered, in microseconds: what
   * a request costs, which a machine whose speed drifts between runs blurs less than req/s.
   */
  cpuMicros?: number;
}

interface Row {
  name: string;
  server: Result;
  /** Absent where the earlier build has no such route, or could not be built. */
  earlier?: Result;
  ceiling: Result;
  /**
   * Today's rate as a share of the ceiling's and of the earlier build's: the median over the
   * rounds of each round's own ratio, so that the machine's drift between rounds cancels out.
   */
  vsCeiling: Ratio;
  vsEarlier?: Ratio;
}

/** A PostgreSQL URL for the bench (a fresh schema is made in it), else only SQLite runs. */
const POSTGRES_URL = Deno.env.get("VOICEBOT_BENCH_POSTGRES_URL") ??
  Deno.env.get("VOICEBOT_TEST_POSTGRES_URL");

export async function benchServer(): Promise<void> {
  await ensureWrk();
  const work = await Deno.makeTempDir({ prefix: "voicebot-bench-server-" });
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const earlier = await earlierBuild(work, cleanups);
    const backends: [string, () => Promise<string>][] = [[
      "SQLite",
      () => Promise.resolve(join(work, `${crypto.randomUUID()}.db`)),
    ]];
    if (POSTGRES_URL) {
      backends.push(["PostgreSQL", async () => {
        const { url, drop } = await freshSchema(POSTGRES_URL);
        cleanups.push(drop);
        return url;
      }]);
    } else {
      console.error("VOICEBOT_BENCH_POSTGRES_URL is not set: PostgreSQL is skipped.");
    }
    for (const [label, database] of backends) {
      await benchBackend(work, label, database, earlier, cleanups);
    }
    if (POSTGRES_URL) await scaleOut(work, cleanups);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await Deno.remove(work, { recursive: true });
  }
}

/** A git worktree of EARLIER in `work`, removed at the end; undefined (and said) when it fails. */
async function earlierBuild(
  work: string,
  cleanups: (() => Promise<void>)[],
): Promise<string | undefined> {
  const path = join(work, "earlier");
  const git = (...args: string[]) =>
    new Deno.Command("git", { args: ["-C", ROOT, ...args], stdout: "null", stderr: "piped" })
      .output();
  const added = await git("worktree", "add", "--detach", path, EARLIER).catch(() => undefined);
  if (added?.code !== 0) {
    console.error(
      `the earlier build (${EARLIER}) is skipped: no git worktree of it could be made.`,
    );
    return undefined;
  }
  cleanups.push(async () => void await git("worktree", "remove", "--force", path));
  return path;
}

/** One server under test: its base URL, and the keys of its three organizations. */
interface Served {
  baseUrl: string;
  smallKey: string;
  bigKey: string;
  writeKey: string;
}

/**
 * A server of the build at `root` on a fresh database, with an organization of 10 sets, one of
 * 1,000 and one for the writes, all ready.
 */
async function serveBuild(
  work: string,
  label: string,
  database: string,
  root: string,
  cleanups: (() => Promise<void>)[],
): Promise<Served & { pid: number; stop: () => Promise<void> }> {
  const server = await spawnServer(work, database, `${label}.log`, root);
  cleanups.push(server.stop);
  const baseUrl = /^Listening on (\S+)$/m.exec(server.stdout)![1];
  const smallKey = /^(vb_sk_\S+)$/m.exec(server.stdout)![1];
  const bigKey = await createKey(database, "big", root);
  const writeKey = await createKey(database, "writes", root);
  console.error(`${label}: populating 10 sets and 1,000 sets...`);
  await populate(baseUrl, smallKey, 10);
  await populate(baseUrl, bigKey, 1000);
  await waitUntilReady(baseUrl, bigKey);
  await waitUntilReady(baseUrl, smallKey);
  return { baseUrl, smallKey, bigKey, writeKey, pid: server.pid, stop: server.stop };
}

async function benchBackend(
  work: string,
  label: string,
  database: () => Promise<string>,
  earlierRoot: string | undefined,
  cleanups: (() => Promise<void>)[],
) {
  const databaseNow = await database();
  const now = await serveBuild(work, label, databaseNow, ROOT, cleanups);
  const earlier = earlierRoot &&
    await serveBuild(work, `${label} ${EARLIER}`, await database(), earlierRoot, cleanups);
  const smallList = await body(now.baseUrl, now.smallKey, "GET", "/secrets");
  const bigList = await body(now.baseUrl, now.bigKey, "GET", "/secrets");
  // The body the client sends, and voicebot's own, which the earlier build takes too.
  const putBody = JSON.stringify(documentedPut({ BENCH_KEY: "value" }));
  const ownPutBody = JSON.stringify({ type: "secret", secrets: { BENCH_KEY: "value" } });
  const putResponse = await body(now.baseUrl, now.writeKey, "PUT", "/secrets/bench-put", putBody);
  if (earlier) {
    await body(earlier.baseUrl, earlier.writeKey, "PUT", "/secrets/bench-put", ownPutBody);
  }
  // The runtime read: a set of two values, and a runtime key bound to it.
  const runtimeBody = JSON.stringify(documentedPut({ API_KEY: "sk-bench-1", OTHER: "x" }));
  await body(now.baseUrl, now.writeKey, "PUT", "/secrets/bench-run", runtimeBody);
  await waitUntilReady(now.baseUrl, now.writeKey);
  const runtimeKey = await createKey(databaseNow, "writes", ROOT, [
    "--runtime",
    "--set",
    "bench-run",
  ]);
  const runtimeResponse = await body(now.baseUrl, runtimeKey, "GET", "/runtime/secrets/bench-run");

  const ceiling = await spawnCeiling(work, {
    small: smallList,
    big: bigList,
    put: putResponse,
    runtime: runtimeResponse,
  });
  cleanups.push(ceiling.stop);

  const rows: Row[] = [];
  const measure = async (
    name: string,
    path: string,
    key: (served: Served) => string,
    ceilingPath: string,
    options: { script?: string; earlier?: boolean } = {},
  ) => {
    const scriptFile = options.script ? join(work, `${name.replace(/\W+/g, "_")}.lua`) : undefined;
    if (scriptFile) await Deno.writeTextFile(scriptFile, options.script!);
    const targets: [string, string, number][] = [
      [`${now.baseUrl}${path}`, key(now), now.pid],
      ...(earlier && options.earlier !== false
        ? [[`${earlier.baseUrl}${path}`, key(earlier), earlier.pid] as [string, string, number]]
        : []),
      [`${ceiling.origin}${ceilingPath}`, key(now), ceiling.pid],
    ];
    const runs: Result[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [url, apiKey, pid]] of targets.entries()) {
        runs[i].push(await wrk(url, apiKey, scriptFile, round === 0, pid));
      }
    }
    const [server, ...rest] = runs.map(median);
    const hasEarlier = rest.length > 1;
    rows.push({
      name,
      server,
      earlier: hasEarlier ? rest[0] : undefined,
      ceiling: rest.at(-1)!,
      vsCeiling: pairedRatio(runs[0], runs.at(-1)!),
      vsEarlier: hasEarlier ? pairedRatio(runs[0], runs[1]) : undefined,
    });
  };
  await measure("GET /secrets, 10 sets", "/secrets", (s) => s.smallKey, "/small");
  await measure("GET /secrets, 1,000 sets", "/secrets", (s) => s.bigKey, "/big");
  await measure(
    "PUT /secrets/{setName}, merge 1 key",
    "/secrets/bench-put",
    (s) => s.writeKey,
    "/put",
    { script: PUT_SCRIPT(ownPutBody) },
  );
  await measure(
    "PUT, the same, documented body",
    "/secrets/bench-put",
    (s) => s.writeKey,
    "/put",
    { script: PUT_SCRIPT(putBody), earlier: false },
  );
  await measure(
    "GET /runtime/secrets/{setName}",
    "/runtime/secrets/bench-run",
    () => runtimeKey,
    "/runtime",
    { earlier: false },
  );
  report(label, rows, smallList.length, bigList.length);
  await ceiling.stop();
  await now.stop();
  if (earlier) await earlier.stop();
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
function spawnServer(work: string, database: string, log: string, root = ROOT): Promise<Spawned> {
  const isUrl = database.startsWith("postgres");
  return spawn(
    [
      ...voicebot(root),
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
    `\n${label}: secrets server vs. the build ${EARLIER} and a bare Deno.serve returning the same ` +
      `bytes (wrk -t1 -c${CONNECTIONS} -d${DURATION}, the median of ${ROUNDS} interleaved runs; ` +
      `list bodies ${smallBytes} and ${bigBytes} bytes${
        PINNED ? "; wrk on core 0, the servers on the others" : ""
      }; both builds with ${V8_FLAGS.join(" ")})\n`,
  );
  const header = [
    "case",
    "server req/s",
    "p50",
    "p99",
    "cpu/req",
    `${EARLIER} req/s`,
    "p50",
    "p99",
    "cpu/req",
    "bare req/s",
    "p50",
    "p99",
    "cpu/req",
    "vs bare",
    "cpu vs bare",
    `vs ${EARLIER}`,
    "cpu vs it",
  ];
  const cells = (result?: Result) =>
    result ? [result.requestsPerSecond.toFixed(0), result.p50, result.p99] : ["-", "-", "-"];
  const cpu = (result?: Result) =>
    result?.cpuMicros === undefined ? "-" : `${result.cpuMicros.toFixed(0)}us`;
  const ratio = (value?: Ratio) =>
    value === undefined
      ? "-"
      : `${value.median.toFixed(2)} (${value.low.toFixed(2)}-${value.high.toFixed(2)})`;
  const cpuRatio = (result: Result, to?: Result) =>
    result.cpuMicros && to?.cpuMicros ? (result.cpuMicros / to.cpuMicros).toFixed(2) : "-";
  const table = [
    header,
    ...rows.map(({ name, server, earlier, ceiling, vsCeiling, vsEarlier }) => [
      name,
      ...cells(server),
      cpu(server),
      ...cells(earlier),
      cpu(earlier),
      ...cells(ceiling),
      cpu(ceiling),
      ratio(vsCeiling),
      cpuRatio(server, ceiling),
      ratio(vsEarlier),
      cpuRatio(server, earlier),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((cells) => cells[i].length)));
  for (const cells of table) {
    console.log(
      cells.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join(" "),
    );
  }
  console.log(
    `cpu/req: the server process's CPU time (all threads) per request, median of the runs; ` +
      `"vs bare" and "vs ${EARLIER}": the median of each round's ratio of rates ` +
      `(in brackets the lowest and the highest round's); ` +
      `"cpu vs bare": today's as a multiple of the bare server's; ` +
      `"cpu vs it": today's as a share of ${EARLIER}'s (below 1: today's costs less)`,
  );
}

/** A rate as a share of another: the median round's, the lowest round's and the highest's. */
interface Ratio {
  median: number;
  low: number;
  high: number;
}

/** `runs`' rate as a share of `to`'s in the same round, over the rounds. */
function pairedRatio(runs: Result[], to: Result[]): Ratio {
  const ratios = runs.map((run, round) => run.requestsPerSecond / to[round].requestsPerSecond)
    .sort((a, b) => a - b);
  return {
    median: ratios[Math.floor(ratios.length / 2)],
    low: ratios[0],
    high: ratios.at(-1)!,
  };
}

/** The run with the median rate, its latencies with it; the median CPU a request of all runs. */
function median(runs: Result[]): Result {
  const middle = <T>(values: T[], by: (value: T) => number) =>
    [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)];
  const cpu = runs.flatMap((run) => run.cpuMicros ?? []);
  return {
    ...middle(runs, (run) => run.requestsPerSecond),
    cpuMicros: cpu.length === runs.length ? middle(cpu, (micros) => micros) : undefined,
  };
}

/** CPU seconds (user and system, all threads) the process has used; undefined off Linux. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    // Fields after the command name (which may hold spaces), in clock ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ, which /proc reports times in: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** wrk, after a short warm-up when asked; parses requests/s and the latency percentiles. */
async function wrk(
  url: string,
  key: string,
  script?: string,
  warmUp = true,
  pid?: number,
): Promise<Result> {
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
  if (warmUp) {
    const [program, warmArgs] = onCores(LOAD_CORES, "wrk", args(WARMUP));
    await new Deno.Command(program, { args: warmArgs, stdout: "null", stderr: "null" }).output();
  }
  const [program, runArgs] = onCores(LOAD_CORES, "wrk", args(DURATION));
  const cpuBefore = pid === undefined ? undefined : await cpuSeconds(pid);
  const { stdout, code } = await new Deno.Command(program, {
    args: runArgs,
    stderr: "inherit",
  }).output();
  const cpuAfter = pid === undefined ? undefined : await cpuSeconds(pid);
  const text = new TextDecoder().decode(stdout);
  if (code !== 0) throw new Error(`wrk failed:\n${text}`);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (non2xx) throw new Error(`${non2xx[1]} requests failed during the run:\n${text}`);
  const requests = Number(/^\s*(\d+) requests in/m.exec(text)![1]);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)![1]),
    p50: /^\s+50%\s+(\S+)/m.exec(text)![1],
    p99: /^\s+99%\s+(\S+)/m.exec(text)![1],
    cpuMicros: cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : (cpuAfter - cpuBefore) * 1e6 / requests,
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
  pid: number;
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
    args: [
      "-c",
      'log=$1; shift; exec "$@" 2>>"$log"',
      "sh",
      logFile,
      ...onCores(SERVER_CORES, Deno.execPath(), args).flat(),
    ],
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
    pid: child.pid,
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

async function createKey(
  database: string,
  organization: string,
  root = ROOT,
  extra: string[] = [],
): Promise<string> {
  const isUrl = database.startsWith("postgres");
  const { stdout, code } = await new Deno.Command(Deno.execPath(), {
    args: [
      ...voicebot(root),
      "cloud",
      "serve",
      "create-key",
      "-o",
      organization,
      ...extra,
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
