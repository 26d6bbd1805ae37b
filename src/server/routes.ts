/**
 * The OpenAPI route definitions of `/v1`, built from the shared wire schemas: the same objects
 * validate requests and describe them in `/v1/openapi.json`.
 */
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import {
  AuditEventsResponse,
  DeleteKeyResponse,
  DeleteSetResponse,
  ErrorResponse,
  KeyName,
  ListSecretSetsResponse,
  ListVersionsResponse,
  MeResponse,
  NotReadyResponse,
  OrganizationName,
  OrganizationPropertiesResponse,
  OrganizationsResponse,
  PurgeVersionsResponse,
  PutSecretSetRequest,
  PutSecretSetResponse,
  REGION_PATTERN,
  RegionsResponse,
  RollbackRequest,
  RollbackResponse,
  RuntimeSecretSetResponse,
  SecretSetDetail,
  SetName,
  VersionDetail,
} from "../secrets/schemas.ts";

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

const errors = {
  401: json(
    ErrorResponse,
    "Missing, malformed, unknown or expired API key, or a runtime key (code UNAUTHORIZED).",
  ),
  429: json(
    ErrorResponse,
    "Too many requests for this API key; see Retry-After (code RATE_LIMITED).",
  ),
  500: json(ErrorResponse, "Internal server error (code INTERNAL_ERROR)."),
  503: json(
    ErrorResponse,
    "The database cannot be reached now; see Retry-After (code SERVICE_UNAVAILABLE).",
  ),
};
const validation = {
  400: json(ErrorResponse, "Invalid name, key or body; details lists every problem."),
};
const notFound = { 404: json(ErrorResponse, "No such set in this organization, or no such key.") };

// The documented parameter names, so that this document and the platform's can sit side by side.
const setParams = z.object({ setName: SetName });
const keyParams = z.object({ setName: SetName, secretKey: KeyName });
const security = [{ bearerAuth: [] }];

export const listSecretSets = createRoute({
  method: "get",
  path: "/secrets",
  operationId: "listSecretSets",
  summary: "List all secret sets of the organization (summaries, image pull secrets included).",
  security,
  // Described here rather than as `request.query`, whose validator would run on every list, the
  // hot path; the handler checks the one parameter itself.
  parameters: [{
    name: "region",
    in: "query",
    required: false,
    description: "Only the sets of this region (one of the organization's).",
    schema: { type: "string", pattern: REGION_PATTERN.source },
  }],
  responses: {
    200: json(ListSecretSetsResponse, "The organization's sets, sorted by name."),
    ...validation,
    ...errors,
  },
});

export const getSecretSet = createRoute({
  method: "get",
  path: "/secrets/{setName}",
  operationId: "getSecretSet",
  summary: "One set: its summary and key names (never values).",
  security,
  request: { params: setParams },
  responses: { 200: json(SecretSetDetail, "The set."), ...validation, ...notFound, ...errors },
});

export const putSecretSet = createRoute({
  method: "put",
  path: "/secrets/{setName}",
  operationId: "upsertSecretSet",
  summary: "Create or update a secret set (keys merged, or replaced) or an image pull secret. " +
    "The documented bodies and the platform CLI's (one key) are answered 202; voicebot's own " +
    "(with `type`) 201 or 200.",
  security,
  request: {
    params: setParams,
    body: { required: true, content: { "application/json": { schema: PutSecretSetRequest } } },
  },
  responses: {
    200: json(PutSecretSetResponse, "Updated (voicebot's body); the set is pending again."),
    201: json(PutSecretSetResponse, "Created (voicebot's body); the set is pending."),
    202: json(
      PutSecretSetResponse,
      "Accepted (a documented body, or the platform CLI's); the set is pending.",
    ),
    400: json(
      ErrorResponse,
      "Invalid name, key or body, details listing every problem (VALIDATION_ERROR); or the name " +
        "exists in another region or with the other type (GENERIC_BAD_REQUEST, as documented).",
    ),
    413: json(ErrorResponse, "Body or a value over the limits."),
    415: json(ErrorResponse, "The body is not application/json."),
    ...errors,
  },
});

const deleteKey = {
  method: "delete",
  security,
  request: { params: keyParams },
  responses: {
    200: json(DeleteKeyResponse, "Removed; the set is pending again."),
    ...validation,
    ...notFound,
    ...errors,
  },
} as const;

export const deleteSecretFromSet = createRoute({
  ...deleteKey,
  path: "/secrets/{setName}/{secretKey}",
  operationId: "deleteSecretFromSet",
  summary: "Remove one key from a secret set.",
});

export const deleteSecretSetKey = createRoute({
  ...deleteKey,
  path: "/secrets/{setName}/keys/{secretKey}",
  operationId: "deleteSecretSetKey",
  summary: "Remove one key from a secret set: voicebot's first path for deleteSecretFromSet.",
});

