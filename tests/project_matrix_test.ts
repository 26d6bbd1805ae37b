/**
 * Generates a matrix of projects that covers every transport (PSTN and SIP in both directions),
 * both modes, every client option, each feature flag on and off and every service of the catalog,
 * and checks each project: its Python compiles with no unused import or undefined name and passes
 * the ruff rules its pyproject.toml configures (ruff's own WebAssembly build, the version the dev
 * group allows), its TOML and JSON parse, its eval scenarios are YAML.
 *
 * What a project should contain is not taken from the generator (its catalog, its functions):
 * - the extras, from what Pipecat's modules that bot.py imports need at the pinned release
 *   (tests/data/pipecat_facts.json, which scripts/pipecat_facts.py derives from Pipecat's source);
 * - the environment, from Python's own parser reading bot.py (tests/bot_facts.py): `.env.example`
 *   lists exactly what the code reads, and what Pipecat's runner reads for the bot's transports;
 * - the secret set, from the other files that name it;
 * - the image's command, run by a shell with a stand-in `python`, against the runner's own options
 *   (which transport it serves, the public host of a carrier's webhook, Daily's dial-in webhook);
 * - the image's user (a fixed uid, not root, after every step that needs root, with a home it owns
 *   where what the bot writes goes), its health check (a runner route that starts no session, by
 *   pipecat_facts.json) and its `.dockerignore`; and, for each class that Pipecat's source says
 *   fetches model files when constructed (`model_downloads`), a build step that constructs it as
 *   bot.py does, where the running bot looks for the files, in no other image. A project with such
 *   a class and no image gets a variant with one (`imageVariants`);
 * - the routes: requests sent through what bot.py adds to the runner's app (tests/bot_routes.py)
 *   to every route of the runner that starts a session, with and without the token the README
 *   tells the owner to send, and the dial-out the README shows: a room of its own, whatever
 *   DAILY_ROOM_URL says, and failed calls retried; the health check's route answers 200 to anyone.
 *
 * Set VOICEBOT_MATRIX_DIR to keep the projects, e.g. for scripts/check_pipecat_api.py.
 */
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { serviceIds, SERVICES } from "../src/init/catalog.ts";
import { resolveConfig, type ScaffoldConfig, type ScaffoldInput } from "../src/init/config.ts";
import { loadTemplates, planProject } from "../src/init/project.ts";
import { servicesOf } from "../src/init/project_view.ts";
import type { PlannedFile } from "../src/init/writer.ts";
import { ruffProblems } from "./ruff.ts";

// ---------------------------------------------------------------------------------------------
// The matrix

interface TransportSet {
  transports: string[];
  daily_pstn_mode?: string;
  twilio_daily_sip_mode?: string;
}

const TRANSPORT_SETS: readonly TransportSet[] = [
  { transports: ["hosted", "lightweb"] },
  { transports: ["carrier1"] },
  { transports: ["websocket"] },
  { transports: ["hosted_pstn"], daily_pstn_mode: "dial-in" },
  { transports: ["lightweb"] },
  { transports: ["carrier2"] },
  { transports: ["hosted_pstn"], daily_pstn_mode: "dial-out" },
  { transports: ["hosted"] },
  { transports: ["carrier3"] },
  { transports: ["carrier1_hosted_sip"], twilio_daily_sip_mode: "dial-in" },
  { transports: ["carrier4"] },
  { transports: ["lightweb", "websocket"] },
  { transports: ["carrier1_hosted_sip"], twilio_daily_sip_mode: "dial-out" },
  {
    transports: ["lightweb", "carrier1", "carrier2", "carrier3", "carrier4", "hosted_pstn"],
    daily_pstn_mode: "dial-out",
  },
  {
    transports: ["hosted", "hosted_pstn", "carrier1_hosted_sip"],
    daily_pstn_mode: "dial-in",
    twilio_daily_sip_mode: "dial-out",
  },
  {
    transports: ["carrier1", "hosted_pstn", "carrier1_hosted_sip"],
    daily_pstn_mode: "dial-out",
    twilio_daily_sip_mode: "dial-in",
  },
  { transports: ["hosted_pstn", "websocket"], daily_pstn_mode: "dial-in" },
];

const CLIENTS = [
  { client_framework: "none" },
  { client_framework: "vanilla" },
  { client_framework: "uilib", client_server: "devserver_a" },
  { client_framework: "uilib", client_server: "devserver_b" },
] as const;

const FLAGS = [
  "recording",
  "transcription",
  "deploy_to_cloud",
  "enable_denoise",
  "enable_observability",
  "eval",
] as const;

const ids = (kind: string) => SERVICES.filter((s) => s.kind === kind).map((s) => s.id);

/** One input per project: each service list is walked in step, and everything else rotates. */
function matrix(): ScaffoldInput[] {
  const [stt, llm, tts, realtime, video] = ["stt", "llm", "tts", "realtime", "video"].map(ids);
  const cascadeCount = Math.max(stt.length, llm.length, tts.length);
  const inputs: ScaffoldInput[] = [];
  let web = 0;
  for (let i = 0; i < cascadeCount + realtime.length; i++) {
    const set = TRANSPORT_SETS[i % TRANSPORT_SETS.length];
    const on = (k: number) => (((i >> (k % 4)) + k) & 1) === 1;
    const input: ScaffoldInput = {
      project_name: `bot-${String(i).padStart(2, "0")}`,
      ...set,
      ...(i < cascadeCount
        ? {
          mode: "cascade",
          stt_service: stt[i % stt.length],
          llm_service: llm[i % llm.length],
          tts_service: tts[i % tts.length],
        }
        : { mode: "realtime", realtime_service: realtime[i - cascadeCount] }),
    };
    FLAGS.forEach((flag, k) => input[flag] = on(k));
    if (!input.deploy_to_cloud) input.enable_denoise = false;
    if (set.transports.every((t) => ["hosted", "lightweb", "websocket"].includes(t))) {
      Object.assign(input, CLIENTS[web % CLIENTS.length]);
      // Avatars in turn, then a bot with no avatar, which may still have a camera of its own;
      // none over the websocket alone, whose frames carry audio only.
      const avatar = [...video, null][web % (video.length + 1)];
      const hasVideo = set.transports.some((t) => t !== "websocket");
      if (avatar && hasVideo) input.video_service = avatar;
      else input.video_output = hasVideo && on(6);
      // A cascade bot's LLM never sees the camera, nor do some speech-to-speech models (checked
      // by checkCamera); the camera goes to the bots below.
      web++;
    }
    inputs.push(input);
  }
  // A realtime web bot that watches the camera: the first realtime service init lets take it.
  const watcher = realtime.map((id): ScaffoldInput => ({
    project_name: `bot-${inputs.length}`,
    transports: ["lightweb", "hosted"],
    mode: "realtime",
    realtime_service: id,
    client_framework: "vanilla",
    video_input: true,
    eval: true,
  })).find((input) => {
    const { problems, warnings } = resolveConfig(input, "unused");
    return problems.length === 0 && warnings.length === 0;
  });
  assert.ok(watcher, "no realtime service takes the camera");
  // A cascade web bot with the camera, which Pipecat's scaffolder makes (init warns that no service
  // sees it), under a name with capitals, which it takes too: the image and the secret set are
  // named in lower case.
  const cascadeCamera: ScaffoldInput = {
    project_name: `Camera-Bot-${inputs.length + 1}`,
    transports: ["hosted", "lightweb"],
    mode: "cascade",
    stt_service: stt[0],
    llm_service: llm[0],
    tts_service: tts[0],
    client_framework: "uilib",
    video_input: true,
    deploy_to_cloud: true,
  };
  return [...inputs, watcher, cascadeCamera];
}

