/**
 * `voicebot cloud audit [--limit N] [--json]`: the organization's audit trail, newest first:
 * every change, who made it (an API key's id, or the operator) and when. Names only, never a
 * value. voicebot's server only.
 */
import { define } from "gunshi";
import { UsageError } from "../../errors.ts";
import type { AuditEventBody } from "../../secrets/responses.ts";
import { printJson } from "../output.ts";
import { connect, connectionArgs, connectionEnv } from "./connect.ts";

/** Events a page of GET /audit holds at most (the API's own limit). */
const PAGE = 200;

export default define({
  name: "audit",
  description: "Show the organization's audit trail, newest first: who changed what, and when.",
  helpExamples: [
    ["The last 50 events of the organization", "voicebot cloud audit"],
    ["The last 200, as JSON", "voicebot cloud audit --limit 200 --json"],
  ],
  environment: connectionEnv,
  args: {
    limit: {
      type: "number",
      default: 50,
      metavar: "events",
      description: "Events to show, newest first",
    },
    ...connectionArgs,
  },
  run: async (ctx) => {
    const { limit, json } = ctx.values;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) {
      throw new UsageError(`--limit must be a whole number from 1 to 100000, not ${limit}.`);
    }
    const { client } = await connect(ctx.values);
    // Asked first, so that a server of the documented API only is told, not sent an unknown route.
    await client.discoverExtensions();
    client.requireExtension("audit", "the audit trail");
    const events: AuditEventBody[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listAudit(Math.min(PAGE, limit - events.length), cursor);
      events.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor !== undefined && events.length < limit);
    if (json) return printJson({ events });
    if (events.length === 0) return console.error("No events.");
    const { table } = await import("../../secrets/render.ts");
    const out = table(["time", "by", "action", "set", "keys"]);
    for (const event of events) {
      out.push([event.at, event.keyId, event.action, event.set ?? "", event.keys.join(", ")]);
    }
    console.log(out.toString());
  },
});
