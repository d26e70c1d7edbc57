import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../../deps';
import { SSE_HEADERS } from '../../sse/frames';
import { ProjectStreamHub } from '../../sse/hub';
import { endRuleOf, nothingToStream } from '../../sse/stream-end';
import { slugParams } from '../../wire';
import { streamableProject } from './access';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's project streams (one Redis subscriber, in-process fan-out). */
    projectStreams: ProjectStreamHub;
  }
}

const lastEventId = z
  .string()
  .regex(/^\d+$/, { error: 'must be a non-negative integer' })
  .transform(Number)
  .refine(Number.isSafeInteger, { error: 'must be a non-negative integer' });

const streamHeaders = z.looseObject({
  'last-event-id': lastEventId
    .optional()
    .describe('The last event id the client has; only newer events are sent'),
});

const streamQuery = z.object({
  lastEventId: lastEventId
    .optional()
    .describe(
      'The same as the Last-Event-ID header, for clients that cannot set headers; ' +
        'the header wins when both are present',
    ),
});

const STREAM_DESCRIPTION =
  'Server-Sent Events. Each event has `id` (the project’s event sequence number), `event` ' +
  '(plan, tool_call, tool_result, message, screenshot, commit, error, done) and `data` ' +
  '(JSON). Events newer than `Last-Event-ID` (or the `lastEventId` query parameter) are ' +
  'replayed from the last 1000 kept (from the oldest kept when it is older; every kept event ' +
  'without an id), then the stream goes live without gap or duplicate. A `retry:` hint is ' +
  'sent on connect and a `: keep-alive` comment every 15 s (by default). The stream ends ' +
  'after the `done` of the current run (an archived project’s, after its last event). A ' +
  'client that has every event gets 204 when the last run is done or the project is ' +
  'archived. A client that stops reading is disconnected once ' +
  '1 MB waits for it, and resumes by reconnecting with its last id.';

/** The project stream over SSE (spec "Project stream (SSE)", decisions §7). */
const plugin: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, logger, orm, redis } = opts.deps;
  const hub = new ProjectStreamHub({
    orm,
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    subscribeTimeoutMs: config.redisCommandTimeoutMs,
    heartbeatMs: config.sse.heartbeatMs,
    logger,
  });
  app.decorate('projectStreams', hub);
  // Before the server waits for open connections to finish: end the streams, or it never would.
  app.addHook('preClose', async () => hub.endAll());
  app.addHook('onClose', async () => hub.close());

  app.get(
    '/projects/:slug/stream',
    {
      // A HEAD would open a stream without a body: refused (405) instead.
      exposeHeadRoute: false,
      config: { auth: 'public' },
      schema: {
        summary: 'The live build stream of a project (SSE), with replay from Last-Event-ID',
        description: STREAM_DESCRIPTION,
        tags: ['projects'],
        params: slugParams,
        querystring: streamQuery,
        headers: streamHeaders,
        response: {
          200: {
            description: 'The event stream',
            content: { 'text/event-stream': { schema: z.string().describe(STREAM_DESCRIPTION) } },
          },
          204: z
            .null()
            .describe(
              'Nothing more will come: the client has every event and the last run is done or ' +
                'the project is archived (also an archived project without events)',
            ),
        },
      },
    },
    async (request, reply) => {
      const since = request.headers['last-event-id'] ?? request.query.lastEventId ?? null;
      const project = await streamableProject(request.em, request.params.slug, request.actor);
      if (await nothingToStream(request.em, project, since)) {
        return reply.code(204).send(null);
      }
      const connection = hub.connection(reply.raw, {
        projectId: project.id,
        // An id the log never reached (a restored database) must not hide the events to come.
        lastEventId: Math.min(since ?? 0, project.lastEventSeq),
        endRule: endRuleOf(project),
        log: request.log,
      });
      // The request's EntityManager lives as long as the stream: keep nothing in it.
      request.em.clear();
      // Subscribed before the replay starts, so nothing published meanwhile is missed. A
      // client that hung up during the awaits above is not registered (see SseConnection).
      await hub.join(connection);
      reply.hijack();
      connection.open({ ...reply.getHeaders(), ...SSE_HEADERS }, config.sse.retryMs);
    },
  );
};

export const projectStreamRoutes = fp(plugin, { name: 'project-stream', fastify: '5.x' });
