import { randomBytes, randomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { Redis } from 'ioredis';
import { NativeConnection } from '@temporalio/worker';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { buildApp, type App } from '../../api/app';
import { closeApiDeps, connectApiDeps, type ApiDeps } from '../../api/deps';
import { loadConfig, type Config } from '../../shared/config';
import { createLogger, type Logger } from '../../shared/logger';
import { createWorkers, runWorkers, type RunningWorkers } from '../../workers/worker';
import { databaseUrl, readTestServices } from './services';

/**
 * One isolated world per test file: its own database (cloned from the migrated template),
 * its own Redis key prefix and its own Temporal task queue, on the run's shared servers.
 */
export interface TestContext {
  config: Config;
  /** Every log line written by apps and workers of this context, as parsed JSON. */
  logs: Record<string, unknown>[];
  logger: Logger;
  /** API dependencies of the first app; `newApi()` opens more, like another process would. */
  deps: ApiDeps;
  /** A fresh API instance with its own ORM pool, Redis and Temporal connections. */
  newApi(): Promise<App>;
  /**
   * Starts this context's workers (main, webhook and the three build-lane queues, with the
   * context's `BUILD_*_CONCURRENCY`); `close()` stops them.
   */
  startWorker(): Promise<void>;
  /** Raw SQL on this file's database. */
  sql<Row extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const services = readTestServices();
  const id = randomBytes(4).toString('hex');
  const database = `svc_test_${services.runId}_${id}`;
  const admin = new PgClient({ connectionString: services.adminDatabaseUrl });
  await admin.connect();
  await admin.query(`create database "${database}" template "${services.templateDatabase}"`);
  await admin.end();

  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl(services.adminDatabaseUrl, database),
    DATABASE_POOL_MAX: '5',
    REDIS_URL: services.redisUrl,
    REDIS_KEY_PREFIX: `test:${id}:`,
    TEMPORAL_ADDRESS: services.temporalAddress,
    TEMPORAL_NAMESPACE: services.temporalNamespace,
    TEMPORAL_TASK_QUEUE: `test-${services.runId}-${id}`,
    CHAIN_RPC_URLS: `31337=${services.anvilUrl}`,
    BUILD_WORKSPACE_ROOT: join(tmpdir(), `svc-workspaces-${services.runId}-${id}`),
    ...env,
  });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(config.logLevel, 'test', {
    write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>),
  });

  const opened: ApiDeps[] = [];
  const apps: App[] = [];
  const workers: { running: RunningWorkers; connection: NativeConnection }[] = [];
  const deps = await connectApiDeps(config, logger);
  opened.push(deps);
  const pg = new PgClient({ connectionString: config.databaseUrl });
  await pg.connect();
  // Every test file's users get ids of their own: per-user workflow ids (`subscription:<userId>`)
  // are unique per Temporal namespace, which all test files share.
  await pg.query(`alter sequence users_id_seq restart with ${randomInt(1, 2_000_000_000)}`);

  return {
    config,
    logs,
    logger,
    deps,
    async newApi() {
      const apiDeps = apps.length === 0 ? deps : await connectApiDeps(config, logger);
      if (apiDeps !== deps) opened.push(apiDeps);
      const app = buildApp(apiDeps);
      apps.push(app);
      return app;
    },
    async startWorker() {
      const connection = await NativeConnection.connect({ address: services.temporalAddress });
      const created = await createWorkers({
        config,
        redis: deps.redis,
        logger,
        temporal: deps.temporal,
        connection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        orm: deps.orm,
        workflowBundlePath: services.workflowBundlePath,
      });
      workers.push({ running: runWorkers(created), connection });
    },
    async sql<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const result = await pg.query<Row>(text, params);
      return result.rows;
    },
    async close() {
      for (const { running, connection } of workers) {
        running.shutdown();
        await running.done;
        await connection.close();
      }
      for (const app of apps) await app.close();
      for (const apiDeps of opened) await closeApiDeps(apiDeps);
      await pg.end();
      await rm(config.build.workspaceRoot, { recursive: true, force: true });
      await deleteRedisKeys(services.redisUrl, config.redisKeyPrefix);
      const dropper = new PgClient({ connectionString: services.adminDatabaseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${database}" with (force)`);
      await dropper.end();
    },
  };
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Rate limits high enough that files about other behaviours never meet them. */
export const UNLIMITED_RATES = {
  RATE_LIMIT_ANONYMOUS_RPM: '1000000',
  RATE_LIMIT_USER_RPM: '1000000',
  RATE_LIMIT_INTERNAL_RPM: '1000000',
};

/**
 * The usual test-file setup: one context and one ready API instance (with extra plugins such
 * as the probe routes), opened before the file's tests and closed after them.
 */

export function useTestApp(
  plugins: FastifyPluginAsyncZod[] = [],
  env: Record<string, string> = {},
) {
  const state = {} as { ctx: TestContext; app: App };
  beforeAll(async () => {
    state.ctx = await createTestContext(env);
    state.app = await state.ctx.newApi();
    for (const plugin of plugins) await state.app.register(plugin);
    await state.app.ready();
  });
  afterAll(async () => state.ctx?.close());
  return state;
}
