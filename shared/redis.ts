import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * One factory for every Redis connection. Callers open separate connections for commands,
 * subscriptions and blocking reads (a subscribed connection cannot run commands).
 */
export function createRedis(
  url: string,
  options: { keyPrefix: string; name: string; logger: Logger; autoPipelining?: boolean },
): Redis {
  const redis = new Redis(url, {
    keyPrefix: options.keyPrefix,
    connectionName: options.name,
    // Commands issued in the same tick share one socket write: under load this halves the
    // cost of the per-request rate-limit call.
    enableAutoPipelining: options.autoPipelining ?? false,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    // Back off up to 2 s between reconnects; ioredis keeps retrying for as long as we live.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  redis.on('error', (err: Error) => {
    options.logger.warn({ err: { message: err.message }, redis: options.name }, 'redis error');
  });
  return redis;
}
