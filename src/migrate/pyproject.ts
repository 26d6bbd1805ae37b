/**
 * The `pipecat-ai` requirement in a pyproject.toml: the release its code is written for (its
 * floor), and the requirement moved to a newer release, written back into the same bytes.
 */
import { parse as parseToml } from "smol-toml";
import { compareVersions } from "../init/guides.ts";

/** `pipecat-ai[extras] specifiers ; markers`, under any of PEP 503's spellings of the name. */
const REQUIREMENT = /^(\s*pipecat[-_.]ai\s*)(?:\[([^\]]*)\])?(\s*)([^;]*?)(\s*(?:;.*)?)$/i;

/** Every `pipecat-ai` requirement string in the file's dependency lists. */
export function pipecatRequirements(text: string): string[] {
  const toml = parseToml(text) as {
    project?: { dependencies?: unknown; "optional-dependencies"?: Record<string, unknown> };
    "dependency-groups"?: Record<string, unknown>;
  };
  const lists = [
    toml.project?.dependencies,
    ...Object.values(toml.project?.["optional-dependencies"] ?? {}),
    ...Object.values(toml["dependency-groups"] ?? {}),
  ];
  return lists
    .flatMap((list) => Array.isArray(list) ? list : [])
    .filter((item): item is string => typeof item === "string" && REQUIREMENT.test(item));
}

/** The lowest release a requirement allows, as its code was written for: `>=1.2.0` gives 1.2.0. */
export function floorOf(requirement: string): string | null {
  const specifiers = REQUIREMENT.exec(requirement)?.[4] ?? "";
  for (const clause of specifiers.split(",")) {
    const match = /^\s*(>=|==|~=|===)\s*([0-9][0-9.]*)\s*$/.exec(clause);
    if (match) return match[2];
  }
  return null;
}

/** The version of `pipecat-ai` a uv.lock pins, if it pins one. */
export function lockedVersion(lock: string): string | null {
  const toml = parseToml(lock) as { package?: { name?: string; version?: string }[] };
  return toml.package?.find((p) => p.name === "pipecat-ai")?.version ?? null;
}

/** `1.7.0` -> `1.8`: the first release a `<` bound must name to allow `version`'s minor line. */
function nextMinor(version: string): string {
  const [major, minor] = version.split(".").map(Number);
  return `${major}.${minor + 1}`;
}

/**
 * The requirement asking for release `to` or newer (its floor raised, an upper bound below `to`
 * moved past it), with its extras renamed; null when it already does and needs no renamed extra.
 */
export function movedRequirement(
  requirement: string,
  to: string,
  extras: ReadonlyMap<string, string>,
): string | null {
  const match = REQUIREMENT.exec(requirement);
  if (match === null) return null;
  const [, name, extraList, space, specifiers, markers] = match;
  let changed = false;
  let hasFloor = false;
  const clauses = specifiers.trim() === "" ? [] : specifiers.split(",");
  const moved = clauses.map((clause) => {
    const parsed = /^(\s*)(>=|==|~=|===|<=|<|>|!=)(\s*)([0-9][0-9.*]*)(\s*)$/.exec(clause);
    if (parsed === null) return clause;
    const [, before, operator, gap, version, after] = parsed;
    let next = version;
    if (operator === ">=" || operator === "==" || operator === "~=" || operator === "===") {
      hasFloor = true;
      if (compareVersions(version, to) < 0) next = to;
    } else if (operator === "<" && compareVersions(version, to) <= 0) next = nextMinor(to);
    else if (operator === "<=" && compareVersions(version, to) < 0) next = to;
    if (next !== version) changed = true;
    return `${before}${operator}${gap}${next}${after}`;
  });
  if (!hasFloor) {
    moved.unshift(`>=${to}`);
    changed = true;
  }
  let extrasText = extraList;
  if (extraList !== undefined) {
    const names = extraList.split(",");
    const renamed = names.map((extra) => {
      const newName = extras.get(extra.trim());
      return newName === undefined ? extra : extra.replace(extra.trim(), newName);
    });
    // A rename onto an extra already listed leaves one of it.
    const seen = new Set<string>();
    const unique = renamed.filter((extra) => !seen.has(extra.trim()) && seen.add(extra.trim()));
    extrasText = unique.join(",");
    if (extrasText !== extraList) changed = true;
  }
  if (!changed) return null;
  const extrasPart = extrasText === undefined ? "" : `[${extrasText}]`;
  const separator = specifiers.trim() === "" && space === "" ? "" : space;
  return `${name}${extrasPart}${separator}${moved.join(",")}${markers}`;
}

/** The file's text with each `pipecat-ai` requirement moved (see movedRequirement). */
export function movePyproject(
  text: string,
  to: string,
  extras: ReadonlyMap<string, string>,
): string {
  let result = text;
  for (const requirement of pipecatRequirements(text)) {
    const moved = movedRequirement(requirement, to, extras);
    if (moved === null) continue;
    // The requirement as the file spells it: a basic or a literal string.
    for (const quote of ['"', "'"]) {
      result = result.replaceAll(`${quote}${requirement}${quote}`, `${quote}${moved}${quote}`);
    }
  }
  return result;
}

/** The line length ruff formats the project's code to: its [tool.ruff] line-length, else 88. */
export function ruffLineLength(text: string | null): number {
  if (text === null) return 88;
  try {
    const toml = parseToml(text) as { tool?: { ruff?: { "line-length"?: unknown } } };
    const length = toml.tool?.ruff?.["line-length"];
    return typeof length === "number" ? length : 88;
  } catch {
    return 88;
  }
}
