import assert from "node:assert/strict";
import { looksLikeToken, showableKey } from "./names.ts";

Deno.test("names: variable names are shown; tokens and invalid names are not", () => {
  for (const key of ["OPENAI_API_KEY", "database_url", "apiKey", "AWS_REGION", "S3_BUCKET", "_X"]) {
    assert.ok(showableKey(key), key);
  }
  for (
    const key of [
      "c2VjcmV0LXRva2VuLXZhbHVl",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
      "deadbeef0123456789abcdef",
    ]
  ) {
    assert.ok(looksLikeToken(key), key);
    assert.ok(!showableKey(key), key);
  }
  for (const key of ["1KEY", "sk-live-4f9c2a0b", "a/b", ""]) assert.ok(!showableKey(key), key);
});
