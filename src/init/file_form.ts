/**
 * A file as `update` finds it on disk is bytes, not a string: it may start with a byte order mark,
 * end its lines in CRLF, not be UTF-8 at all (a Latin-1 comment), or not be text (a NUL byte).
 * voicebot's own versions of it are UTF-8 with LF endings. To merge the three, the user's bytes are
 * read into one canonical string (LF, no mark) in a way that can be undone exactly, voicebot's
 * versions are put in the same terms, and the merged string goes back to bytes in the user's form.
 */

/** How a file's bytes differ from the canonical string it is merged as. */
export interface Form {
  /** It starts with UTF-8's byte order mark. */
  readonly bom: boolean;
  /** Every line ends in CRLF (a file with both kinds of endings is merged as it is). */
  readonly crlf: boolean;
  /** Not valid UTF-8: merged byte for byte, one character per byte, never decoded. */
  readonly raw: boolean;
  /** Holds a NUL byte: not text, never merged line by line. */
  readonly binary: boolean;
}

/** The form voicebot writes in: UTF-8, LF, no mark. */
export const PLAIN: Form = { bom: false, crlf: false, raw: false, binary: false };

const BOM = [0xef, 0xbb, 0xbf];
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** A file's bytes as a canonical string, and the form that gives the bytes back. */
export function readForm(bytes: Uint8Array): { form: Form; text: string } {
  const bom = BOM.every((byte, i) => bytes[i] === byte);
  const body = bom ? bytes.subarray(BOM.length) : bytes;
  const binary = body.includes(0);
  let text: string;
  let raw = false;
  try {
    text = strictUtf8.decode(body);
  } catch {
    raw = true;
    text = byteString(body);
  }
  const lineFeeds = text.split("\n").length - 1;
  const crlf = !binary && lineFeeds > 0 && text.split("\r\n").length - 1 === lineFeeds;
  if (crlf) text = text.replaceAll("\r\n", "\n");
  return { form: { bom, crlf, raw, binary }, text };
}

/** voicebot's text (UTF-8, LF) in the terms of a file of this form, to compare and merge with it. */
export function inForm(form: Form, text: string): string {
  return form.raw ? byteString(encoder.encode(text)) : text;
}

/** A canonical string back to bytes, in the file's form: its mark, its line endings, its bytes. */
export function toBytes(form: Form, text: string): Uint8Array {
  const lines = form.crlf ? text.replaceAll("\n", "\r\n") : text;
  const body = form.raw ? stringBytes(lines) : encoder.encode(lines);
  if (!form.bom) return body;
  const bytes = new Uint8Array(BOM.length + body.length);
  bytes.set(BOM);
  bytes.set(body, BOM.length);
  return bytes;
}

/** Bytes as a person reads them in a diff: UTF-8, with U+FFFD where they are not. Never written. */
export function shown(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** One character per byte (U+0000 to U+00FF): lossless, unlike any decoder's "latin1". */
function byteString(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}

function stringBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}
