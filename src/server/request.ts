/** Reading a request: its id, its JSON body within the size limit, and validation problems as details. */
import type { z } from "zod";
import type { ErrorDetail } from "../secrets/schemas.ts";
import { ApiError, tooLarge } from "./errors.ts";

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane (it reaches our logs), else a fresh one. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body parsed as JSON. 415 unless it is declared `application/json` (UTF-8); 413 as soon as
 * it is known to exceed `maxBytes`, from Content-Length or while streaming, without reading on.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
): Promise<{ text: string; value: unknown }> {
  const contentType = request.headers.get("content-type") ?? "";
  const [mediaType, ...parameters] = contentType.split(";").map((part) =>
    part.trim().toLowerCase()
  );
  const charset = parameters.find((parameter) => parameter.startsWith("charset="));
  if (mediaType !== "application/json" || (charset && !/^charset="?utf-8"?$/.test(charset))) {
    throw new ApiError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      "The request body must be `application/json` (UTF-8).",
    );
  }
  const bytes = await readLimited(request, maxBytes);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError(400, "VALIDATION_ERROR", "The request body is not valid UTF-8.");
  }
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw new ApiError(400, "VALIDATION_ERROR", "The request body is not valid JSON.");
  }
}

const bodyTooLarge = (maxBytes: number) => tooLarge(`The request body is over ${maxBytes} bytes.`);

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      // The client went away mid-body: its fault, not ours, and nobody is left to answer.
      throw new ApiError(400, "VALIDATION_ERROR", "The request body could not be read to its end.");
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
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
