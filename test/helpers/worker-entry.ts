import { loadConfig, requireDatabaseUrl } from '../../shared/config';
import { initOrm } from '../../shared/db/orm';
import { createLogger } from '../../shared/logger';
import { createRedis } from '../../shared/redis';
import { mainTaskQueue } from '../../shared/temporal';
import { createWorker, installWorkerLogging, NativeConnection } from '../../workers/worker';
import { readTestServices } from './services';

/**
 * A worker in its own OS process (test/helpers/worker-process.ts starts it), so a test can
 * kill it with SIGKILL as a crash would. Uses the run's prebuilt workflow bundle to start fast,
 * and prints `worker-ready` once it polls.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, 'worker-process');
  installWorkerLogging(logger);
  const orm = await initOrm(requireDatabaseUrl(config), config.databasePoolMax);
  const redis = createRedis(config.redisUrl!, {
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
    workflowBundlePath: readTestServices().workflowBundlePath,
  });
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.stdout.write('worker-ready\n');
  await running;
  await connection.close();
  redis.disconnect();
  await orm.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
