/**
 * Generates a matrix of projects that covers every transport (PSTN and SIP in both directions),
 * both modes, every client option, each feature flag on and off and every service of the catalog,
 * and checks each project: its Python compiles with no unused import or undefined name, its TOML
 * and JSON parse, its eval scenarios are YAML, its extras are the ones it needs, and the variables
 * its code reads are exactly the ones `.env.example` lists.
 *
 * Set VOICEBOT_MATRIX_DIR to keep the projects, e.g. for scripts/check_pipecat_api.py.
 */
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { findTransport, SERVICES } from "../src/init/catalog.ts";
import { resolveConfig, type ScaffoldConfig, type ScaffoldInput } from "../src/init/config.ts";
import { envReads, planProject, secretSetName, servicesOf } from "../src/init/project.ts";
import type { PlannedFile } from "../src/init/writer.ts";

/** Variables that Pipecat reads itself, so `.env.example` lists them though bot.py does not. */
const PIPECAT_READS: Readonly<Record<string, (config: ScaffoldConfig) => boolean>> = {
  // The development runner creates Daily rooms (and answers Daily's dial-in webhook) with it.
  DAILY_API_KEY: (config) => config.transports.some((t) => findTransport(t)!.runner === "daily"),
  // The SageMaker clients take their credentials from the environment.
  AWS_ACCESS_KEY_ID: usesSageMaker,
  AWS_SECRET_ACCESS_KEY: usesSageMaker,
};

function usesSageMaker(config: ScaffoldConfig): boolean {
  return servicesOf(config).some((service) => service.extras.includes("sagemaker"));
}

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
  { transports: ["hosted_pstn"], daily_pstn_mode: "dial-in" },
  { transports: ["lightweb"] },
  { transports: ["carrier2"] },
  { transports: ["hosted_pstn"], daily_pstn_mode: "dial-out" },
  { transports: ["hosted"] },
  { transports: ["carrier3"] },
  { transports: ["carrier1_hosted_sip"], twilio_daily_sip_mode: "dial-in" },
  { transports: ["carrier4"] },
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
    if (set.transports.every((t) => t === "hosted" || t === "lightweb")) {
      Object.assign(input, CLIENTS[web % CLIENTS.length]);
      // Avatars in turn, then a bot with no avatar, which may still have a camera of its own.
      const avatar = [...video, null][web % (video.length + 1)];
      if (avatar) input.video_service = avatar;
      else input.video_output = on(6);
      input.video_input = on(7);
      web++;
    }
    inputs.push(input);
  }
  return inputs;
}

function configs(): ScaffoldConfig[] {
  return matrix().map((input) => {
    const { config, problems } = resolveConfig(input, "unused");
    assert.deepEqual(problems, [], `invalid matrix entry ${JSON.stringify(input)}`);
    return config!;
  });
}

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

