/**
 * A request's 400: every problem of the path, the query and the body at once, including what the
 * wire schemas cannot see (the organization's regions, a key JSON objects drop, a lone surrogate,
 * a registry host that names no registry).
 */
import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import {
  type ErrorDetail,
  putRequestSchemaFor,
  type PutSecretSetRequest,
  SingleSecretRequest,
} from "../../secrets/schemas.ts";
import { type RegistryHostRefusal, registryHostRefusal } from "../../secrets/registry.ts";
import { validationError } from "../errors.ts";
import { issuesToDetails } from "../request.ts";
import type { Env } from "./env.ts";

/** A 400 detail for a region that is not one of the organization's. */
type RegionProblem = (region: unknown) => ErrorDetail[];

/** The routers' hook: on any 400, report every problem, the path's, the body's and the region's. */
export function reportAllProblems(
  regionProblem: RegionProblem,
): Hook<unknown, Env, string, unknown> {
  return (result, c) => {
    if (result.success) return;
    const isPut = c.req.method === "PUT";
    // A PUT's handler checks its body only once the name passes: with a name that fails, the
    // body's problems are named here too, all at once.
    const details = issuesToDetails(result.error.issues);
    if (isPut) {
      details.push(...putBodyProblems(c.get("jsonBody"), undefined, regionProblem).problems);
    }
    throw validationError("The request is not valid.", details);
  };
}

/**
 * A PUT body, checked by its handler against the schema its shape picks (documented, the platform
 * CLI's or ours, not all five at once, whose union's issues would say little); else a 400 naming
 * every problem.
 */
export function validPutBody(
  body: unknown,
  setName: string,
  regionProblem: RegionProblem,
): PutSecretSetRequest {
  const { value, problems } = putBodyProblems(body, setName, regionProblem);
  if (problems.length || value === undefined) {
    throw validationError("The request is not valid.", problems);
  }
  return value;
}

/** A JSON body its handler checks against `schema`; else a 400 naming every problem. */
export function validBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw validationError("The request is not valid.", issuesToDetails(parsed.error.issues));
  }
  return parsed.data;
}

/**
 * A PUT body as its shape's schema reads it, and every problem of it: the schema's, then the rest.
 * `setName` is the path's, when valid.
 */
function putBodyProblems(
  body: unknown,
  setName: string | undefined,
  regionProblem: RegionProblem,
): { value?: PutSecretSetRequest; problems: ErrorDetail[] } {
  const schema = putRequestSchemaFor(body);
  const parsed = schema.safeParse(body);
  const problems = parsed.success ? [] : issuesToDetails(parsed.error.issues);
  problems.push(...problemsBeyondSchema(body, regionProblem));
  // The platform CLI's body names its set again: a body meant for another set is refused.
  const { name } = (body ?? {}) as Record<string, unknown>;
  const otherName = typeof name === "string" && setName !== undefined && name !== setName;
  if (schema === SingleSecretRequest && otherName) {
    problems.push({ field: "name", message: `must be the set named in the path, "${setName}"` });
  }
  return { value: parsed.data, problems };
}

/** What the wire schema cannot see in a PUT body: the regions, a key JSON objects drop, and so on. */
function problemsBeyondSchema(body: unknown, regionProblem: RegionProblem): ErrorDetail[] {
  const { type, region, secrets, host, credentials, secretValue } = (body ?? {}) as Record<
    string,
    unknown
  >;
  const problems = regionProblem(region);
  const sent = sentSecrets(secrets);
  // JSON.parse keeps it as an own key, but zod's output object (like any) would silently lose it.
  if (sent.some(([key]) => key === "__proto__")) {
    problems.push({ field: "secrets.__proto__", message: "is a reserved name" });
  }
  // In the documented array, a key could be given twice: which value was meant is unknown.
  const seen = new Set<string>();
  for (const [key] of sent) {
    if (seen.has(key)) {
      problems.push({ field: `secrets.${key}`, message: "is given more than once" });
    }
    seen.add(key);
  }
  // A lone surrogate would be stored as U+FFFD: what is acknowledged must be what was sent.
  const strings: [string, unknown][] = [
    ...sent.map(([key, value]): [string, unknown] => [`secrets.${key}`, value]),
    ["host", host],
    ["credentials", credentials],
    ["secretValue", secretValue],
  ];
  for (const [field, value] of strings) {
    if (typeof value === "string" && !value.isWellFormed()) {
      problems.push({ field, message: "is not valid Unicode (it holds a lone surrogate)" });
    }
  }
  // A host that names no registry by its form could never be provisioned: refused here rather
  // than acknowledged. Never quoted: `user:password@registry` holds a credential.
  const refusal = typeof host === "string" ? registryHostRefusal(host) : undefined;
  if (refusal !== undefined) {
    // The documented body (no `type`) carries the credentials in `secretValue`.
    const credentialsField = type === undefined ? "secretValue" : "credentials";
    problems.push({ field: "host", message: HOST_REFUSALS[refusal](credentialsField) });
  }
  return problems;
}

/** What a 400 says of a host that names no registry; never the host itself. */
const HOST_REFUSALS: Record<RegistryHostRefusal, (credentialsField: string) => string> = {
  "user-information": (field) =>
    `must not hold user information (user:password@); send it in \`${field}\``,
  scheme: () => "must be host[:port] or an http:// or https:// URL (no other scheme)",
  query: () => "must not hold a query (?...): a registry is named by its host and path",
  fragment: () => "must not hold a fragment (#...): a registry is named by its host and path",
};

/** A PUT body's keys and values as sent, in either shape, before validation. */
function sentSecrets(secrets: unknown): [string, unknown][] {
  if (Array.isArray(secrets)) {
    return secrets.flatMap((item): [string, unknown][] => {
      const { secretKey, secretValue } = (item ?? {}) as Record<string, unknown>;
      return typeof secretKey === "string" ? [[secretKey, secretValue]] : [];
    });
  }
  return typeof secrets === "object" && secrets !== null ? Object.entries(secrets) : [];
}
