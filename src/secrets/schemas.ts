/**
 * The secrets API's wire schemas: one description of every request and response body, shared
 * by the server (which validates with them and builds its OpenAPI document from them) and the
 * `voicebot cloud secrets` client (which parses responses with them).
 *
 * Classic `zod` only, no hono: the client imports this module too. `.meta({ id })` names a
 * schema in the OpenAPI document's `components.schemas`.
 *
 * @module
 */
import { z } from "zod";
import { KEY_NAME, ORGANIZATION_NAME, SET_NAME } from "./names.ts";
import { AUDIT_ACTIONS } from "./audit_actions.ts";

/** Letters, digits and hyphens, 1 to 63 characters (SPEC 8.1). Secret sets and image pull secrets alike. */
export const SET_NAME_PATTERN = SET_NAME;
/** An environment-variable name of at most 128 characters. */
export const KEY_NAME_PATTERN = KEY_NAME;
/** Region codes: lower-case letters, digits and hyphens. */
export const REGION_PATTERN = /^[a-z0-9-]{1,32}$/;

export const SetName = z
  .string()
  .regex(SET_NAME_PATTERN, "must be 1 to 63 letters, digits or hyphens")
  .meta({
    description: "Letters, digits and hyphens, 1 to 63 characters.",
    example: "my-bot-secrets",
  });

export const KeyName = z
  .string()
  .regex(KEY_NAME_PATTERN, "must match [A-Za-z_][A-Za-z0-9_]* and be at most 128 characters")
  .meta({
    description: "An environment-variable name, at most 128 characters.",
    example: "OPENAI_API_KEY",
  });

export const OrganizationName = z
  .string()
  .regex(ORGANIZATION_NAME, "must be 1 to 63 letters, digits or hyphens")
  .meta({ description: "The API key's organization.", example: "default" });

export const Region = z
  .string()
  .regex(REGION_PATTERN, "must be a region code such as us-west")
  .meta({
    description: "A region code; `GET /regions` lists the organization's regions.",
    example: "us-west",
  });

/** On create, absent means the organization's default region; on update, the set's own. */
const OptionalRegion = Region.optional().meta({
  description: "Defaults to the organization's default region (on update, the set's own).",
});

export const SetType = z.enum(["secret", "imagePullSecret"]).meta({
  description: "`secret` for a key/value set, `imagePullSecret` for registry credentials.",
});
export type SetType = z.infer<typeof SetType>;

export const SetStatus = z.enum(["pending", "ready", "failed"]).meta({
  description: "pending: provisioning in flight; ready: can be bound to a deployment; " +
    "failed: provisioning could not complete, see errorMessage.",
});
export type SetStatus = z.infer<typeof SetStatus>;

/** SPEC 2.1: every field is optional on the wire, though this server always sends the first four. */
export const SecretSetSummary = z
  .object({
    name: z.string().optional(),
    type: SetType.optional(),
    region: z.string().optional(),
    status: SetStatus.optional(),
    errorMessage: z.string().optional().meta({
      description: "Customer-facing message; present only when status is failed.",
    }),
  })
  .meta({ id: "SecretSetSummary" });
export type SecretSetSummary = z.infer<typeof SecretSetSummary>;

export const ListSecretSetsResponse = z
  .object({ sets: z.array(SecretSetSummary) })
  .meta({ id: "ListSecretSetsResponse" });
export type ListSecretSetsResponse = z.infer<typeof ListSecretSetsResponse>;

/** A key of a set, never its value. */
export const KeyDetail = z
  .object({
    key: z.string(),
    writtenAt: z.string().meta({
      description: "When the key's value was last written (ISO 8601, UTC).",
      example: "2026-01-31T12:00:00.000Z",
    }),
    fingerprint: z.string().meta({
      description: "First 16 hex digits of HMAC-SHA256(fingerprintKey, value): equal for " +
        "equal values, not reversible.",
      example: "3f9a0c12b7e45d60",
    }),
  })
  .meta({ id: "KeyDetail" });
export type KeyDetail = z.infer<typeof KeyDetail>;

export const SecretSetDetail = SecretSetSummary.extend({
  keys: z.array(z.string()).meta({
    description: "Sorted key names; never values. Empty for an image pull secret.",
  }),
  secrets: z.array(z.object({ fieldName: z.string() })).meta({
    description: "The same key names in the documented form, one `{ fieldName }` each.",
  }),
  host: z.string().optional().meta({ description: "Registry host; image pull secrets only." }),
  keyDetails: z.array(KeyDetail).optional().meta({
    description: "One per key, in the order of keys: when it was last written and the " +
      "fingerprint of its value. Empty for an image pull secret.",
  }),
  fingerprintKey: z.string().optional().meta({
    description: "Base64url of the organization's 32-byte fingerprint key, so that a client " +
      "can fingerprint local values and compare them. Secret sets only.",
  }),
}).meta({ id: "SecretSetDetail" });
export type SecretSetDetail = z.infer<typeof SecretSetDetail>;

