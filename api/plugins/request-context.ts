import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { LogController } from 'fastify';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawRequestDefaultExpression,
} from 'fastify';
import type { EntityManager, MikroORM } from '../../shared/db/orm';
import type { Actor } from '../access/actor';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's own EntityManager (a fork: no identity map shared across requests). */
    em: EntityManager;
    /** The authenticated user, once authentication has run; null when anonymous. */
    actor: Actor | null;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's `x-request-id` when it is safe to log and echo; else a fresh UUID. */
export function requestIdFor(request: RawRequestDefaultExpression): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Request logging: one line per request, written when its response has been sent, with the
 * request id (the child logger's `requestId`), method, route pattern (never the URL, whose
 * query may carry secrets), status and response time in ms. No line when a request starts,
 * and no request or response headers, so there is no credential to redact. The errors plugin
 * adds its warn/error line for a failed request; `LOG_LEVEL=warn` keeps only those.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const log = reply.log;
    if (error) {
      // The response stream itself failed (after the handler): say so whatever the level.
      log.error({ ...lineOf(request, reply), err: error }, 'request errored');
    } else {
      log.info(lineOf(request, reply), 'request completed');
    }
  }
}

function lineOf(request: FastifyRequest, reply: FastifyReply) {
  return {
    method: request.method,
    route: request.routeOptions.url ?? '(unmatched)',
    status: reply.statusCode,
    responseTime: Math.round(reply.elapsedTime * 100) / 100,
  };
}

const forkedEm = Symbol('forkedEm');

async function requestContextPlugin(app: FastifyInstance, opts: { orm: MikroORM }): Promise<void> {
  // Forked on first use: routes that never touch the database never pay for a fork.
  app.decorateRequest('em', {
    getter(this: FastifyRequest & { [forkedEm]?: EntityManager }) {
      return (this[forkedEm] ??= opts.orm.em.fork());
    },
  });
  app.decorateRequest('actor', null);
  // Callback style, like every hook that runs on each request: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

export default fp(requestContextPlugin, { name: 'request-context', fastify: '5.x' });
