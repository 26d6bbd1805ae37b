/**
 * What a scaffolded project holds: the files a resolved configuration produces, rendered from the
 * templates with one view (project_view.ts) computed from the configuration and the catalog.
 *
 * `server/bot.py` is the source of truth for the Python side: its imports are derived from the
 * names the rendered code uses (python_code.ts), and `server/.env.example` from the variables it
 * reads (env_file.ts).
 */
import { VERSION } from "../version.ts";
import { clientFolder } from "./client.ts";
import type { ScaffoldConfig } from "./config.ts";
import { envGroups } from "./env_file.ts";
import { sealGuide, stamp } from "./guides.ts";
import { projectView, servicesOf } from "./project_view.ts";
import { IMPORTS_MARKER, pythonImports } from "./python_code.ts";
import { type PlannedFile, plannedFile } from "./writer.ts";

let templates: typeof import("./render.ts") | undefined;

/**
 * Loads the templates and mustache, a fifth of the CLI's code: a plan needs them to list a client
 * folder or to make a file's bytes, not to name the other files, so `init --dry-run` into a new
 * directory does without them. Call it before planning anything else.
 */
export async function loadTemplates(): Promise<void> {
  templates ??= await import("./render.ts");
}

function loaded(): typeof import("./render.ts") {
  if (!templates) throw new Error("the templates are not loaded: await loadTemplates() first");
  return templates;
}

const render = (name: string, view: object) => loaded().render(name, view);

/** Renders every template under `prefix` into `destination` (which ends with `/` or is empty). */
function renderFolder(prefix: string, destination: string, view: () => object): PlannedFile[] {
  const { outputPath, templatesUnder } = loaded();
  return templatesUnder(prefix).map((name) =>
    plannedFile(outputPath(name, prefix, destination), () => render(name, view()))
  );
}

/** bot.py, with the imports its code uses put in place of the template's marker line. */
function renderBot(config: ScaffoldConfig, view: object): string {
  const code = render("server/bot.py.mustache", view);
  return code.replace(IMPORTS_MARKER, pythonImports(code, servicesOf(config)));
}

/**
 * Every file of a scaffolded project. Guide files are returned apart: they are never clobbered.
 * Each file is rendered when its content is first read, so a dry run renders none.
 */
export function planProject(
  config: ScaffoldConfig,
): { files: PlannedFile[]; guides: PlannedFile[] } {
  // The view too is made on first use: a dry run needs none of it.
  let made: ReturnType<typeof projectView> | undefined;
  const view = () => made ??= projectView(config);
  const template = (path: string, name: string) => plannedFile(path, () => render(name, view()));
  const bot = plannedFile("server/bot.py", () => renderBot(config, view()));
  const files: PlannedFile[] = [
    template("README.md", "project/README.md.mustache"),
    template(".gitignore", "project/gitignore"),
    bot,
    template("server/pyproject.toml", "server/pyproject.toml.mustache"),
    // What bot.py reads, so it is rendered from bot.py's code.
    plannedFile(
      "server/.env.example",
      () =>
        render("server/env.example.mustache", {
          ...view(),
          env_groups: envGroups(config, bot.content),
        }),
    ),
  ];
  if (config.deploy_to_cloud) {
    files.push(
      template("server/Dockerfile", "server/Dockerfile.mustache"),
      // The Dockerfile's build context is server/: what stays out of it.
      template("server/.dockerignore", "server/dockerignore"),
      template("server/cloud-deploy.toml", "server/cloud-deploy.toml.mustache"),
    );
  }
  if (config.eval) {
    // A speech-to-speech bot has no text step to check apart: it gets the voice scenario only.
    const scenarios = config.mode === "cascade" ? ["text", "voice"] : ["voice"];
    for (const name of scenarios) {
      files.push(template(`server/evals/${name}.yaml`, `evals/${name}.yaml.mustache`));
    }
  }
  const client = clientFolder(config);
  if (client) files.push(...renderFolder(client, "client/", view));
  const rendered = [...files];
  files.push(
    // How the project was made: `init --config` on it makes it again, and a guide refresh reads it.
    plannedFile(RECORD, () => `${JSON.stringify(recordOf(config), null, 2)}\n`),
    // What it was made as: the base `update` merges the user's edits against, at any later version.
    plannedFile(BASE, () => baseText(rendered, [])),
  );
  return { files, guides: projectGuides(view) };
}

/** The file a scaffolded project keeps its configuration in: what `--dry-run` printed for it. */
export const RECORD = "voicebot.json";

/** The configuration as the record holds it, with the version of voicebot that made the project. */
export type ProjectRecord = ScaffoldConfig & { readonly voicebot_version: string };

export function recordOf(config: ScaffoldConfig): ProjectRecord {
  return { ...config, voicebot_version: VERSION };
}

/**
 * The files voicebot rendered for the project (all but the guides, which keep their own stamp, and
 * the record), kept in the project so that `update` has its merge base offline at any later
 * version. Rewritten by every update.
 */
export const BASE = ".voicebot/base.json";

/** What BASE holds. */
export interface Base {
  readonly version: string;
  /**
   * Each file's text, by its path in the project. A path voicebot renders but the user had first
   * is not among them (BASE lists it under `yours`, for people to read): an update keeps it theirs.
   */
  readonly files: Readonly<Record<string, string>>;
}

/** BASE's text: the files voicebot rendered, but those at the paths that are the user's. */
export function baseText(files: readonly PlannedFile[], yours: readonly string[]): string {
  const base = {
    about:
      "What voicebot rendered for this project: the base `voicebot update` merges your edits against. Keep it with the project; do not edit it.",
    voicebot_version: VERSION,
    files: Object.fromEntries(files.map((file) => [file.path, file.content])),
    ...(yours.length > 0 ? { yours: [...yours].sort() } : {}),
  };
  return `${JSON.stringify(base, null, 1)}\n`;
}

/** BASE's text read back, or undefined when it is not what baseText writes. */
export function parseBase(text: string): Base | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { voicebot_version: version, files } = (data ?? {}) as Record<string, unknown>;
  if (typeof version !== "string" || typeof files !== "object" || files === null) return undefined;
  if (Array.isArray(files)) return undefined;
  const entries = Object.entries(files);
  if (!entries.every(([, content]) => typeof content === "string")) return undefined;
  return { version, files: Object.fromEntries(entries) as Record<string, string> };
}

/** A scaffolded project's own guides, from its configuration. */
export function planProjectGuides(config: ScaffoldConfig): PlannedFile[] {
  return projectGuides(() => projectView(config));
}

function projectGuides(view: () => object): PlannedFile[] {
  return [
    guide("AGENTS.md", "guides/AGENTS.project.md.mustache", view),
    guide("ASSISTANT.md", "guides/ASSISTANT.md.mustache", view),
  ];
}

/** The guide-only project of the coding-agent path. */
export function planGuides(projectName: string): PlannedFile[] {
  const view = () => ({
    project_name: projectName,
    guide_stamp: stamp("agent"),
    voicebot_version: VERSION,
  });
  return [
    guide("AGENTS.md", "guides/AGENTS.agent.md.mustache", view),
    guide("ASSISTANT.md", "guides/ASSISTANT.md.mustache", view),
    guide("GETTING_STARTED.md", "guides/GETTING_STARTED.md.mustache", view),
  ];
}

function guide(path: string, template: string, view: () => object): PlannedFile {
  return plannedFile(path, () => sealGuide(render(template, view())));
}
