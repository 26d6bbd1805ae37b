/**
 * Secret sets and image pull secrets, the platform's documented routes: list, detail, write
 * (either documented body, or voicebot's own), and delete a key or a whole set.
 */
import type { TypedResponse } from "hono";
import type { RouteHandler } from "@hono/zod-openapi";
import type { ListSecretSetsResponse, PutSecretSetRequest } from "../../secrets/schemas.ts";
import { utf8Length } from "../../secrets/limits.ts";
import { normalizeRegistryHost } from "../../secrets/registry.ts";
import { credentialsContext, valueContext } from "../crypto.ts";
import { notFound, tooLarge, validationError } from "../errors.ts";
import { andThen, type NowOrLater } from "../now_or_later.ts";
import * as routes from "../routes.ts";
import type { Author, WriteOutcome } from "../storage/types.ts";
import {
  type ApiContext,
  authorOf,
  bodyCheckedByHandler,
  fingerprintsOf,
  jsonBody,
  regionProblem,
  router,
  withTwin,
  writeRules,
} from "./context.ts";
import type { Env } from "./env.ts";
import { validPutBody } from "./validation.ts";

/**
 * GET /secrets's answer: the organization's sets, or those in `region`; at once when the list is
 * cached. app.ts answers the list without a query through this too, ahead of hono.
 */
