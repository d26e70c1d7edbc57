import { createHash } from 'node:crypto';
import {
  AT,
  BASE,
  BY_NAME,
  IDS,
  OMIT,
  PER_SUBJECT,
  RECORD_KEYS,
  WALLET,
  isAlternatives,
  type Candidate,
  type Subject,
} from './example-values';
import { componentOf, fits, typesOf, type Json, type OpenApiDocument, type Schema } from './schema';

/**
 * An example value for a schema of the OpenAPI document (`exampleOf`). An example the schema
 * gives is used as it is; anything else is built from the schema: its `const`, `enum` or
 * `default`, else the value for the field's name in what the object is about
 * (example-values.ts), else one for its format.
 */

/** A uuid (version 4 form) from a name: the same name gives the same id. */
function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `a${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

interface Context {
  document: OpenApiDocument;
  subject: Subject;
  /** The property, parameter or component being built. */
  name: string | undefined;
  /** Components being built, to stop at a schema that contains itself. */
  stack: string[];
  /** The field may be left out (an optional property). */
  optional?: boolean;
}

const CYCLE = Symbol('cycle');
type Built = Json | undefined | typeof CYCLE | typeof OMIT;

/** The subject an object is about, from its component or property name. */
function subjectOf(name: string | undefined): Subject | undefined {
  if (!name) return undefined;
  const rules: [RegExp, Subject][] = [
    [/^(user|me|siwelogin|matrixlogin)$/i, 'user'],
    [/webhookdelivery|^deliver|^attempts$/i, 'delivery'],
    [/webhook/i, 'webhook'],
    [/apikey|^rolled_from$|^apiKeys$/i, 'key'],
    [/projectrun|^run$/i, 'run'],
    [/project/i, 'project'],
    [/ledger|^entry$|flowcredit/i, 'ledger'],
    [/notification/i, 'notification'],
    [/distribution/i, 'distribution'],
    [/subscription|^renewal$|checkout/i, 'subscription'],
    [/chain(list)?$/i, 'chain'],
    [/^trade$/i, 'trade'],
    [/token|holder|trade|curve|pool/i, 'token'],
    [/agent/i, 'agent'],
  ];
  for (const [pattern, subject] of rules) if (pattern.test(name)) return subject;
  return undefined;
}

/** The dictionary's value for a field, when one fits the schema. */
function named(context: Context, schema: Schema): Json | typeof OMIT | undefined {
  const name = context.name;
  if (name === undefined || !Object.hasOwn(BY_NAME, name)) return undefined;
  let entry = BY_NAME[name] as unknown;
  if (entry !== null && typeof entry === 'object' && PER_SUBJECT in entry) {
    const values = entry as { [subject: string]: unknown };
    entry = values[context.subject] ?? values.default;
    if (entry === undefined) return undefined;
  }
  const candidates = isAlternatives(entry) ? entry.alternatives : [entry as Candidate];
  for (const candidate of candidates) {
    if (candidate === OMIT) {
      if (context.optional) return OMIT;
      continue;
    }
    if (fits(candidate, schema, context.document)) return structuredClone(candidate);
  }
  return undefined;
}

function byFormat(context: Context, schema: Schema): string | undefined {
  switch (schema.format) {
    case 'date-time':
      return /^(created|issued|started)/i.test(context.name ?? '')
        ? AT.created
        : /expire|until|end|renew|reset|next/i.test(context.name ?? '')
          ? AT.periodEnd
          : AT.updated;
    case 'date':
      return AT.day;
    case 'uuid':
      return (
        (context.name === 'id' ? IDS[context.subject] : undefined) ??
        uuidOf(`${context.subject}:${context.name ?? 'id'}`)
      );
    case 'uri':
    case 'url':
      return `${BASE}/`;
    case 'email':
      return 'alice@example.com';
    default:
      return undefined;
  }
}

function byPattern(schema: Schema): string | undefined {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const candidates = [
    WALLET,
    'research-assistant',
    'agent-call-7f3a',
    '0x8a3b7c1d5e9f',
    '42',
    'summaries',
  ];
  for (const candidate of candidates) {
    try {
      if (new RegExp(pattern, 'u').test(candidate)) return candidate;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function numberOf(schema: Schema, integer: boolean): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusive =
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = integer ? 3 : 12.5;
  if (minimum !== undefined && value < minimum) value = minimum;
  if (exclusive !== undefined && value <= exclusive) value = exclusive + 1;
  if (maximum !== undefined && value > maximum) value = integer ? Math.floor(maximum) : maximum;
  return value;
}

function stringOf(context: Context, schema: Schema): string {
  const value =
    byFormat(context, schema) ??
    (schema.pattern !== undefined ? byPattern(schema) : undefined) ??
    // Last resort: the field's own name as words ("lastEventType" → "last event type").
    (context.name ?? 'value')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase();
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return value.padEnd(min, 'x').slice(0, max);
}

function build(schema: unknown, context: Context): Built {
  if (schema === true || schema === undefined) {
    const value = named(context, {});
    return value === OMIT ? OMIT : (value ?? null);
  }
  if (schema === null || typeof schema !== 'object') return null;
  const node = schema as Schema;

  if (typeof node.$ref === 'string') {
    const found = componentOf(context.document, node.$ref);
    if (!found) return null;
    const [component, target] = found;
    if (context.stack.includes(component)) return CYCLE;
    return build(target, {
      ...context,
      subject: subjectOf(component) ?? context.subject,
      stack: [...context.stack, component],
    });
  }

  if (Array.isArray(node.examples) && node.examples.length > 0) {
    return structuredClone(node.examples[0] as Json);
  }
  if (node.example !== undefined) return structuredClone(node.example as Json);
  if (node.const !== undefined) return node.const as Json;

  const fromName = named(context, node);
  if (fromName !== undefined) return fromName;

  if (Array.isArray(node.enum) && node.enum.length > 0) {
    return (node.enum.find((value) => value !== null) ?? null) as Json;
  }

  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const branches = union.filter(
      (branch) => !(branch && typeof branch === 'object' && (branch as Schema).type === 'null'),
    );
    for (const branch of branches.length > 0 ? branches : union) {
      const value = build(branch, context);
      if (value !== CYCLE && value !== OMIT) return value;
    }
    return null;
  }

  if (Array.isArray(node.allOf)) {
    const merged: { [key: string]: Json } = {};
    for (const part of node.allOf) {
      const value = build(part, { ...context, optional: false });
      if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(merged, value);
    }
    return merged;
  }

  if (node.default !== undefined && typeof node.default !== 'object') return node.default as Json;

  const types = typesOf(node);
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  if (type === undefined) {
    if (node.properties) return objectOf(node, context);
    if (node.items) return arrayOf(node, context);
    return {};
  }
  switch (type) {
    case 'object':
      return objectOf(node, context);
    case 'array':
      return arrayOf(node, context);
    case 'string':
      return stringOf(context, node);
    case 'integer':
      return numberOf(node, true);
    case 'number':
      return numberOf(node, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

function objectOf(node: Schema, context: Context): Built {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set((node.required as string[] | undefined) ?? []);
  const result: { [key: string]: Json } = {};
  for (const [name, property] of Object.entries(properties)) {
    const subject = subjectOf(name) ?? context.subject;
    const optional = !required.has(name);
    const value = build(property, { ...context, name, subject, optional });
    if (value === CYCLE) {
      if (!optional) result[name] = null;
      continue;
    }
    if (value !== undefined && value !== OMIT) result[name] = value;
  }
  const additional = node.additionalProperties;
  if (Object.keys(properties).length === 0 && additional && typeof additional === 'object') {
    const key = RECORD_KEYS[context.name ?? ''];
    if (key !== undefined) {
      const value = build(additional, { ...context, name: key });
      if (value !== CYCLE && value !== OMIT && value !== undefined) result[key] = value;
    }
  }
  return result;
}

function arrayOf(node: Schema, context: Context): Built {
  const item = build(node.items, { ...context, optional: false });
  if (item === CYCLE || item === undefined || item === OMIT) return [];
  const minimum = typeof node.minItems === 'number' ? node.minItems : 0;
  return Array.from({ length: Math.max(1, minimum) }, () => structuredClone(item));
}

/** An example for a schema in the document. */
export function exampleOf(
  document: OpenApiDocument,
  schema: unknown,
  subject: Subject,
  name?: string,
): Json {
  const value = build(schema, { document, subject, name, stack: [] });
  return value === CYCLE || value === OMIT || value === undefined ? null : value;
}
