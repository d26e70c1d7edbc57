import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { z } from 'zod';
import { loadConfig } from '../shared/config';
import { createTemporalClient, workflowIds } from '../shared/temporal';
import { SEED_SIZES, seedMarketplace, type SeededMarketplace } from '../scripts/seed-marketplace';
import { machineLoad, report } from './hot-reads-report';
import { seedTree } from './tree-fixture';
import { probe, runRounds, type Target } from './hot-reads-load';
import { ROOT, startServer, stopServers, type ServerProcess } from './hot-reads-processes';
import { deleteKeysWithPrefix } from '../scripts/redis-keys';
import { migratedDatabase } from './sse-fixture';
import { Teardown } from './sse-processes';

/**
 * Hot reads as deployed against bare anchors, alternating in one run (issue 13). Our API is
 * `node dist/api/main.js` (built first) in production mode at the default log level, on a
 * database of its own seeded by scripts/seed-marketplace.ts; the anchors (bench/anchors/
 * anchor.mjs) are bare Fastify servers run by plain node: hello world, one prepared pg
 * statement of the listing page (the DB-read floor) and one autopipelined Redis INCR. Every
 * server is a child process; the load generator (autocannon) is another. Each round measures
 * every target once, in an order rotated per round; ratios are medians of per-round ratios.
 *
 * Two data sets, each in its own database with its own API process and pg floor: small (200
 * agents, every target) and large (5,000 agents, 500,000 calls: the keyed listing and its
 * floor, for the scale ratio). Databases, Redis keys, Temporal workflows and processes are
 * removed at the end, also on failure or Ctrl-C.
 */
const benchEnv = z.object({
  BENCH_DURATION_S: z.coerce.number().positive().default(5),
  BENCH_ROUNDS: z.coerce.number().int().positive().default(3),
  BENCH_WARMUP_S: z.coerce.number().min(0).default(2),
  /** Uncounted load right before each measurement (see runRounds). */
  BENCH_PRIME_S: z.coerce.number().min(0).default(1),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(50),
  /** 0: skip the large data set (and the scale ratio). */
  BENCH_READS_LARGE: z.enum(['0', '1']).default('1'),
  /** 1: use dist/ as it is instead of running `npm run build`. */
  BENCH_SKIP_BUILD: z.enum(['0', '1']).default('0'),
  DATABASE_URL: z.string().default('postgres://postgres:postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  DATABASE_POOL_MAX: z.string().optional(),
});
type BenchEnv = z.infer<typeof benchEnv>;

/** Members of the keyed caller's tree: 7 levels, the default depth (3) answers 39 of them. */
const TREE_MEMBERS = 2_000;

/** High enough that no round reaches a limit; the limiter still runs in full per request. */
const NO_LIMIT_RPM = '1000000000';

interface DataSet {
  name: 'small' | 'large';
  databaseUrl: string;
  seeded: SeededMarketplace;
  taskQueue: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** `npm run build` (dist/ is what the API processes run), unless BENCH_SKIP_BUILD=1. */
export async function build(env: Pick<BenchEnv, 'BENCH_SKIP_BUILD'>): Promise<void> {
  const main = resolve(ROOT, 'dist/api/main.js');
  if (env.BENCH_SKIP_BUILD === '1') {
    if (!existsSync(main)) throw new Error('BENCH_SKIP_BUILD=1 but dist/api/main.js is missing');
    console.log('  using dist/ as built (BENCH_SKIP_BUILD=1)');
    return;
  }
  const started = Date.now();
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, maxBuffer: 16 << 20 });
  console.log(`  npm run build: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function createDataSet(
  env: BenchEnv,
  teardown: Teardown,
  runId: string,
  name: DataSet['name'],
  pepper: string,
): Promise<DataSet> {
  const database = `svc_bench_${runId}_${name}`;
  const databaseUrl = await migratedDatabase(env.DATABASE_URL, database, teardown);
  const started = Date.now();
  const seeded = await seedMarketplace(databaseUrl, SEED_SIZES[name], pepper);
  // The keyed caller's wallet roots a FLOW tree on chain 31337 (GET /me/tree).
  await seedTree(databaseUrl, seeded.callerId, TREE_MEMBERS);
  const { agents, agent_calls: calls } = seeded.counts;
  console.log(
    `  ${name}: ${agents} agents, ${calls} calls, ${TREE_MEMBERS} tree members seeded in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { name, databaseUrl, seeded, taskQueue: `bench-hot-reads-${runId}-${name}` };
}

/** The singletons an API process starts (api/main.ts), per task queue. */
export const apiWorkflows = (queue: string) => [
  workflowIds.idempotencySweep(queue),
  workflowIds.webhookDispatch(queue),
  workflowIds.marketplaceStatsRefresh(queue),
  workflowIds.holderRewardsSchedule(queue),
  workflowIds.paymentsReconcile(queue),
  workflowIds.notificationDelivery(queue),
  workflowIds.chainSync(31337, queue),
];

/**
 * The sweep and dispatcher workflows each API process starts on its own task queue (`ids`:
 * which ones, per queue).
 */
export async function terminateWorkflows(
  address: string,
  taskQueues: string[],
  ids: (queue: string) => string[] = apiWorkflows,
): Promise<void> {
  const client = createTemporalClient({ address, namespace: 'default' });
  try {
    for (const queue of taskQueues) {
      for (const id of ids(queue)) {
        await client.connection
          .withDeadline(Date.now() + 5_000, () =>
            client.workflow.getHandle(id).terminate('bench finished'),
          )
          .catch((err: unknown) => {
            if (!(err instanceof WorkflowNotFoundError)) throw err;
          });
      }
    }
  } finally {
    await client.connection.close();
  }
}

function ourEnv(env: BenchEnv, set: DataSet, prefix: string, secrets: Record<string, string>) {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: set.databaseUrl,
    ...(env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: env.DATABASE_POOL_MAX } : {}),
    REDIS_URL: env.REDIS_URL,
    REDIS_KEY_PREFIX: `${prefix}${set.name}:`,
    TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: set.taskQueue,
    // Chain 31337 configured for the tree read; nothing here calls its RPC (no worker runs
    // the indexer the API starts, and /me/tree reads only the index).
    CHAIN_RPC_URLS: '31337=http://127.0.0.1:8545',
    RATE_LIMIT_ANONYMOUS_RPM: NO_LIMIT_RPM,
    RATE_LIMIT_USER_RPM: NO_LIMIT_RPM,
    ...secrets,
  };
}

