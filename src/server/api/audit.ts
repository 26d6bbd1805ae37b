/**
 * The organization's audit trail, voicebot's own (extension `audit`): newest first, a page at a
 * time; names and counts, never a value.
 */
import type { AuditEventBody, AuditEventsResponse } from "../../secrets/schemas.ts";
import * as routes from "../routes.ts";
import type { AuditEvent } from "../storage/types.ts";
import { type ApiContext, router } from "./context.ts";

export function auditApi(context: ApiContext) {
  const api = router(context);

  api.openapi(routes.listAuditEvents, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const before = cursor === undefined ? undefined : Number(cursor);
    // One more than the page: whether there is a next page, without a count.
    const events = await context.storage.listAudit(c.get("orgId"), limit + 1, before);
    const page = events.slice(0, limit).map(auditEventBody);
    const body: AuditEventsResponse = { events: page };
    if (events.length > limit) body.nextCursor = String(events[limit - 1].id);
    return c.json(body, 200);
  });

  return api;
}

/** An event as GET /audit shows it: ISO time, the actor's key id, names and counts only. */
function auditEventBody(event: AuditEvent): AuditEventBody {
  const body: AuditEventBody = {
    id: String(event.id),
    at: new Date(event.at).toISOString(),
    keyId: event.actor,
    action: event.action,
    keys: event.keys,
  };
  if (event.setName !== undefined) body.set = event.setName;
  if (event.requestId !== undefined) body.requestId = event.requestId;
  if (event.detail !== undefined) body.detail = event.detail;
  return body;
}
