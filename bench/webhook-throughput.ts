import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { DISPATCH_POLLS_PER_RUN, ensureWebhookDispatcher } from '../api/maintenance';
import { loadConfig, type Config } from '../shared/config';
import { initOrm, migrate, type MikroORM } from '../shared/db/orm';
import { sqlOf, statement } from '../shared/db/sql';
import { generateSigningSecret } from '../shared/domain/signature';
import { createLogger } from '../shared/logger';
import { createRedis } from '../shared/redis';
import { workflowIds } from '../shared/temporal';
import { createWorkers, installWorkerLogging } from '../workers/worker';
import { startWebhookReceiver, type WebhookReceiver } from '../test/helpers/webhook-receiver';
import { deleteKeysWithPrefix } from '../scripts/redis-keys';
import { admin, withDatabase } from './sse-fixture';
import { Teardown } from './sse-processes';
import {
  measureDeliveries,
  measureWorkflows,
  type DeliveryTarget,
  type PhaseResult,
  type WorkflowTarget,
} from './webhook-phases';
import { startBenchTemporal } from './webhook-temporal';

/**
 * Webhook deliveries per second end to end vs empty workflows per second on the same Temporal
 * server, side by side in one run (goal: ours ≥ 70 % of empty). Several rounds, each measuring
 * the three phases in another order (all six orders over six rounds); the verdict uses the
 * median of the rounds' ratios. Ours: outbox insert → the
 * real dispatcher workflow and workers (`createWorkers`, real deps) → signed POST → the loopback
 * receiver's 200. Baselines: `emptyWorkflow` (and `oneActivityWorkflow`, one no-op activity)
 * started with `client.workflow.start` by a bench-only worker on its own task queue. Same N,
 * same number of creators in flight.
 *
 * Needs real PostgreSQL and Redis (a scratch database is created, migrated and dropped; a Redis
 * key prefix of its own) and Temporal: TEMPORAL_ADDRESS, else a `temporal server start-dev` the
 * bench starts on a free port. Everything is cleaned up also on failure or Ctrl-C.
 */
const benchEnv = z.object({
  BENCH_WEBHOOK_N: z.coerce.number().int().positive().default(500),
  BENCH_WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().max(200).default(20),
  BENCH_WEBHOOK_WARMUP: z.coerce.number().int().positive().default(20),
  BENCH_WEBHOOK_ROUNDS: z.coerce.number().int().positive().max(24).default(6),
});
const GOAL_RATIO = 0.7;
const RECEIVER_PATH = '/bench';

interface Setup {
  config: Config;
  orm: MikroORM;
  client: Client;
  deliveries: DeliveryTarget;
  empty: WorkflowTarget;
  oneActivity: WorkflowTarget;
}

const insertUser = statement<{ id: number }, [address: string]>(
  'bench.insert_user',
  `insert into users (address, created_at) values ($1, now()) returning id`,
);

/** A subscription to every event. */
const insertWebhook = statement<
  Record<string, never>,
  [userId: number, url: string, secret: string]
>(
  'bench.insert_webhook',
  `insert into webhooks (id, user_id, url, events, secret, created_at)
   values (gen_random_uuid(), $1, $2, '{}', $3, now())`,
);

/** A user with one subscription (all events) to the loopback receiver. */
async function subscribe(orm: MikroORM, receiver: WebhookReceiver): Promise<number> {
  const sql = sqlOf(orm.em.fork());
  const user = await sql.row(insertUser, [`0x${randomBytes(20).toString('hex')}`]);
  await sql.run(insertWebhook, [user!.id, receiver.url(RECEIVER_PATH), generateSigningSecret()]);
  return user!.id;
}

/** Runs a worker until teardown; `Worker.run` resolves only after shutdown. */
function runWorker(teardown: Teardown, name: string, worker: Worker): void {
  const running = worker.run();
  teardown.add(`stop ${name}`, async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
  });
}

