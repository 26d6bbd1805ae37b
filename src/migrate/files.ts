/** Which files of a project hold its own code: what `migrate`, and `update`, look at. */
import { join } from "../paths.ts";
import { STAGING_PREFIX } from "../init/writer.ts";

/** Folders that hold no code of the project's own (installed packages, caches, voicebot's). */
const SKIPPED = new Set([".git", ".venv", "venv", "node_modules", "__pycache__", ".voicebot"]);

export interface Found {
  /** Paths relative to the directory walked, with `/`. */
  readonly py: string[];
  readonly pyproject: string[];
}

/** The Python files and pyproject.toml files under `dir`, sorted: every folder but SKIPPED, no links. */
export function projectFiles(dir: string): Found {
  const found: Found = { py: [], pyproject: [] };
  const walk = (at: string) => {
    for (const entry of Deno.readDirSync(join(dir, at))) {
      const path = at === "" ? entry.name : `${at}/${entry.name}`;
      if (entry.isDirectory) {
        if (!SKIPPED.has(entry.name) && !entry.name.startsWith(STAGING_PREFIX)) walk(path);
      } else if (entry.isFile && entry.name.endsWith(".py")) found.py.push(path);
      else if (entry.isFile && entry.name === "pyproject.toml") found.pyproject.push(path);
    }
  };
  walk("");
  found.py.sort();
  found.pyproject.sort();
  return found;
}