function configs(): ScaffoldConfig[] {
  return matrix().map((input) => {
    const { config, problems } = resolveConfig(input, "unused");
    assert.deepEqual(problems, [], `invalid matrix entry ${JSON.stringify(input)}`);
    return config!;
  });
}

// ---------------------------------------------------------------------------------------------
// Facts from outside the generator

/** Derived from Pipecat's source at the pinned release by scripts/pipecat_facts.py. */
interface PipecatFacts {
  tag: string;
  requires_python: string;
  extras: string[];
  python312_extras: string[];
  aws_sdk_extras: string[];
  runner_transports: Record<string, string[]>;
  runner_env: Record<string, string[]>;
  needs: Record<string, string[][]>;
  optional: Record<string, string[]>;
  deprecated: string[];
  session_token_parameters: Record<string, string>;
  scaffold_models: string[];
  runner_flags: Record<string, RunnerFlag>;
  runner_routes: RunnerRoute[];
  runner_websockets: { path: string; starts_session: boolean; token_with_ws_auth: boolean }[];
  camera_classes: string[];
  model_defaults: Record<string, string>;
  runner_carrier_env: Record<string, string[]>;
  /** The keywords given which `pipecat.runner.daily.configure` makes a room despite DAILY_ROOM_URL. */
  daily_configure_new_room: string[];
  /** Classes whose construction fetches model files: the calls that fetch, and where to. */
  model_downloads: Record<string, { fetch: string[]; cache: string | null }>;
}

/** One option of Pipecat's development runner. */
interface RunnerFlag {
  names: string[];
  takes_value: boolean;
  choices?: string[];
  default?: unknown;
}

/** One HTTP route of the runner, and the conditions (`args.dialin`, ...) it is mounted under. */
interface RunnerRoute {
  path: string;
  methods: string[];
  starts_session: boolean;
  when: string[];
}

const FACTS: PipecatFacts = JSON.parse(
  await Deno.readTextFile(new URL("./data/pipecat_facts.json", import.meta.url)),
);

/** What tests/bot_facts.py reads in a bot.py with Python's own parser. */
interface BotFacts {
  pipecat_modules: string[];
  env: Record<string, { required: boolean; defaults: (string | null)[] }>;
  transports: string[];
  session_types: string[];
  constructions: { callee: string; keywords: Record<string, string | null> }[];
}

/** How tests/bot_sessions.py saw a session of one type end. */
interface SessionOutcome {
  outcome: "accepted" | "refused" | "crashed";
  message?: string;
}

/**
 * The sessions each transport's calls and visitors come in, as tests/bot_sessions.py names them:
 * Pipecat's runner argument class (runner/types.py), and for a carrier's media stream on /ws the
 * carrier the runner's parse finds in it.
 */
const SESSION_OF_TRANSPORT: Readonly<Record<string, string>> = {
  hosted: "DailyRunnerArguments",
  hosted_pstn: "DailyRunnerArguments",
  carrier1_hosted_sip: "DailyRunnerArguments",
  lightweb: "SmallWebRTCRunnerArguments",
  websocket: "WebSocketRunnerArguments:websocket",
  carrier1: "WebSocketRunnerArguments:twilio",
  carrier2: "WebSocketRunnerArguments:telnyx",
  carrier3: "WebSocketRunnerArguments:plivo",
  carrier4: "WebSocketRunnerArguments:exotel",
};

/**
 * Each bot accepts the sessions of its transports, and refuses every other kind the runner makes
 * with a message of its own: no crash on a missing attribute, and no "Missing transport params".
 */
