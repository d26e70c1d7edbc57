import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serialization (performance issue, item 5): each zod response schema is turned once
 * into JSON Schema (zod's own `toJSONSchema`, output side) and compiled by fast-json-stringify,
 * so a response the server built is written out without being validated again.
 *
 * The output is what zod's serializer wrote, for every object a route may legitimately return:
 * unknown keys are dropped (only declared properties are written), optional keys left
 * undefined are omitted, nulls stay null, unions pick the first branch the value fits, records
 * and `z.unknown()` values are written as `JSON.stringify` writes them, a missing required
 * property is still a 500. Two differences, both invisible to a JSON client: required
 * properties come before optional ones within an object, and a value of the wrong primitive
 * type is coerced (a number where a string is declared is written as a string) instead of
 * failing the response.
 *
 * A schema JSON Schema cannot express (a transform, a date, a bigint, a custom check) keeps
 * zod's serializer, so nothing changes for it.
 */

type JsonSchema = Record<string, unknown>;

const compiled = new WeakMap<object, (data: unknown) => string>();

export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const schema = route.schema;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route as never);
  let serialize = compiled.get(schema);
  if (!serialize) {
    serialize = compile(schema) ?? zodSerializerCompiler(route as never);
    // Many routes share a schema (the error envelope is on all of them): compile it once.
    compiled.set(schema, serialize);
  }
  return serialize;
};

function compile(schema: z.ZodType): ((data: unknown) => string) | null {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, {
      io: 'output',
      unrepresentable: 'throw',
      cycles: 'ref',
      reused: 'inline',
      // An empty registry: descriptions and ids are for the OpenAPI document, not needed here.
      metadata: z.registry(),
    });
  } catch {
    return null;
  }
  delete json.$schema;
  return fastJson(forSerialization(json) as Parameters<typeof fastJson>[0]);
}

/** The JSON Schema of a zod schema rewritten to serialize as zod does (see the top comment). */
export function forSerialization(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forSerialization);
  if (node === null || typeof node !== 'object') return node;
  const schema: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // `properties` maps names to schemas: rewrite each schema, never the map itself.
    schema[key] =
      key === 'properties' || key === '$defs'
        ? Object.fromEntries(
            Object.entries(value as JsonSchema).map(([name, sub]) => [name, forSerialization(sub)]),
          )
        : forSerialization(value);
  }
  // zod strips unknown keys; fast-json-stringify writes only declared properties anyway, and
  // `false` here would make a union branch refuse a value that merely carries extra keys.
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  // A `z.unknown()` or `z.any()` property may hold undefined, which zod's JSON leaves out:
  // fast-json-stringify would refuse it as a missing required property.
  if (Array.isArray(schema.required) && schema.properties) {
    const properties = schema.properties as Record<string, JsonSchema>;
    schema.required = schema.required.filter(
      (name: string) => Object.keys(properties[name] ?? {}).length > 0,
    );
  }
  return nullableOf(schema) ?? schema;
}

/**
 * `X | null` as zod writes it (`anyOf: [X, {type: 'null'}]`) becomes `X` with `nullable`, a
 * plain null check: fast-json-stringify would otherwise validate every value against each
 * branch to choose one.
 */
function nullableOf(schema: JsonSchema): JsonSchema | null {
  const options = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(schema).length !== 1) {
    return null;
  }
  const isNull = (option: JsonSchema) => option.type === 'null' && Object.keys(option).length === 1;
  const [first, second] = options as JsonSchema[];
  const other = first && isNull(first) ? second : second && isNull(second) ? first : undefined;
  if (!other || other.anyOf || other.oneOf || other.allOf || other.$ref || other.nullable) {
    return null;
  }
  return { ...other, nullable: true };
}
