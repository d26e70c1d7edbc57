import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type ScalarReference from '@scalar/fastify-api-reference';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';
import { addExamples, type OpenApiDocument } from './examples';
import { API_ERRORS, catalogNamed, type DeclaredErrors, type ErrorCatalog } from './errors';

/**
 * OpenAPI 3.1, generated from the same zod schemas that validate requests and serialize
 * responses, served at GET /openapi.json; an interactive reference (Scalar) at GET /docs.
 *
 * What the zod schemas cannot say is added here, for every route alike:
 *
 * - **Errors**: each status a route can answer is its own response, listing its error codes
 *   with a description and an example body each. A route names the codes of its own domain in
 *   its schema (`errors: errors('agent_not_found', 'not_owner')`); the plugin adds those every
 *   route of its kind can return: 400 `invalid_request` with input, 401 on authenticated
 *   routes (and for a bad credential on public ones), 429 and 503 where requests are counted,
 *   409/422 of `Idempotency-Key` on writes, 500 everywhere. The status of a code is the one
 *   in ERROR_STATUS; the bot gateway's routes bring their own catalog (`BotError` bodies).
 * - Every response gets a description and examples (api/openapi/examples.ts); 429s
 *   their rate-limit headers and `Retry-After`; writes document the Idempotency-Key header.
 * - Every operation gets an operationId and `security` (`[]` where no credential is read);
 *   integer bounds zod adds by default (±(2^53 − 1)) are dropped, so no renderer shows them.
 */

// ---------------------------------------------------------------------------------------
// Per route: responses per status, security, markers for the document pass

const GUARDED_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

