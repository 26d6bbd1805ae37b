/**
 * What a key may ask of its organization: its regions (documented) and whose key it is (`GET
 * /me`, extension `me`).
 */
import type { RegionsResponse } from "../../secrets/schemas.ts";
import { regionInfo } from "../config.ts";
import * as routes from "../routes.ts";
import { type ApiContext, router } from "./context.ts";

export function accountApi(context: ApiContext) {
  const api = router(context);
  const regionsBody: RegionsResponse = {
    regions: context.regionCodes.map(regionInfo),
    default: context.defaultRegion,
  };

  api.openapi(routes.listRegions, (c) => c.json(regionsBody, 200));

  api.openapi(routes.getMe, (c) => {
    const { organization, keyId } = c.get("caller");
    return c.json({ organization, keyId }, 200);
  });

  return api;
}
