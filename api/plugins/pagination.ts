import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createCursorCodec, type CursorCodec } from '../../shared/domain/cursor';

declare module 'fastify' {
  interface FastifyInstance {
    cursors: CursorCodec;
  }
}

/** `app.cursors`: signs and checks the opaque cursors of every list (api/paging/). */
async function paginationPlugin(app: FastifyInstance, opts: { secret: string }): Promise<void> {
  app.decorate('cursors', createCursorCodec(opts.secret));
}

export default fp(paginationPlugin, { name: 'pagination', fastify: '5.x' });