export const PutSecretsRequest = z
  .strictObject({
    type: z.literal("secret"),
    region: OptionalRegion,
    secrets: z
      .record(KeyName, z.string())
      .refine((secrets) => Object.keys(secrets).length > 0, "must hold at least one key")
      .meta({
        description: "KEY: value pairs merged into the set (or replacing it, with replace).",
      }),
    replace: z.boolean().optional().meta({
      description: "When true, the set's keys become exactly these; otherwise they are merged in.",
    }),
  })
  .meta({ id: "PutSecretsRequest" });
export type PutSecretsRequest = z.infer<typeof PutSecretsRequest>;

export const PutImagePullSecretRequest = z
  .strictObject({
    type: z.literal("imagePullSecret"),
    region: OptionalRegion,
    host: z.string().min(1).max(261).meta({
      description: "The registry: `host[:port]` (a DNS name, IPv4 or [IPv6]), or its http(s) " +
        "URL; no user information, query or fragment.",
      example: "registry.example.com",
    }),
    credentials: z.string().min(1).meta({ description: "Base64 of `username:password`." }),
  })
  .meta({ id: "PutImagePullSecretRequest" });
export type PutImagePullSecretRequest = z.infer<typeof PutImagePullSecretRequest>;

/**
 * The platform's documented body for a secret set: keys as `{ secretKey, secretValue }` pairs,
 * merged into the set. Key names follow our rule (an environment variable's), stricter than the
 * documentation's any string: see docs/API.md, "Compatibility with the documented platform API".
 */
export const RegularSecretsRequest = z
  .strictObject({
    secrets: z
      .array(z.strictObject({ secretKey: KeyName, secretValue: z.string() }))
      .min(1, "must hold at least one key")
      .meta({ description: "Keys and values merged into the set." }),
    region: OptionalRegion,
    isImagePullSecret: z.literal(false).optional().meta({
      description: "Not an image pull secret: what a client that always sends the flag sends.",
    }),
  })
  .meta({ id: "RegularSecretsRequest" });
export type RegularSecretsRequest = z.infer<typeof RegularSecretsRequest>;

/** The platform's documented body for registry credentials. */
export const ImagePullSecretRequest = z
  .strictObject({
    isImagePullSecret: z.literal(true),
    host: z.string().min(1).max(261).meta({
      description: "The registry: `host[:port]` (a DNS name, IPv4 or [IPv6]), or its http(s) " +
        "URL; no user information, query or fragment.",
      example: "https://index.docker.io/v1/",
    }),
    secretValue: z.string().min(1).meta({ description: "Base64 of `username:password`." }),
    region: OptionalRegion,
  })
  .meta({ id: "ImagePullSecretRequest" });
export type ImagePullSecretRequest = z.infer<typeof ImagePullSecretRequest>;

/**
 * The platform CLI's body (`pcc secrets set` sends one request a key): one key merged into the set,
 * which is created when absent. Not in the platform's documented API.
 */
export const SingleSecretRequest = z
  .strictObject({
    name: SetName.optional().meta({ description: "The set's name: the one in the path." }),
    isImagePullSecret: z.literal(false).optional().meta({
      description: "Not an image pull secret, as the platform CLI says.",
    }),
    secretKey: KeyName,
    secretValue: z.string(),
    region: OptionalRegion,
  })
  .meta({ id: "SingleSecretRequest" });
export type SingleSecretRequest = z.infer<typeof SingleSecretRequest>;

/** Our own bodies, told apart by `type`. */
const OwnPutRequest = z.discriminatedUnion("type", [PutSecretsRequest, PutImagePullSecretRequest]);

/**
 * Every body `PUT /secrets/{setName}` takes: the documentation's two, the platform CLI's one and
 * our own two. The server validates a body with the one its shape picks (`putRequestSchemaFor`),
 * so that a 400 names the problems of that shape rather than of all five.
 */
export const PutSecretSetRequest = z
  .union([
    RegularSecretsRequest,
    ImagePullSecretRequest,
    SingleSecretRequest,
    PutSecretsRequest,
    PutImagePullSecretRequest,
  ])
  .meta({ id: "PutSecretSetRequest" });
export type PutSecretSetRequest = z.infer<typeof PutSecretSetRequest>;

/**
 * The schema a PUT body's shape picks: ours when it has `type`; without `secrets`, the platform
 * CLI's one key when it has `secretKey` (and no flag true) or the flag false; the documented image
 * pull secret when it has `isImagePullSecret` (but false beside `secrets`); our secret set for a
 * `secrets` object, else the documented one.
 */
