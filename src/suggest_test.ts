import assert from "node:assert/strict";
import fc from "fast-check";
import { closest, didYouMean, editDistance } from "./suggest.ts";

Deno.test("editDistance: insertions, deletions, substitutions, and a swap of neighbours as one", () => {
  assert.equal(editDistance("transport", "transport"), 0);
  assert.equal(editDistance("transprot", "transport"), 1);
  assert.equal(editDistance("cartesia_tt", "cartesia_tts"), 1);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
});

Deno.test("editDistance is symmetric and zero only for equal words", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
      assert.equal(editDistance(a, b), editDistance(b, a));
      assert.equal(editDistance(a, b) === 0, a === b);
      assert.ok(editDistance(a, b) <= Math.max(a.length, b.length));
    }),
  );
});

Deno.test("closest: the nearest near candidate, a completion of a prefix, or nothing", () => {
  const ids = ["deepgram_stt", "deepgram_flux_stt", "openai_stt", "whisper_stt"];
  assert.equal(closest("deepgram", ids), "deepgram_stt");
  assert.equal(closest("opneai_stt", ids), "openai_stt");
  assert.equal(closest("Whisper_STT", ids), "whisper_stt");
  assert.equal(closest("telepathy_stt", ids), undefined);
  assert.equal(closest("x", ids), undefined);
  assert.equal(didYouMean("clodu", ["cloud", "init"]), 'did you mean "cloud"? ');
  assert.equal(didYouMean("zzz", ["cloud", "init"]), "");
});
