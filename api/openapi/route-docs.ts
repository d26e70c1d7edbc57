import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';
import { API_ERRORS, type DeclaredErrors, type ErrorCatalog } from './errors';

/**
 * The per-route transform: what the zod schemas cannot say about a route, added as
 * @fastify/swagger reads it (the document pass, document.ts, finishes what needs the whole
 * document):
 *
 * - **Errors**: each status a route can answer is its own response, listing its error codes
 *   with a description and an example body each. A route names the codes of its own domain in
 *   its schema (`errors: errors('agent_not_found', 'not_owner')`, errors.ts); the transform adds
 *   those every route of its kind can return: 400 `invalid_request` with input, 401 on
 *   authenticated routes (and for a bad credential on public ones), 429 and 503 where requests
 *   are counted, 409/422 of `Idempotency-Key` on writes, 500 everywhere. The status of a code
 *   is the one in ERROR_STATUS; the bot gateway's routes bring their own catalog (`BotError`
 *   bodies).
 * - `security: []` where no credential is read; a wildcard path parameter named `{path}`;
 *   `Cache-Control: no-store` on every response of a secret-bearing route.
 * - Traits (`x-svc`) the document pass reads, then removes: counted, idempotent.
 */

const GUARDED_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Notes on a status that depend on the route, not on a code. */
const PUBLIC_401_NOTE =
  'Anonymous calls are allowed: this comes only with a credential that is not valid.';

export type JsonObject = Record<string, unknown>;

/** What the document pass needs to know of a route (`x-svc`, removed before serving). */
export interface RouteTraits {
  /** Counted against a rate-limit bucket (every route but `auth: 'none'`). */
  counted: boolean;
  /** Takes Idempotency-Key through the idempotency plugin. */
  idempotent: boolean;
  /**
   * Takes its JSON body's fields as `multipart/form-data` too, with this file part, `file`
   * (the bot gateway's sendPhoto): the document pass adds that form beside the JSON.
   */
  multipartFile?: string;
}
export const TRAITS = 'x-svc';
/** The name a wildcard path parameter (`*`) has in the document. */
const WILDCARD = 'path';

function methodsOf(route: RouteOptions): string[] {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.map((method) => String(method).toUpperCase());
}

/** The platform-wide codes a route can answer with, by what it is. */
function genericCodes(route: RouteOptions, schema: JsonObject): ErrorCode[] {
  const auth = route.config?.auth ?? 'public';
  const codes: ErrorCode[] = [];
  if (schema.body || schema.querystring || schema.params || schema.headers) {
    codes.push('invalid_request');
  }
  if (schema.body) codes.push('invalid_json');
  const query = schema.querystring as { properties?: JsonObject } | undefined;
  if (query?.properties?.cursor) codes.push('invalid_cursor');
  if (auth === 'user' || auth === 'public') codes.push('unauthenticated', 'invalid_api_key');
  if (auth === 'internal' || auth === 'bot') codes.push('unauthenticated');
  // A revoked or unknown x-api-key is refused as such before the requirement is judged.
  if (auth === 'internal') codes.push('invalid_api_key', 'forbidden');
  if (auth !== 'none') codes.push('rate_limited', 'service_unavailable');
  if (isIdempotent(route)) {
    codes.push('idempotency_in_progress', 'idempotency_key_reused');
    if (route.config?.secretResponse) codes.push('idempotency_replay_unavailable');
  }
  codes.push('internal_error');
  return codes;
}

/** `X` of a schema `anyOf: [X, {type: 'null'}]`; any other schema as it is. */
function withoutNull(schema: JsonObject): JsonObject {
  const branches = schema.anyOf as JsonObject[] | undefined;
  const kept = branches?.filter((branch) => branch.type !== 'null');
  return branches && kept?.length === 1 && branches.length === 2 ? kept[0]! : schema;
}

function isIdempotent(route: RouteOptions): boolean {
  const methods = methodsOf(route);
  return (
    methods.every((method) => GUARDED_METHODS.has(method)) &&
    (!route.config?.upstreamIdempotency || route.config.idempotencyInHandler === true)
  );
}

interface DocumentedError {
  status: number;
  code: string;
  description: string;
  example: unknown;
}