async function startWorkers(
  teardown: Teardown,
  config: Config,
  databaseUrl: string,
  temporal: Client,
): Promise<NativeConnection> {
  const logger = createLogger(config.logLevel, 'bench-webhooks');
  const orm = await initOrm(databaseUrl, config.databasePoolMax);
  teardown.add('close worker orm', () => orm.close());
  const redis = createRedis(config.redisUrl!, {
    keyPrefix: config.redisKeyPrefix,
    name: 'bench-worker',
    logger,
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  teardown.add('close worker redis', async () => void redis.disconnect());
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  teardown.add('close worker connection', () => connection.close());
  const { namespace, taskQueue } = config.temporal;
  const deps = { config, orm, redis, logger, temporal, connection, namespace, taskQueue };
  const [ours, baseline] = await Promise.all([
    createWorkers(deps),
    // The webhook worker's slots and cache, so both sides run with the same worker options.
    Worker.create({
      connection,
      namespace,
      taskQueue: `${taskQueue}-baseline`,
      workflowsPath: require.resolve('./empty-workflow'),
      activities: { noop: async () => {} },
      maxConcurrentWorkflowTaskExecutions: config.webhookDeliveryConcurrency,
      maxConcurrentLocalActivityExecutions: config.webhookDeliveryConcurrency,
      maxCachedWorkflows: 2 * config.webhookDeliveryConcurrency,
    }),
  ]);
  for (const [i, worker] of ours.entries()) runWorker(teardown, `service worker ${i}`, worker);
  runWorker(teardown, 'baseline worker', baseline);
  return connection;
}

async function setUp(teardown: Teardown, concurrency: number): Promise<Setup> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const adminUrl =
    process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const database = `svc_bench_${runId}`;
  const prefix = `svc-bench:${runId}:`;
  const databaseUrl = withDatabase(adminUrl, database);

  // Before the Temporal test environment, which creates the SDK runtime with its own logger.
  installWorkerLogging(createLogger('warn', 'bench-webhooks'));
  const temporal = await startBenchTemporal();
  teardown.add('stop temporal', () => temporal.stop());
  await admin(adminUrl, `create database "${database}"`);
  teardown.add('drop database', () =>
    admin(adminUrl, `drop database if exists "${database}" with (force)`),
  );
  const orm = await initOrm(databaseUrl, concurrency);
  teardown.add('close orm', () => orm.close());
  await migrate(orm);
  const redis = new Redis(redisUrl);
  teardown.add('delete redis keys', async () => {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    TEMPORAL_TASK_QUEUE: `bench-webhooks-${runId}`,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const receiver = await startWebhookReceiver();
  teardown.add('close receiver', () => receiver.close());
  const userId = await subscribe(orm, receiver);
  const clientConnection = await Connection.connect({ address: temporal.address });
  teardown.add('close client', () => clientConnection.close());
  const client = new Client({ connection: clientConnection, namespace: temporal.namespace });
  await startWorkers(teardown, config, databaseUrl, client);
  await startDispatcher(teardown, client, config);

  const baselineQueue = `${config.temporal.taskQueue}-baseline`;
  return {
    config,
    orm,
    client,
    deliveries: { orm, client, receiver, path: RECEIVER_PATH, userId },
    empty: { client, taskQueue: baselineQueue, workflowType: 'emptyWorkflow' },
    oneActivity: { client, taskQueue: baselineQueue, workflowType: 'oneActivityWorkflow' },
  };
}

/** As the API starts it on boot; stopped first, so no poll runs against a closing worker. */
async function startDispatcher(teardown: Teardown, client: Client, config: Config) {
  const input = {
    pollIntervalMs: config.webhookDispatchIntervalMs,
    pollsPerRun: DISPATCH_POLLS_PER_RUN,
  };
  await ensureWebhookDispatcher(client, config.temporal.taskQueue, input);
  teardown.add('terminate dispatcher', async () => {
    const id = workflowIds.webhookDispatch(config.temporal.taskQueue);
    await client.workflow.getHandle(id).terminate('bench over');
  });
}

function row(name: string, result: PhaseResult, empty: PhaseResult): string {
  const cells = [
    name.padEnd(22),
    `${result.perSecond.toFixed(1)}/s`.padStart(10),
    `${(result.totalMs / 1000).toFixed(2)} s`.padStart(9),
    `${result.p50.toFixed(0)} ms`.padStart(9),
    `${result.p99.toFixed(0)} ms`.padStart(9),
    `${((100 * result.perSecond) / empty.perSecond).toFixed(1)} %`.padStart(9),
  ];
  return cells.join('  ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

type PhaseName = 'ours' | 'empty' | 'oneActivity';

/**
 * Every order of the three phases: over six rounds each phase runs first, second and third
 * twice, and directly after each of the other two twice.
 */
const ORDERS: PhaseName[][] = [
  ['ours', 'empty', 'oneActivity'],
  ['empty', 'oneActivity', 'ours'],
  ['oneActivity', 'ours', 'empty'],
  ['ours', 'oneActivity', 'empty'],
  ['empty', 'ours', 'oneActivity'],
  ['oneActivity', 'empty', 'ours'],
];

interface Round {
  ours: PhaseResult;
  empty: PhaseResult;
  oneActivity: PhaseResult;
}

/** One round: the three phases back to back, in the round's order (see ORDERS). */
async function measureRound(setup: Setup, round: number, n: number, concurrency: number) {
  const phases = {
    ours: () => measureDeliveries(setup.deliveries, `round-${round}`, n, concurrency),
    empty: () => measureWorkflows(setup.empty, `empty-${round}`, n, concurrency),
    oneActivity: () => measureWorkflows(setup.oneActivity, `activity-${round}`, n, concurrency),
  };
  const results: Partial<Round> = {};
  for (const name of ORDERS[round % ORDERS.length]!) results[name] = await phases[name]();
  return results as Round;
}

function report(round: number, { ours, empty, oneActivity }: Round): void {
  const stages = ours.stages!;
  console.log(`round ${round + 1}: ${ORDERS[round % ORDERS.length]!.join(' → ')}`);
  console.log(
    `${''.padEnd(22)}  ${'rate'.padStart(10)}  ${'total'.padStart(9)}  ` +
      `${'p50'.padStart(9)}  ${'p99'.padStart(9)}  ${'vs empty'.padStart(9)}`,
  );
  console.log(row('webhook deliveries', ours, empty));
  console.log(row('empty workflows', empty, empty));
  console.log(row('one-activity workflows', oneActivity, empty));
  console.log(
    `delivery stages (medians): outbox → delivery row ${stages.dispatch.toFixed(0)} ms, ` +
      `→ first attempt ${stages.start.toFixed(0)} ms, POST ${stages.post.toFixed(0)} ms, ` +
      `→ settled ${stages.settle.toFixed(0)} ms`,
  );
}

export async function benchWebhookThroughput(): Promise<void> {
  const env = benchEnv.parse(process.env);
  const { BENCH_WEBHOOK_N: n, BENCH_WEBHOOK_CONCURRENCY: concurrency } = env;
  const teardown = new Teardown('webhook-throughput');
  try {
    const setup = await setUp(teardown, concurrency);
    console.log(
      `webhook-throughput: ${env.BENCH_WEBHOOK_ROUNDS} rounds of ${n} items per phase, ` +
        `${concurrency} creators in flight, dispatcher poll interval ` +
        `${setup.config.webhookDispatchIntervalMs} ms, Temporal ${setup.config.temporal.address}`,
    );
    const warmUp = env.BENCH_WEBHOOK_WARMUP;
    await measureDeliveries(setup.deliveries, 'warm-up', warmUp, concurrency);
    await measureWorkflows(setup.empty, 'warm-up-empty', warmUp, concurrency);
    await measureWorkflows(setup.oneActivity, 'warm-up-activity', warmUp, concurrency);

    const ratios: number[] = [];
    const activityRatios: number[] = [];
    for (let round = 0; round < env.BENCH_WEBHOOK_ROUNDS; round++) {
      const result = await measureRound(setup, round, n, concurrency);
      report(round, result);
      ratios.push(result.ours.perSecond / result.empty.perSecond);
      activityRatios.push(result.oneActivity.perSecond / result.empty.perSecond);
    }

    const ratio = median(ratios);
    const verdict = ratio >= GOAL_RATIO ? 'meets' : 'misses';
    const percents = (values: number[]) => values.map((v) => `${(100 * v).toFixed(1)} %`);
    console.log(
      `ratio ours/empty per round: ${percents(ratios).join(', ')}; median ` +
        `${(100 * ratio).toFixed(1)} % (${verdict} the ≥ ${100 * GOAL_RATIO} % goal); ` +
        `one-activity/empty median ${percents([median(activityRatios)])[0]}`,
    );
  } finally {
    await teardown.run();
  }
}

if (require.main === module) {
  benchWebhookThroughput().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
