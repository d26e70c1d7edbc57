import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { ErrorCode } from '../../shared/errors';
import { catalogNamed } from './errors';
import { addExamples } from './examples';
import { TAGS } from './prose';
import { STATUS_TEXT, TRAITS, type JsonObject, type RouteTraits } from './route-docs';
import type { OpenApiDocument } from './schema';

/**
 * The document pass, over what the per-route transform (route-docs.ts) gave:
 *
 * - Every operation gets an operationId; every response a description (the catch-all 4XX/5XX
 *   ones examples of the errors no operation lists); 429s their rate-limit headers and
 *   `Retry-After`; writes document the Idempotency-Key header.
 * - Tags in the order the reference shows them, with their descriptions (prose.ts).
 * - Integer bounds zod adds by default (±(2^53 − 1)) are dropped, so no renderer shows them;
 *   schemas no operation reaches are pruned; then every example is filled in (examples.ts).
 */

const HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests per minute of the bucket this request counted against',
    schema: { type: 'integer', examples: [60] },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the bucket this minute',
    schema: { type: 'integer', examples: [59] },
  },
  'X-RateLimit-Reset': {
    description: 'When the bucket refills (ISO 8601)',
    schema: { type: 'string', format: 'date-time', examples: ['2026-11-24T10:01:00.000Z'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', examples: [12] },
  },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed ' +
    'for the same key, with `Idempotent-Replayed: true`; the same key with another body is ' +
    '422 `idempotency_key_reused`, and while the first request runs, 409 ' +
    '`idempotency_in_progress` (docs/guides/idempotency.md)',
  schema: { type: 'string', pattern: '^[\\x20-\\x7e]{1,255}$' },
  example: '3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10',
};

/** What the catch-all responses show: errors no operation lists, as its catalog writes them. */
const CATCH_ALL_EXAMPLES: Record<string, ErrorCode[]> = {
  '4XX': ['payload_too_large', 'unsupported_media_type', 'request_timeout'],
  '5XX': ['internal_error'],
};

function catchAllExamples(status: string, response: JsonObject): void {
  const media = (response.content as Record<string, JsonObject> | undefined)?.['application/json'];
  const ref = (media?.schema as { $ref?: string } | undefined)?.$ref ?? '';
  const catalog = catalogNamed(ref.replace('#/components/schemas/', ''));
  const codes = CATCH_ALL_EXAMPLES[status];
  if (!media || !catalog || !codes || media.examples) return;
  media.examples = Object.fromEntries(
    codes.map((platform) => {
      const code = catalog.fromPlatform(platform);
      return [code, { summary: code, value: catalog.example(code) }];
    }),
  );
}

/** Codes whose responses carry `Retry-After`. */
const RETRY_AFTER_CODES = new Set([
  'rate_limited',
  'idempotency_in_progress',
  'free_quota_exhausted',
]);

/** The default bounds zod gives `int()` (±Number.MAX_SAFE_INTEGER): no bound at all. */
function dropDefaultIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(dropDefaultIntegerBounds);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as JsonObject;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) dropDefaultIntegerBounds(value);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `get /me/api-keys/{id}/usage` → `getMeApiKeysByIdUsage`: stable, unique, readable. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      const word = param === undefined ? segment : param === '*' ? 'by-any' : `by-${param}`;
      return word
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((part) => part[0]!.toUpperCase() + part.slice(1))
        .join('');
    });
  return method + words.join('');
}

type Operation = JsonObject & {
  responses?: Record<string, JsonObject>;
  parameters?: JsonObject[];
};

function headerRef(name: keyof typeof HEADERS) {
  return { $ref: `#/components/headers/${name}` };
}

function codesOf(response: JsonObject): string[] {
  const media = (response.content as Record<string, JsonObject> | undefined)?.['application/json'];
  return Object.keys((media?.examples as JsonObject | undefined) ?? {});
}

/**
 * The `multipart/form-data` form of a JSON body (`RouteTraits.multipartFile`): the same fields
 * as form fields, and the file part.
 */