export function listAnswer(
  context: ApiContext,
  orgId: string,
  region?: string,
): NowOrLater<Response> {
  return andThen(context.lists.read(orgId, context.clock()), (list) => {
    // Already JSON of the route's response type, serialized when it was cached.
    const body = region === undefined
      ? list.body
      : JSON.stringify({ sets: list.sets.filter((set) => set.region === region) });
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
}

export function setsApi(context: ApiContext) {
  const { storage, vault, limits, clock } = context;
  const api = router(context);
  api.on(
    "PUT",
    ["/secrets/:setName", "/organizations/:organization/secrets/:setName"],
    jsonBody(context),
  );

  withTwin(api, routes.listSecretSets, routes.listSecretSetsInOrganization, async (c) => {
    // Read only when there is a query at all: nothing is parsed on the common path.
    const region = c.req.url.includes("?") ? c.req.query("region") : undefined;
    const problems = regionProblem(context, region);
    if (problems.length) throw validationError("The request is not valid.", problems);
    const answer = await listAnswer(context, c.get("orgId"), region);
    return answer as unknown as TypedResponse<ListSecretSetsResponse, 200, "json">;
  });

  withTwin(api, routes.getSecretSet, routes.getSecretSetInOrganization, async (c) => {
    const { setName: name } = c.req.valid("param");
    const orgId = c.get("orgId");
    const detail = await storage.getSet(orgId, name);
    if (!detail) throw notFound(`No set named "${name}".`);
    const { values, ...stored } = detail;
    const set = { ...stored, secrets: stored.keys.map((fieldName) => ({ fieldName })) };
    if (set.type !== "secret") return c.json({ ...set, keyDetails: [] }, 200);
    const { fingerprints, fingerprintKey } = await fingerprintsOf(vault, orgId, name, values);
    const keyDetails = values.map(({ key, writtenAt }, i) => ({
      key,
      writtenAt: new Date(writtenAt).toISOString(),
      fingerprint: fingerprints[i],
    }));
    return c.json({ ...set, keyDetails, fingerprintKey }, 200);
  });

  const putRoute = bodyCheckedByHandler(api, routes.putSecretSet);
  const putTwin = bodyCheckedByHandler(api, routes.putSecretSetInOrganization);
  withTwin(api, putRoute, putTwin, async (c) => {
    const { setName: name } = c.req.valid("param");
    const body = validPutBody(c.get("jsonBody"), name, (region) => regionProblem(context, region));
    const orgId = c.get("orgId");
    const write = putWrite(body);
    const outcome = write.type === "secret"
      ? await putSecrets(orgId, name, write, authorOf(c))
      : await putImagePullSecret(orgId, name, write, authorOf(c));
    context.wrote(orgId);
    const { setCreated, removed: _removed, ...report } = outcome;
    const response = { status: "OK" as const, region: report.set.region, ...report };
    // The documented bodies are answered as documented; ours as they always were.
    return c.json(response, write.documented ? 202 : setCreated ? 201 : 200);
  });

  async function putSecrets(
    orgId: string,
    name: string,
    body: Extract<PutWrite, { type: "secret" }>,
    author: Author,
  ): Promise<WriteOutcome> {
    const entries = body.secrets;
    const given = new Map(entries);
    const oversized = entries.filter(([, value]) => utf8Length(value) > limits.maxValueBytes);
    if (oversized.length) {
      throw tooLarge(
        `A value is over ${limits.maxValueBytes} bytes.`,
        oversized.map(([key]) => ({
          field: `secrets.${key}`,
          message: `is over ${limits.maxValueBytes} bytes`,
        })),
      );
    }
    const values = await Promise.all(
      entries.map(async ([key, value]): Promise<[string, Uint8Array]> => [
        key,
        await vault.seal(value, valueContext(orgId, name, key)),
      ]),
    );
    // Values are sealed with a fresh nonce: only opening a stored one tells an unchanged key.
    const holds = (key: string, sealed: Uint8Array) =>
      vault.holds(sealed, valueContext(orgId, name, key), given.get(key)!);
    return await storage.putSecrets(
      orgId,
      { name, region: body.region, values, replace: body.replace, holds, author },
      writeRules(context),
    );
  }

  async function putImagePullSecret(
    orgId: string,
    name: string,
    body: Extract<PutWrite, { type: "imagePullSecret" }>,
    author: Author,
  ): Promise<WriteOutcome> {
    if (utf8Length(body.credentials) > limits.maxValueBytes) {
      throw tooLarge(`The credentials are over ${limits.maxValueBytes} bytes.`, [{
        field: body.documented ? "secretValue" : "credentials",
        message: `is over ${limits.maxValueBytes} bytes`,
      }]);
    }
    const credentials = await vault.seal(body.credentials, credentialsContext(orgId, name));
    return await storage.putImagePullSecret(
      orgId,
      { name, region: body.region, host: body.host, credentials, author },
      writeRules(context),
    );
  }

  const deleteKey: RouteHandler<typeof routes.deleteSecretFromSet, Env> = async (c) => {
    const { setName, secretKey } = c.req.valid("param");
    const orgId = c.get("orgId");
    const set = await storage.deleteKey(orgId, setName, secretKey, clock(), authorOf(c));
    context.wrote(orgId);
    return c.json({ status: "OK" as const, set }, 200);
  };
  withTwin(api, routes.deleteSecretFromSet, routes.deleteSecretFromSetInOrganization, deleteKey);
  api.openapi(routes.deleteSecretSetKey, deleteKey);

  withTwin(api, routes.deleteSecretSet, routes.deleteSecretSetInOrganization, async (c) => {
    const { setName } = c.req.valid("param");
    const orgId = c.get("orgId");
    const deleted = await storage.deleteSet(orgId, setName, authorOf(c));
    context.wrote(orgId);
    if (!deleted) throw notFound(`No set named "${setName}".`);
    return c.json({ status: "OK" as const }, 200);
  });

  return api;
}

/** A PUT body of either shape, documented or ours, as the one write it asks for. */
type PutWrite =
  & { documented: boolean; region: string | undefined }
  & (
    | { type: "secret"; secrets: [string, string][]; replace: boolean }
    | { type: "imagePullSecret"; host: string; credentials: string }
  );

function putWrite(body: PutSecretSetRequest): PutWrite {
  const { region } = body;
  if ("isImagePullSecret" in body && body.isImagePullSecret) {
    return {
      documented: true,
      region,
      type: "imagePullSecret",
      host: normalizeRegistryHost(body.host),
      credentials: body.secretValue,
    };
  }
  if ("secretKey" in body) {
    const secrets: [string, string][] = [[body.secretKey, body.secretValue]];
    return { documented: true, region, type: "secret", secrets, replace: false };
  }
  if (!("type" in body)) {
    const secrets = body.secrets.map(({ secretKey, secretValue }): [string, string] => [
      secretKey,
      secretValue,
    ]);
    return { documented: true, region, type: "secret", secrets, replace: false };
  }
  if (body.type === "imagePullSecret") {
    const { host, credentials } = body;
    return {
      documented: false,
      region,
      type: "imagePullSecret",
      host: normalizeRegistryHost(host),
      credentials,
    };
  }
  const secrets = Object.entries(body.secrets);
  return { documented: false, region, type: "secret", secrets, replace: body.replace ?? false };
}
