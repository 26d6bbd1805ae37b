/**
 * The limits the secrets API documents (docs/API.md, "Names and limits"): the server enforces
 * them, and the CLI checks them before it sends anything, so that a write over one is refused
 * with the key and the limit named, instead of coming back as a bare 413.
 *
 * @module
 */

export const DOCUMENTED_LIMITS = {
  /** Request body, in bytes. */
  maxBodyBytes: 1024 * 1024,
  /** One secret value or one registry credential, in UTF-8 bytes. */
  maxValueBytes: 64 * 1024,
  /** Keys of one set, after the write. */
  maxKeysPerSet: 200,
  /** Secret sets and image pull secrets together. */
  maxSetsPerOrganization: 1000,
} as const;

const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** A number as the docs write it: 65,536. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
