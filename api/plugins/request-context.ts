import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, RawRequestDefaultExpression } from 'fastify';
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

const forkedEm = Symbol('forkedEm');

async function requestContextPlugin(app: FastifyInstance, opts: { orm: MikroORM }): Promise<void> {
  // Forked on first use: routes that never touch the database never pay for a fork.
  app.decorateRequest('em', {
    getter(this: FastifyRequest & { [forkedEm]?: EntityManager }) {
      return (this[forkedEm] ??= opts.orm.em.fork());
    },
  });
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}

export default fp(requestContextPlugin, { name: 'request-context', fastify: '5.x' });