/** Our read targets on one data set, anchored to that set's pg floor. */
function ourTargets(api: ServerProcess, set: DataSet, pgFloor: string): Target[] {
  const key = [`x-api-key=${set.seeded.apiKey}`];
  const { agentSlug, tokenSlug, searchText } = set.seeded;
  const anchors = { hello: 'hello', pg: pgFloor, redis: 'redis' };
  const target = (id: string, label: string, path: string, headers: string[] = []): Target => ({
    id,
    label,
    url: api.url(path),
    headers,
    anchors,
    anchor: false,
  });
  return [
    target('healthz', 'GET /healthz', '/healthz'),
    target('listing', 'GET /marketplace/agents?limit=20', '/marketplace/agents?limit=20'),
    target(
      'listing-keyed',
      'GET /marketplace/agents?limit=20 (x-api-key)',
      '/marketplace/agents?limit=20',
      key,
    ),
    target('agent', 'GET /marketplace/agents/:slug', `/marketplace/agents/${agentSlug}`),
    target('me', 'GET /me (x-api-key)', '/me', key),
    target('tokens', 'GET /tokens', '/tokens'),
    target('token', 'GET /tokens/:slug', `/tokens/${tokenSlug}`),
    target('search', `GET /search?q=${searchText}`, `/search?q=${searchText}`),
    target('ledger', 'GET /ledger (x-api-key)', '/ledger', key),
    target('keys', 'GET /me/api-keys (x-api-key)', '/me/api-keys', key),
    target('tree', `GET /me/tree, ${TREE_MEMBERS} members (x-api-key)`, '/me/tree', key),
  ];
}

