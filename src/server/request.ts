/** Reading a request: its id, its JSON body within the size limit, and validation problems as details. */
import type { z } from "zod";
import type { ErrorDetail } from "../secrets/schemas.ts";
import { showableKey } from "../secrets/names.ts";
import { ApiError, tooLarge, validationError } from "./errors.ts";

/**
 * A caller's request id reaches our logs, so only a shape that cannot hold a credential is kept:
 * hex digits and hyphens (a UUID, a W3C trace id). An API key (`vb_sk_...`) or anything
 * base64-like is replaced by a fresh UUID.
 */
export const REQUEST_ID_PATTERN = /^[0-9A-Fa-f-]{1,64}$/;

/** The caller's X-Request-Id when it has the safe shape, else a fresh one. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}

export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  /** Parameter names lower-cased; values unquoted, as sent. */
  parameters: Map<string, string>;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})[ \\t]*((?:;.*)?)$`);
const PARAMETER = new RegExp(`^[ \\t]*(?:(${TOKEN})=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))?[ \\t]*`);

/**
 * A Content-Type per RFC 9110 section 8.3.1: `type/subtype *( OWS ";" OWS [ name=value ] )`,
 * type, subtype and parameter names case-insensitive, values a token or a quoted string.
 * Undefined when the header does not parse. The one parser every media-type check uses.
 */
export function parseMediaType(header: string | null | undefined): MediaType | undefined {
  const match = MEDIA_TYPE.exec((header ?? "").trim());
  if (!match) return undefined;
  const parameters = new Map<string, string>();
  let rest = match[3];
  while (rest.length) {
    if (rest[0] !== ";") return undefined;
    const parameter = PARAMETER.exec(rest.slice(1))!;
    if (parameter[1] !== undefined) {
      const raw = parameter[2];
      const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
      const name = parameter[1].toLowerCase();
      if (!parameters.has(name)) parameters.set(name, value);
    }
    rest = rest.slice(1 + parameter[0].length);
  }
  return { essence: `${match[1]}/${match[2]}`.toLowerCase(), parameters };
}

/** `application/json`, with no charset or a UTF-8 one (any case, quoted or not). */
export function isJsonUtf8(header: string | null | undefined): boolean {
  const mediaType = parseMediaType(header);
  if (mediaType?.essence !== "application/json") return false;
  const charset = mediaType.parameters.get("charset");
  return charset === undefined || charset.toLowerCase() === "utf-8";
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body parsed as JSON. 415 unless it is declared `application/json` (UTF-8); 413 as soon as
 * it is known to exceed `maxBytes`, from Content-Length or while streaming, without reading on;
 * 400 when it has not arrived whole `timeoutMs` after the reading began.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  timeoutMs: number,
): Promise<unknown> {
  if (!isJsonUtf8(request.headers.get("content-type"))) {
    throw new ApiError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      "The request body must be `application/json` (UTF-8).",
    );
  }
  const bytes = await readLimited(request, maxBytes, timeoutMs);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError(400, "VALIDATION_ERROR", "The request body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "VALIDATION_ERROR", "The request body is not valid JSON.");
  }
  const duplicates = colonCount(text) > memberCount(value) ? duplicateMembers(text) : [];
  if (duplicates.length) {
    throw validationError("The request body gives a member twice.", duplicates);
  }
  return value;
}

/**
 * The colons of `text`, in strings or not. A member twice makes the text's members (one colon
 * each) more than the parsed value's, so a body with as many colons as the value has members has
 * no member twice, and is not scanned (`duplicateMembers`) at all: most bodies.
 */
function colonCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) count++;
  return count;
}

/** The members of every object in a parsed JSON value, however deep (no recursion). */
function memberCount(value: unknown): number {
  let count = 0;
  const pending = [value];
  while (pending.length) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null) continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (!Array.isArray(next)) count += children.length;
    for (const child of children) pending.push(child);
  }
  return count;
}

/** Strings, and the structure around them; numbers, literals and whitespace are skipped. */
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\]:,]/g;

/**
 * A detail for each member that an object of `text` (valid JSON) gives more than once.
 * JSON.parse keeps the last one silently, so which was meant is unknown: refused, not guessed.
 * A member is named when it reads like a variable name (it may be a key of a set, never a value
 * that could be a secret); else only where it is. One pass over the text.
 */
export function duplicateMembers(text: string): ErrorDetail[] {
  // One entry per open object or array: the members seen (objects) or the index (arrays).
  const stack: { members?: Map<string, number>; index: number; path: string }[] = [];
  const details: ErrorDetail[] = [];
  let pendingKey: string | undefined;
  let lastString: string | undefined;
  const pathOf = (name: string) => {
    const parent = stack.at(-1)?.path;
    return parent ? `${parent}.${name}` : name;
  };
  for (const [token] of text.matchAll(JSON_TOKEN)) {
    const top = stack.at(-1);
    switch (token) {
      case "{":
      case "[": {
        const name = top?.members ? pendingKey ?? "" : String(top?.index ?? "");
        const path = top ? pathOf(name) : "";
        stack.push({ members: token === "{" ? new Map() : undefined, index: 0, path });
        break;
      }
      case "}":
      case "]":
        stack.pop();
        break;
      case ",":
        if (top && !top.members) top.index++;
        break;
      case ":": {
        const key = lastString!;
        pendingKey = key;
        const times = (top?.members?.get(key) ?? 0) + 1;
        top?.members?.set(key, times);
        if (times === 2) {
          details.push(
            showableKey(key)
              ? { field: pathOf(key), message: "is given twice" }
              : { field: top!.path || "body", message: "gives a member twice" },
          );
        }
        break;
      }
      default:
        lastString = token.includes("\\") ? JSON.parse(token) : token.slice(1, -1);
    }
  }
  return details;
}

const bodyTooLarge = (maxBytes: number) => tooLarge(`The request body is over ${maxBytes} bytes.`);

/**
 * The whole body must arrive within this many milliseconds of the start of reading it: a client
 * that declares a length and stalls ties up a request only this long.
 */
export const BODY_READ_TIMEOUT_MS = 10_000;

/** A body being read, when it must have arrived, and how to end its read when it has not. */
interface BodyRead {
  deadline: number;
  late: boolean;
  stop: () => void;
}

/**
 * Every body read under way. One timer for them all, set for the earliest deadline, ends the
 * late ones' reads: a timer each would cost a PUT more than its whole body's reading. A read that
 * ends in time only leaves the set; the timer, when it goes off, finds the next deadline.
 */
const bodyReads = new Set<BodyRead>();
let sweeper: ReturnType<typeof setTimeout> | undefined;
let sweepAt = Infinity;

function watchBodyRead(read: BodyRead) {
  bodyReads.add(read);
  if (read.deadline < sweepAt) setSweeper(read.deadline);
}

/** The one timer, set (again) to go off at `at`. */
function setSweeper(at: number) {
  clearTimeout(sweeper);
  sweepAt = at;
  const id = setTimeout(sweepLateReads, Math.max(0, at - Date.now()));
  // A read keeps the process alive by itself; the timer must not outlive it doing so.
  Deno.unrefTimer(id);
  sweeper = id;
}

function sweepLateReads() {
  sweeper = undefined;
  sweepAt = Infinity;
  const now = Date.now();
  let next = Infinity;
  for (const read of bodyReads) {
    if (read.deadline > now) {
      next = Math.min(next, read.deadline);
      continue;
    }
    read.late = true;
    bodyReads.delete(read);
    read.stop();
  }
  if (next < Infinity) setSweeper(next);
}

async function readLimited(
  request: Request,
  maxBytes: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const read: BodyRead = { deadline: Date.now() + timeoutMs, late: false, stop: () => {} };
  watchBodyRead(read);
  let bytes: Uint8Array | undefined;
  try {
    // The server lets no more than a declared length through, so such a body is read whole at
    // once, a fraction of the cost of reading it through its stream chunk by chunk.
    bytes = declared !== null
      ? await wholeBody(request, read)
      : await streamedBody(request.body, read, maxBytes);
  } finally {
    bodyReads.delete(read);
  }
  if (read.late) {
    throw new ApiError(
      400,
      "VALIDATION_ERROR",
      `The request body did not arrive within ${timeoutMs / 1000} seconds.`,
      undefined,
      { Connection: "close" },
    );
  }
  if (!bytes) {
    // The client went away mid-body: its fault, not ours, and nobody is left to answer.
    throw new ApiError(400, "VALIDATION_ERROR", "The request body could not be read to its end.");
  }
  // A server request holds no more than it declared, but a Request made in process (app.request)
  // may declare less than it carries.
  if (bytes.byteLength > maxBytes) throw bodyTooLarge(maxBytes);
  return bytes;
}

/** The body in one read; undefined when it fails, or is stopped (late). */
function wholeBody(request: Request, read: BodyRead): Promise<Uint8Array | undefined> {
  return new Promise((resolve) => {
    // A read left behind ends with its connection, which a late answer closes.
    request.bytes().then(resolve, () => resolve(undefined));
    read.stop = () => resolve(undefined);
  });
}

/** The body chunk by chunk, never past `maxBytes`; undefined when it fails, or is stopped. */
async function streamedBody(
  body: ReadableStream<Uint8Array>,
  read: BodyRead,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  // Not awaited: the stalled read may never settle.
  read.stop = () => void reader.cancel().catch(() => {});
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read().catch(() => undefined);
    if (!next || read.late) return undefined;
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** One detail per problem, named by where it is: `name`, `secrets.MY_KEY`, `type`, `body`. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.flatMap((issue): ErrorDetail[] => {
    const field = issue.path.length ? issue.path.map(String).join(".") : "body";
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.keys.map((key) => ({
          field: field === "body" ? key : `${field}.${key}`,
          message: "is not a known field",
        }));
      case "invalid_key":
        return [{ field, message: `key ${issue.issues[0]?.message ?? "is not valid"}` }];
      case "invalid_union":
        if ("options" in issue && issue.discriminator) {
          return [{ field, message: `must be one of: ${issue.options?.join(", ")}` }];
        }
        return [{ field, message: issue.message }];
      case "invalid_type":
        return [{
          field,
          message: issue.message.endsWith("received undefined")
            ? "is required"
            : `must be ${article(issue.expected)}`,
        }];
      default:
        return [{ field, message: issue.message }];
    }
  });
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/**
 * Whether an If-None-Match header names this entity tag (RFC 9110, 13.1.2: weak comparison, a
 * list, or `*`).
 */
export function matchesEntityTag(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((listed) => listed.trim().replace(/^W\//, "") === tag);
}
