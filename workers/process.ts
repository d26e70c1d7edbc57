import { requireDatabaseUrl, type Config } from '../shared/config';
import { initOrm } from '../shared/db/orm';
import type { Logger } from '../shared/logger';
import { createRedis } from '../shared/redis';
import { createTemporalClient } from '../shared/temporal';
import { startWorkers } from './worker';

export interface WorkerProcessOptions {
  /** A prebuilt workflow bundle (tests); otherwise workflows/ is bundled at start. */
  workflowBundlePath?: string;
  /** Called once the worker polls its task queue. */
  onReady?: () => void;
}

/**
 * A worker process's whole life: connect PostgreSQL, Redis and Temporal, run its workers (main,
 * webhook and build-lane queues: workers/worker.ts) until SIGTERM or SIGINT, drain the
 * activities under way, then close everything.
 */
export async function runWorkerProcess(
  config: Config,
  logger: Logger,
  options: WorkerProcessOptions = {},
): Promise<void> {
  const orm = await initOrm(requireDatabaseUrl(config), config.databasePoolMax, logger);
  if (!config.redisUrl) throw new Error('REDIS_URL: is required');
  const redis = createRedis(config.redisUrl, {
    keyPrefix: config.redisKeyPrefix,
    name: 'worker',
    logger,
    // Only best-effort publishes of build events: a stalled Redis must not hold a build step.
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  // Activities start workflows too (webhook deliveries): one client for the process.
  const temporal = createTemporalClient(config.temporal);
  const running = await startWorkers({
    config,
    redis,
    logger,
    temporal,
    orm,
    workflowBundlePath: options.workflowBundlePath,
  });

  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing running activities');
    running.shutdown();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  logger.info(
    {
      taskQueue: config.temporal.taskQueue,
      taskQueues: running.taskQueues,
      buildConcurrency: config.buildConcurrency,
      // Where Prometheus scrapes this process (docs/metrics.md); null: not served.
      metricsAddress: config.workerMetricsAddress ?? null,
    },
    'worker started',
  );
  options.onReady?.();
  // Until SIGTERM/SIGINT (or a worker fails); then the connection closes too.
  try {
    await running.done;
  } finally {
    await running.stop();
  }
  await temporal.connection.close();
  redis.disconnect();
  await orm.close();
  logger.info('worker stopped');
}