async function runPythonChecks(dir: string, paths: string[]): Promise<string[]> {
  const list = `${dir}/files.json`;
  const script = `${dir}/checks.py`;
  await Deno.writeTextFile(list, JSON.stringify(paths));
  await Deno.writeTextFile(script, PYTHON_CHECKS);
  const output = await new Deno.Command("python3", {
    args: [script, list],
    stdin: "null",
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONPYCACHEPREFIX: `${dir}/.pycache` },
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

function expectedExtras(config: ScaffoldConfig): string[] {
  const extras = new Set(["runner"]);
  if (config.mode === "cascade") extras.add("silero");
  for (const id of config.transports) findTransport(id)!.extras.forEach((e) => extras.add(e));
  for (const service of servicesOf(config)) service.extras.forEach((e) => extras.add(e));
  if (config.enable_observability) extras.add("tracing");
  if (config.eval) extras.add("evals");
  return [...extras].sort();
}

function checkProject(config: ScaffoldConfig, files: Map<string, string>) {
  const name = config.project_name;
  const has = (path: string) => files.has(path);

  // pyproject.toml: Python, and pipecat-ai with exactly the extras the project needs.
  const pyproject = parseToml(files.get("server/pyproject.toml")!) as {
    project: { name: string; "requires-python": string; dependencies: string[] };
  };
  assert.equal(pyproject.project.name, name);
  const [pipecat] = pyproject.project.dependencies;
  const [, extras, range] = pipecat.match(/^pipecat-ai\[([a-z0-9,-]+)\](.+)$/)!;
  assert.deepEqual(extras.split(","), expectedExtras(config), `${name}: extras`);
  assert.equal(range, ">=1.7.0,<1.8");
  const needs312 = ["aws-nova-sonic", "sagemaker"].some((e) => extras.split(",").includes(e));
  assert.equal(pyproject.project["requires-python"], needs312 ? ">=3.12" : ">=3.11");

  // Cloud deployment files, only with cloud deployment.
  assert.equal(has("server/Dockerfile"), config.deploy_to_cloud, `${name}: Dockerfile`);
  assert.equal(has("server/cloud-deploy.toml"), config.deploy_to_cloud);
  if (config.deploy_to_cloud) {
    const deploy = parseToml(files.get("server/cloud-deploy.toml")!);
    assert.equal(deploy.agent_name, name);
    assert.equal(deploy.secret_set, secretSetName(name));
    assert.equal(typeof deploy.image, "string");
    assert.equal(deploy.region, "us-west");
    assert.equal(deploy.enable_krisp, config.enable_denoise);
    assert.match(files.get("server/Dockerfile")!, /^FROM python:3\.1[2-9]-slim$/m);
  }

  // Eval scenarios, only with --eval; a speech-to-speech bot has no text scenario.
  const evals = [...files.keys()].filter((p) => p.startsWith("server/evals/")).sort();
  const scenarios = config.mode === "cascade" ? ["text", "voice"] : ["voice"];
  assert.deepEqual(evals, config.eval ? scenarios.map((s) => `server/evals/${s}.yaml`) : []);

  // The client, only for a web bot that asked for one; its package.json is JSON.
  const client = [...files.keys()].filter((p) => p.startsWith("client/"));
  if (config.client_framework === null || config.client_framework === "none") {
    assert.deepEqual(client, [], `${name}: a client without a client framework`);
  }
  if (has("client/package.json")) JSON.parse(files.get("client/package.json")!);

  // The environment: what the code reads, exactly.
  const code = [...files].filter(([p]) => p.endsWith(".py")).map(([, c]) => c).join("\n");
  const reads = envReads(code);
  const env = envExample(files.get("server/.env.example")!);
  const requiredReads = [...reads].filter(([, r]) => r.required).map(([n]) => n);
  const pipecatReads = Object.keys(PIPECAT_READS).filter((n) => PIPECAT_READS[n](config));
  assert.deepEqual(
    [...env.required].sort(),
    [...new Set([...requiredReads, ...pipecatReads])].sort(),
    `${name}: the variables to fill in`,
  );
  const optionalReads = [...reads].filter(([, r]) => !r.required);
  assert.deepEqual(
    [...env.optional.keys()].sort(),
    optionalReads.map(([n]) => n).sort(),
    `${name}: the optional variables`,
  );
  for (const [variable, read] of optionalReads) {
    const [fallback] = read.defaults;
    const shown = read.defaults.size === 1 && fallback !== null ? fallback : "";
    assert.equal(env.optional.get(variable), shown, `${name}: the default of ${variable}`);
  }

  const gitignore = files.get(".gitignore")!.split("\n");
  for (const pattern of [".env", "!.env.example", "__pycache__/", ".venv/", "node_modules/"]) {
    assert.ok(gitignore.includes(pattern), `.gitignore lacks ${pattern}`);
  }
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
  const checked: string[] = [];
  for (const config of all) {
    const { files, guides } = planProject(config);
    const byPath = new Map([...files, ...guides].map((f) => [f.path, f.content]));
    checkProject(config, byPath);
    await writeProject(`${root}/${config.project_name}`, files);
    for (const path of byPath.keys()) {
      if (path.endsWith(".py") || path.endsWith(".yaml")) {
        checked.push(`${root}/${config.project_name}/${path}`);
      }
    }
  }
  assert.deepEqual(await runPythonChecks(root, checked), []);
  if (!Deno.env.get("VOICEBOT_MATRIX_DIR")) await Deno.remove(root, { recursive: true });
});
