/** What the API's middleware puts on each request's context, for the handlers to read. */
import type { Caller } from "../auth.ts";

export type Env = {
  Variables: { requestId: string; orgId: string; caller: Caller; jsonBody: unknown };
};
