/** The one error type routes and storage throw; api/frame.ts turns it into an ErrorResponse. */
import type { ErrorCode, ErrorDetail, ErrorResponse } from "../secrets/schemas.ts";

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Sent with the response: Retry-After, WWW-Authenticate, Allow. */
    readonly headers?: Record<string, string>,
    /** Members the body carries besides the ErrorResponse's (a 409 NOT_READY's status). */
    readonly extra?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): ErrorResponse {
    const body: ErrorResponse = { error: this.message, code: this.code };
    if (this.details?.length) body.details = this.details;
    return { ...body, ...this.extra };
  }
}

export const validationError = (message: string, details: ErrorDetail[]) =>
  new ApiError(400, "VALIDATION_ERROR", message, details);

export const notFound = (message: string) => new ApiError(404, "NOT_FOUND", message);

/**
 * The platform's documented 400 for a write the set as it stands refuses (another region, the
 * other type): permanent, so never a 409, which the documentation keeps for "retry".
 */
export const badRequest = (message: string) => new ApiError(400, "GENERIC_BAD_REQUEST", message);

export const tooLarge = (message: string, details?: ErrorDetail[]) =>
  new ApiError(413, "PAYLOAD_TOO_LARGE", message, details);

export const unauthorized = (message: string) =>
  new ApiError(401, "UNAUTHORIZED", message, undefined, {
    "WWW-Authenticate": 'Bearer realm="voicebot"',
  });

/** A write for an organization that is gone: its key no longer authenticates anyone. */
export const organizationGone = () => unauthorized("Invalid API key.");