/** Every error of the route, once per code, in the order: route's own, then generic. */
function errorsOfRoute(route: RouteOptions, schema: JsonObject, declared?: DeclaredErrors) {
  const catalog: ErrorCatalog<string> = declared?.catalog ?? API_ERRORS;
  const found = new Map<string, DocumentedError>();
  const add = (code: string, status: number) => {
    if (found.has(code)) return;
    found.set(code, {
      status,
      code,
      description: catalog.description(code),
      example: catalog.example(code),
    });
  };
  for (const code of declared?.codes ?? []) add(code, catalog.status(code));
  for (const code of genericCodes(route, schema)) {
    add(catalog.fromPlatform(code), ERROR_STATUS[code]);
  }
  return { catalog, errors: [...found.values()] };
}

function errorResponse(
  catalog: ErrorCatalog<string>,
  status: number,
  errors: DocumentedError[],
  auth: string,
): JsonObject {
  const lines = errors.map((error) => `- \`${error.code}\`: ${error.description}`);
  const note = status === 401 && auth === 'public' ? `\n\n${PUBLIC_401_NOTE}` : '';
  return {
    description:
      `${STATUS_TEXT[status] ?? `HTTP ${status}`}. The error code is one of:\n\n` +
      `${lines.join('\n')}${note}`,
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${catalog.schema}` },
        examples: Object.fromEntries(
          errors.map((error) => [error.code, { summary: error.code, value: error.example }]),
        ),
      },
    },
  };
}

const NO_STORE_HEADER = {
  type: 'string',
  const: 'no-store',
  description: 'This route shows a secret once: no cache may store any of its responses',
};

/** The per-route transform: zod to JSON Schema, then what the route's traits add. */
export const documentRoute: typeof jsonSchemaTransform = (input) => {
  const declared = (input.schema as { errors?: DeclaredErrors } | undefined)?.errors;
  const result = jsonSchemaTransform(input);
  const schema = result.schema as JsonObject | undefined;
  if (!schema || schema.hide) return result;
  delete schema.errors;
  const route = input.route;
  const auth = route.config?.auth ?? 'public';

  // Where no credential is read, say so: an operation without `security` reads as unknown.
  if (auth === 'none') schema.security = [];

  // A wildcard is a parameter named `*`, which no OpenAPI tool takes: it becomes `{path}`.
  let url = result.url;
  const params = schema.params as { properties?: JsonObject; required?: string[] } | undefined;
  if (url.endsWith('*') && params?.properties?.['*']) {
    url = `${url.slice(0, -1)}:${WILDCARD}`;
    params.properties = { [WILDCARD]: params.properties['*'] };
    params.required = [WILDCARD];
  }

  // A multipart upload reads its parts itself (no body schema to validate): document the one
  // file part it takes, so clients and the typed client see the request body. A route that
  // also takes JSON keeps that body; the document pass adds the multipart form of it.
  const upload = route.config?.multipartFile;
  const alsoJson = upload !== undefined && schema.body !== undefined;
  // Its schema lets the empty JSON body of a multipart request through (`nullish`): the
  // document shows the JSON body a client sends.
  if (alsoJson) schema.body = withoutNull(schema.body as JsonObject);
  if (upload && !alsoJson) {
    schema.consumes = ['multipart/form-data'];
    schema.body = {
      type: 'object',
      required: ['file'],
      additionalProperties: false,
      properties: { file: { type: 'string', format: 'binary', description: upload } },
    };
  }

  const responses = (schema.response ??= {}) as Record<string, JsonObject>;
  const { catalog, errors: documented } = errorsOfRoute(route, schema, declared);
  const byStatus = new Map<number, DocumentedError[]>();
  for (const error of documented) {
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  }
  for (const [status, errors] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(catalog, status, errors, auth);
  }

  // Every response of a secret-bearing route (`config.secretResponse`, see the idempotency
  // plugin) documents the `Cache-Control: no-store` the plugin sets on it.
  if (route.config?.secretResponse) {
    for (const response of Object.values(responses)) {
      response.headers = {
        ...(response.headers as JsonObject | undefined),
        'Cache-Control': NO_STORE_HEADER,
      };
    }
  }
  const traits: RouteTraits = {
    counted: auth !== 'none',
    idempotent: isIdempotent(route) || route.config?.idempotencyInHandler === true,
    ...(alsoJson ? { multipartFile: upload } : {}),
  };
  schema[TRAITS] = traits;
  return { schema, url };
};
