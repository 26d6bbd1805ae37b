/**
 * `deno task test` runs this first: one line saying that the PostgreSQL tests will be skipped,
 * and how to run them, when VOICEBOT_TEST_POSTGRES_URL is not set (tests/helpers_server.ts
 * skips them then, except on CI, where CI=true makes them fail instead).
 */
if (!Deno.env.get("VOICEBOT_TEST_POSTGRES_URL")) {
  const ci = Deno.env.get("CI") === "true";
  console.error(
    ci
      ? "PostgreSQL tests will FAIL: CI=true and VOICEBOT_TEST_POSTGRES_URL is not set (.ci/run sets it)."
      : "PostgreSQL tests skipped (VOICEBOT_TEST_POSTGRES_URL is not set); to run them: " +
        "VOICEBOT_TEST_POSTGRES_URL=postgres://USER:PASSWORD@127.0.0.1:5432/DATABASE deno task test",
  );
}
