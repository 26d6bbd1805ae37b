/**
 * The permission bits of a file that holds a secret (a key, the config) when its group or others
 * have any access to it; undefined when only its owner does, and on Windows, where POSIX modes do
 * not apply (`mode` is null there).
 */
export function openToOthers(info: Deno.FileInfo): number | undefined {
  return info.mode !== null && (info.mode & 0o077) !== 0 ? info.mode & 0o777 : undefined;
}
