/**
 * `deno task test` runs this first: one line on stderr for each group of tests that will be
 * skipped here, with how to run it (or, on CI, that will fail). The groups and their conditions
 * are tests/skips.ts's, the same the tests' `ignore:` reads.
 */
import { note } from "../tests/skips.ts";

for (const line of note()) console.error(line);