function checkSessions(config: ScaffoldConfig, sessions: Record<string, SessionOutcome>) {
  const served = new Set(
    config.transports.map((t) => SESSION_OF_TRANSPORT[t.replace(/_dial(in|out)$/, "")]),
  );
  if (config.eval) served.add("EvalRunnerArguments");
  for (const [type, { outcome, message }] of Object.entries(sessions)) {
    const expected = served.has(type) ? "accepted" : "refused";
    assert.equal(outcome, expected, `${config.project_name}: a ${type} session: ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The image's command and the routes

/** The runner's options as its parser would read `args`: each option's value, by dest name. */
function runnerArgs(name: string, args: string[]): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const [long, flag] of Object.entries(FACTS.runner_flags)) {
    values.set(dest(long), flag.default ?? (flag.takes_value ? null : false));
  }
  for (let i = 0; i < args.length; i++) {
    const [option, inline] = args[i].split(/=(.*)/s);
    const entry = Object.entries(FACTS.runner_flags).find(([, f]) => f.names.includes(option));
    assert.ok(entry, `${name}: the runner has no option ${option}`);
    const [long, flag] = entry;
    if (!flag.takes_value) {
      values.set(dest(long), !option.startsWith("--no-"));
      continue;
    }
    const value = inline ?? args[++i];
    assert.ok(value !== undefined, `${name}: ${option} needs a value`);
    if (flag.choices) assert.ok(flag.choices.includes(value), `${name}: ${option} ${value}`);
    values.set(dest(long), value);
  }
  return values;
}

function dest(long: string): string {
  return long.replace(/^--/, "").replaceAll("-", "_");
}

/** Whether the runner mounts a route with these options: its `args.x` conditions, evaluated. */
function mounted(route: RunnerRoute, args: Map<string, unknown>): boolean {
  return route.when.every((condition) => {
    const test = condition.match(/^(not \()?args\.(\w+)\)?$/);
    if (!test) return true; // a condition on something else (the transport): it may hold
    return Boolean(args.get(test[2])) !== Boolean(test[1]);
  });
}

/** The runner's routes that start a session, for a bot started with `args`. */
function sessionRoutes(args: Map<string, unknown>): RunnerRoute[] {
  return FACTS.runner_routes.filter((r) =>
    r.starts_session && !r.path.includes("{") && mounted(r, args)
  );
}

/** A stand-in `python` that prints its arguments, one a line. */
async function fakePython(root: string): Promise<string> {
  const path = `${root}/fake-bin/python`;
  await Deno.mkdir(`${root}/fake-bin`, { recursive: true });
  await Deno.writeTextFile(path, '#!/bin/sh\nfor arg in "$@"; do printf "%s\\n" "$arg"; done\n');
  await Deno.chmod(path, 0o755);
  return path;
}

/** Runs the image's CMD as the image would, `python` being the stand-in: its exit and arguments. */
async function runImageCommand(command: string[], python: string, env: Record<string, string>) {
  const [program, ...args] = command;
  const output = await new Deno.Command(program === "python" ? python : program, {
    args,
    env: { ...env, PATH: `${python.slice(0, python.lastIndexOf("/"))}:/usr/bin:/bin` },
    clearEnv: true,
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  return {
    code: output.code,
    stderr: new TextDecoder().decode(output.stderr),
    argv: stdout.split("\n").slice(0, -1),
  };
}

/** The variable the README has the owner put in Daily's dial-in webhook URL, if any. */
function dialinTokenVariable(readme: string): string | undefined {
  return readme.match(/\/daily-dialin-webhook\?token=<([A-Z][A-Z0-9_]*)>/)?.[1];
}

/**
 * The image: its command runs Pipecat's runner (bot.py) with options the runner has, on all
 * interfaces at the exposed port; a phone bot's for a carrier it takes, with the public host its
 * webhook answers with, from the environment; Daily's dial-in webhook only for a bot that takes
 * PSTN dial-in; nothing starts without the variables it needs (a start token always). The README
 * says how to serve the web transports the command leaves out.
 */
async function checkImage(
  config: ScaffoldConfig,
  files: Map<string, string>,
  bot: BotFacts,
  python: string,
) {
  const name = config.project_name;
  const dockerfile = files.get("server/Dockerfile")!;
  const readme = files.get("README.md")!;
  assert.match(dockerfile, /^EXPOSE 7860$/m, `${name}: EXPOSE`);
  const steps = dockerInstructions(dockerfile);
  checkImageUser(name, steps, bot);
  checkHealthCheck(name, steps);
  checkModelSteps(name, steps, files.get("server/bot.py")!, bot);
  checkDockerignore(name, steps, files.get("server/.dockerignore"));
  const command = JSON.parse(dockerfile.match(/^CMD (.*)$/m)![1]) as string[];
  const reads = [...new Set(imageReads(dockerfile))];
  const env = Object.fromEntries(reads.map((v) => [v, `value-of-${v.toLowerCase()}`]));
  assert.ok(reads.includes("BOT_START_TOKEN"), `${name}: the image starts without a start token`);
  const dialIn = config.transports.includes("hosted_pstn_dialin");
  if (dialIn) {
    const variable = dialinTokenVariable(readme);
    assert.ok(variable && reads.includes(variable), `${name}: the image needs ${variable}`);
  }
  for (const variable of reads) {
    const without = await runImageCommand(
      command,
      python,
      Object.fromEntries(Object.entries(env).filter(([v]) => v !== variable)),
    );
    assert.notEqual(without.code, 0, `${name}: the image starts without ${variable}`);
    assert.ok(without.stderr.includes(variable), `${name}: ${without.stderr}`);
  }
  const run = await runImageCommand(command, python, env);
  assert.equal(run.code, 0, `${name}: ${run.stderr}`);
  const [script, ...options] = run.argv;
  assert.equal(script, "bot.py", `${name}: the image runs ${run.argv.join(" ")}`);
  const args = runnerArgs(name, options);
  assert.equal(args.get("host"), "0.0.0.0", `${name}: --host`);
  assert.equal(args.get("port"), "7860", `${name}: --port`);
  assert.equal(args.get("whatsapp"), false, `${name}: --whatsapp`);
  const transport = args.get("transport") as string | null;
  if (transport) assert.ok(bot.transports.includes(transport), `${name}: -t ${transport}`);
  const carriers = bot.transports.filter((t) => t in FACTS.runner_carrier_env);
  if (carriers.length > 0) {
    // The runner answers a carrier's webhook only for the carrier of -t, with wss://<proxy>/ws.
    assert.ok(carriers.includes(transport!), `${name}: -t ${transport}, carriers ${carriers}`);
    const proxy = args.get("proxy") as string | null;
    assert.ok(proxy && Object.values(env).includes(proxy), `${name}: --proxy ${proxy}`);
  }
  const webhook = FACTS.runner_routes.find((r) => r.path === "/daily-dialin-webhook")!;
  assert.equal(mounted(webhook, args), dialIn, `${name}: the image's Daily dial-in webhook`);
  // The browser transports, which start on the runner's /start, that -t leaves out: the README
  // says how to serve them.
  const image = readme.slice(readme.indexOf("### How the image runs"));
  for (const browser of config.transports.map((t) => BROWSER_RUNNER[t]).filter(Boolean)) {
    if (transport && browser !== transport) {
      assert.match(image, new RegExp(`-t ${browser}\\b`), `${name}: the README on -t ${browser}`);
    }
  }
}

/** One instruction of a Dockerfile, with the user, working directory and environment it runs in. */
interface DockerStep {
  op: string;
  args: string;
  user: string;
  workdir: string;
  env: Record<string, string>;
}

/** A Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerInstructions(dockerfile: string): DockerStep[] {
  const logical: string[] = [];
  let current = "";
  for (const line of dockerfile.split("\n")) {
    if (/^\s*#/.test(line)) continue;
    if (line.endsWith("\\")) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    if (current || line.trim()) logical.push(current + line);
    current = "";
  }
  let user = "root";
  let workdir = "/";
  const env: Record<string, string> = {};
  return logical.map((line) => {
    const [, op, args] = line.match(/^(\w+)\s+(.*)$/s)!;
    const upper = op.toUpperCase();
    if (upper === "USER") user = args.trim();
    if (upper === "WORKDIR") workdir = args.startsWith("/") ? args : `${workdir}/${args}`;
    if (upper === "ENV") {
      for (const [, key, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) {
        env[key] = value.replace(/^"(.*)"$/, "$1");
      }
    }
    return { op: upper, args: args.trim(), user, workdir, env: { ...env } };
  });
}

/** The image's user: its uid, from `useradd`, and its home. */
function imageUser(name: string, steps: DockerStep[]) {
  const users = steps.filter((s) => s.op === "USER");
  assert.equal(users.length, 1, `${name}: one USER line, not ${users.length}`);
  const [, uid, gid] = users[0].args.match(/^(\d+)(?::(\d+))?$/) ?? [];
  assert.ok(
    uid && uid !== "0" && gid !== "0",
    `${name}: USER ${users[0].args}: a fixed uid, not root`,
  );
  const made = steps.find((s) => s.op === "RUN" && /\buseradd\b/.test(s.args));
  assert.ok(made, `${name}: no useradd`);
  assert.equal(made.args.match(/--uid (\d+)/)?.[1], uid, `${name}: useradd's uid`);
  assert.match(made.args, /--create-home\b/, `${name}: the user has no home of its own`);
  const home = made.args.match(/--home-dir (\S+)/)?.[1];
  assert.ok(home, `${name}: the user's home`);
  return { uid, home, at: steps.indexOf(users[0]) };
}

/**
 * The image runs the bot as an unprivileged user with a fixed uid: every step that needs root
 * comes before USER, and after it only the build steps that fetch models run, as that user. The
 * bot's code stays root's (no chown); what it writes goes to the user's home.
 */
function checkImageUser(name: string, steps: DockerStep[], bot: BotFacts) {
  const { uid, home, at } = imageUser(name, steps);
  const after = steps.slice(at + 1);
  for (const step of after) {
    assert.ok(
      ["ENV", "COPY", "EXPOSE", "HEALTHCHECK", "CMD", "RUN"].includes(step.op),
      `${name}: ${step.op} after USER`,
    );
    if (step.op === "RUN") {
      assert.ok(constructedBy(step).length > 0, `${name}: RUN ${step.args} after USER`);
    }
    if (step.op === "COPY") assert.doesNotMatch(step.args, /--chown/, `${name}: ${step.args}`);
  }
  for (const step of steps) {
    assert.doesNotMatch(step.args, /\bch(own|mod)\b/, `${name}: ${step.args}`);
  }
  const cmd = steps.find((s) => s.op === "CMD")!;
  assert.equal(cmd.user.split(":")[0], uid, `${name}: the bot runs as ${cmd.user}`);
  assert.equal(cmd.env.HOME, home, `${name}: HOME ${cmd.env.HOME}, the user's home ${home}`);
  assert.notEqual(cmd.workdir, home, `${name}: the code sits in the user's home`);
  // What the bot writes: its recordings, in a directory under the user's home.
  if ("RECORDINGS_DIR" in bot.env) {
    const dir = cmd.env.RECORDINGS_DIR ?? "";
    assert.ok(dir.startsWith(`${home}/`), `${name}: RECORDINGS_DIR ${dir} outside ${home}`);
  }
}

/** The health check probes a route of the runner that starts no session, whatever its options. */
function checkHealthCheck(name: string, steps: DockerStep[]): string {
  const checks = steps.filter((s) => s.op === "HEALTHCHECK");
  assert.equal(checks.length, 1, `${name}: HEALTHCHECK`);
  const command = JSON.parse(checks[0].args.match(/\bCMD (\[.*\])$/)![1]) as string[];
  const url = command.join(" ").match(/http:\/\/127\.0\.0\.1:7860(\/[\w/-]*)/);
  assert.ok(url, `${name}: the health check asks no URL of the bot: ${command}`);
  const route = FACTS.runner_routes.find((r) => r.path === url[1] && r.methods.includes("GET"));
  assert.ok(route, `${name}: the runner has no GET ${url[1]}`);
  assert.equal(route.starts_session, false, `${name}: GET ${url[1]} starts a session`);
  assert.deepEqual(route.when, [], `${name}: ${url[1]} is mounted only when ${route.when}`);
  return url[1];
}

/** The Pipecat classes a build step constructs (`python -c '...; from m import C; C(...)'`). */
function constructedBy(step: DockerStep): string[] {
  const code = step.args.match(/^python -c '([^']*)'$/)?.[1];
  if (!code) return [];
  const imported = new Map(
    [...code.matchAll(/from (pipecat[\w.]*) import (\w+)/g)].map(([, m, c]) => [c, `${m}.${c}`]),
  );
  const last = code.split("; ").at(-1)!;
  const callee = last.match(/^(\w+)\(/)?.[1];
  return callee && imported.has(callee) ? [imported.get(callee)!] : [];
}

/** The Pipecat classes bot.py constructs whose construction fetches model files. */
function downloadingClasses(bot: BotFacts): string[] {
  const classes = bot.constructions.map((c) => c.callee).filter((c) => !c.includes("."))
    .map((c) => bot.pipecat_modules.find((m) => m.endsWith(`.${c}`)) ?? c);
  return [...new Set(classes)].filter((c) => c in FACTS.model_downloads).sort();
}

const squeeze = (code: string) => code.replace(/\s+/g, "").replaceAll(",)", ")");

/**
 * Each class of bot.py whose construction fetches model files (Pipecat's own source says which)
 * has a build step that constructs it as bot.py does, so that the files are fetched by Pipecat's
 * own code path, where the running bot looks: under the same user and HOME as the bot for a
 * home cache (or one the package picks), in the bot's working directory for a `cwd` one. No other
 * image has such a step.
 */
function checkModelSteps(name: string, steps: DockerStep[], code: string, bot: BotFacts) {
  const cmd = steps.find((s) => s.op === "CMD")!;
  const built = steps.filter((s) => s.op === "RUN").flatMap((s) =>
    constructedBy(s).map((c) => [c, s] as const)
  );
  assert.deepEqual(
    built.map(([c]) => c).sort(),
    downloadingClasses(bot),
    `${name}: the build steps that fetch models`,
  );
  for (const [cls, step] of built) {
    const construct = step.args.match(/'([^']*)'$/)![1].split("; ").at(-1)!;
    assert.ok(squeeze(code).includes(squeeze(construct)), `${name}: ${construct} is not bot.py's`);
    if (FACTS.model_downloads[cls].cache === "cwd") {
      assert.equal(step.workdir, cmd.workdir, `${name}: ${cls} fetches into ${step.workdir}`);
      // The working directory is root's (nothing is chowned) unless it is in the user's home.
      const { home } = imageUser(name, steps);
      assert.ok(
        step.user === "root" || `${step.workdir}/`.startsWith(`${home}/`),
        `${name}: ${cls} fetches into ${step.workdir} as ${step.user}, who cannot write there`,
      );
    } else {
      assert.equal(step.user, cmd.user, `${name}: ${cls} fetched as ${step.user}`);
      assert.equal(
        step.env.HOME,
        cmd.env.HOME,
        `${name}: ${cls} fetched with HOME ${step.env.HOME}`,
      );
    }
  }
}

/** `.dockerignore` keeps secrets and the local virtualenv out, and none of what COPY takes. */
function checkDockerignore(name: string, steps: DockerStep[], dockerignore: string | undefined) {
  assert.ok(dockerignore !== undefined, `${name}: no server/.dockerignore`);
  const patterns = dockerignore.split("\n").filter((l) => l && !l.startsWith("#"));
  for (const needed of [".env", ".env.*", ".venv/"]) {
    assert.ok(patterns.includes(needed), `${name}: .dockerignore lacks ${needed}`);
  }
  const glob = (pattern: string) =>
    new RegExp(
      `^${
        pattern.replace(/\/$/, "").replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")
      }$`,
    );
  const copied = steps.filter((s) => s.op === "COPY" && !s.args.startsWith("--from"))
    .flatMap((s) => s.args.split(/\s+/).slice(0, -1).map((p) => p.replace(/\*$/, "")));
  for (const path of copied) {
    const ignoring = patterns.find((p) => !p.startsWith("!") && glob(p).test(path));
    assert.ok(!ignoring, `${name}: .dockerignore's ${ignoring} drops ${path}, which COPY takes`);
  }
}

/** The runner's names of the browser transports (ARCHITECTURE.md), whose sessions start on /start. */
const BROWSER_RUNNER: Readonly<Record<string, string>> = { hosted: "daily", lightweb: "webrtc" };

/** What tests/bot_routes.py saw a request end with. */
interface RouteOutcome {
  status: number;
  reached: "runner" | "handler" | null;
  configure: Record<string, unknown>[];
  tasks: { function: string; body: Record<string, unknown> | null }[];
}

interface RouteFacts {
  routes: { path: string; methods: string[] }[];
  middleware: number;
  main: boolean;
  /** PIPECAT_WEBSOCKET_AUTH when bot.py calls the runner's main(), which takes its default. */
  ws_auth: string | null;
  responses: RouteOutcome[];
  own_anonymous: RouteOutcome[];
  dialout: { calls: number; gave_up: boolean; pauses: number[] } | null;
}

interface RouteRequest {
  method: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  client?: string;
  body?: string;
  env?: Record<string, string | null>;
}

/**
 * What a request should end with: reach the route, be refused before it, or be answered 200 by
 * the runner's own route (the health check's).
 */
type Expectation = "reached" | "refused" | "served";

const START_TOKEN = "start-token-of-the-test";
const DIALIN_TOKEN = "dial-in-token-of-the-test";
const REMOTE = "203.0.113.9";
const LOCAL = "127.0.0.1";

/** The dial-out requests the README shows: `curl http://localhost:7860/<route> ... -d '<json>'`. */
function readmeDialouts(readme: string): { path: string; body: string }[] {
  return [...readme.matchAll(/curl http:\/\/localhost:7860(\/\w+)[^`']*?-d '([^']+)'/gs)]
    .map(([, path, body]) => ({ path, body }));
}

/**
 * The requests each bot gets through its routes, and what each should end with: the runner's
 * routes that start a session answer only the owner, with the token the README names, or from
 * this machine without one; Daily's dial-in webhook only a bot that takes dial-in, and then only
 * a URL with the token the README has the owner give Daily; the carrier's webhook stays open;
 * the README's dial-out request, with the token, reaches bot.py's route.
 */
function routePlan(config: ScaffoldConfig, files: Map<string, string>, bot: BotFacts) {
  const readme = files.get("README.md")!;
  const requests: [RouteRequest, Expectation, string][] = [];
  const owner = { Authorization: `Bearer ${START_TOKEN}` };
  const tokenSet = { BOT_START_TOKEN: START_TOKEN };
  const dialIn = config.transports.includes("hosted_pstn_dialin");
  const webhookVariable = dialinTokenVariable(readme);
  if (dialIn) {
    assert.ok(webhookVariable, `${config.project_name}: the README's dial-in webhook URL`);
  }
  for (const route of sessionRoutes(runnerArgs(config.project_name, []))) {
    const method = route.methods[0];
    const ask = (request: Partial<RouteRequest>, expected: Expectation, what: string) =>
      requests.push([{ method, path: route.path, client: REMOTE, ...request }, expected, what]);
    if (route.path === "/daily-dialin-webhook") {
      if (!dialIn) {
        ask({ env: tokenSet, headers: owner }, "refused", "not served: no dial-in, yet the owner");
        ask({ env: { BOT_START_TOKEN: null }, client: LOCAL }, "refused", "not served, locally");
        continue;
      }
      const hook = { ...tokenSet, [webhookVariable!]: DIALIN_TOKEN };
      ask({ env: hook }, "refused", "Daily's webhook without its token");
      ask({ env: hook, headers: owner }, "refused", "Daily's webhook with the start token");
      ask({ env: hook, query: "token=wrong" }, "refused", "Daily's webhook with a wrong token");
      ask({ env: hook, query: `token=${DIALIN_TOKEN}` }, "reached", "Daily's webhook");
      ask(
        { env: { [webhookVariable!]: null }, query: "token=", client: LOCAL },
        "refused",
        "Daily's webhook with no token configured",
      );
      continue;
    }
    ask({ env: tokenSet }, "refused", "no token");
    ask({ env: tokenSet, headers: { Authorization: "Bearer wrong" } }, "refused", "wrong token");
    ask({ env: tokenSet, headers: owner }, "reached", "the owner's token");
    ask({ env: { BOT_START_TOKEN: null }, client: LOCAL }, "reached", "no token set, locally");
    ask({ env: { BOT_START_TOKEN: null }, client: REMOTE }, "refused", "no token set, remote");
  }
  // A carrier's webhook: carriers send no token.
  requests.push([{ method: "POST", path: "/", client: REMOTE, env: tokenSet }, "reached", "/"]);
  // The image's health check, from elsewhere (the orchestrator) and with no token; for a bot
  // without an image, the route it would ask. It starts no session (checkHealthCheck).
  const dockerfile = files.get("server/Dockerfile");
  const health = dockerfile
    ? checkHealthCheck(config.project_name, dockerInstructions(dockerfile))
    : "/status";
  for (const env of [tokenSet, { BOT_START_TOKEN: null }]) {
    requests.push([{ method: "GET", path: health, client: REMOTE, env }, "served", "health check"]);
  }
  const dialouts = readmeDialouts(readme);
  for (const { path, body } of dialouts) {
    const request = { method: "POST", path, body, client: REMOTE, env: tokenSet };
    requests.push([request, "refused", "dial-out without the token"]);
    requests.push([{ ...request, headers: owner }, "reached", "the README's dial-out"]);
  }
  const required = Object.entries(bot.env).filter(([, read]) => read.required);
  return {
    plan: {
      env: Object.fromEntries(required.map(([variable]) => [variable, `fake-${variable}`])),
      requests: requests.map(([request]) => request),
      anonymous: { client: REMOTE, env: tokenSet },
    },
    expected: requests.map(([request, expected, what]) => ({ request, expected, what })),
    dialouts,
  };
}

function checkRoutes(
  config: ScaffoldConfig,
  files: Map<string, string>,
  plan: ReturnType<typeof routePlan>,
  seen: RouteFacts,
) {
  const name = config.project_name;
  assert.ok(seen.middleware > 0 && seen.main, `${name}: bot.py runs the runner with its guard`);
  // The runner's websocket routes start sessions outside the HTTP guard. A WebSocket client's,
  // /ws-client, asks for /start's one-time token under `--ws-auth token`, which every bot that
  // serves it makes the default; a carrier's call on /ws brings no token, so a bot with a carrier
  // must not (init refuses the two together).
  const clientSockets = FACTS.runner_websockets.filter((r) => r.path.startsWith("/ws-client"));
  assert.ok(clientSockets.length > 0 && clientSockets.every((r) => r.starts_session));
  const websocket = config.transports.includes("websocket");
  if (websocket) {
    assert.ok(clientSockets.every((r) => r.token_with_ws_auth), "the runner's /ws-client guard");
  }
  assert.equal(seen.ws_auth, websocket ? "token" : null, `${name}: --ws-auth's default`);
  plan.expected.forEach(({ request, expected, what }, i) => {
    const outcome = seen.responses[i];
    const where = `${name}: ${request.method} ${request.path} (${what}): ${
      JSON.stringify(outcome)
    }`;
    if (expected === "refused") {
      assert.ok(outcome.status >= 400 && outcome.reached === null, where);
      assert.deepEqual(outcome.configure, [], where);
    } else if (expected === "served") {
      assert.ok(outcome.reached === "runner" && outcome.status === 200, where);
    } else {
      assert.ok(outcome.reached !== null && outcome.status < 400, where);
    }
  });
  // Every route bot.py adds refuses an anonymous caller from elsewhere.
  seen.own_anonymous.forEach((outcome, i) => {
    const where = `${name}: ${seen.routes[i].path} for anyone: ${JSON.stringify(outcome)}`;
    assert.ok(outcome.status >= 400 && outcome.configure.length === 0, where);
  });
  // The README's dial-out: a new room that may dial out, and a bot that calls, again when a call
  // fails, as many times as the README says.
  const readme = files.get("README.md")!;
  const dialOut = config.transports.some((t) => t.endsWith("_dialout"));
  assert.equal(plan.dialouts.length > 0, dialOut, `${name}: the README's dial-out request`);
  if (!dialOut) return;
  const asked = seen.responses[plan.expected.findIndex((e) => e.what === "the README's dial-out")];
  assert.equal(asked.configure.length, 1, `${name}: one room per dial-out`);
  assert.equal(asked.configure[0].enable_dialout, true, `${name}: a room that may dial out`);
  // A new room even when DAILY_ROOM_URL names one: configure() reuses that room unless given one
  // of these keywords.
  assert.ok(
    FACTS.daily_configure_new_room.some((keyword) => asked.configure[0][keyword]),
    `${name}: configure(${JSON.stringify(asked.configure[0])}) reuses DAILY_ROOM_URL's room`,
  );
  assert.deepEqual(asked.tasks.map((t) => t.function), ["bot"], `${name}: the bot starts`);
  const attempts = Number(readme.match(/(\d+) calls in all/)?.[1]);
  assert.ok(attempts > 1, `${name}: the README promises ${attempts} calls`);
  assert.ok(seen.dialout, `${name}: no dial-out session`);
  assert.equal(seen.dialout.calls, attempts, `${name}: calls placed when every one fails`);
  assert.ok(seen.dialout.gave_up, `${name}: the bot gives up`);
  assert.equal(seen.dialout.pauses.length, attempts - 1, `${name}: a pause before each retry`);
  assert.ok(seen.dialout.pauses.every((p) => p > 0), `${name}: pauses ${seen.dialout.pauses}`);
}

/**
 * A web bot's camera (`--video-input`) reaches a model only when its pipeline has one whose
 * Pipecat class handles the camera's frames: a cascade LLM does not, nor do some realtime models.
 * Otherwise init takes it as Pipecat's scaffolder does, and warns, saying why. Checked for the
 * services of every bot of the matrix, put on a web transport.
 */
function checkCamera(input: ScaffoldInput, config: ScaffoldConfig, bot: BotFacts) {
  const watcher = bot.pipecat_modules.find((m) => FACTS.camera_classes.includes(m));
  // The bot's services on a web transport, with the camera.
  const web = {
    ...input,
    transports: ["lightweb"],
    bot_type: undefined,
    daily_pstn_mode: undefined,
    twilio_daily_sip_mode: undefined,
    video_input: true,
  };
  const { problems, warnings } = resolveConfig(web, "unused");
  const name = config.project_name;
  assert.deepEqual(problems, [], `${name}: the camera is accepted`);
  const warning = warnings.find((p) => p.key === "video_input");
  assert.equal(!warning, Boolean(watcher), `${name}: the camera, ${JSON.stringify(warnings)}`);
  if (warning) assert.match(warning.message, /camera/, `${name}: ${warning.message}`);
}

/**
 * Services get from the environment what Pipecat lets them take: an AWS service whose class takes
 * a session token reads AWS_SESSION_TOKEN (temporary credentials), and a service whose model
 * Pipecat's own scaffold reads from a variable reads its model from one, with a default unless
 * the bot cannot run without it: the model the class itself defaults to.
 */
function checkServiceSettings(name: string, bot: BotFacts) {
  const classOf = (callee: string) => {
    const short = callee.replace(/\.Settings$/, "");
    return bot.pipecat_modules.find((m) => m.endsWith(`.${short}`)) ?? short;
  };
  for (const { callee, keywords } of bot.constructions) {
    const token = FACTS.session_token_parameters[classOf(callee)];
    if (token && !callee.endsWith(".Settings")) {
      assert.equal(keywords[token], "AWS_SESSION_TOKEN", `${name}: ${callee}'s ${token}`);
    }
  }
  const constructed = new Set(bot.constructions.map((c) => c.callee.replace(/\.Settings$/, "")));
  for (const service of FACTS.scaffold_models.filter((c) => constructed.has(c))) {
    const model = bot.constructions
      .filter((c) => c.callee.replace(/\.Settings$/, "") === service)
      .map((c) => c.keywords.model).find((variable) => variable);
    assert.ok(model, `${name}: ${service}'s model is not read from the environment`);
    // Optional with a default, or required where there is none (an Azure deployment's name).
    const { required, defaults } = bot.env[model];
    assert.ok(required || defaults.some((d) => d), `${name}: ${model} has no default`);
  }
  // A model read from a variable defaults to the model the Pipecat class itself defaults to.
  for (const { callee, keywords } of bot.constructions) {
    const variable = keywords.model;
    const pipecatDefault = FACTS.model_defaults[classOf(callee)];
    if (!variable || pipecatDefault === undefined || bot.env[variable].required) continue;
    assert.deepEqual(bot.env[variable].defaults, [pipecatDefault], `${name}: ${variable}`);
  }
}

/**
 * A bot uses a class Pipecat deprecates at the pinned release only through a service whose label
 * says it is deprecated and that `--list-options` lists after the others of its kind; and such a
 * label is on no service whose class Pipecat keeps.
 */
function checkDeprecation(config: ScaffoldConfig, bot: BotFacts) {
  const name = config.project_name;
  const used = bot.pipecat_modules.filter((m) => FACTS.deprecated.includes(m));
  const marked = servicesOf(config).filter((s) => /\bdeprecated\b/i.test(s.label));
  assert.equal(
    marked.length > 0,
    used.length > 0,
    `${name}: deprecated classes ${used.join(", ") || "none"}, services marked deprecated ${
      marked.map((s) => s.id).join(", ") || "none"
    }`,
  );
  for (const service of marked) {
    const order = serviceIds(service.kind);
    const after = order.slice(order.indexOf(service.id));
    const labels = new Map(SERVICES.map((s) => [s.id, s.label]));
    for (const id of after) {
      assert.match(labels.get(id)!, /\bdeprecated\b/i, `${id} is listed after ${service.id}`);
    }
  }
}

/** The variables an AWS SDK reads from the environment by itself. */
const AWS_SDK_ENV = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
];

// ---------------------------------------------------------------------------------------------
// The checks

/** Compiles Python, finds unused imports and undefined names, and loads YAML, in one process. */
const PYTHON_CHECKS = `
import ast, builtins, json, py_compile, sys
import yaml

problems = []
for path in json.load(open(sys.argv[1])):
    if path.endswith(".yaml"):
        scenario = yaml.safe_load(open(path))
        if not isinstance(scenario.get("name"), str) or not isinstance(scenario.get("turns"), list):
            problems.append(f"{path}: a scenario needs a name and a list of turns")
        continue
    try:
        py_compile.compile(path, doraise=True)
    except py_compile.PyCompileError as error:
        problems.append(f"{path}: {error.msg}")
        continue
    tree = ast.parse(open(path).read())
    imported, bound, loaded = {}, set(dir(builtins)) | {"__file__", "__name__"}, set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                imported[name] = node.lineno
                bound.add(name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
    for name, line in imported.items():
        if name not in loaded:
            problems.append(f"{path}:{line}: {name} imported but unused")
    for name in sorted(loaded - bound):
        problems.append(f"{path}: undefined name {name}")
print(json.dumps(problems))
`;

await loadTemplates();

/** Runs a Python script on its input (a list of paths, or plans) as a JSON file; parses its output. */
async function runPython(dir: string, script: string, input: unknown): Promise<unknown> {
  const list = `${dir}/files.json`;
  await Deno.writeTextFile(list, JSON.stringify(input));
  const output = await new Deno.Command("python3", {
    args: [script, list],
    stdin: "null",
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONPYCACHEPREFIX: `${dir}/.pycache` },
    signal: AbortSignal.timeout(120_000),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `python3 failed: ${stderr}`);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

async function writeProject(root: string, files: readonly PlannedFile[]): Promise<void> {
  for (const file of files) {
    const path = `${root}/${file.path}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, file.content);
  }
}

/** `.env.example`'s keys: `NAME=` lines are to fill in, `# NAME=default` lines optional. */
function envExample(source: string) {
  const required = new Set<string>();
  const optional = new Map<string, string>();
  for (const line of source.split("\n")) {
    const active = line.match(/^([A-Z][A-Z0-9_]*)=(.*)$/);
    if (active) {
      // An empty value: a dotenv loader reads anything after `=` as the value, comments included.
      assert.equal(active[2], "", `.env.example: ${line} must have an empty value`);
      assert.ok(!required.has(active[1]), `.env.example lists ${active[1]} twice`);
      required.add(active[1]);
      continue;
    }
    const commented = line.match(/^# ([A-Z][A-Z0-9_]*)=(.*)$/);
    if (commented) optional.set(commented[1], commented[2]);
    else assert.ok(line === "" || line.startsWith("# ") || line === "#", `stray line ${line}`);
  }
  return { required, optional };
}

/** Whether the bot serves Daily sessions: the runner then makes rooms (runner/daily.py). */
function servesDaily(bot: BotFacts): boolean {
  return bot.transports.includes("daily") || bot.session_types.includes("DailyRunnerArguments");
}

/**
 * The extras: every need of the Pipecat modules bot.py imports and of the runner transports it
 * builds is met, and every extra is one that something needs or may use.
 */
function checkExtras(name: string, extras: string[], bot: BotFacts, evals: boolean) {
  const needs: string[][] = [];
  const allowed = new Set<string>();
  for (const module of bot.pipecat_modules) {
    needs.push(...FACTS.needs[module] ?? []);
    for (const extra of FACTS.optional[module] ?? []) allowed.add(extra);
  }
  for (const transport of bot.transports) needs.push(FACTS.runner_transports[transport] ?? []);
  // `pipecat eval run` and its local speech models come with the evals extra (Pipecat's scaffold).
  if (evals) needs.push(["evals"]);
  for (const need of needs.filter((n) => n.length > 0)) {
    assert.ok(need.some((e) => extras.includes(e)), `${name}: needs one of ${need.join(", ")}`);
    for (const extra of need) allowed.add(extra);
  }
  for (const extra of extras) {
    assert.ok(FACTS.extras.includes(extra), `${name}: Pipecat has no extra ${extra}`);
    assert.ok(allowed.has(extra), `${name}: extra ${extra}, which nothing needs`);
  }
}

/**
 * `.env.example`: every variable bot.py reads, to fill in when it cannot run without it, commented
 * out with its default when it has one; and the runner's own variables for the transports the bot
 * serves. Nothing else but variables that Pipecat or an AWS SDK reads by itself.
 */
function checkEnv(
  name: string,
  files: Map<string, string>,
  bot: BotFacts,
  extras: string[],
) {
  const env = envExample(files.get("server/.env.example")!);
  const listed = new Set([...env.required, ...env.optional.keys()]);
  for (const [variable, read] of Object.entries(bot.env)) {
    if (read.required) {
      assert.ok(env.required.has(variable), `${name}: ${variable} is needed: ${variable}=`);
      continue;
    }
    assert.ok(env.optional.has(variable), `${name}: ${variable} is optional: # ${variable}=`);
    const [fallback] = read.defaults;
    const shown = read.defaults.length === 1 && fallback !== null ? fallback : "";
    assert.equal(env.optional.get(variable), shown, `${name}: the default of ${variable}`);
  }
  const runnerModules = ["pipecat.runner.run", "pipecat.runner.utils"];
  if (servesDaily(bot)) {
    runnerModules.push("pipecat.runner.daily");
    for (const variable of FACTS.runner_env["pipecat.runner.daily"]) {
      assert.ok(listed.has(variable), `${name}: the runner reads ${variable}`);
    }
  }
  // A carrier's credentials, which the runner reads to build its serializer (hang-up).
  for (const carrier of bot.transports.filter((t) => t in FACTS.runner_carrier_env)) {
    for (const variable of FACTS.runner_carrier_env[carrier]) {
      assert.ok(listed.has(variable), `${name}: the runner reads ${variable} for ${carrier}`);
    }
  }
  const aws = extras.some((e) => FACTS.aws_sdk_extras.includes(e));
  const pipecatReads = new Set([
    ...runnerModules.flatMap((m) => FACTS.runner_env[m] ?? []),
    ...(aws ? AWS_SDK_ENV : []),
    ...imageReads(files.get("server/Dockerfile")),
  ]);
  for (const variable of listed) {
    assert.ok(
      variable in bot.env || pipecatReads.has(variable),
      `${name}: .env.example lists ${variable}, which nothing reads`,
    );
  }
}

/** The variables the image's command line expands (`${NAME}`, `$NAME`). */
function imageReads(dockerfile: string | undefined): string[] {
  const command = dockerfile?.match(/^CMD (.*)$/m)?.[1] ?? "";
  return [...command.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map(([, variable]) => variable);
}

/** A repository name of an image reference, as the OCI distribution spec has it: lower case. */
const IMAGE_REPOSITORY = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

/**
 * Cloud deployment: the secret set is one name, valid, in every file that names it; the agent,
 * the image and the set are named by the project's name in lower case, which images require.
 */
function checkDeployment(name: string, files: Map<string, string>) {
  const deploy = parseToml(files.get("server/cloud-deploy.toml")!);
  const lower = name.toLowerCase();
  assert.equal(deploy.agent_name, lower);
  const image = String(deploy.image).match(/^registry\.example\.com\/([^:]+):0\.1\.0$/)?.[1];
  assert.equal(image, lower, `${name}: the image ${deploy.image}`);
  assert.match(image, IMAGE_REPOSITORY, `${name}: the image's name`);
  const dockerfile = files.get("server/Dockerfile")!;
  assert.ok(
    dockerfile.split("\n")[0].endsWith(`docker build -t ${lower} .`),
    `${name}: Dockerfile`,
  );
  const secretSet = String(deploy.secret_set);
  assert.match(secretSet, /^[a-z0-9-]+$/, `${name}: secret set name`);
  assert.ok(
    secretSet.startsWith(lower.replace(/[._]+/g, "-")),
    `${name}: the secret set ${secretSet} is not the project's`,
  );
  const command = `voicebot cloud secrets set ${secretSet} --file server/.env`;
  assert.ok(files.get("server/.env.example")!.includes(command), `${name}: .env.example`);
  assert.ok(files.get("README.md")!.includes(secretSet), `${name}: README.md`);
  assert.equal(typeof deploy.image, "string");
  assert.equal(deploy.region, "us-west");
  assert.match(files.get("server/Dockerfile")!, /^FROM python:3\.1[2-9]-slim$/m);
}

function checkProject(
  config: ScaffoldConfig,
  files: Map<string, string>,
  bot: BotFacts,
): string[] {
  const name = config.project_name;
  const has = (path: string) => files.has(path);

  // pyproject.toml: pipecat-ai with the extras bot.py needs, and the Python they install on.
  const pyproject = parseToml(files.get("server/pyproject.toml")!) as {
    project: { name: string; "requires-python": string; dependencies: string[] };
  };
  assert.equal(pyproject.project.name, name);
  const [pipecat] = pyproject.project.dependencies;
  const [, list, range] = pipecat.match(/^pipecat-ai\[([a-z0-9,-]+)\](.+)$/)!;
  const extras = list.split(",");
  assert.deepEqual(extras, [...extras].sort(), `${name}: extras in order`);
  const evals = [...files.keys()].filter((p) => p.startsWith("server/evals/")).sort();
  checkExtras(name, extras, bot, evals.length > 0);
  assert.equal(range, `>=${FACTS.tag.slice(1)},<1.8`);
  const needs312 = extras.some((e) => FACTS.python312_extras.includes(e));
  assert.equal(pyproject.project["requires-python"], needs312 ? ">=3.12" : FACTS.requires_python);

  // Cloud deployment files, only with cloud deployment.
  assert.equal(has("server/Dockerfile"), config.deploy_to_cloud, `${name}: Dockerfile`);
  assert.equal(has("server/cloud-deploy.toml"), config.deploy_to_cloud);
  if (config.deploy_to_cloud) {
    checkDeployment(name, files);
    const deploy = parseToml(files.get("server/cloud-deploy.toml")!);
    assert.equal(deploy.enable_krisp, config.enable_denoise);
  }

  // Eval scenarios, only with --eval; a speech-to-speech bot has no text scenario.
  const scenarios = config.mode === "cascade" ? ["text", "voice"] : ["voice"];
  assert.deepEqual(evals, config.eval ? scenarios.map((s) => `server/evals/${s}.yaml`) : []);

  // The client, only for a web bot that asked for one; its package.json is JSON, named as npm
  // takes a new package's name: lower case, at most 214 characters, URL-safe.
  const client = [...files.keys()].filter((p) => p.startsWith("client/"));
  if (config.client_framework === null || config.client_framework === "none") {
    assert.deepEqual(client, [], `${name}: a client without a client framework`);
  }
  if (has("client/package.json")) {
    const pkg = JSON.parse(files.get("client/package.json")!);
    assert.equal(pkg.name, `${name.toLowerCase()}-client`);
    assert.match(pkg.name, /^[a-z0-9][a-z0-9._-]{0,213}$/, `${name}: the client package's name`);
  }

  checkEnv(name, files, bot, extras);

  // A first local session that waits for a download: the README says so where it says how to
  // run the bot, and how big the download is where a size is known.
  const readme = files.get("README.md")!;
  const run = readme.slice(
    readme.indexOf("## Run the bot"),
    readme.indexOf("\n## ", readme.indexOf("## Run the bot") + 1),
  );
  assert.equal(
    /\bdownloads\b/.test(run),
    downloadingClasses(bot).length > 0,
    `${name}: the README's first run and the downloads of ${downloadingClasses(bot)}`,
  );
  checkServiceSettings(name, bot);
  checkDeprecation(config, bot);

  const gitignore = files.get(".gitignore")!.split("\n");
  for (const pattern of [".env", "!.env.example", "__pycache__/", ".venv/", "node_modules/"]) {
    assert.ok(gitignore.includes(pattern), `.gitignore lacks ${pattern}`);
  }

  // ruff, as the project's AGENTS.md has it run, on every Python file.
  return ruffProblems(name, files);
}

/** The classes of `model_downloads` that a bot.py imports from Pipecat and calls. */
function fetchingClassesIn(code: string): string[] {
  return Object.keys(FACTS.model_downloads).filter((cls) => {
    const at = cls.lastIndexOf(".");
    const [module, name] = [cls.slice(0, at), cls.slice(at + 1)];
    const imports = new RegExp(
      `^from ${module.replaceAll(".", "\\.")} import .*\\b${name}\\b`,
      "m",
    );
    return imports.test(code) && new RegExp(`\\b${name}\\(`).test(code);
  });
}

/**
 * For each class that fetches model files when constructed (Pipecat's source says which) and
 * that no matrix project with an image constructs, the first project that does, again with an
 * image: every such service gets its image's build step checked.
 */
function imageVariants(all: ScaffoldConfig[]): ScaffoldConfig[] {
  const bot = (config: ScaffoldConfig) =>
    planProject(config).files.find((f) => f.path === "server/bot.py")!.content;
  const imaged = new Set(
    all.filter((c) => c.deploy_to_cloud).flatMap((c) => fetchingClassesIn(bot(c))),
  );
  const variants: ScaffoldConfig[] = [];
  for (const config of all.filter((c) => !c.deploy_to_cloud)) {
    const missing = fetchingClassesIn(bot(config)).filter((cls) => !imaged.has(cls));
    if (missing.length === 0) continue;
    missing.forEach((cls) => imaged.add(cls));
    variants.push({
      ...config,
      project_name: `${config.project_name}-image`,
      deploy_to_cloud: true,
    });
  }
  return variants;
}

Deno.test("every configuration of the matrix generates a sound project", async () => {
  const all = configs();

  // The matrix covers every option, so that a new one cannot go unchecked.
  const covered = (values: unknown[]) => new Set(values.map((v) => JSON.stringify(v)));
  const transports = covered(all.flatMap((c) => c.transports));
  for (const id of ["hosted", "lightweb", "carrier1", "carrier2", "carrier3", "carrier4"]) {
    assert.ok(transports.has(JSON.stringify(id)), `no project with ${id}`);
  }
  for (const choice of ["hosted_pstn", "carrier1_hosted_sip"]) {
    for (const direction of ["dialin", "dialout"]) {
      assert.ok(transports.has(JSON.stringify(`${choice}_${direction}`)), `${choice} ${direction}`);
    }
  }
  const services = new Set(all.flatMap((c) => servicesOf(c).map((s) => s.id)));
  for (const service of SERVICES) {
    assert.ok(services.has(service.id), `no project with ${service.id}`);
  }
  assert.equal(covered(all.map((c) => c.mode)).size, 2);
  const clients = covered(all.map((c) => [c.client_framework, c.client_server]));
  for (const client of [[null, null], ["none", null], ["vanilla", null]]) {
    assert.ok(clients.has(JSON.stringify(client)), `no project with client ${client}`);
  }
  for (const server of ["devserver_a", "devserver_b"]) {
    assert.ok(clients.has(JSON.stringify(["uilib", server])), `no project with uilib ${server}`);
  }
  for (const flag of [...FLAGS, "video_input", "video_output"] as const) {
    assert.equal(covered(all.map((c) => c[flag])).size, 2, `${flag} is not both on and off`);
  }

  const root = Deno.env.get("VOICEBOT_MATRIX_DIR") ?? await Deno.makeTempDir();
  const projects: { config: ScaffoldConfig; byPath: Map<string, string>; bot: string }[] = [];
  const checked: string[] = [];
  for (const config of [...all, ...imageVariants(all)]) {
    const { files, guides } = planProject(config);
    const byPath = new Map([...files, ...guides].map((f) => [f.path, f.content]));
    await writeProject(`${root}/${config.project_name}`, files);
    for (const path of byPath.keys()) {
      if (path.endsWith(".py") || path.endsWith(".yaml")) {
        checked.push(`${root}/${config.project_name}/${path}`);
      }
    }
    projects.push({ config, byPath, bot: `${root}/${config.project_name}/server/bot.py` });
  }
  const checks = `${root}/checks.py`;
  await Deno.writeTextFile(checks, PYTHON_CHECKS);
  assert.deepEqual(await runPython(root, checks, checked), []);
  const botFacts = new URL("./bot_facts.py", import.meta.url).pathname;
  const facts = await runPython(root, botFacts, projects.map((p) => p.bot)) as Record<
    string,
    BotFacts
  >;
  const sessions = await runPython(
    root,
    new URL("./bot_sessions.py", import.meta.url).pathname,
    projects.map((p) => p.bot),
  ) as Record<string, Record<string, SessionOutcome>>;
  for (const { config, bot } of projects) checkSessions(config, sessions[bot]);
  // Every class that fetches models when constructed is built into some project's image.
  const imaged = new Set(
    projects.filter((p) => p.config.deploy_to_cloud).flatMap((p) =>
      downloadingClasses(facts[p.bot])
    ),
  );
  for (const { bot } of projects) {
    for (const cls of downloadingClasses(facts[bot])) {
      assert.ok(imaged.has(cls), `no project with an image constructs ${cls}`);
    }
  }
  matrix().forEach((input, i) => checkCamera(input, projects[i].config, facts[projects[i].bot]));
  const python = await fakePython(root);
  for (const { config, byPath, bot } of projects) {
    if (config.deploy_to_cloud) await checkImage(config, byPath, facts[bot], python);
  }
  const plans = projects.map(({ config, byPath, bot }) => routePlan(config, byPath, facts[bot]));
  const routes = await runPython(
    root,
    new URL("./bot_routes.py", import.meta.url).pathname,
    projects.map(({ bot }, i) => ({ bot, ...plans[i].plan })),
  ) as Record<string, RouteFacts>;
  projects.forEach(({ config, byPath, bot }, i) =>
    checkRoutes(config, byPath, plans[i], routes[bot])
  );
  const lint = projects.flatMap(({ config, byPath, bot }) =>
    checkProject(config, byPath, facts[bot])
  );
  assert.deepEqual(lint, [], "ruff");
  if (!Deno.env.get("VOICEBOT_MATRIX_DIR")) await Deno.remove(root, { recursive: true });
});
