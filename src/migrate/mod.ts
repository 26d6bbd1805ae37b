/**
 * The migrations between two Pipecat releases, as `update` applies them when a project's Pipecat
 * moves: to the user's Python and to voicebot's own earlier version of it, before they are merged.
 */
import { CHANGES } from "./changes.ts";
import { type ManualItem, migrateSource } from "./engine.ts";
import { changesBetween } from "./renames.ts";
import { ruffLineLength } from "./pyproject.ts";

export type { ManualItem };

export interface PythonMigration {
  /** The text with the changes applied (the same when none applies, or it is not Python). */
  text(source: string): Promise<string>;
  /** The places in `source` left to the user. */
  manual(source: string): Promise<readonly ManualItem[]>;
}

/**
 * The migrations of the releases after `from`, up to `to`, for a project whose pyproject.toml is
 * `pyproject` (its ruff line length lays out what is rewritten).
 */
export function pythonMigration(
  from: string,
  to: string,
  pyproject: string | null,
): PythonMigration {
  const changes = changesBetween(CHANGES, from, to);
  const options = { lineLength: ruffLineLength(pyproject) };
  return {
    text: async (source) => (await migrateSource(source, changes, options)).text,
    manual: async (source) => (await migrateSource(source, changes, options)).manual,
  };
}
