import assert from "node:assert/strict";
import { MASK, Masker, maskingStream, valuesToMask } from "./mask.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The output of a masker fed `chunks` (strings or bytes) one by one. */
function masked(values: string[], chunks: (string | Uint8Array)[]): string {
  const masker = new Masker(values);
  const out = chunks.map((chunk) =>
    masker.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk)
  );
  out.push(masker.end());
  return decoder.decode(new Uint8Array(out.flatMap((part) => [...part])));
}

/** Every way of cutting `text`'s bytes in two. */
function everySplit(text: string): Uint8Array[][] {
  const bytes = encoder.encode(text);
  return Array.from({ length: bytes.length + 1 }, (_, i) => [
    bytes.subarray(0, i),
    bytes.subarray(i),
  ]);
}

Deno.test("the byte decoding masking relies on gives each byte its own unit", () => {
  const all = new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 256 }, (_, i) => i));
  assert.equal(all.length, 256);
  assert.equal(new Set(all).size, 256);
});

Deno.test("a value is masked wherever the bytes are cut, multi-line and multi-byte ones too", () => {
  const values = ["sk-live-0123456789", "line one\nline two", "clé-секрет-密钥", "a.b*c+d?"];
  for (const value of values) {
    const text = `before ${value} middle ${value}\nafter`;
    for (const chunks of everySplit(text)) {
      assert.equal(masked(values, chunks), `before ${MASK} middle ${MASK}\nafter`);
    }
  }
});

Deno.test("a value cut into single bytes is still masked, and bytes that are not one pass as they are", () => {
  const value = "s3cr3t-ünïcode";
  const bytes = encoder.encode(`x ${value} y s3cr3 ${"\u00ff"}`);
  const chunks = [...bytes].map((byte) => Uint8Array.of(byte));
  assert.equal(masked([value], chunks), `x ${MASK} y s3cr3 \u00ff`);
  // Invalid UTF-8 from the program is passed on byte for byte.
  const raw = Uint8Array.of(0x80, 0xff, 0x41, 0x9d);
  const masker = new Masker([value]);
  assert.deepEqual([...masker.push(raw), ...masker.end()], [...raw]);
});

Deno.test("short values are not masked; the longer of two values starting alike is masked whole", () => {
  assert.deepEqual(valuesToMask(["12345", "123456", "héllo", "héllo!", "123456"]), [
    "123456",
    "héllo!",
  ]);
  assert.equal(masked(["12345", "8080"], ["port 8080, pin 12345"]), "port 8080, pin 12345");
  const values = ["abcdef", "abcdefgh"];
  for (const chunks of everySplit("<abcdefgh> <abcdef>")) {
    assert.equal(masked(values, chunks), `<${MASK}> <${MASK}>`);
  }
});

Deno.test("bytes that cannot begin a value are let out at once; only a possible start waits", () => {
  const masker = new Masker(["secret-value"]);
  assert.equal(decoder.decode(masker.push(encoder.encode("log line\n"))), "log line\n");
  assert.equal(decoder.decode(masker.push(encoder.encode("next sec"))), "next ");
  assert.equal(decoder.decode(masker.push(encoder.encode("ond\n"))), "second\n");
  assert.equal(decoder.decode(masker.push(encoder.encode("the secret-va"))), "the ");
  assert.equal(decoder.decode(masker.end()), "secret-va");
});

Deno.test("maskingStream masks what flows through it", async () => {
  const source = ReadableStream.from(["token=tok-", "en-1234 ok\n"].map((t) => encoder.encode(t)));
  const text = await new Response(source.pipeThrough(maskingStream(["tok-en-1234"]))).text();
  assert.equal(text, `token=${MASK} ok\n`);
});
