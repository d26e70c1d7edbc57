import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { SSE_HEADERS } from '../../sse/frames';
import { ProjectStreamHub } from '../../sse/hub';
import { slugParams } from '../../wire';
import {
  STREAM_DESCRIPTION,
  streamDoneResponse,
  streamHeaders,
  streamQuery,
  streamResponse,
} from './schemas';
import { projectStream, type StreamDeps } from './stream';
import { errors } from '../../openapi/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's project streams (one Redis subscriber, in-process fan-out). */
    projectStreams: ProjectStreamHub;
  }
}

/** The project stream over SSE (spec "Project stream (SSE)", docs/spec/contract.md §7). */
const plugin: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, logger, redis } = opts.deps;
  const hub = new ProjectStreamHub({
    db,
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    subscribeTimeoutMs: config.redisCommandTimeoutMs,
    heartbeatMs: config.sse.heartbeatMs,
    standardBatchMs: config.sse.standardBatchMs,
    logger,
  });
  app.decorate('projectStreams', hub);
  // Before the server waits for open connections to finish: end the streams, or it never would.
  app.addHook('preClose', async () => hub.endAll());
  app.addHook('onClose', async () => hub.close());
  const deps: StreamDeps = { db, config };

  app.get(
    '/projects/:slug/stream',
    {
      // A HEAD would open a stream without a body: refused (405) instead.
      exposeHeadRoute: false,
      config: { auth: 'public' },
      schema: {
        summary: 'The live build stream of a project (SSE), with replay from Last-Event-ID',
        description: STREAM_DESCRIPTION,
        errors: errors('project_not_found', 'private_forbidden'),
        tags: ['projects'],
        params: slugParams,
        querystring: streamQuery,
        headers: streamHeaders,
        response: { 200: streamResponse, 204: streamDoneResponse },
      },
    },
    async (request, reply) => {
      const since = request.headers['last-event-id'] ?? request.query.lastEventId ?? null;
      const plan = await projectStream(deps, request.actor, { ...request.params, since });
      if (!plan) return reply.code(204).send(null);
      const connection = hub.connection(reply.raw, { ...plan, log: request.log });
      // Subscribed before the replay starts, so nothing published meanwhile is missed. A
      // client that hung up during the awaits above is not registered (see SseConnection).
      await hub.join(connection);
      reply.hijack();
      connection.open({ ...reply.getHeaders(), ...SSE_HEADERS }, config.sse.retryMs);
    },
  );
};

export const projectStreamRoutes = fp(plugin, { name: 'project-stream', fastify: '5.x' });
