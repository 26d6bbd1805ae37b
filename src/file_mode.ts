/** Files that hold secrets: who may read them, and how they are written. */

/**
 * The permission bits of a file that holds a secret (a key, the config) when its group or others
 * have any access to it; undefined when only its owner does, and on Windows, where POSIX modes do
 * not apply (`mode` is null there).
 */
export function openToOthers(info: Deno.FileInfo): number | undefined {
  return info.mode !== null && (info.mode & 0o077) !== 0 ? info.mode & 0o777 : undefined;
}

/**
 * Writes `text` to `path` atomically (a temporary file beside it, then a rename) at mode 0600,
 * creating its directory (0700) when needed: a reader finds the old file or the new, whole.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    // The mode option is filtered by the umask; chmod makes it exactly 0600.
    if (Deno.build.os !== "windows") await Deno.chmod(temp, 0o600);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
