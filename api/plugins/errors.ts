import fp from 'fastify-plugin';
import Router from 'find-my-way';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from 'fastify-type-provider-zod';
import { databaseUnavailable, isDatabaseUnavailable } from '../../shared/db/sql';
import {
  AppError,
  DependencyUnavailableError,
  ERROR_STATUS,
  errorEnvelopeSchema,
  type ErrorCode,
} from '../../shared/errors';

/**
 * The one error handler: every 4xx/5xx leaves as `{error:{code,message}}` (docs/spec/contract.md §1).
 * Also answers unknown routes (404 / 405 with `Allow`) and documents the envelope as the
 * 4xx/5xx response of every route, which makes the serializer enforce its shape.
 */

/** How much of a refused oversized body is read and dropped so the client can read its 413. */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

interface RenderedError {
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

const FASTIFY_CODES: Record<string, RenderedError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'body: is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    message: 'body: is empty but Content-Type is application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'body: is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Content-Type: must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_request',
    message: 'Content-Length: does not match the body',
  },
};

/** The generic code for a status set by Fastify or a library (never for our own errors). */
function codeForStatus(status: number): ErrorCode {
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  return 'invalid_request';
}

function fieldOf(issue: ZodFastifySchemaValidationError, context: string | undefined): string {
  const path = issue.instancePath.split('/').filter(Boolean).join('.');
  return path || context || 'request';
}

function describeIssue(issue: ZodFastifySchemaValidationError, context: string | undefined) {
  if (issue.keyword === 'unrecognized_keys') {
    const prefix = fieldOf(issue, undefined);
    const unknown = (issue.params as { keys?: string[] }).keys ?? [];
    const keys = unknown.map((key) => (prefix === 'request' ? key : `${prefix}.${key}`));
    return `${keys.join(', ')}: is not a known field`;
  }
  const raw = issue.message ?? 'is invalid';
  const message = /received undefined$/.test(raw) ? 'is required' : raw;
  return `${fieldOf(issue, context)}: ${message}`;
}

export function renderError(error: FastifyError | Error): RenderedError {
  // An entity read or flush that met a database outage (the SQL runner recognises its own).
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    return renderError(databaseUnavailable(error));
  }
  if (error instanceof AppError) {
    return { code: error.code, message: error.message, headers: error.headers };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as FastifyError).validationContext;
    const issues = error.validation.map((issue) => describeIssue(issue, context));
    return { code: 'invalid_request', message: issues.join('; ') };
  }
  const fastifyError = error as FastifyError;
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return known;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { code: codeForStatus(status), message: 'request: could not be processed' };
  }
  return { code: 'internal_error', message: 'Internal server error' };
}

/**
 * Errors Fastify raises before any route or hook runs (a malformed URL, a path parameter
 * over the router's limit): Fastify's `frameworkErrors` option, so they get the envelope too.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const rendered: RenderedError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? { code: 'uri_too_long', message: 'path: a segment is too long' }
      : { code: 'invalid_request', message: 'path: is not a valid URL' };
  request.log.warn({ code: rendered.code }, rendered.message);
  const status = ERROR_STATUS[rendered.code];
  // The bot gateway keeps its own body here too (docs/bot-gateway.md): no route has run yet, so
  // its plugin's error handler cannot.
  const body = request.url.startsWith(BOT_GATEWAY_PREFIX)
    ? { error: status === 400 ? 'invalid_body' : rendered.code, detail: rendered.message }
    : { error: { code: rendered.code, message: rendered.message } };
  void reply.header('x-request-id', request.id).status(status).send(body);
}

/** Where the bot gateway's routes live (api/routes/bot/routes.ts). */
const BOT_GATEWAY_PREFIX = '/api/v1/';

/** The service whose outage failed the request, if that is why it failed. */
function dependencyOf(error: Error): string | undefined {
  if (error instanceof DependencyUnavailableError) return error.dependency;
  return isDatabaseUnavailable(error) ? 'postgres' : undefined;
}

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  // A shadow router of every registered route, used only to tell 405 from 404.
  const routes = Router();
  app.addHook('onRoute', (route) => {
    // The CORS plugin's catch-all OPTIONS route answers preflights; it must not make every
    // path look like an existing one to the 404/405 decision.
    if (route.url === '*') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods.map((name) => name.toUpperCase() as Router.HTTPMethod)) {
      if (routes.hasRoute(method, route.url)) continue;
      routes.on(method, route.url, () => undefined);
    }
    const schema = (route.schema ??= {});
    schema.response = {
      '4xx': errorEnvelopeSchema,
      '5xx': errorEnvelopeSchema,
      ...(schema.response as Record<string, unknown> | undefined),
    };
  });

  // The API speaks JSON only; text bodies are refused with 415 rather than parsed.
  app.removeContentTypeParser('text/plain');

  /** 405 with `Allow` when the path exists under other methods, else 404. */
  function refuse(request: FastifyRequest, reply: FastifyReply): never {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => routes.find(method, path) !== null);
    // Echo at most a readable prefix of what the caller sent.
    const shown = path.length > 200 ? `${path.slice(0, 200)}...` : path;
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      throw new AppError(
        'method_not_allowed',
        `method: ${request.method} is not allowed on ${shown}; use ${allowed.join(', ')}`,
      );
    }
    throw new AppError('not_found', `route: ${request.method} ${shown} does not exist`);
  }

  // A method Node parses but no route uses (QUERY, PROPFIND, ...) is refused before Fastify
  // looks at its body: QUERY without a Content-Type was a 400 from Fastify's own check.
  const known = new Set<string>(METHODS);
  app.addHook('onRequest', (request, reply, done) => {
    if (known.has(request.method)) return done();
    try {
      refuse(request, reply);
    } catch (error) {
      done(error as Error);
    }
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply) => refuse(request, reply));

  // A refusal sent before the body was read (a body over the limit, or an upload refused on its
  // fields before its file): Fastify asks Node to close the connection after a 413, which then
  // resets it while the client is still writing, and the client never reads its answer (EPIPE).
  // Instead the connection stays open and the rest of the body is read and dropped, up to
  // DRAIN_LIMIT_BYTES; a client still sending past that is cut off.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 413) reply.removeHeader('connection');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode < 400 || request.raw.complete) return done();
    let drained = 0;
    request.raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) request.raw.socket.destroy();
    });
    request.raw.resume();
    done();
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    let rendered: RenderedError;
    try {
      rendered = renderError(error);
    } catch {
      rendered = { code: 'internal_error', message: 'Internal server error' };
    }
    const status = ERROR_STATUS[rendered.code];
    const dependency = dependencyOf(error);
    if (dependency) {
      request.log.error({ err: error, dependency }, `request failed: ${dependency} is unavailable`);
    } else if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.warn({ code: rendered.code }, rendered.message);
    }
    // Also on errors raised before the request-context hook set it (a refused method).
    reply.header('x-request-id', request.id);
    for (const [name, value] of Object.entries(rendered.headers ?? {})) reply.header(name, value);
    return reply.status(status).send({ error: { code: rendered.code, message: rendered.message } });
  });
}

export default fp(errorsPlugin, { name: 'errors', fastify: '5.x' });
