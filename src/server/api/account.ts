/**
 * What a key may ask of its organization: its regions (documented), whose key it is (`GET /me`,
 * extension `me`), and what the platform CLI asks (the organizations, the default region).
 */
import type { RegionsResponse } from "../../secrets/schemas.ts";
import { regionInfo } from "../config.ts";
import * as routes from "../routes.ts";
import { type ApiContext, router, withTwin } from "./context.ts";

export function accountApi(context: ApiContext) {
  const api = router(context);
  const regionsBody: RegionsResponse = {
    regions: context.regionCodes.map(regionInfo),
    default: context.defaultRegion,
  };

  withTwin(
    api,
    routes.listRegions,
    routes.listRegionsInOrganization,
    (c) => c.json(regionsBody, 200),
  );

  // What the platform CLI asks of an organization: its default region, and which it is.
  const properties = { properties: { defaultRegion: context.defaultRegion } };
  api.openapi(routes.getOrganizationProperties, (c) => c.json(properties, 200));

  api.openapi(routes.listOrganizations, (c) => {
    const name = c.get("caller").organization;
    return c.json({ organizations: [{ name, verboseName: name }] }, 200);
  });

  api.openapi(routes.getMe, (c) => {
    const { organization, keyId } = c.get("caller");
    return c.json({ organization, keyId }, 200);
  });

  return api;
}