async function startAll(
  env: BenchEnv,
  sets: DataSet[],
  prefix: string,
  secrets: Record<string, string>,
): Promise<Target[]> {
  const poolMax = loadConfig({ DATABASE_POOL_MAX: env.DATABASE_POOL_MAX }).databasePoolMax;
  const anchor = (mode: string) => ['bench/anchors/anchor.mjs', mode];
  const startSet = async (set: DataSet) => {
    const [api, pg] = await Promise.all([
      startServer(
        `api ${set.name}`,
        ['dist/api/main.js'],
        ourEnv(env, set, prefix, secrets),
        '/healthz',
      ),
      startServer(
        `pg floor ${set.name}`,
        anchor('pg'),
        { DATABASE_URL: set.databaseUrl, PG_POOL_MAX: String(poolMax) },
        '/agents',
      ),
    ]);
    return { set, api, pg };
  };
  const [hello, redis, small, large] = await Promise.all([
    startServer('hello', anchor('hello'), {}, '/'),
    startServer(
      'redis floor',
      anchor('redis'),
      { REDIS_URL: env.REDIS_URL, REDIS_KEY_PREFIX: `${prefix}anchor:` },
      '/incr',
    ),
    startSet(sets[0]!),
    sets[1] ? startSet(sets[1]) : null,
  ]);
  const anchorTarget = (id: string, label: string, url: string, pg: string): Target => ({
    id,
    label,
    url,
    headers: [],
    anchors: { hello: 'hello', pg, redis: 'redis' },
    anchor: true,
  });
  const targets: Target[] = [
    anchorTarget('hello', 'anchor: hello world', hello.url('/'), 'pg-small'),
    anchorTarget(
      'pg-small',
      'anchor: pg floor (listing page)',
      small.pg.url('/agents'),
      'pg-small',
    ),
    anchorTarget('redis', 'anchor: redis INCR floor', redis.url('/incr'), 'pg-small'),
    ...ourTargets(small.api, small.set, 'pg-small'),
  ];
  if (large) {
    const keyed = ourTargets(large.api, large.set, 'pg-large').find(
      (t) => t.id === 'listing-keyed',
    );
    targets.push(
      {
        ...keyed!,
        id: 'listing-keyed-large',
        label: 'large: GET /marketplace/agents?limit=20 (x-api-key)',
      },
      anchorTarget(
        'pg-large',
        'large: anchor: pg floor (listing page)',
        large.pg.url('/agents'),
        'pg-large',
      ),
    );
  }
  const servers = [hello, redis, small.api, small.pg, ...(large ? [large.api, large.pg] : [])];
  console.log(
    `  pool size ${poolMax}; pids: ${servers.map((s) => `${s.name} ${s.pid}`).join(', ')}`,
  );
  return targets;
}

export async function benchHotReads(): Promise<void> {
  const env = benchEnv.parse(process.env);
  const runId = `${Date.now().toString(36)}${hex(3)}`;
  const prefix = `svc-bench:${runId}:`;
  const secrets = { JWT_SECRET: hex(32), API_KEY_PEPPER: hex(32) };
  const teardown = new Teardown('hot-reads');
  const started = Date.now();
  console.log(
    `hot-reads: node dist/api/main.js (NODE_ENV=production, default LOG_LEVEL) vs bare anchors; ` +
      `${env.BENCH_ROUNDS} rounds × ${env.BENCH_DURATION_S} s per target, ` +
      `-c ${env.BENCH_CONNECTIONS}, ${env.BENCH_WARMUP_S} s warm-up each, ` +
      `${env.BENCH_PRIME_S} s uncounted before each measurement; ${machineLoad()}`,
  );
  try {
    await build(env);
    const redis = new Redis(env.REDIS_URL);
    teardown.add('delete redis keys', async () => {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    });
    const names =
      env.BENCH_READS_LARGE === '1' ? (['small', 'large'] as const) : (['small'] as const);
    const sets: DataSet[] = [];
    for (const name of names) {
      sets.push(await createDataSet(env, teardown, runId, name, secrets.API_KEY_PEPPER));
    }
    teardown.add('terminate temporal workflows', () =>
      terminateWorkflows(
        env.TEMPORAL_ADDRESS,
        sets.map((set) => set.taskQueue),
      ),
    );
    teardown.add('stop servers', stopServers);
    const targets = await startAll(env, sets, prefix, secrets);
    await probe(targets);
    const pg = new PgClient({ connectionString: env.DATABASE_URL });
    await pg.connect();
    teardown.add('close pg', () => pg.end());
    const results = await runRounds(
      targets,
      {
        durationS: env.BENCH_DURATION_S,
        warmUpS: env.BENCH_WARMUP_S,
        primeS: env.BENCH_PRIME_S,
        rounds: env.BENCH_ROUNDS,
        connections: env.BENCH_CONNECTIONS,
      },
      pg,
      `svc_bench_${runId}_%`,
    );
    report(targets, results, { large: sets.length > 1, connections: env.BENCH_CONNECTIONS });
    console.log(
      `  took ${((Date.now() - started) / 60_000).toFixed(1)} min; ${machineLoad()} (on a ` +
        'busy machine the load generator shares\n  the cores with the server it measures, ' +
        'which squeezes the ratios of the fastest targets towards 1)',
    );
  } finally {
    await teardown.run();
  }
}

if (require.main === module) {
  benchHotReads().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
