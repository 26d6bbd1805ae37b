/**
 * Masking of secret values in a program's output, as `secrets run` does by default: every value
 * of at least MIN_MASKED_LENGTH characters is replaced with MASK, in bytes as they stream, so a
 * value split between two writes (or two reads of a pipe), holding newlines or multi-byte text is
 * masked all the same.
 *
 * Bytes are emitted as soon as they cannot be the start of a value: output stays live, and only
 * a chunk's last few bytes that begin some value wait for the next chunk (or the end).
 *
 * @module
 */

export const MASK = "<concealed by voicebot>";
/**
 * Shorter values are not masked: a 1 to 5 character value ("true", "8080", "en") turns up in
 * ordinary output by chance, and masking it would hide words, not secrets.
 */
export const MIN_MASKED_LENGTH = 6;

const MASK_BYTES = new TextEncoder().encode(MASK);

/**
 * One byte, one UTF-16 unit: windows-1252 as the Encoding Standard decodes it maps each of the 256
 * bytes to a distinct code point, so a byte string's matches found in its decoding are at the same
 * offsets in the bytes.
 */
const bytewise = new TextDecoder("windows-1252");
const encoder = new TextEncoder();

/** The values worth masking: long enough, once each. */
export function valuesToMask(values: Iterable<string>): string[] {
  return [...new Set(values)].filter((value) => [...value].length >= MIN_MASKED_LENGTH);
}

/** Masks a stream of bytes chunk by chunk: `push` each chunk, then `end`. */
export class Masker {
  readonly #pattern: RegExp | undefined;
  /** The values as byte strings, by their first unit, longest first. */
  readonly #byFirst = new Map<string, string[]>();
  readonly #longest: number;
  /** Bytes that may begin a value, kept back until the next chunk shows whether they do. */
  #held = new Uint8Array(0);

  constructor(values: string[]) {
    const byteStrings = valuesToMask(values).map((value) => bytewise.decode(encoder.encode(value)))
      .sort((a, b) => b.length - a.length);
    // Longest first: where two values start at one place, the longer one is masked whole.
    this.#pattern = byteStrings.length
      ? new RegExp(
        byteStrings.map((value) => value.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")).join("|"),
        "g",
      )
      : undefined;
    for (const value of byteStrings) {
      const group = this.#byFirst.get(value[0]) ?? [];
      group.push(value);
      this.#byFirst.set(value[0], group);
    }
    this.#longest = byteStrings[0]?.length ?? 0;
  }

  /** The masked bytes of this chunk that can be let out now. */
  push(chunk: Uint8Array): Uint8Array {
    if (!this.#pattern) return chunk;
    const bytes = this.#held.length ? concat([this.#held, chunk]) : chunk;
    return this.#scan(bytes, false);
  }

  /** The rest, once the stream has ended. */
  end(): Uint8Array {
    const rest = this.#held;
    this.#held = new Uint8Array(0);
    return this.#pattern && rest.length ? this.#scan(rest, true) : rest;
  }

  #scan(bytes: Uint8Array, last: boolean): Uint8Array {
    const text = bytewise.decode(bytes);
    const pattern = this.#pattern!;
    const out: Uint8Array[] = [];
    let cursor = 0;
    let holdFrom = last ? text.length : this.#mayBeginValue(text, 0);
    pattern.lastIndex = 0;
    for (let match; (match = pattern.exec(text)) && match.index < holdFrom;) {
      out.push(bytes.subarray(cursor, match.index), MASK_BYTES);
      cursor = match.index + match[0].length;
      // A value that ran into the held part: what may begin a value starts after it.
      if (cursor > holdFrom) holdFrom = this.#mayBeginValue(text, cursor);
    }
    out.push(bytes.subarray(cursor, holdFrom));
    this.#held = bytes.slice(holdFrom);
    return concat(out);
  }

  /** Where the longest tail of `text` (from `from` on) that some longer value begins with starts. */
  #mayBeginValue(text: string, from: number): number {
    for (
      let start = Math.max(from, text.length - this.#longest + 1);
      start < text.length;
      start++
    ) {
      const tail = text.length - start;
      const candidates = this.#byFirst.get(text[start]);
      if (candidates?.some((value) => value.length > tail && value.startsWith(text.slice(start)))) {
        return start;
      }
    }
    return text.length;
  }
}

/** A stream that masks the values in the bytes through it. */
export function maskingStream(values: string[]): TransformStream<Uint8Array, Uint8Array> {
  const masker = new Masker(values);
  return new TransformStream({
    transform(chunk, controller) {
      const out = masker.push(chunk);
      if (out.length) controller.enqueue(out);
    },
    flush(controller) {
      const out = masker.end();
      if (out.length) controller.enqueue(out);
    },
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
