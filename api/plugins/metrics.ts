import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import {
  ApiMetrics,
  SPEND_REFUSALS,
  type Principal,
  type SpendRefusal,
} from '../metrics/api-metrics';
import { scrapeReads } from '../metrics/scrape-reads';

/**
 * Prometheus metrics of this API instance at `GET /metrics` (docs/metrics.md).
 *
 * - Every response is counted by method, route pattern and status, with its duration; refusals
 *   for rate limits and FLOW spending are counted where they are raised as errors (an `onError`
 *   hook, so the bot gateway's own error handler is covered too).
 * - Protection: with `METRICS_TOKEN` set the route answers only `Authorization: Bearer
 *   <METRICS_TOKEN>` (401 otherwise); in production without a token the route does not exist
 *   (404). It reads no user credential, is never rate limited, and is not in the OpenAPI
 *   document.
 */

const spendRefusals = new Set<string>(SPEND_REFUSALS);

/** Who a refused request was counted as, from what the auth hook left on it. */
function principalOf(request: FastifyRequest): Principal {
  if (request.actor) return request.actor.via === 'api_key' ? 'api_key' : 'user';
  if (request.internalCaller) return 'internal';
  if (request.routeOptions.config.auth === 'bot') return 'bot';
  return 'anonymous';
}

/** Constant time: compares digests, so neither the length nor a prefix of the token leaks. */
function bearerMatcher(token: string) {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(`Bearer ${token}`);
  return (header: string | undefined) =>
    header !== undefined && timingSafeEqual(digest(header), expected);
}

async function metricsPlugin(app: FastifyInstance, opts: { deps: ApiDeps }): Promise<void> {
  const { config, db, logger } = opts.deps;
  const token = config.metricsToken;
  if (config.env === 'production' && token === undefined) return;

  const metrics = new ApiMetrics({
    logger,
    processMetrics: config.env !== 'test',
    sources: {
      ...scrapeReads(db),
      // Decorated by the project stream routes, registered after this plugin.
      openStreams: () =>
        app.hasDecorator('projectStreams') ? app.projectStreams.connectionCount : 0,
      openMarketStreams: () =>
        app.hasDecorator('marketStreams') ? app.marketStreams.connectionCount : 0,
      marketOutboxLagSeconds: async () =>
        app.hasDecorator('marketStreams') ? app.marketStreams.lagSeconds() : 0,
    },
  });

  // Callback style, like every hook that runs on each request: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeResponse(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', (request, reply, error, done) => {
    if (error instanceof AppError) {
      if (error.code === 'rate_limited') metrics.countRateLimited(principalOf(request));
      if (spendRefusals.has(error.code)) metrics.countSpendRefused(error.code as SpendRefusal);
    }
    done();
  });

  const authorized = token === undefined ? () => true : bearerMatcher(token);
  app.get(
    '/metrics',
    { config: { auth: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      if (!authorized(request.headers.authorization)) {
        throw new AppError('unauthenticated', 'Authorization: must be "Bearer <METRICS_TOKEN>"');
      }
      const body = await metrics.registry.metrics();
      return reply
        .header('content-type', metrics.registry.contentType)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}

export default fp(metricsPlugin, {
  name: 'metrics',
  fastify: '5.x',
  dependencies: ['errors', 'request-context'],
});
