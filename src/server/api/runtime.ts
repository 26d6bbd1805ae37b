/**
 * The one route that sends values: a runtime key reads a ready secret set it is bound to
 * (extension `runtime`), conditionally by its entity tag, and each read is audited.
 */
import { runtimeEntityTag, valueContext } from "../crypto.ts";
import { ApiError, notFound } from "../errors.ts";
import { matchesEntityTag } from "../request.ts";
import * as routes from "../routes.ts";
import { type ApiContext, authorOf, router } from "./context.ts";

/** Retry-After of a runtime read of a set that is not ready: provisioning takes moments... */
export const PENDING_RETRY_SECONDS = 1;
/** ...while a failed set stays failed until someone writes it again. */
export const FAILED_RETRY_SECONDS = 30;

export function runtimeApi(context: ApiContext) {
  const { storage, vault, clock } = context;
  const api = router(context);

  api.openapi(routes.getRuntimeSecretSet, async (c) => {
    const { setName: name } = c.req.valid("param");
    const { keyId, orgId } = c.get("caller");
    const set = await storage.getBoundSet(keyId, name);
    // The same answer for a set that does not exist and one the key may not read: no oracle.
    if (!set || set.type !== "secret") {
      throw notFound(`This key reads no secret set named "${name}".`);
    }
    if (set.status !== "ready") {
      const failed = set.status === "failed";
      throw new ApiError(
        409,
        "NOT_READY",
        failed
          ? `"${name}" failed to provision; it is readable once written again and ready.`
          : `"${name}" is still being provisioned; retry shortly.`,
        undefined,
        { "Retry-After": String(failed ? FAILED_RETRY_SECONDS : PENDING_RETRY_SECONDS) },
        failed ? { status: "failed", errorMessage: set.errorMessage! } : { status: "pending" },
      );
    }
    const tag = runtimeEntityTag(set.region, set.values);
    c.header("ETag", tag);
    // Unchanged since the caller's last read: nothing to send, and nothing read to record.
    if (matchesEntityTag(c.req.valid("header")["if-none-match"], tag)) return c.body(null, 304);
    const secrets = await Promise.all(set.values.map(async ({ key, sealed }) => ({
      secretKey: key,
      secretValue: await vault.open(sealed, valueContext(orgId, name, key)),
    })));
    // Who read which set, when: names only. A read changes nothing, so it is recorded after it.
    await storage.recordAudit({
      orgId,
      at: clock(),
      author: authorOf(c),
      action: "runtime.read",
      setName: name,
      keys: set.keys,
    });
    return c.json({ name, region: set.region, status: "ready" as const, secrets }, 200);
  });

  return api;
}