function addMultipartForm(
  operation: Operation,
  schemas: Record<string, JsonObject>,
  file: string,
): void {
  const content = (operation.requestBody as { content?: Record<string, JsonObject> } | undefined)
    ?.content;
  const json = content?.['application/json']?.schema as JsonObject | undefined;
  const ref = typeof json?.$ref === 'string' ? json.$ref.split('/').at(-1) : undefined;
  const fields = ref ? schemas[ref] : json;
  if (!content || !fields) return;
  const properties = { ...(fields.properties as JsonObject | undefined) };
  content['multipart/form-data'] = {
    schema: {
      type: 'object',
      description:
        'The same fields as the JSON body (`markdown` as `true` or `false`), before the file ' +
        'part',
      required: fields.required ?? [],
      additionalProperties: false,
      properties: { ...properties, file: { type: 'string', format: 'binary', description: file } },
    },
  };
}

function finishOperation(
  path: string,
  method: string,
  operation: Operation,
  schemas: Record<string, JsonObject>,
): void {
  const traits = operation[TRAITS] as RouteTraits | undefined;
  delete operation[TRAITS];
  if (traits?.multipartFile) addMultipartForm(operation, schemas, traits.multipartFile);
  operation.operationId ??= operationIdOf(method, path);
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    catchAllExamples(status, response);
    if (response.description === 'Default Response') {
      response.description =
        status === '4XX'
          ? 'Any other client error, with the same error body'
          : status === '5XX'
            ? 'Any other server error, with the same error body'
            : (STATUS_TEXT[Number(status)] ?? `HTTP ${status}`);
    }
    // Success responses carry the rate-limit headers too (docs/guides/errors.md says so);
    // the document shows them where a client acts on them.
    const headers: JsonObject = {};
    if (traits?.counted && status === '429') {
      headers['X-RateLimit-Limit'] = headerRef('X-RateLimit-Limit');
      headers['X-RateLimit-Remaining'] = headerRef('X-RateLimit-Remaining');
      headers['X-RateLimit-Reset'] = headerRef('X-RateLimit-Reset');
    }
    if (codesOf(response).some((code) => RETRY_AFTER_CODES.has(code))) {
      headers['Retry-After'] = headerRef('Retry-After');
    }
    if (Object.keys(headers).length > 0) {
      response.headers = { ...(response.headers as JsonObject | undefined), ...headers };
    }
  }
  if (traits?.idempotent) {
    const parameters = (operation.parameters ??= []);
    const named = (name: unknown) => String(name).toLowerCase() === 'idempotency-key';
    if (!parameters.some((parameter) => named(parameter.name))) {
      parameters.push({ ...IDEMPOTENCY_KEY });
    }
  }
}

/**
 * Schemas no operation reaches: zod's registry gives every named schema an input and an
 * output variant, and most are only used one way. The reference lists only the ones in use.
 */
function pruneUnusedSchemas(document: OpenApiDocument): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const name =
        key === '$ref' && typeof value === 'string'
          ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1]
          : undefined;
      if (name !== undefined) {
        if (reached.has(name)) continue;
        reached.add(name);
        visit(schemas[name]);
      } else {
        visit(value);
      }
    }
  };
  visit(document.paths);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

export const finishDocument: typeof jsonSchemaTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as unknown as OpenApiDocument;
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const schemas = (document.components?.schemas ?? {}) as Record<string, JsonObject>;
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      // A route with several methods shares one operation object: each gets its own.
      const operation = structuredClone(item[method]);
      item[method] = operation;
      finishOperation(path, method, operation, schemas);
      for (const tag of (operation.tags as string[] | undefined) ?? []) used.add(tag);
    }
  }
  const components = (document.components ??= {}) as JsonObject;
  components.headers = { ...(components.headers as JsonObject | undefined), ...HEADERS };
  const known = new Set(TAGS.map((tag) => tag.name));
  document.tags = [
    ...TAGS.filter((tag) => used.has(tag.name)),
    ...[...used].filter((name) => !known.has(name)).map((name) => ({ name })),
  ];
  dropDefaultIntegerBounds(document.paths);
  dropDefaultIntegerBounds(document.components);
  pruneUnusedSchemas(document);
  addExamples(document);
  return document as unknown as ReturnType<typeof jsonSchemaTransformObject>;
};
