/**
 * V8's flags for every way we start the CLI (`deno task voicebot`, the release binaries, the npm
 * package's launcher, and `deno task bench`'s servers). Those that cannot import this list, the
 * task in deno.json and scripts/npm/launcher.cjs, are held to it by scripts/v8_flags_test.ts and
 * tests/npm_package_test.ts.
 *
 * `--no-allocation-site-pretenuring`: after a burst of writes, V8 decided that objects made where
 * every request's headers are copied (inside Deno.serve) live long, and made them in the old
 * generation from then on, for reads too. Each minor GC then took about 3 ms instead of 0.7, and
 * the p99 of `GET /v1/secrets` at 64 connections doubled (4.7-7.5 ms against 1.8-2.6 with the flag,
 * after 3 s of PUTs). Without pretenuring a PUT cost the same CPU (0.97 of it, 6 rounds).
 */
export const V8_FLAGS = ["--v8-flags=--no-allocation-site-pretenuring"];
