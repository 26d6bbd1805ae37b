/** Unified diffs as `git diff` prints them, for the dry runs of `update` and `migrate`. */

/** Makes `patch(path, before, after)`: null for a file that is not there on that side. */
export async function differ(): Promise<
  (path: string, before: string | null, after: string | null) => string
> {
  const { createTwoFilesPatch, FILE_HEADERS_ONLY } = await import("diff");
  return (path, before, after) =>
    createTwoFilesPatch(
      before === null ? "/dev/null" : `a/${path}`,
      after === null ? "/dev/null" : `b/${path}`,
      before ?? "",
      after ?? "",
      undefined,
      undefined,
      { headerOptions: FILE_HEADERS_ONLY },
    );
}