export const deleteSecretSet = createRoute({
  method: "delete",
  path: "/secrets/{setName}",
  operationId: "deleteSecretSet",
  summary: "Delete a set and every value in it. Irreversible.",
  security,
  request: { params: setParams },
  responses: {
    200: json(DeleteSetResponse, "Deleted."),
    ...validation,
    ...notFound,
    ...errors,
  },
});

/**
 * A whole number written in decimal digits only, as a number: `z.coerce.number()` would also take
 * `0x1`, `1e0`, `+1`, `1.0` and ` 1`, and answer for a number the caller did not write.
 */
const decimal = (min: number, max: number) =>
  z.string().regex(/^[0-9]+$/, "must be decimal digits").pipe(
    z.coerce.number<string>().int().min(min).max(max),
  ).openapi({ type: "integer", minimum: min, maximum: max });

const versionParams = z.object({
  setName: SetName,
  version: decimal(1, 2 ** 31 - 1).meta({
    description: "A version number, from the set's versions.",
  }),
});

export const listSecretSetVersions = createRoute({
  method: "get",
  path: "/secrets/{setName}/versions",
  operationId: "listSecretSetVersions",
  summary: "A secret set's kept versions, newest first: who wrote each, when, and which keys it " +
    "created, updated and removed; never a value. Not in the platform's documented API.",
  security,
  request: { params: setParams },
  responses: {
    200: json(ListVersionsResponse, "The versions; none for an image pull secret."),
    ...validation,
    ...notFound,
    ...errors,
  },
});

export const getSecretSetVersion = createRoute({
  method: "get",
  path: "/secrets/{setName}/versions/{version}",
  operationId: "getSecretSetVersion",
  summary: "One kept version: its key names and the fingerprints of its values. Not in the " +
    "platform's documented API.",
  security,
  request: { params: versionParams },
  responses: {
    200: json(VersionDetail, "The version."),
    ...validation,
    404: json(ErrorResponse, "No such set, or that version is not kept (NOT_FOUND)."),
    ...errors,
  },
});

export const rollbackSecretSet = createRoute({
  method: "post",
  path: "/secrets/{setName}/rollback",
  operationId: "rollbackSecretSet",
  summary: "Make a kept version current again, as a new write (and a new version) whose keys and " +
    "values are exactly that version's. Not in the platform's documented API.",
  security,
  request: {
    params: setParams,
    body: { required: true, content: { "application/json": { schema: RollbackRequest } } },
  },
  responses: {
    200: json(RollbackResponse, "Written; the set is pending again unless nothing changed."),
    ...validation,
    404: json(ErrorResponse, "No such set, or that version is not kept (NOT_FOUND)."),
    413: json(ErrorResponse, "Body over the limit."),
    415: json(ErrorResponse, "The body is not application/json."),
    ...errors,
  },
});

export const purgeSecretSetVersions = createRoute({
  method: "post",
  path: "/secrets/{setName}/versions/purge",
  operationId: "purgeSecretSetVersions",
  summary: "Drop every version but the current one: for a value that leaked. Irreversible. Not " +
    "in the platform's documented API.",
  security,
  request: { params: setParams },
  responses: {
    200: json(PurgeVersionsResponse, "Purged."),
    ...validation,
    ...notFound,
    ...errors,
  },
});

export const listAuditEvents = createRoute({
  method: "get",
  path: "/audit",
  operationId: "listAuditEvents",
  summary: "The organization's audit trail, newest first, a page at a time: every change, who " +
    "made it and when; never a value. Not in the platform's documented API.",
  security,
  request: {
    query: z.object({
      limit: decimal(1, 200).default(50).meta({
        description: "Events on this page (1 to 200; 50 when absent).",
        default: 50,
      }),
      cursor: z.string().regex(/^[0-9]{1,19}$/).optional().meta({
        description: "The previous page's nextCursor: the events before it.",
      }),
    }),
  },
  responses: {
    200: json(AuditEventsResponse, "A page of events."),
    ...validation,
    ...errors,
  },
});

export const listRegions = createRoute({
  method: "get",
  path: "/regions",
  operationId: "listRegions",
  summary: "The organization's regions and its default region.",
  security,
  responses: { 200: json(RegionsResponse, "Regions."), ...errors },
});

export const getMe = createRoute({
  method: "get",
  path: "/me",
  operationId: "getMe",
  summary: "Whom the API key belongs to: its organization and its public id. Not in the " +
    "platform's documented API; a client falls back when a server lacks it.",
  security,
  responses: { 200: json(MeResponse, "The key's organization and id."), ...errors },
});

const entityTagHeader = {
  description: "The set's entity tag: it changes when a value, a key or the region does.",
  schema: { type: "string" as const },
};