const STATUS_TEXT: Record<number, string> = {
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

type JsonObject = Record<string, unknown>;

/** What the document pass needs to know of a route (`x-svc`, removed before serving). */
interface RouteTraits {
  /** Counted against a rate-limit bucket (every route but `auth: 'none'`). */
  counted: boolean;
  /** Takes Idempotency-Key through the idempotency plugin. */
  idempotent: boolean;
}
const TRAITS = 'x-svc';
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

function isIdempotent(route: RouteOptions): boolean {
  const methods = methodsOf(route);
  return (
    methods.every((method) => GUARDED_METHODS.has(method)) && !route.config?.upstreamIdempotency
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
const documentRoute: typeof jsonSchemaTransform = (input) => {
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
  const traits: RouteTraits = { counted: auth !== 'none', idempotent: isIdempotent(route) };
  schema[TRAITS] = traits;
  return { schema, url };
};

// ---------------------------------------------------------------------------------------
// The whole document: operation ids, response descriptions, headers, bounds, examples

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

function finishOperation(path: string, method: string, operation: Operation): void {
  const traits = operation[TRAITS] as RouteTraits | undefined;
  delete operation[TRAITS];
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

/** Tags in the order the reference shows them, with what each group is about. */
const TAGS: { name: string; description: string }[] = [
  { name: 'health', description: 'Liveness and readiness probes: no credentials, no rate limit' },
  {
    name: 'auth',
    description:
      'Sign-In with Ethereum and Matrix login, sessions (the `svc_session` cookie, or its ' +
      'token as `Authorization: Bearer`) and the current user (docs/guides/quick-start.md)',
  },
  {
    name: 'api-keys',
    description:
      'API keys for scripts and servers: rate limits, FLOW spend caps, rotation and usage',
  },
  {
    name: 'agents',
    description:
      'Your agents: create, publish with a price, set tool prices; call and subscribe to ' +
      'agents (docs/guides/agent-endpoint.md is the contract an agent’s endpoint implements)',
  },
  { name: 'marketplace', description: 'Published agents: listings, detail and platform tools' },
  {
    name: 'tokens',
    description:
      'Token metadata over on-chain launch contracts, with indexed holders, trades and ' +
      'bonding-curve or pool state',
  },
  { name: 'chains', description: 'The chains this deployment accepts, with launch factories' },
  {
    name: 'flow',
    description: 'FLOW, the platform unit: ledger, on-chain state, referral tree and top-ups',
  },
  {
    name: 'projects',
    description: 'Projects that agents build, their build runs, artifacts and the live stream',
  },
  { name: 'search', description: 'Search over published agents and tokens' },
  { name: 'subscriptions', description: 'Subscription tiers and payment provider callbacks' },
  {
    name: 'webhooks',
    description: 'Signed event deliveries to your URLs (docs/guides/webhooks.md)',
  },
  { name: 'analytics', description: 'Usage and earnings of your agents and API keys' },
  { name: 'notifications', description: 'Milestone notifications delivered by the Matrix bot' },
  { name: 'dev', description: 'Development helpers: absent from production deployments' },
  {
    name: 'bot gateway',
    description:
      '`/api/v1`: the Matrix bot messaging gateway, for services holding a bot gateway token; ' +
      'its errors are `{"error","detail"}` (docs/bot-gateway.md)',
  },
];

const finishDocument: typeof jsonSchemaTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as unknown as OpenApiDocument;
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      // A route with several methods shares one operation object: each gets its own.
      const operation = structuredClone(item[method]);
      item[method] = operation;
      finishOperation(path, method, operation);
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

// ---------------------------------------------------------------------------------------
// The document's own texts

const GUIDES = [
  ['docs/guides/quick-start.md', 'Quick start: sign in with curl or viem (SIWE), make an API key'],
  ['docs/guides/errors.md', 'Errors: the envelope, codes by status, what to retry'],
  ['docs/guides/pagination.md', 'Pagination: cursors, page sizes'],
  ['docs/guides/idempotency.md', 'Idempotency: retrying writes safely with Idempotency-Key'],
  [
    'docs/guides/agent-endpoint.md',
    'Agent endpoint contract: what your agent receives and answers',
  ],
  ['docs/guides/webhooks.md', 'Webhooks: events, signature verification in Node and Python'],
  ['docs/guides/sse.md', 'Live build stream (SSE): events, reconnecting with Last-Event-ID'],
] as const;

const INFO_DESCRIPTION = [
  'Agent marketplace priced in FLOW, token launchpad metadata over on-chain launch contracts, ' +
    'projects that agents build with the live build streamed over SSE, the FLOW ledger, ' +
    'subscriptions, API keys, signed webhooks, search and the Matrix bot gateway.',
  '## Authentication',
  'Sign in with Ethereum (`POST /auth/nonce`, then `POST /auth/verify`) or a Matrix login: ' +
    'the session is the `svc_session` cookie, which also works as `Authorization: Bearer ' +
    '<token>`. Scripts and servers use an API key (`POST /me/api-keys`) in `x-api-key` or as ' +
    '`Authorization: Bearer svc_live_…`. Each operation lists the schemes it accepts; routes ' +
    'without any read no credential.',
  '## Conventions',
  '- Errors are `{"error":{"code","message"}}` (the bot gateway: `{"error","detail"}`); each ' +
    'operation lists its statuses and codes. `X-Request-Id` identifies a request in the logs.\n' +
    '- Lists are cursor-paged: pass `nextCursor` back as `cursor` until it is null.\n' +
    '- `POST`, `PATCH` and `DELETE` accept `Idempotency-Key` for safe retries.\n' +
    '- Requests count against a per-minute rate limit (`X-RateLimit-*` headers, 429 with ' +
    '`Retry-After`).\n' +
    '- Timestamps are ISO 8601 UTC; FLOW amounts are numbers with at most 6 decimals.',
  '## Guides',
  'In the service’s repository:\n\n' +
    GUIDES.map(([path, about]) => `- \`${path}\`: ${about}`).join('\n'),
].join('\n\n');

const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description:
      'The session cookie set by `POST /auth/verify` (SIWE) or `POST /auth/matrix`: HttpOnly, ' +
      'renewed as it is used, revoked by `POST /auth/logout`',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer <token>`: the session token (the `svc_session` cookie’s value), ' +
      'or an API key (`svc_live_…`)',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'An API key from `POST /me/api-keys` (`svc_live_…`): its own rate limit and FLOW spend ' +
      'cap; when present it decides, whatever else the request carries',
  },
  internalToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An internal service token (INTERNAL_TOKENS), for /internal/* only',
  },
  botToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Bot-Token',
    description: 'A bot gateway token (BOT_TOKENS), for /api/v1/* only',
  },
};

// ---------------------------------------------------------------------------------------
// The interactive reference: Scalar, served entirely by this server

const DOCS_PREFIX = '/docs';

/** What the reference page is configured with (its JSON is the page's one inline script). */
const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  pageTitle: 'Agent platform API reference',
  // Everything from this server: no web fonts, no Scalar cloud features, no telemetry.
  withDefaultFonts: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  documentDownloadType: 'json',
  operationTitleSource: 'summary',
  defaultOpenAllTags: false,
};

type ScalarPlugin = typeof ScalarReference;
type ScalarOptions = Parameters<ScalarPlugin>[1];

function scalarOptions(): ScalarOptions {
  return {
    routePrefix: DOCS_PREFIX,
    configuration: SCALAR_CONFIGURATION as ScalarOptions['configuration'],
  };
}

/** `'sha256-…'` of every inline script and style of a page. */
function inlineHashes(html: string): string[] {
  const inline = html.matchAll(/<(script|style)(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/\1>/g);
  return [...inline]
    .map(([, , body]) => body ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

/**
 * The page's CSP, which replaces the API's `default-src 'none'` on everything under /docs
 * (api/plugins/security-headers.ts sets that one first). Scripts: this server's only, plus
 * the page's one inline script by its hash; the bundle's styles are injected at run time, so
 * styles may be inline. Data (the document, "Try it" requests) only from this origin.
 */
function docsCsp(scriptHashes: string[]): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The reference page is the same for every request (its configuration is static): it is
 * rendered once by the plugin itself, on a throwaway instance, to hash its inline script.
 */
async function renderedPageHashes(scalar: ScalarPlugin): Promise<string[]> {
  const probe = Fastify({ logger: false });
  // The plugin's routes share one schema object, which the app's own plugins annotate (an
  // error envelope in zod): the probe serializes nothing by schema.
  probe.setSerializerCompiler(() => (data) => JSON.stringify(data));
  try {
    await probe.register(scalar, scalarOptions());
    const page = await probe.inject({ method: 'GET', url: `${DOCS_PREFIX}/` });
    if (page.statusCode !== 200) throw new Error(`reference page: HTTP ${page.statusCode}`);
    return inlineHashes(page.body);
  } finally {
    await probe.close();
  }
}

async function docsRoutes(app: FastifyInstance): Promise<void> {
  // ESM-only package: loaded with import(), which any Node 20 can do from CommonJS.
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const csp = docsCsp(await renderedPageHashes(scalar));
  const scriptPath = `${DOCS_PREFIX}/js/scalar.js`;
  let gzipped: Promise<Buffer> | undefined;

  // Encapsulated: the hook covers the reference's routes (the plugin is not encapsulated).
  await app.register(async (docs) => {
    docs.addHook('onSend', async (request, reply, payload) => {
      reply.header('content-security-policy', csp);
      // The bundle is 4.9 MB, 1.4 MB gzipped: compressed once, cached by the browser an hour.
      if (request.routeOptions.url !== scriptPath || reply.statusCode !== 200) return payload;
      reply.header('cache-control', 'public, max-age=3600');
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
      if (
        typeof payload !== 'string' ||
        !/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
      ) {
        return payload;
      }
      gzipped ??= promisify(gzip)(payload);
      reply.header('content-encoding', 'gzip');
      return gzipped;
    });
    await docs.register(scalar, scalarOptions());
  });
}

// ---------------------------------------------------------------------------------------

async function openapiPlugin(app: FastifyInstance, opts: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent platform API',
        version: opts.version,
        description: INFO_DESCRIPTION,
      },
      // Relative: the document describes the server that serves it.
      servers: [{ url: '/', description: 'This server' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    transformObject: finishDocument,
  } as Parameters<typeof swagger>[1]);
  await docsRoutes(app);
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}

export default fp(openapiPlugin, { name: 'openapi', fastify: '5.x', dependencies: ['errors'] });
