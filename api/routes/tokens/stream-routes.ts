import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RESOLUTIONS } from '../../../shared/market/candles';
import type { ApiDeps } from '../../deps';
import { errors } from '../../openapi/errors';
import { SSE_HEADERS } from '../../sse/frames';
import { outboxBounds, resetText, snapshotOf, tokenIdBySlug } from '../../sse/market-frames';
import { MarketStreamHub, type MarketConnection } from '../../sse/market-hub';
import { looksLikeSlug, slugParams } from '../../wire';
import { tokenNotFound } from './access';
import {
  FIREHOSE_DESCRIPTION,
  TOKEN_STREAM_DESCRIPTION,
  firehoseQuery,
  firehoseResponse,
  streamHeaders,
  tokenStreamQuery,
  tokenStreamResponse,
} from './market-schemas';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's token streams (one outbox reader, in-process fan-out). */
    marketStreams: MarketStreamHub;
  }
}

/** How often the hub reads the outbox without an announcement (a lost one only delays). */
const POLL_MS = 1000;

/**
 * The token streams over SSE (docs/spec/contract.md §13, docs/chain.md "Market data"):
 * `GET /tokens/:slug/stream` and the firehose `GET /tokens/stream`.
 */
const plugin: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, logger, redis } = opts.deps;
  const hub = new MarketStreamHub({
    db,
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    subscribeTimeoutMs: config.redisCommandTimeoutMs,
    heartbeatMs: config.sse.heartbeatMs,
    pollMs: POLL_MS,
    logger,
  });
  app.decorate('marketStreams', hub);
  app.addHook('preClose', async () => hub.endAll());
  app.addHook('onClose', async () => hub.close());

  const bounds = async () => {
    const row = await db.row(outboxBounds, []);
    return { first: row?.first ? BigInt(row.first) : null, last: BigInt(row?.last ?? '0') };
  };

  /**
   * Where a stream starts: after the client's id when the outbox still holds everything
   * newer, else a `reset` and what a fresh stream starts with (`fresh`).
   */
  async function startOf(
    since: string | undefined,
    fresh: () => Promise<{ text: string; from: bigint }>,
  ): Promise<{ first: string; from: bigint }> {
    if (since === undefined) {
      const start = await fresh();
      return { first: start.text, from: start.from };
    }
    const id = /^\d{1,19}$/.test(since) ? BigInt(since) : null;
    const { first, last } = await bounds();
    const reason =
      id === null || id > last
        ? 'unknown_id'
        : first !== null && id < first - 1n
          ? 'expired'
          : null;
    if (reason === null) return { first: '', from: id! };
    const start = await fresh();
    return { first: resetText(reason) + start.text, from: start.from };
  }

  async function serve(
    reply: FastifyReply,
    connection: MarketConnection,
    start: () => Promise<{ first: string; from: bigint }>,
  ) {
    // Registered before its start is read, so nothing committed meanwhile is missed.
    await hub.join(connection, async () => (await bounds()).last);
    const { first, from } = await start();
    reply.hijack();
    connection.open({ ...SSE_HEADERS }, config.sse.retryMs);
    await connection.start(db, first, from);
  }

  app.get(
    '/tokens/stream',
    {
      exposeHeadRoute: false,
      config: { auth: 'public' },
      schema: {
        summary: 'Every token’s launches, trades and state changes, live (SSE)',
        description: FIREHOSE_DESCRIPTION,
        tags: ['tokens'],
        querystring: firehoseQuery,
        headers: streamHeaders,
        response: { 200: firehoseResponse },
      },
    },
    async (request, reply) => {
      const since = request.headers['last-event-id'] ?? request.query.lastEventId;
      const connection = hub.connection(reply.raw, {
        tokenId: null,
        resolutions: [],
        log: request.log,
      });
      await serve(reply, connection, () =>
        startOf(since, async () => ({ text: '', from: (await bounds()).last })),
      );
    },
  );

  app.get(
    '/tokens/:slug/stream',
    {
      exposeHeadRoute: false,
      config: { auth: 'public' },
      schema: {
        summary: 'A token’s price ticks, bars and state, live (SSE), with replay',
        description: TOKEN_STREAM_DESCRIPTION,
        errors: errors('invalid_request', 'token_not_found'),
        tags: ['tokens'],
        params: slugParams,
        querystring: tokenStreamQuery,
        headers: streamHeaders,
        response: { 200: tokenStreamResponse },
      },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const token = looksLikeSlug(slug) ? await db.row(tokenIdBySlug, [slug]) : undefined;
      if (!token) throw tokenNotFound(slug);
      const resolutions = request.query.resolutions.map((name) => RESOLUTIONS[name]);
      const since = request.headers['last-event-id'] ?? request.query.lastEventId;
      const connection = hub.connection(reply.raw, {
        tokenId: token.id,
        resolutions,
        log: request.log,
      });
      await serve(reply, connection, () =>
        startOf(since, async () => {
          const snapshot = await snapshotOf(db, slug, resolutions);
          if (!snapshot) throw tokenNotFound(slug);
          return { text: snapshot.text, from: BigInt(snapshot.lastSeq) };
        }),
      );
    },
  );
};

export const tokenStreamRoutes = fp(plugin, { name: 'token-streams', fastify: '5.x' });