export const getRuntimeSecretSet = createRoute({
  method: "get",
  path: "/runtime/secrets/{setName}",
  operationId: "getRuntimeSecretSet",
  summary: "The values of a ready secret set, for a runtime key bound to it: what " +
    "`voicebot cloud secrets run` reads. Not in the platform's documented API. Answered with " +
    "`Cache-Control: no-store` and an `ETag`; a request whose `If-None-Match` names the set's " +
    "current tag is answered 304 with no body (no value sent, and no read recorded in the " +
    "audit trail): how `secrets run --watch` asks whether the set changed.",
  security: [{ runtimeKey: [] }],
  request: {
    params: setParams,
    headers: z.object({
      "if-none-match": z.string().optional().openapi({
        description: "The ETag of an earlier answer: 304 while the set is unchanged.",
      }),
    }),
  },
  responses: {
    200: {
      ...json(RuntimeSecretSetResponse, "The set's keys and values."),
      headers: { ETag: entityTagHeader },
    },
    304: {
      description: "The set is as it was when the tag named by If-None-Match was given; no body.",
      headers: { ETag: entityTagHeader },
    },
    ...validation,
    401: json(ErrorResponse, "Missing, malformed, unknown or expired API key."),
    403: json(ErrorResponse, "A private API key: only runtime keys read values (FORBIDDEN)."),
    404: json(
      ErrorResponse,
      "The key is bound to no secret set of this name, whether or not one exists (NOT_FOUND).",
    ),
    409: json(
      NotReadyResponse,
      "The set is pending or failed; retry after Retry-After (NOT_READY).",
    ),
    429: errors[429],
    500: errors[500],
    503: errors[503],
  },
});

/**
 * The platform CLI's paths (`pcc`, daily-co/pipecat-cloud): each documented route again under
 * `/organizations/{organization}`, answered as its twin is. The organization must be the key's;
 * app.ts answers any other 404 before the route runs, whether or not it exists.
 */
const ORGANIZATION_PREFIX = "/organizations/{organization}";
const otherOrganization = "Another organization than the key's, whether or not it exists, or " +
  "no such set or key (NOT_FOUND).";

/** `route` under ORGANIZATION_PREFIX, with the organization among its parameters. */
function inOrganization(route: RouteConfig): RouteConfig & { request: { params: z.ZodObject } } {
  const params = route.request?.params as z.ZodObject | undefined;
  return createRoute({
    ...route,
    path: `${ORGANIZATION_PREFIX}${route.path}`,
    operationId: `${route.operationId}InOrganization`,
    summary: `${route.summary} The platform CLI's path: the organization must be the key's.`,
    request: {
      ...route.request,
      params: z.object({ organization: OrganizationName, ...params?.shape }),
    },
    responses: { ...route.responses, 404: json(ErrorResponse, otherOrganization) },
  });
}

export const listSecretSetsInOrganization = inOrganization(listSecretSets);
export const getSecretSetInOrganization = inOrganization(getSecretSet);
export const putSecretSetInOrganization = inOrganization(putSecretSet);
export const deleteSecretFromSetInOrganization = inOrganization(deleteSecretFromSet);
export const deleteSecretSetInOrganization = inOrganization(deleteSecretSet);
export const listRegionsInOrganization = inOrganization(listRegions);

export const getOrganizationProperties = createRoute({
  method: "get",
  path: `${ORGANIZATION_PREFIX}/properties`,
  operationId: "getOrganizationProperties",
  summary: "The organization's properties that the platform CLI reads: its default region. Not " +
    "in the platform's documented secrets API.",
  security,
  request: { params: z.object({ organization: OrganizationName }) },
  responses: {
    200: json(OrganizationPropertiesResponse, "The properties."),
    404: json(ErrorResponse, otherOrganization),
    ...errors,
  },
});

export const listOrganizations = createRoute({
  method: "get",
  path: "/organizations",
  operationId: "listOrganizations",
  summary: "The organizations the key may act in: its own. The platform CLI asks it for its " +
    "organization when PIPECAT_ORG is not set. Not in the platform's documented secrets API.",
  security,
  responses: { 200: json(OrganizationsResponse, "The key's organization."), ...errors },
});

export const getOpenApiDocument = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This document. No authentication.",
  security: [],
  responses: { 200: json(z.record(z.string(), z.unknown()), "The OpenAPI 3.1 document.") },
});

/** Every route, for the 405 check: a known path with another method. */
export const ROUTES = [
  listSecretSets,
  getSecretSet,
  putSecretSet,
  deleteSecretFromSet,
  deleteSecretSetKey,
  deleteSecretSet,
  listSecretSetVersions,
  getSecretSetVersion,
  rollbackSecretSet,
  purgeSecretSetVersions,
  listAuditEvents,
  listRegions,
  getMe,
  getRuntimeSecretSet,
  listSecretSetsInOrganization,
  getSecretSetInOrganization,
  putSecretSetInOrganization,
  deleteSecretFromSetInOrganization,
  deleteSecretSetInOrganization,
  listRegionsInOrganization,
  getOrganizationProperties,
  listOrganizations,
  getOpenApiDocument,
];
