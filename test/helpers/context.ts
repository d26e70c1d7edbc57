import { randomBytes, randomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { buildApp, type App } from '../../api/app';
import { closeApiDeps, connectApiDeps, type ApiDeps } from '../../api/deps';
import { loadConfig, type Config } from '../../shared/config';
import { createLogger, type Logger } from '../../shared/logger';
import { startWorkers, type StartedWorkers } from '../../workers/worker';
import { databaseUrl, readTestServices } from './services';
import { testLogWriter } from './test-log';
import { deleteKeysWithPrefix } from '../../scripts/redis-keys';

/**
 * One isolated world per test file: its own database (cloned from the migrated template),
 * its own Redis key prefix and its own Temporal task queue, on the run's shared servers.
 */
export interface TestContext {
  config: Config;
  /**
   * Every log line written by apps and workers of this context, as parsed JSON; they also go
   * to the test file's log (test/README.md "Logs").
   */
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
    // The highest the setting allows, not the 500 ms default: on a loaded machine a Redis
    // reply can take longer than that, and a request would read a 503 no test asked for.
    // The test of a stalled Redis sets the default back (redis-stall.test.ts).
    REDIS_COMMAND_TIMEOUT_MS: String(TEST_REDIS_COMMAND_TIMEOUT_MS),
    ...env,
  });
  const logs: Record<string, unknown>[] = [];
  const toFile = testLogWriter();
  const logger = createLogger(config.logLevel, 'test', {
    write: (line: string) => {
      logs.push(JSON.parse(line) as Record<string, unknown>);
      toFile?.(line);
    },
  });

  const opened: ApiDeps[] = [];
  const apps: App[] = [];
  const workers: StartedWorkers[] = [];
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
      workers.push(
        await startWorkers({
          config,
          redis: deps.redis,
          logger,
          temporal: deps.temporal,
          orm: deps.orm,
          workflowBundlePath: services.workflowBundlePath,
        }),
      );
    },
    async sql<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const result = await pg.query<Row>(text, params);
      return result.rows;
    },
    async close() {
      for (const running of workers) await running.stop();
      for (const app of apps) await app.close();
      for (const apiDeps of opened) await closeApiDeps(apiDeps);
      await pg.end();
      await rm(config.build.workspaceRoot, { recursive: true, force: true });
      await deleteKeysWithPrefix(services.redisUrl, config.redisKeyPrefix);
      const dropper = new PgClient({ connectionString: services.adminDatabaseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${database}" with (force)`);
      await dropper.end();
    },
  };
}

/** REDIS_COMMAND_TIMEOUT_MS of every test world unless it sets its own. */
export const TEST_REDIS_COMMAND_TIMEOUT_MS = 2_000;

/** Rate limits high enough that files about other behaviours never meet them. */
export const UNLIMITED_RATES = {
  RATE_LIMIT_ANONYMOUS_RPM: '1000000',
  RATE_LIMIT_USER_RPM: '1000000',
  RATE_LIMIT_INTERNAL_RPM: '1000000',
};

type Env = Record<string, string>;

/** How a test file wants its world (test/README.md "One world per file"). */
export interface TestAppOptions {
  /** Plugins registered on every API instance before it is ready (the probe routes). */
  plugins?: FastifyPluginAsyncZod[];
  /**
   * Settings over the test defaults. A function when they depend on something a `beforeAll`
   * declared above `useTestApp` started (a fake server's URL): it runs in useTestApp's own.
   */
  env?: Env | (() => Env | Promise<Env>);
  /**
   * API instances: 1 by default; 2 adds `other`, with connections of its own as a second
   * process has; 0 when the file needs the database, Redis or Temporal only.
   */
  apis?: 0 | 1 | 2;
  /** Listen on loopback ports (real HTTP, SSE): `url` and `otherUrl` are the base URLs. */
  listen?: boolean;
  /** Start the context's in-process workers once the APIs are up. */
  worker?: boolean;
  /** Runs on each API instance before it is ready: plugins that need the context's config. */
  setup?: (app: App, ctx: TestContext) => unknown;
  /**
   * Runs before the context closes, while its connections are open: terminate workflows,
   * release a held fake so the workers can drain. (`afterAll` hooks run in the order they are
   * declared, so one below `useTestApp` would run after the close.)
   */
  beforeClose?: (world: TestApp) => unknown;
}

/** The world `useTestApp` opens; its fields are set once its `beforeAll` has run. */
export interface TestApp {
  ctx: TestContext;
  /** The first API instance (unset with `apis: 0`). */
  app: App;
  /** The second API instance, with `apis: 2`. */
  other: App;
  /** `http://127.0.0.1:<port>` of `app`, with `listen`. */
  url: string;
  /** `http://127.0.0.1:<port>` of `other`, with `apis: 2` and `listen`. */
  otherUrl: string;
}

/**
 * The usual test-file setup: one context and its API instances, opened before the file's (or
 * the describe block's) tests and closed after them. `useTestApp(plugins, env)`, the first
 * form, still works: it is `useTestApp({ plugins, env })`.
 */
export function useTestApp(options?: TestAppOptions): TestApp;
export function useTestApp(plugins: FastifyPluginAsyncZod[], env?: Env): TestApp;
export function useTestApp(
  first: TestAppOptions | FastifyPluginAsyncZod[] = {},
  env: Env = {},
): TestApp {
  const options = Array.isArray(first) ? { plugins: first, env } : first;
  const world = {} as TestApp;
  beforeAll(async () => Object.assign(world, await openTestApp(options)));
  afterAll(async () => {
    if (!world.ctx) return;
    try {
      await options.beforeClose?.(world);
    } finally {
      await world.ctx.close();
    }
  });
  return world;
}

async function openTestApp(options: TestAppOptions): Promise<Partial<TestApp>> {
  const env = typeof options.env === 'function' ? await options.env() : (options.env ?? {});
  const ctx = await createTestContext(env);
  const world: Partial<TestApp> = { ctx };
  try {
    const apps: App[] = [];
    const urls: string[] = [];
    for (let i = 0; i < (options.apis ?? 1); i++) {
      const app = await ctx.newApi();
      for (const plugin of options.plugins ?? []) await app.register(plugin);
      await options.setup?.(app, ctx);
      if (options.listen) urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
      else await app.ready();
      apps.push(app);
    }
    [world.app, world.other] = apps;
    [world.url, world.otherUrl] = urls;
    if (options.worker) await ctx.startWorker();
    return world;
  } catch (error) {
    await ctx.close();
    throw error;
  }
}
