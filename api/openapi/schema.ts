/**
 * Reading the document's JSON Schemas, for the examples: the document's shape, `$ref`
 * lookup, a schema's types and whether a value fits a schema.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info?: Schema;
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> } & Schema;
  tags?: { name: string; description?: string }[];
  [key: string]: unknown;
}

export function componentOf(document: OpenApiDocument, ref: string): [string, Schema] | undefined {
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  const schema = name === undefined ? undefined : document.components?.schemas?.[name];
  return name === undefined || !schema ? undefined : [name, schema];
}

export function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === 'string') return [type];
  return [];
}

function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a candidate fits a schema (a cheap check of the usual keywords; the test validates). */
export function fits(value: Json, schema: Schema, document: OpenApiDocument): boolean {
  if (typeof schema.$ref === 'string') {
    const target = componentOf(document, schema.$ref)?.[1];
    return target !== undefined && fits(value, target, document);
  }
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && !union.some((branch) => fits(value, branch, document))) {
    return false;
  }
  const parts = schema.allOf as Schema[] | undefined;
  if (Array.isArray(parts) && !parts.every((part) => fits(value, part, document))) {
    return false;
  }
  const types = typesOf(schema);
  const type = jsonType(value);
  if (types.length > 0) {
    const ok = types.includes(type) || (type === 'integer' && types.includes('number'));
    if (!ok) return false;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string') {
      try {
        if (!new RegExp(schema.pattern, 'u').test(value)) return false;
      } catch {
        return false;
      }
    }
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
    if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value)) return false;
    if (schema.format === 'date-time' && !/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
    if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    const items = schema.items as Schema;
    if (!value.every((item) => fits(item, items, document))) return false;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
      return false;
    }
  }
  return true;
}
