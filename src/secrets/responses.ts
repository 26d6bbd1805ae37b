/**
 * The API's answers as the client reads them, in `zod/mini`. The wire schemas (schemas.ts) are
 * classic zod, which the server needs for its OpenAPI document; loaded by every client command,
 * classic zod cost more than Deno's own start (about 65 ms of a 70 ms floor, from the bundle),
 * where these cost next to nothing.
 *
 * Each schema here has its twin there under the same name, and reads any server that implements
 * the platform's documented API: a field is required here only when the documentation requires
 * it, and voicebot's own fields are optional. src/secrets/responses_test.ts holds every pair to
 * the same fields and types, so they cannot drift, and each schema here to the documentation.
 *
 * @module
 */
import * as z from "zod/mini";
import { AUDIT_ACTIONS } from "./audit_actions.ts";

const SetType = z.enum(["secret", "imagePullSecret"]);
const SetStatus = z.enum(["pending", "ready", "failed"]);
const StatusOk = z.literal("OK");

export const SecretSetSummary = z.object({
  name: z.optional(z.string()),
  type: z.optional(SetType),
  region: z.optional(z.string()),
  status: z.optional(SetStatus),
  errorMessage: z.optional(z.string()),
});
export type SecretSetSummary = z.infer<typeof SecretSetSummary>;

export const ListSecretSetsResponse = z.object({ sets: z.optional(z.array(SecretSetSummary)) });
export type ListSecretSetsResponse = z.infer<typeof ListSecretSetsResponse>;

export const KeyDetail = z.object({
  key: z.string(),
  writtenAt: z.string(),
  fingerprint: z.string(),
});

/** The documentation's `secrets: [{ fieldName }]`; voicebot's server adds the rest. */
export const SecretSetDetail = z.extend(SecretSetSummary, {
  secrets: z.optional(z.array(z.object({ fieldName: z.optional(z.string()) }))),
  keys: z.optional(z.array(z.string())),
  host: z.optional(z.string()),
  keyDetails: z.optional(z.array(KeyDetail)),
  fingerprintKey: z.optional(z.string()),
});
export type SecretSetDetail = z.infer<typeof SecretSetDetail>;

/** The documented 202 `{ status, region }`; voicebot's server adds what the write did. */
export const PutSecretSetResponse = z.object({
  status: StatusOk,
  region: z.string(),
  set: z.optional(SecretSetSummary),
  created: z.optional(z.array(z.string())),
  updated: z.optional(z.array(z.string())),
  unchanged: z.optional(z.array(z.string())),
  version: z.optional(z.int()),
});
export type PutSecretSetResponse = z.infer<typeof PutSecretSetResponse>;

export const DeleteKeyResponse = z.object({
  status: z.optional(StatusOk),
  set: z.optional(SecretSetSummary),
});
export type DeleteKeyResponse = z.infer<typeof DeleteKeyResponse>;

export const RegionsResponse = z.object({
  regions: z.optional(z.array(z.object({
    code: z.string(),
    display_name: z.optional(z.string()),
    name: z.optional(z.string()),
  }))),
  default: z.optional(z.string()),
});
export type RegionsResponse = z.infer<typeof RegionsResponse>;

export const MeResponse = z.object({ organization: z.string(), keyId: z.string() });
export type MeResponse = z.infer<typeof MeResponse>;

/** voicebot's runtime read (no documented twin): a ready set's keys and values. */
export const RuntimeSecretSetResponse = z.object({
  name: z.string(),
  region: z.string(),
  status: z.literal("ready"),
  secrets: z.array(z.object({ secretKey: z.string(), secretValue: z.string() })),
});
export type RuntimeSecretSetResponse = z.infer<typeof RuntimeSecretSetResponse>;

/** voicebot's versions of a secret set (no documented twin). */
export const VersionSummary = z.object({
  version: z.int(),
  createdAt: z.string(),
  keyId: z.string(),
  created: z.array(z.string()),
  updated: z.array(z.string()),
  removed: z.array(z.string()),
  rollbackOf: z.optional(z.int()),
});
export type VersionSummary = z.infer<typeof VersionSummary>;

export const ListVersionsResponse = z.object({ versions: z.array(VersionSummary) });
export type ListVersionsResponse = z.infer<typeof ListVersionsResponse>;

export const VersionDetail = z.extend(VersionSummary, {
  keys: z.array(z.string()),
  keyDetails: z.array(z.object({ key: z.string(), fingerprint: z.string() })),
  fingerprintKey: z.string(),
});
export type VersionDetail = z.infer<typeof VersionDetail>;

export const RollbackResponse = z.extend(PutSecretSetResponse, {
  removed: z.array(z.string()),
  version: z.int(),
});
export type RollbackResponse = z.infer<typeof RollbackResponse>;

export const PurgeVersionsResponse = z.object({ status: StatusOk, purged: z.int() });
export type PurgeVersionsResponse = z.infer<typeof PurgeVersionsResponse>;

/** voicebot's audit trail (no documented twin): names and counts, never a value. */
export const AuditEventBody = z.object({
  id: z.string(),
  at: z.string(),
  keyId: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  set: z.optional(z.string()),
  keys: z.array(z.string()),
  requestId: z.optional(z.string()),
  detail: z.optional(z.record(z.string(), z.unknown())),
});
export type AuditEventBody = z.infer<typeof AuditEventBody>;

export const AuditEventsResponse = z.object({
  events: z.array(AuditEventBody),
  nextCursor: z.optional(z.string()),
});
export type AuditEventsResponse = z.infer<typeof AuditEventsResponse>;

export const ErrorDetail = z.object({ field: z.string(), message: z.string() });

export const ErrorResponse = z.object({
  error: z.string(),
  code: z.string(),
  details: z.optional(z.array(ErrorDetail)),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** A runtime read's 409: the set is pending or failed. */
export const NotReadyResponse = z.extend(ErrorResponse, {
  status: z.enum(["pending", "failed"]),
  errorMessage: z.optional(z.string()),
});
export type NotReadyResponse = z.infer<typeof NotReadyResponse>;
