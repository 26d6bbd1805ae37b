/**
 * A secret set's versions, voicebot's own (extension `versions`): the kept ones listed, one in
 * detail (its keys and fingerprints, never a value), a rollback to one, and the purge of the rest.
 */
import { RollbackRequest, type VersionSummary } from "../../secrets/schemas.ts";
import { valueContext } from "../crypto.ts";
import { notFound } from "../errors.ts";
import * as routes from "../routes.ts";
import type { VersionInfo } from "../storage/types.ts";
import {
  type ApiContext,
  authorOf,
  bodyCheckedByHandler,
  fingerprintsOf,
  jsonBody,
  router,
  writeRules,
} from "./context.ts";
import { validBody } from "./validation.ts";

export function versionsApi(context: ApiContext) {
  const { storage, vault } = context;
  const api = router(context);
  api.on("POST", "/secrets/:setName/rollback", jsonBody(context));

  api.openapi(routes.listSecretSetVersions, async (c) => {
    const { setName: name } = c.req.valid("param");
    const versions = await storage.listVersions(c.get("orgId"), name);
    if (!versions) throw notFound(`No set named "${name}".`);
    return c.json({ versions: versions.map(versionSummary) }, 200);
  });

  api.openapi(routes.getSecretSetVersion, async (c) => {
    const { setName: name, version } = c.req.valid("param");
    const orgId = c.get("orgId");
    const stored = await storage.getVersion(orgId, name, version);
    if (!stored) throw notFound(`Set "${name}" has no version ${version} (or no such set).`);
    const { fingerprints, fingerprintKey } = await fingerprintsOf(
      vault,
      orgId,
      name,
      stored.values,
    );
    return c.json({
      ...versionSummary(stored),
      keys: stored.values.map(({ key }) => key),
      keyDetails: stored.values.map(({ key }, i) => ({ key, fingerprint: fingerprints[i] })),
      fingerprintKey,
    }, 200);
  });

  api.openapi(bodyCheckedByHandler(api, routes.rollbackSecretSet), async (c) => {
    const { setName: name } = c.req.valid("param");
    const { version } = validBody(RollbackRequest, c.get("jsonBody"));
    const orgId = c.get("orgId");
    const target = await storage.getVersion(orgId, name, version);
    if (!target) throw notFound(`Set "${name}" has no version ${version} (or no such set).`);
    // The version's own sealed values go back in place (they were sealed for this very place);
    // a stored key holding the same value is told by opening both.
    const wanted = new Map(target.values.map(({ key, sealed }) => [key, sealed]));
    const holds = (key: string, stored: Uint8Array) => {
      const valuePlace = valueContext(orgId, name, key);
      return vault.holds(stored, valuePlace, vault.openSync(wanted.get(key)!, valuePlace));
    };
    const outcome = await storage.putSecrets(orgId, {
      name,
      region: undefined,
      values: [...wanted],
      replace: true,
      holds,
      author: authorOf(c),
      rollbackOf: version,
    }, writeRules(context));
    context.wrote(orgId);
    const { setCreated: _created, ...report } = outcome;
    return c.json({
      status: "OK" as const,
      region: report.set.region,
      ...report,
      version: report.version!,
    }, 200);
  });

  api.openapi(routes.purgeSecretSetVersions, async (c) => {
    const { setName: name } = c.req.valid("param");
    const purged = await storage.purgeVersions(c.get("orgId"), name, authorOf(c));
    if (purged === undefined) throw notFound(`No set named "${name}".`);
    return c.json({ status: "OK" as const, purged }, 200);
  });

  return api;
}

/** A version as the API shows it: ISO time, the writing key's id. */
function versionSummary(info: VersionInfo): VersionSummary {
  const summary: VersionSummary = {
    version: info.version,
    createdAt: new Date(info.createdAt).toISOString(),
    keyId: info.actor,
    created: info.created,
    updated: info.updated,
    removed: info.removed,
  };
  if (info.rollbackOf !== undefined) summary.rollbackOf = info.rollbackOf;
  return summary;
}