export function putRequestSchemaFor(body: unknown): z.ZodType<PutSecretSetRequest> {
  const fields = typeof body === "object" && body !== null ? body as Record<string, unknown> : {};
  if ("type" in fields) return OwnPutRequest;
  const flag = fields.isImagePullSecret;
  if (!("secrets" in fields) && ("secretKey" in fields ? flag !== true : flag === false)) {
    return SingleSecretRequest;
  }
  // `isImagePullSecret: false` beside `secrets` is a secret set, checked as one.
  if ("isImagePullSecret" in fields && (flag !== false || !("secrets" in fields))) {
    return ImagePullSecretRequest;
  }
  const secrets = fields.secrets;
  const ownSecrets = typeof secrets === "object" && secrets !== null && !Array.isArray(secrets);
  return ownSecrets ? OwnPutRequest : RegularSecretsRequest;
}

/** The documented answer's `status`: the request was accepted. */
const StatusOk = z.literal("OK");

export const PutSecretSetResponse = z
  .object({
    status: StatusOk,
    region: z.string().meta({ description: "The set's region." }),
    set: SecretSetSummary,
    created: z.array(z.string()).meta({
      description: "Keys that did not exist before this write.",
    }),
    updated: z.array(z.string()).meta({ description: "Keys whose values this write replaced." }),
    unchanged: z.array(z.string()).optional().meta({
      description: "Keys written with the value they already held, left as they were. " +
        "voicebot's server always sends it; a client reads its absence as none.",
    }),
    version: z.number().int().optional().meta({
      description: "voicebot: the secret set's version after this write (a new one when it " +
        "changed the set; see the versions routes). Absent for an image pull secret.",
    }),
  })
  .meta({ id: "PutSecretSetResponse" });
export type PutSecretSetResponse = z.infer<typeof PutSecretSetResponse>;

export const DeleteKeyResponse = z
  .object({ status: StatusOk, set: SecretSetSummary })
  .meta({ id: "DeleteKeyResponse" });
export type DeleteKeyResponse = z.infer<typeof DeleteKeyResponse>;

export const DeleteSetResponse = z.object({ status: StatusOk }).meta({ id: "DeleteSetResponse" });
export type DeleteSetResponse = z.infer<typeof DeleteSetResponse>;

export const RegionsResponse = z
  .object({
    regions: z.array(z.object({
      code: z.string(),
      display_name: z.string().meta({ description: "The region's name, as documented." }),
      name: z.string().meta({ description: "The same as display_name (voicebot's first name)." }),
    })),
    default: z.string(),
  })
  .meta({ id: "RegionsResponse" });
export type RegionsResponse = z.infer<typeof RegionsResponse>;

export const OrganizationsResponse = z
  .object({
    organizations: z.array(z.object({
      name: z.string(),
      verboseName: z.string().meta({ description: "Its name for people: here, the name again." }),
    })).meta({ description: "The organizations the key may act in: its own, alone." }),
  })
  .meta({ id: "OrganizationsResponse" });
export type OrganizationsResponse = z.infer<typeof OrganizationsResponse>;

export const OrganizationPropertiesResponse = z
  .object({
    properties: z.object({
      defaultRegion: z.string().meta({
        description: "Where a set is made when no region is given.",
      }),
    }),
  })
  .meta({ id: "OrganizationPropertiesResponse" });
export type OrganizationPropertiesResponse = z.infer<typeof OrganizationPropertiesResponse>;

export const MeResponse = z
  .object({
    organization: z.string().meta({ description: "The organization the key belongs to." }),
    keyId: z.string().meta({ description: "The key's public id (not secret)." }),
  })
  .meta({ id: "MeResponse" });
export type MeResponse = z.infer<typeof MeResponse>;

/** What a runtime key reads: the values of one ready secret set (voicebot's own route). */
export const RuntimeSecretSetResponse = z
  .object({
    name: z.string(),
    region: z.string(),
    status: z.literal("ready"),
    secrets: z.array(z.object({ secretKey: z.string(), secretValue: z.string() })).meta({
      description: "Every key with its value, sorted by key, in the form the documented PUT " +
        "takes them.",
    }),
  })
  .meta({ id: "RuntimeSecretSetResponse" });
export type RuntimeSecretSetResponse = z.infer<typeof RuntimeSecretSetResponse>;

/** One version of a secret set: who made it, when, and what it changed; never a value. */
export const VersionSummary = z
  .object({
    version: z.number().int().meta({ description: "1 for the set's first write, then +1." }),
    createdAt: z.string().meta({
      description: "When the write that made it was committed (ISO 8601, UTC).",
      example: "2026-01-31T12:00:00.000Z",
    }),
    keyId: z.string().meta({
      description: "The public id of the API key that wrote it; `migration` for the set as it " +
        "stood when versions began.",
    }),
    created: z.array(z.string()).meta({ description: "Keys this write created." }),
    updated: z.array(z.string()).meta({ description: "Keys whose values this write replaced." }),
    removed: z.array(z.string()).meta({ description: "Keys this write removed." }),
    rollbackOf: z.number().int().optional().meta({
      description: "Present when this version was made by rolling back to that one.",
    }),
  })
  .meta({ id: "VersionSummary" });
