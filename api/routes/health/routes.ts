import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import { pingTemporal } from '../../../shared/temporal';
import type { ApiDeps } from '../../deps';
import { errors } from '../../openapi/errors';
import { liveSchema, readySchema } from './schemas';

const CHECK_TIMEOUT_MS = 2000;

type Dependency = 'postgres' | 'redis' | 'temporal';

/** PostgreSQL answers a statement on a connection of the entity manager's pool. */
const postgresPing = statement<{ ok: number }>('health.ping', 'select 1 as ok');

function withTimeout(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export const healthRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, { deps }) => {
  const checks: Record<Dependency, () => Promise<unknown>> = {
    postgres: () => sqlOf(deps.orm.em.fork()).rows(postgresPing, []),
    // A hanging Redis fails it through the command timeout (docs/decisions.md, "Redis when
    // slow or down"): by default within 1 s, inside this check's 2 s.
    redis: () => deps.redis.ping(),
    // Its own deadline ends the gRPC call (and its retries) before the overall timeout.
    temporal: () => pingTemporal(deps.temporal, CHECK_TIMEOUT_MS - 500),
  };

  app.get(
    '/healthz',
    {
      // Probes read no credentials and are never rate limited.
      config: { auth: 'none' },
      schema: {
        summary: 'Liveness: the process is up',
        description:
          'Answers 200 while the process runs, whatever its dependencies do: for a ' +
          'liveness probe. No credentials are read and it is never rate limited.',
        tags: ['health'],
        response: { 200: liveSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      // Probes read no credentials and are never rate limited.
      config: { auth: 'none' },
      schema: {
        summary: 'Readiness: PostgreSQL, Redis and Temporal all answer',
        description: 'Answers 503 `service_unavailable` naming every dependency that did not.',
        errors: errors('service_unavailable'),
        tags: ['health'],
        response: { 200: readySchema },
      },
    },
    async (request) => {
      const names = Object.keys(checks) as Dependency[];
      const results = await Promise.allSettled(
        names.map((name) => withTimeout(checks[name](), CHECK_TIMEOUT_MS)),
      );
      const down = names.filter((_, index) => results[index]?.status === 'rejected');
      if (down.length > 0) {
        request.log.warn(
          {
            down: Object.fromEntries(
              results.flatMap((result, index) =>
                result.status === 'rejected' ? [[names[index], String(result.reason)]] : [],
              ),
            ),
          },
          'not ready',
        );
        throw new AppError('service_unavailable', `not ready: ${down.join(', ')} unreachable`);
      }
      return {
        status: 'ready' as const,
        checks: { postgres: 'ok' as const, redis: 'ok' as const, temporal: 'ok' as const },
      };
    },
  );
};
