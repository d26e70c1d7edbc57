import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import { requireDatabaseUrl, type Config } from '../shared/config';
import { initOrm, type MikroORM } from '../shared/db/orm';
import { createSqlPool, type SqlPool } from '../shared/db/sql';
import type { Logger } from '../shared/logger';
import { createRedis } from '../shared/redis';
import { createTemporalClient } from '../shared/temporal';

/** Everything the API process holds open: built once at start, closed once at stop. */
export interface ApiDeps {
  config: Config;
  logger: Logger;
  /** Writes and entity-centred logic. */
  orm: MikroORM;
  /** Hot reads: prepared statements shaped like the response, on a pool of their own. */
  db: SqlPool;
  /** Commands connection. Subscriptions open their own. */
  redis: Redis;
  temporal: Client;
  /**
   * What time it is for decisions that compare with times the subscription workflow wrote
   * (an upgrade's pro-rating). Tests on Temporal's time-skipping server pass its clock.
   */
  clock?: () => Date;
}

export async function connectApiDeps(
  config: Config,
  logger: Logger,
  overrides: { redis?: Redis } = {},
): Promise<ApiDeps> {
  const databaseUrl = requireDatabaseUrl(config);
  const orm = await initOrm(databaseUrl, config.databasePoolMax, logger);
  const db = createSqlPool(databaseUrl, config.databasePoolMax, logger);
  const redis = overrides.redis ?? createRedisFromConfig(config, logger);
  const temporal = createTemporalClient(config.temporal);
  return { config, logger, orm, db, redis, temporal };
}

function createRedisFromConfig(config: Config, logger: Logger): Redis {
  if (!config.redisUrl) throw new Error('REDIS_URL: is required');
  return createRedis(config.redisUrl, {
    keyPrefix: config.redisKeyPrefix,
    name: 'api',
    logger,
    commandTimeoutMs: config.redisCommandTimeoutMs,
    autoPipelining: true,
  });
}

export async function closeApiDeps(deps: ApiDeps): Promise<void> {
  await deps.temporal.connection.close();
  deps.redis.disconnect();
  await deps.db.close();
  await deps.orm.close();
}
