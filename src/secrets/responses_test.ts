// The client's zod/mini reading of each answer against its wire schema and the documented contract.
import assert from "node:assert/strict";
import { z } from "zod";
import * as responses from "./responses.ts";
import * as schemas from "./schemas.ts";

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  $ref?: string;
  [key: string]: unknown;
};

/** A schema's shape as JSON Schema, without descriptions, examples or ids. */
const shape = (schema: z.core.$ZodType) =>
  z.toJSONSchema(schema, { metadata: z.registry() }) as JsonSchema;

/** The shape without any `required` list: which fields exist, and of which types. */
function fieldsOf(schema: JsonSchema): unknown {
  if (Array.isArray(schema)) return schema.map(fieldsOf);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).filter(([key]) => key !== "required" && key !== "additionalProperties")
      .map(([key, value]) => [key, fieldsOf(value as JsonSchema)]),
  );
}

/** Every `path: field` the schema requires, nested objects and array items included. */
function requiredFields(schema: JsonSchema, resolve = (s: JsonSchema) => s, path = ""): string[] {
  const resolved = resolve(schema);
  const own = (resolved.required ?? []).map((field) => `${path}${field}`);
  const nested = Object.entries(resolved.properties ?? {}).flatMap(([field, property]) =>
    requiredFields(property, resolve, `${path}${field}.`)
  );
  const items = resolved.items ? requiredFields(resolved.items, resolve, `${path}[].`) : [];
  return [...own, ...nested, ...items];
}

/** Every `path` of a field the schema names, nested ones included. */
function namedFields(schema: JsonSchema, resolve = (s: JsonSchema) => s, path = ""): string[] {
  const resolved = resolve(schema);
  return [
    ...Object.entries(resolved.properties ?? {}).flatMap(([field, property]) => [
      `${path}${field}`,
      ...namedFields(property, resolve, `${path}${field}.`),
    ]),
    ...(resolved.items ? namedFields(resolved.items, resolve, `${path}[].`) : []),
  ];
}

const names = Object.keys(responses) as (keyof typeof responses)[];

Deno.test("responses: each schema the client reads has its wire schema's fields, and requires no more", () => {
  assert.ok(names.length >= 8, names.join(", "));
  for (const name of names) {
    const wire = (schemas as Record<string, unknown>)[name] as z.core.$ZodType | undefined;
    assert.ok(wire, `schemas.ts has no ${name}`);
    const client = shape(responses[name]);
    const server = shape(wire);
    assert.deepEqual(fieldsOf(client), fieldsOf(server), `${name} differs from its wire schema`);
    const serverRequired = new Set(requiredFields(server));
    for (const field of requiredFields(client)) {
      assert.ok(
        serverRequired.has(field),
        `${name}: the client requires ${field}; the server may omit it`,
      );
    }
  }
});

// The documented contract (tests/data/platform-secrets.openapi.json, the platform's own): the
// client must read every answer a server that implements only it may give.
const contract = JSON.parse(
  await Deno.readTextFile(
    new URL("../../tests/data/platform-secrets.openapi.json", import.meta.url),
  ),
);
const resolve = (schema: JsonSchema): JsonSchema =>
  schema.$ref ? resolve(contract.components.schemas[schema.$ref.split("/").at(-1)!]) : schema;
const documented = (path: string, method: string, status: string): JsonSchema =>
  contract.paths[path][method].responses[status].content["application/json"].schema;
const DOCUMENTED: Partial<Record<keyof typeof responses, JsonSchema>> = {
  ListSecretSetsResponse: documented("/secrets", "get", "200"),
  SecretSetDetail: documented("/secrets/{setName}", "get", "200"),
  PutSecretSetResponse: documented("/secrets/{setName}", "put", "202"),
  DeleteKeyResponse: documented("/secrets/{setName}/{secretKey}", "delete", "200"),
  RegionsResponse: documented("/regions", "get", "200"),
  ErrorResponse: contract.components.schemas.ErrorResponse,
  SecretSetSummary: contract.components.schemas.SecretSetSummary,
};

Deno.test("responses: the client reads every documented answer: it requires only what the documentation does", () => {
  for (const [name, schema] of Object.entries(DOCUMENTED)) {
    const client = shape(responses[name as keyof typeof responses]);
    const mustHave = new Set(requiredFields(schema, resolve));
    const named = namedFields(schema, resolve);
    // A field of voicebot's own (optional itself) may require what is inside it.
    const within = (field: string) => field.replace(/\.?[^.]+$/, "").replace(/\.\[\]$/, "");
    for (const field of requiredFields(client)) {
      const parent = within(field);
      if (parent !== "" && !named.includes(parent)) continue;
      assert.ok(
        mustHave.has(field),
        `${name}: the client requires ${field}, which the documentation does not`,
      );
    }
    // And it knows every field the documentation names, so none is silently dropped.
    const known = new Set(namedFields(client));
    for (const field of named) {
      assert.ok(known.has(field), `${name}: the client does not read the documented ${field}`);
    }
  }
});
