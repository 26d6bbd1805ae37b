/**
 * The few path operations `init` needs, with `/` separators (Deno's file APIs take them on every
 * platform). Not pathe: it reads `globalThis.process` when it loads, and that first touch of Node's
 * `process` costs about as much again as starting Deno. paths_test.ts checks these against pathe.
 */

const DRIVE = /^[A-Za-z]:\//;

export function isAbsolute(path: string): boolean {
  const p = path.replaceAll("\\", "/");
  return p.startsWith("/") || DRIVE.test(p);
}

/** Forward slashes, no `.` or empty segments, `..` folded where it can be. */
export function normalize(path: string): string {
  const p = path.replaceAll("\\", "/");
  const root = p.startsWith("/") ? "/" : DRIVE.test(p) ? p.slice(0, 3) : "";
  const segments: string[] = [];
  for (const segment of p.slice(root.length).split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && segments.length > 0 && segments.at(-1) !== "..") segments.pop();
    else if (segment !== ".." || root === "") segments.push(segment);
  }
  const joined = segments.join("/");
  return root + joined || (root === "" ? "." : root);
}

export function join(...parts: string[]): string {
  return normalize(parts.filter((part) => part !== "").join("/"));
}

/** `path` made absolute against `base` (itself absolute). */
export function resolve(base: string, path: string): string {
  return isAbsolute(path) ? normalize(path) : normalize(`${base}/${path}`);
}

export function dirname(path: string): string {
  const p = normalize(path);
  const cut = p.lastIndexOf("/");
  if (cut < 0) return ".";
  if (cut === 0) return "/";
  if (DRIVE.test(p) && cut === 2) return p.slice(0, 3);
  return p.slice(0, cut);
}

export function basename(path: string): string {
  const p = normalize(path);
  return p.slice(p.lastIndexOf("/") + 1);
}

/** The path from `from` to `to`, both absolute; `""` when they are the same. */
export function relative(from: string, to: string): string {
  const a = normalize(from).split("/").filter(Boolean);
  const b = normalize(to).split("/").filter(Boolean);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return [...Array(a.length - common).fill(".."), ...b.slice(common)].join("/");
}
