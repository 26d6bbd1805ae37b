/**
 * What a scaffolded project holds: the files a resolved configuration produces, rendered from the
 * templates with one view computed here from the configuration and the catalog.
 */
import { VERSION } from "../version.ts";
import { clientFolder, clientView } from "./client.ts";
import { findService, findTransport, type Service, type Transport } from "./catalog.ts";
import type { ScaffoldConfig } from "./config.ts";
import { stamp } from "./guides.ts";
import { outputPath, render, templatesUnder } from "./render.ts";
import type { PlannedFile } from "./writer.ts";

/** The Pipecat release the templates are written against, and the range the project accepts. */
export const PIPECAT_VERSION = "1.7.0";
export const PIPECAT_RANGE = ">=1.7.0,<1.8";

/** Secret-set names allow letters, digits and hyphens only; project names may also hold `.` and `_`. */
export function secretSetName(projectName: string): string {
  return `${projectName.replace(/[._]+/g, "-")}-secrets`;
}

/** A service as the templates see it: its constructor indented to sit inside `run_bot`. */
function serviceView(id: string | null) {
  if (!id) return null;
  const service = findService(id)!;
  return { ...service, construct: indentContinuation(service.construct, "    ") };
}

function indentContinuation(code: string, indent: string): string {
  return code.split("\n").map((line, i) => (i === 0 || line === "" ? line : indent + line)).join(
    "\n",
  );
}

interface EnvVar {
  name: string;
}
interface EnvGroup {
  title: string;
  vars: EnvVar[];
}

/** The environment the generated code reads, grouped by what reads it, without repeats. */
export function envGroups(config: ScaffoldConfig): EnvGroup[] {
  const groups: EnvGroup[] = [];
  const seen = new Set<string>();
  const add = (title: string, names: readonly string[]) => {
    const vars = names.filter((name) => !seen.has(name)).map((name) => ({ name }));
    vars.forEach((v) => seen.add(v.name));
    if (vars.length > 0) groups.push({ title, vars });
  };
  for (const transport of transportsOf(config)) add(transport.label, transport.env);
  for (const service of servicesOf(config)) add(`${service.label} (${service.kind})`, service.env);
  return groups;
}

function transportsOf(config: ScaffoldConfig): Transport[] {
  return config.transports.map((id) => findTransport(id)!);
}

function servicesOf(config: ScaffoldConfig): Service[] {
  return [
    config.stt_service,
    config.llm_service,
    config.tts_service,
    config.realtime_service,
    config.video_service,
  ].filter((id): id is string => id !== null).map((id) => findService(id)!);
}

/** The `pipecat-ai[...]` extras the transports and services need, sorted. */
export function pipecatExtras(config: ScaffoldConfig): string[] {
  // The runner serves the bot locally; Silero is the voice activity detector every bot uses.
  const extras = new Set<string>(["runner", "silero"]);
  for (const transport of transportsOf(config)) transport.extras.forEach((e) => extras.add(e));
  for (const service of servicesOf(config)) service.extras.forEach((e) => extras.add(e));
  if (config.enable_observability) extras.add("tracing");
  return [...extras].sort();
}

export function projectView(config: ScaffoldConfig) {
  const transports = transportsOf(config);
  const services = servicesOf(config);
  const has = Object.fromEntries(transports.map((t) => [t.id, true]));
  const imports = [...new Set(services.flatMap((s) => s.imports))].sort();
  return {
    ...config,
    voicebot_version: VERSION,
    guide_stamp: stamp(),
    pipecat_version: PIPECAT_VERSION,
    pipecat_range: PIPECAT_RANGE,
    secret_set: secretSetName(config.project_name),
    web: config.bot_type === "web",
    telephony: config.bot_type === "telephony",
    cascade: config.mode === "cascade",
    realtime: config.mode === "realtime",
    stt: serviceView(config.stt_service),
    llm: serviceView(config.llm_service),
    tts: serviceView(config.tts_service),
    realtime_llm: serviceView(config.realtime_service),
    video: serviceView(config.video_service),
    service_imports: imports,
    needs_http_session: services.some((s) => s.needsHttpSession),
    transports: transports.map((t) => ({ ...t, [`is_${t.id}`]: true })),
    runners: [...new Set(transports.map((t) => t.runner))],
    default_runner: transports[0]?.runner,
    has,
    extras: pipecatExtras(config).join(","),
    env_groups: envGroups(config),
    ...clientView(config),
  };
}

export type ProjectView = ReturnType<typeof projectView>;

/** Renders every template under `prefix` into `destination` (which ends with `/` or is empty). */
function renderFolder(prefix: string, destination: string, view: object): PlannedFile[] {
  return templatesUnder(prefix).map((name) => ({
    path: outputPath(name, prefix, destination),
    content: render(name, view),
  }));
}

/** Every file of a scaffolded project. Guide files are returned apart: they are never clobbered. */
export function planProject(
  config: ScaffoldConfig,
): { files: PlannedFile[]; guides: PlannedFile[] } {
  const view = projectView(config);
  const files: PlannedFile[] = [
    { path: "README.md", content: render("project/README.md.mustache", view) },
    { path: ".gitignore", content: render("project/gitignore", view) },
    { path: "server/bot.py", content: render("server/bot.py.mustache", view) },
    { path: "server/pyproject.toml", content: render("server/pyproject.toml.mustache", view) },
    { path: "server/.env.example", content: render("server/env.example.mustache", view) },
  ];
  if (config.deploy_to_cloud) {
    files.push(
      { path: "server/Dockerfile", content: render("server/Dockerfile.mustache", view) },
      {
        path: "server/cloud-deploy.toml",
        content: render("server/cloud-deploy.toml.mustache", view),
      },
    );
  }
  if (config.eval) files.push(...renderFolder("evals/", "server/evals/", view));
  const client = clientFolder(config);
  if (client) files.push(...renderFolder(client, "client/", view));
  const guides: PlannedFile[] = [
    { path: "AGENTS.md", content: render("guides/AGENTS.project.md.mustache", view) },
    { path: "ASSISTANT.md", content: render("guides/ASSISTANT.md.mustache", view) },
  ];
  return { files, guides };
}

/** The guide-only project of the coding-agent path. */
export function planGuides(projectName: string): PlannedFile[] {
  const view = { project_name: projectName, guide_stamp: stamp(), voicebot_version: VERSION };
  return [
    { path: "AGENTS.md", content: render("guides/AGENTS.agent.md.mustache", view) },
    { path: "ASSISTANT.md", content: render("guides/ASSISTANT.md.mustache", view) },
    { path: "GETTING_STARTED.md", content: render("guides/GETTING_STARTED.md.mustache", view) },
  ];
}
