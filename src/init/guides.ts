/**
 * Guide files (AGENTS.md, ASSISTANT.md, GETTING_STARTED.md) belong to the user once written: a
 * re-run keeps them unless `--overwrite-guide`. Each carries a stamp with the version that wrote
 * it, so a re-run can tell when a newer template exists; which path wrote it (the coding agent's or
 * a scaffolded project's); and a digest of the rest of the file, so a re-run can tell whether
 * anybody has edited it since.
 */
import { join } from "../paths.ts";
import { VERSION } from "../version.ts";
import { type PlannedFile, readIfExists } from "./writer.ts";

/** The coding-agent path's guides, or a scaffolded project's own. */
export type GuideKind = "agent" | "project";

const STAMP = /^<!-- voicebot-guide (\S+)(?: (agent|project) ([0-9a-f]{8}))? -->(?:\r?\n|$)/;

/** The stamp a template starts with; `sealGuide` adds the digest once the guide is rendered. */
export function stamp(kind: GuideKind, version = VERSION): string {
  return `<!-- voicebot-guide ${version} ${kind} -->`;
}

/** A rendered guide with the digest of its text after the stamp added to the stamp. */
export function sealGuide(content: string): string {
  const match = content.match(/^<!-- voicebot-guide (\S+) (agent|project) -->\n/);
  if (!match) throw new Error("a guide template must start with {{{guide_stamp}}}");
  const body = content.slice(match[0].length);
  return `<!-- voicebot-guide ${match[1]} ${match[2]} ${digest(body)} -->\n${body}`;
}

/** What a guide's stamp says, or null for a file voicebot did not write. */
export function readStamp(
  content: string,
): { version: string; kind: GuideKind | null; edited: boolean } | null {
  const match = content.match(STAMP);
  if (!match) return null;
  const [whole, version, kind, sealed] = match;
  // An older stamp has no digest: whether it was edited is unknown, so it counts as edited.
  const edited = !sealed || digest(content.slice(whole.length).replaceAll("\r\n", "\n")) !== sealed;
  return { version, kind: (kind as GuideKind | undefined) ?? null, edited };
}

/**
 * FNV-1a over the text's UTF-16 code units, as 8 hex digits. It tells an edited guide from an
 * untouched one; it protects nothing, so a fast, synchronous hash serves (WebCrypto's first call
 * costs more than a whole `init`).
 */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** A guide that exists and is kept, and why it matters. */
export interface KeptGuide {
  readonly path: string;
  /** The version in its stamp, or null when it has none (written by hand). */
  readonly writtenBy: string | null;
  /** Stamped by another version of voicebot: older (a newer template exists) or newer. */
  readonly age: "older" | "newer" | null;
  /** The coding agent's guide, edited, kept where a scaffolded project would have its own. */
  readonly agentGuide: boolean;
}

/**
 * Splits the planned guide files, of `kind`, into those to write and those to keep. An existing guide is
 * kept unless `overwrite`; missing guides are always written. When a project is scaffolded where
 * the coding-agent path wrote its guides, those that nobody edited give way to the project's own
 * (`replaced`): they were voicebot's, and they describe a project that does not exist any more.
 * A guide already there with the very text planned is `unchanged`: there is nothing to write.
 */
export function sortGuides(
  root: string,
  guides: readonly PlannedFile[],
  kind: GuideKind,
  overwrite: boolean,
): { write: PlannedFile[]; kept: KeptGuide[]; replaced: string[]; unchanged: string[] } {
  const forProject = kind === "project";
  const write: PlannedFile[] = [];
  const kept: KeptGuide[] = [];
  const replaced: string[] = [];
  const unchanged: string[] = [];
  for (const guide of guides) {
    const existing = readIfExists(join(root, guide.path));
    if (existing !== null && existing === guide.content) {
      unchanged.push(guide.path);
      continue;
    }
    if (existing === null || overwrite) {
      write.push(guide);
      continue;
    }
    const found = readStamp(existing);
    if (forProject && found?.kind === "agent" && !found.edited) {
      write.push(guide);
      replaced.push(guide.path);
      continue;
    }
    const writtenBy = found?.version ?? null;
    kept.push({
      path: guide.path,
      writtenBy,
      age: writtenBy === null ? null : AGE[compareVersions(writtenBy, VERSION) + 1],
      agentGuide: forProject && found?.kind === "agent",
    });
  }
  return { write, kept, replaced, unchanged };
}

const AGE = ["older", null, "newer"] as const;

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
