// The client's zod/mini reading of each answer is its wire schema's twin: the same JSON Schema.
import assert from "node:assert/strict";
import { z } from "zod";
import * as responses from "./responses.ts";
import * as schemas from "./schemas.ts";

/** A schema's shape as JSON Schema, without descriptions, examples or ids. */
const shape = (schema: z.core.$ZodType) => z.toJSONSchema(schema, { metadata: z.registry() });

Deno.test("responses: each schema the client reads is its wire schema's twin", () => {
  const names = Object.keys(responses) as (keyof typeof responses)[];
  assert.ok(names.length >= 8, names.join(", "));
  for (const name of names) {
    const wire = (schemas as Record<string, unknown>)[name];
    assert.ok(wire, `schemas.ts has no ${name}`);
    assert.deepEqual(
      shape(responses[name]),
      shape(wire as z.core.$ZodType),
      `${name} differs from its wire schema`,
    );
  }
});
