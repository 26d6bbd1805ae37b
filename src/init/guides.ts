/**
 * Guide files (AGENTS.md, ASSISTANT.md, GETTING_STARTED.md) belong to the user once written: a
 * re-run keeps them unless `--overwrite-guide`. Each carries a stamp with the version that wrote
 * it, so a re-run can tell when a newer template exists.
 */
import { join } from "../paths.ts";
import { VERSION } from "../version.ts";
import type { PlannedFile } from "./writer.ts";

const STAMP = /<!-- voicebot-guide (\S+) -->/;

export function stamp(version = VERSION): string {
  return `<!-- voicebot-guide ${version} -->`;
}

/** A guide that exists and is kept, and why it matters. */
export interface KeptGuide {
  readonly path: string;
  /** The version in its stamp, or null when it has none (written by hand). */
  readonly writtenBy: string | null;
  /** Stamped by another version of voicebot: older (a newer template exists) or newer. */
  readonly age: "older" | "newer" | null;
}

/**
 * Splits the planned guide files into those to write and those to keep. An existing guide is
 * kept unless `overwrite`; missing guides are always written.
 */
export function sortGuides(
  root: string,
  guides: readonly PlannedFile[],
  overwrite: boolean,
): { write: PlannedFile[]; kept: KeptGuide[] } {
  const write: PlannedFile[] = [];
  const kept: KeptGuide[] = [];
  for (const guide of guides) {
    const existing = readIfExists(join(root, guide.path));
    if (existing === null || overwrite) {
      write.push(guide);
      continue;
    }
    const writtenBy = existing.match(STAMP)?.[1] ?? null;
    kept.push({
      path: guide.path,
      writtenBy,
      age: writtenBy === null ? null : AGE[compareVersions(writtenBy, VERSION) + 1],
    });
  }
  return { write, kept };
}

const AGE = ["older", null, "newer"] as const;

function readIfExists(path: string): string | null {
  try {
    return Deno.readTextFileSync(path); // sync: an async call costs a trip through Deno's thread pool
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Compares `major.minor.patch` versions numerically; a pre-release suffix is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split("-")[0].split(".").map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
