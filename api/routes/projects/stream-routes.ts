import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ProjectStatus } from '../../../shared/db/entities/project';
import type { Tier } from '../../../shared/db/entities/subscription';
import { statement, type SqlReader } from '../../../shared/db/sql';
import { featuresOf } from '../../../shared/domain/tiers';
import { entitledTierSql } from '../../../shared/subscriptions/entitlements';
import type { Actor } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { SSE_HEADERS } from '../../sse/frames';
import { ProjectStreamHub } from '../../sse/hub';
import { endRuleOf, nothingToStream, type StreamedProject } from '../../sse/stream-end';
import { looksLikeSlug, slugParams } from '../../wire';
import { assertStreamable, projectNotFound } from './access';
import { errors } from '../../plugins/openapi';

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
  'without an id), then the stream goes live without gap or duplicate. Viewers whose tier has ' +
  '`fasterSse` (pro, max) get each live event as it happens; others (anonymous, free, plus) ' +
  'get them in batches at most every 1 s (by default), each event with its own id; the replay ' +
  'and the final `done` are sent at once. A `retry:` hint is ' +
  'sent on connect and a `: keep-alive` comment every 15 s (by default). The stream ends ' +
  'after the `done` of the current run (an archived project’s, after its last event). A ' +
  'client that has every event gets 204 when the last run is done or the project is ' +
  'archived. A client that stops reading is disconnected once ' +
  '1 MB waits for it, and resumes by reconnecting with its last id.';

/** A reconnect after event 40: the rest of a build, replayed then live, to its `done`. */
const STREAM_EXAMPLE = [
  'retry: 3000',
  '',
  'id: 41',
  'event: tool_call',
  'data: {"tool":"shell","args":{"command":"npm run build"},"callId":"step-6"}',
  '',
  'id: 42',
  'event: tool_result',
  'data: {"callId":"step-6","result":{"exitCode":0}}',
  '',
  'id: 43',
  'event: commit',
  'data: {"sha":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","message":"Build the landing page","files":["index.html","styles.css"]}',
  '',
  ': keep-alive',
  '',
  'id: 44',
  'event: done',
  'data: {"runId":"3f1c2a9e-8b7d-4c6e-9a5f-2d4b8e7c1a03","finalStatus":"completed"}',
  '',
  '',
].join('\n');

interface StreamTargetRow {
  id: string;
  ownerId: number;
  private: boolean;
  status: ProjectStatus;
  currentRunId: string | null;
  /** int8, a string. */
  lastEventSeq: string;
  lastEventType: string | null;
  /** The viewer's entitled tier; null for anonymous viewers and users without one. */
  viewerTier: Tier | null;
}

/**
 * Everything a connect decides on, in one statement: who may watch, whether anything is left
 * to stream, where the stream ends, and whether the viewer's tier has `fasterSse`.
 */
const streamTargetBySlug = statement<StreamTargetRow, [slug: string, viewerId: number | null]>(
  'projects.stream_target',
  `select p.id, p.owner_id as "ownerId", p.private, p.status,
          p.current_run_id as "currentRunId", p.last_event_seq as "lastEventSeq",
          (select e.type from project_events e
            where e.project_id = p.id and e.seq = p.last_event_seq) as "lastEventType",
          ${entitledTierSql('$2::int')} as "viewerTier"
     from projects p
    where p.slug = $1`,
);

interface StreamTarget extends StreamedProject {
  id: string;
  viewerTier: Tier | null;
}

/**
 * The project to stream, with its viewer's tier; a private project is 403 `private_forbidden`
 * for anyone but its owner (`assertStreamable`).
 */
async function streamTarget(
  db: SqlReader,
  slug: string,
  actor: Actor | null,
): Promise<StreamTarget> {
  // Anything that cannot be a slug (a NUL byte, say) never reaches PostgreSQL.
  const row = looksLikeSlug(slug)
    ? await db.row(streamTargetBySlug, [slug, actor?.userId ?? null])
    : undefined;
  if (!row) throw projectNotFound(slug);
  assertStreamable(row, actor);
  return { ...row, lastEventSeq: Number(row.lastEventSeq) };
}

/** The project stream over SSE (spec "Project stream (SSE)", docs/spec/contract.md §7). */
const plugin: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, logger, orm, redis } = opts.deps;
  const hub = new ProjectStreamHub({
    orm,
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
        response: {
          200: {
            description: 'The event stream',
            content: {
              'text/event-stream': {
                schema: z
                  .string()
                  .describe(STREAM_DESCRIPTION)
                  .meta({ examples: [STREAM_EXAMPLE] }),
              },
            },
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
      const project = await streamTarget(db, request.params.slug, request.actor);
      if (nothingToStream(project, since)) {
        return reply.code(204).send(null);
      }
      const connection = hub.connection(reply.raw, {
        projectId: project.id,
        // An id the log never reached (a restored database) must not hide the events to come.
        lastEventId: Math.min(since ?? 0, project.lastEventSeq),
        endRule: endRuleOf(project),
        // docs/spec/contract.md §11: `fasterSse` (pro+) streams get each event as it happens.
        batched: config.sse.standardBatchMs > 0 && !featuresOf(project.viewerTier).fasterSse,
        log: request.log,
      });
      // Subscribed before the replay starts, so nothing published meanwhile is missed. A
      // client that hung up during the awaits above is not registered (see SseConnection).
      await hub.join(connection);
      reply.hijack();
      connection.open({ ...reply.getHeaders(), ...SSE_HEADERS }, config.sse.retryMs);
    },
  );
};

export const projectStreamRoutes = fp(plugin, { name: 'project-stream', fastify: '5.x' });
