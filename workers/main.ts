import { loadConfig, requireDatabaseUrl } from '../shared/config';
import { initOrm } from '../shared/db/orm';
import { createLogger } from '../shared/logger';
import { createRedis } from '../shared/redis';
import { mainTaskQueue } from '../shared/temporal';
import { createWorker, installWorkerLogging, NativeConnection } from './worker';

/** Worker process: runs activities and workflows until SIGTERM/SIGINT, then drains. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, 'worker');
  installWorkerLogging(logger);
  const orm = await initOrm(requireDatabaseUrl(config), config.databasePoolMax);
  if (!config.redisUrl) throw new Error('REDIS_URL: is required');
  const redis = createRedis(config.redisUrl, {
    keyPrefix: config.redisKeyPrefix,
    name: 'worker',
    logger,
  });
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await createWorker({
    config,
    redis,
    logger,
    connection,
    namespace: config.temporal.namespace,
    taskQueue: mainTaskQueue(config.temporal.taskQueue),
    orm,
  });

  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing running activities');
    worker.shutdown();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  logger.info({ taskQueue: mainTaskQueue(config.temporal.taskQueue) }, 'worker started');
  await worker.run();
  await connection.close();
  redis.disconnect();
  await orm.close();
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
