/**
 * ruff, as a generated project's AGENTS.md has it run (`ruff check` and `ruff format --check`), on
 * its Python files: ruff's own WebAssembly build, with the options of the project's [tool.ruff].
 */
import { PositionEncoding, Workspace } from "@astral-sh/ruff-wasm-nodejs";
import { parse as parseToml } from "smol-toml";

/** The rules `ruff check` selects when a project selects none. */
const RUFF_DEFAULT_RULES = ["E4", "E7", "E9", "F"];

interface RuffOptions {
  [key: string]: unknown;
}

/** One ruff workspace for each set of options: making one is most of ruff's cost. */
const workspaces = new Map<string, Workspace>();

/**
 * What ruff finds in the `.py` files of a project (its files by path, server/pyproject.toml
 * among them), each as `name/path:row: CODE message`.
 */
export function ruffProblems(name: string, files: ReadonlyMap<string, string>): string[] {
  const pyproject = parseToml(files.get("server/pyproject.toml")!) as {
    project: { "requires-python": string };
    tool?: { ruff?: RuffOptions };
  };
  // ruff's WebAssembly build has defaults of its own: start from the command line's.
  const own = pyproject.tool?.ruff ?? {};
  const options = {
    "target-version": pyproject.project["requires-python"].replace(/^>=3\./, "py3"),
    ...own,
    lint: { select: RUFF_DEFAULT_RULES, ...own.lint as RuffOptions | undefined },
  };
  return [...files].filter(([path]) => path.endsWith(".py"))
    .flatMap(([path, code]) => check(`${name}/${path}`, code, options));
}

function check(path: string, code: string, options: RuffOptions): string[] {
  const key = JSON.stringify(options);
  if (!workspaces.has(key)) workspaces.set(key, new Workspace(options, PositionEncoding.Utf16));
  const workspace = workspaces.get(key)!;
  const problems = (workspace.check(code) as {
    code: string;
    message: string;
    start_location: { row: number };
  }[]).map((d) => `${path}:${d.start_location.row}: ${d.code} ${d.message}`);
  if (workspace.format(code) !== code) problems.push(`${path}: ruff format would change it`);
  return problems;
}