export type VersionSummary = z.infer<typeof VersionSummary>;

export const ListVersionsResponse = z
  .object({
    versions: z.array(VersionSummary).meta({
      description: "The versions kept, newest (the current one) first.",
    }),
  })
  .meta({ id: "ListVersionsResponse" });
export type ListVersionsResponse = z.infer<typeof ListVersionsResponse>;

export const VersionDetail = VersionSummary.extend({
  keys: z.array(z.string()).meta({ description: "The version's key names, sorted." }),
  keyDetails: z.array(KeyDetail.omit({ writtenAt: true })).meta({
    description: "One per key, in the order of keys: the fingerprint of its value then.",
  }),
  fingerprintKey: z.string().meta({
    description: "The organization's fingerprint key, as in the set's detail.",
  }),
}).meta({ id: "VersionDetail" });
export type VersionDetail = z.infer<typeof VersionDetail>;

export const RollbackRequest = z
  .strictObject({
    version: z.number().int().min(1).meta({ description: "The kept version to make current." }),
  })
  .meta({ id: "RollbackRequest" });
export type RollbackRequest = z.infer<typeof RollbackRequest>;

export const RollbackResponse = PutSecretSetResponse.extend({
  removed: z.array(z.string()).meta({ description: "Keys the rollback removed." }),
  version: z.number().int().meta({
    description: "The new version, which holds the old one's values.",
  }),
}).meta({ id: "RollbackResponse" });
export type RollbackResponse = z.infer<typeof RollbackResponse>;

export const PurgeVersionsResponse = z
  .object({
    status: StatusOk,
    purged: z.number().int().meta({ description: "Versions dropped; the current one stays." }),
  })
  .meta({ id: "PurgeVersionsResponse" });
export type PurgeVersionsResponse = z.infer<typeof PurgeVersionsResponse>;

/** One change recorded by the audit trail (voicebot's own): names and counts, never a value. */
export const AuditEventBody = z
  .object({
    id: z.string().meta({ description: "Grows with every event; the cursor of the next page." }),
    at: z.string().meta({ description: "When (ISO 8601, UTC)." }),
    keyId: z.string().meta({
      description: "The public id of the API key that made the change, or `operator` for the " +
        "server's own commands (create-key, revoke-key, rotate-master-key).",
    }),
    action: z.enum(AUDIT_ACTIONS),
    set: z.string().optional().meta({ description: "The set it concerns, if one." }),
    keys: z.array(z.string()).meta({ description: "The key names it concerns." }),
    requestId: z.string().optional().meta({ description: "The request that made it." }),
    detail: z.record(z.string(), z.unknown()).optional().meta({
      description: "A few facts more (a version, the keys created, updated and removed, a " +
        "count, a registry host, an API key's id); never a value, credential or key.",
    }),
  })
  .meta({ id: "AuditEvent" });
export type AuditEventBody = z.infer<typeof AuditEventBody>;

export const AuditEventsResponse = z
  .object({
    events: z.array(AuditEventBody).meta({ description: "Newest first." }),
    nextCursor: z.string().optional().meta({
      description: "Present when older events remain: pass it as `cursor` for the next page.",
    }),
  })
  .meta({ id: "AuditEventsResponse" });
export type AuditEventsResponse = z.infer<typeof AuditEventsResponse>;

export const ErrorCode = z.enum([
  "VALIDATION_ERROR",
  "GENERIC_BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_READY",
  "NOT_FOUND",
  "ROUTE_NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "SERVICE_UNAVAILABLE",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorDetail = z.object({ field: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** SPEC 2.2. `code` is a string on the wire so that a client keeps working when codes are added. */
export const ErrorResponse = z
  .object({
    error: z.string(),
    code: z.string().meta({ description: "One of: " + ErrorCode.options.join(", ") }),
    details: z.array(ErrorDetail).optional(),
  })
  .meta({ id: "ErrorResponse" });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** The 409 of a runtime read: the set is not ready (yet, or at all); retry after Retry-After. */
export const NotReadyResponse = ErrorResponse.extend({
  status: SetStatus.exclude(["ready"]),
  errorMessage: z.string().optional().meta({
    description: "Why provisioning failed; present only when status is failed.",
  }),
}).meta({ id: "NotReadyResponse" });
export type NotReadyResponse = z.infer<typeof NotReadyResponse>;
