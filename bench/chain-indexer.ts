import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { createPublicClient, http, type Address } from 'viem';
import { z } from 'zod';
import { loadConfig } from '../shared/config';
import { MikroORM, migrate, ormOptions } from '../shared/db/orm';
import { createLogger } from '../shared/logger';
import { createTemporalClient } from '../shared/temporal';
import { createChainActivities } from '../workers/activities/chain';
import { createBenchChain, heldOnChain, type BenchChain } from './chain-indexer-chain';
import {
  FLOOR_TABLE,
  indexDirect,
  indexFloor,
  indexViaWorkflow,
  resetFloor,
  resetIndex,
  terminateChainSync,
  verifyFloor,
  verifyIndex,
  type IndexRun,
} from './chain-indexer-index';
import { profileOurs } from './chain-indexer-profile';
import { startWorkerProcess } from './chain-indexer-worker';
import { fmt, machineLoad, type Measured, median, printColumns } from './hot-reads-report';
import { apiWorkflows } from './hot-reads';
import { probe, runRounds, type Target } from './hot-reads-load';
import { ROOT, startServer, stopServers } from './hot-reads-processes';
import { deleteKeysWithPrefix } from '../scripts/redis-keys';
import { admin, withDatabase } from './sse-fixture';
import { Teardown } from './sse-processes';

/**
 * The chain indexer against its floor, and the holders read at scale (bench/README.md).
 *
 * 1. Indexing throughput: a private anvil (bench/chain-indexer-chain.ts) with 20,000+ trades
 *    and a 10,000-holder distribution, indexed from block 0 into the bench's migrated database
 *    (emptied before every run) with the production CHAIN_LOG_RANGE and finality depth 0, three
 *    ways, alternating in rounds: ours without Temporal (the activity function in a loop, as
 *    the workflow calls it), ours through the chain-sync workflow on a worker process as
 *    deployed (`node dist/workers/main.js`, NODE_ENV=production), and the floor (eth_getLogs of
 *    the same ranges + one bare INSERT per range). Every run of ours is checked against the
 *    chain before it counts.
 * 2. Holders read: the API as deployed (`node dist/api/main.js`, NODE_ENV=production) on that
 *    index, `GET /tokens/:slug/holders` of the 10,000-holder token and of the 100-holder one
 *    loaded by autocannon in alternating rounds.
 *
 * The database, the Redis keys, the Temporal workflows, anvil and every process are removed at
 * the end, also on failure or Ctrl-C.
 */
const benchEnv = z.object({
  BENCH_CHAIN_ROUNDS: z.coerce.number().int().positive().default(5),
  BENCH_CHAIN_TRADERS: z.coerce.number().int().min(2).default(100),
  BENCH_CHAIN_BUYS: z.coerce.number().int().positive().default(20_000),
  BENCH_CHAIN_SMALL_BUYS: z.coerce.number().int().positive().default(2_000),
  BENCH_CHAIN_HOLDERS: z.coerce.number().int().positive().default(10_000),
  BENCH_CHAIN_BLOCKS: z.coerce.number().int().positive().default(40_000),
  BENCH_CHAIN_TXS_PER_BLOCK: z.coerce.number().int().positive().default(8),
  /** 0: skip the runs through the workflow (and the worker process). */
  BENCH_CHAIN_WORKFLOW: z.enum(['0', '1']).default('1'),
  /** 0: skip the instrumented run that shows where ours spends its time. */
  BENCH_CHAIN_PROFILE: z.enum(['0', '1']).default('1'),
  /** 0: skip the holders read (and the API process). */
  BENCH_CHAIN_READS: z.enum(['0', '1']).default('1'),
  BENCH_DURATION_S: z.coerce.number().positive().default(5),
  BENCH_READ_ROUNDS: z.coerce.number().int().positive().default(3),
  BENCH_WARMUP_S: z.coerce.number().min(0).default(2),
  BENCH_PRIME_S: z.coerce.number().min(0).default(1),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(50),
  BENCH_SKIP_BUILD: z.enum(['0', '1']).default('0'),
  CHAIN_LOG_RANGE: z.string().optional(),
  DATABASE_URL: z.string().default('postgres://postgres:postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
});
type BenchEnv = z.infer<typeof benchEnv>;

const GOALS = { throughput: 0.5, holdersP99: 2 };
const NO_LIMIT_RPM = '1000000000';
const RPC_TIMEOUT_MS = 30_000;

type Phase = 'ours' | 'workflow' | 'floor';
const LABELS: Record<Phase, string> = {
  ours: 'ours: syncChain activity in a loop (no Temporal)',
  workflow: 'ours: chain-sync workflow, worker process',
  floor: 'floor: eth_getLogs + bare INSERT per range',
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const seconds = (ms: number) => (ms / 1000).toFixed(1);

async function build(env: BenchEnv): Promise<void> {
  if (env.BENCH_SKIP_BUILD === '1') {
    if (!existsSync(resolve(ROOT, 'dist/api/main.js'))) {
      throw new Error('BENCH_SKIP_BUILD=1 but dist/api/main.js is missing');
    }
    console.log('  using dist/ as built (BENCH_SKIP_BUILD=1)');
    return;
  }
  const started = Date.now();
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, maxBuffer: 16 << 20 });
  console.log(`  npm run build: ${seconds(Date.now() - started)} s`);
}

/** A user and the two tokens the launches name by ref, `pending` as POST /tokens leaves them. */
async function createTokens(pg: PgClient, chain: BenchChain, runId: string) {
  const { rows } = await pg.query<{ id: number }>(
    `insert into users (address, created_at) values ($1, now()) returning id`,
    [`0x${hex(20)}`],
  );
  const slugs = new Map<string, string>();
  for (const token of chain.tokens) {
    const slug = `bench-${token.key}-${runId}`;
    await pg.query(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state,
                           created_at)
       values ($1, $2, $3, $4, $5, 'virtuals', 31337, '{}', 'pending', now())`,
      [token.tokenId, rows[0]!.id, slug, `Bench ${token.key}`, token.key.toUpperCase()],
    );
    slugs.set(token.key, slug);
  }
  return slugs;
}

function printChain(chain: BenchChain, logRange: number): void {
  const { counts } = chain;
  const ranges = Math.ceil((chain.head + 1) / logRange);
  console.log(
    `  chain: ${fmt(counts.total)} logs to index (${fmt(counts.trades)} Trade, ` +
      `${fmt(counts.transfers.big + counts.transfers.small)} Transfer, ` +
      `${counts.launches} Launched + ${counts.launches} CurveCreated) in ${fmt(chain.head + 1)} ` +
      `blocks (${fmt(chain.blocksWithLogs)} with logs), ${ranges} ranges of ${fmt(logRange)}; ` +
      `holders ${chain.tokens.map((t) => `${t.key} ${fmt(t.holders)}`).join(', ')}; ` +
      `generated in ${seconds(chain.generationMs)} s` +
      (chain.logsCarryTimestamps ? '' : ' (logs without blockTimestamp: headers are read)'),
  );
}

function printIndexing(
  runs: Map<Phase, IndexRun[]>,
  chain: BenchChain,
  phases: Phase[],
): Map<Phase, number> {
  const total = chain.counts.total;
  const trades = chain.counts.trades;
  const floor = runs.get('floor') ?? [];
  const ratios = new Map<Phase, number>();
  console.log(
    'chain-indexer: indexing from block 0, medians over rounds (× floor: median of per-round ratios)',
  );
  const header = ['run', 's', 'logs/s', 'trades/s', '× floor', 'rounds (s)'];
  const rows = phases.map((phase) => {
    const list = runs.get(phase) ?? [];
    const ms = median(list.map((run) => run.ms));
    const ratio = median(list.map((run, round) => floor[round]!.ms / run.ms));
    ratios.set(phase, ratio);
    return [
      LABELS[phase],
      seconds(ms),
      fmt((total / ms) * 1000),
      fmt((trades / ms) * 1000),
      phase === 'floor' ? '1' : fmt(ratio, 2),
      list.map((run) => seconds(run.ms)).join(' / '),
    ];
  });
  printColumns(header, rows);
  console.log(
    `  floor's parts (medians): eth_getLogs ${seconds(median(floor.map((r) => r.rpcMs!)))} s, ` +
      `INSERT transactions ${seconds(median(floor.map((r) => r.sqlMs!)))} s`,
  );
  return ratios;
}

async function benchHolders(
  env: BenchEnv,
  teardown: Teardown,
  databaseUrl: string,
  slugs: Map<string, string>,
  chain: BenchChain,
  runId: string,
  prefix: string,
  secrets: Record<string, string>,
): Promise<number> {
  const taskQueue = `bench-chain-${runId}-api`;
  teardown.add('terminate the API workflows', async () => {
    const client = createTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: 'default' });
    try {
      for (const id of apiWorkflows(taskQueue)) {
        await client.connection
          .withDeadline(Date.now() + 5_000, () =>
            client.workflow.getHandle(id).terminate('bench finished'),
          )
          .catch((err: unknown) => {
            if (!(err instanceof WorkflowNotFoundError)) throw err;
          });
      }
    } finally {
      await client.connection.close();
    }
  });
  teardown.add('stop the API', stopServers);
  // No CHAIN_RPC_URLS: this API starts no indexer; its task queue has no worker.
  const api = await startServer(
    'api',
    ['dist/api/main.js'],
    {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: env.REDIS_URL,
      REDIS_KEY_PREFIX: `${prefix}api:`,
      TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: taskQueue,
      RATE_LIMIT_ANONYMOUS_RPM: NO_LIMIT_RPM,
      RATE_LIMIT_USER_RPM: NO_LIMIT_RPM,
      ...secrets,
    },
    '/healthz',
  );
  const targets: Target[] = chain.tokens.map((token) => ({
    id: token.key,
    label: `GET /tokens/:slug/holders, ${fmt(token.holders)} holders`,
    url: api.url(`/tokens/${slugs.get(token.key)}/holders`),
    headers: [],
    anchors: { hello: token.key, pg: token.key, redis: token.key },
    anchor: false,
  }));
  await probe(targets);
  // The load's settle check looks for active statements in the bench's database: from a
  // connection of its own to another one.
  const watcher = new PgClient({ connectionString: env.DATABASE_URL });
  await watcher.connect();
  teardown.add('close the settle connection', () => watcher.end());
  // A page must be a full page, in order, from the right token.
  for (const target of targets) {
    const page = (await (await fetch(target.url)).json()) as {
      items: { balance: string }[];
      nextCursor: string | null;
      blockNumber: number;
    };
    const balances = page.items.map((item) => Number(item.balance));
    if (
      page.items.length !== 20 ||
      page.nextCursor === null ||
      page.blockNumber !== chain.head ||
      balances.some((balance, i) => i > 0 && balance > balances[i - 1]!)
    ) {
      throw new Error(`${target.label}: not a full ordered page at the head`);
    }
  }
  console.log(
    `holders read: node dist/api/main.js (NODE_ENV=production, pid ${api.pid}), autocannon ` +
      `-c ${env.BENCH_CONNECTIONS}, ${env.BENCH_READ_ROUNDS} rounds × ${env.BENCH_DURATION_S} s ` +
      `per target, ${env.BENCH_WARMUP_S} s warm-up, ${env.BENCH_PRIME_S} s uncounted before each`,
  );
  const results = await runRounds(
    targets,
    {
      durationS: env.BENCH_DURATION_S,
      warmUpS: env.BENCH_WARMUP_S,
      primeS: env.BENCH_PRIME_S,
      rounds: env.BENCH_READ_ROUNDS,
      connections: env.BENCH_CONNECTIONS,
    },
    watcher,
    databaseUrl.split('/').pop()!,
  );
  const runsOf = (id: string): Measured[] => results.get(id) ?? [];
  const [big, small] = [runsOf('big'), runsOf('small')];
  const header = ['target', 'ok req/s', 'p99 ms', 'failed'];
  const rows = targets.map((target) => {
    const runs = runsOf(target.id);
    return [
      target.label,
      fmt(median(runs.map((m) => m.okRps))),
      fmt(median(runs.map((m) => m.p99))),
      fmt(runs.reduce((sum, m) => sum + m.non2xx + m.errors, 0)),
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  for (const row of [header, ...rows]) {
    console.log(
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`,
    );
  }
  const p99Ratio = median(big.map((m, round) => m.p99 / small[round]!.p99));
  const rpsRatio = median(big.map((m, round) => m.okRps / small[round]!.okRps));
  console.log(
    `  ${p99Ratio <= GOALS.holdersP99 ? 'met    ' : 'NOT met'}  p99 of the ` +
      `${fmt(chain.tokens[0]!.holders)}-holder token ≤ ${GOALS.holdersP99} × the ` +
      `${fmt(chain.tokens[1]!.holders)}-holder one: ${fmt(p99Ratio, 2)} ` +
      `(req/s ${fmt(rpsRatio, 2)} ×)`,
  );
  return p99Ratio;
}

export async function benchChainIndexer(): Promise<void> {
  const env = benchEnv.parse(process.env);
  const runId = `${Date.now().toString(36)}${hex(3)}`;
  const prefix = `svc-bench:${runId}:`;
  const secrets = { JWT_SECRET: hex(32), API_KEY_PEPPER: hex(32) };
  const teardown = new Teardown('chain-indexer');
  const started = Date.now();
  console.log(
    `chain-indexer: the chain indexer from block 0 vs eth_getLogs + bare INSERT, then ` +
      `GET /tokens/:slug/holders at 10,000 vs 100 holders; ${machineLoad()}`,
  );
  try {
    await build(env);
    const chain = await createBenchChain(
      {
        traders: env.BENCH_CHAIN_TRADERS,
        bigBuys: env.BENCH_CHAIN_BUYS,
        smallBuys: env.BENCH_CHAIN_SMALL_BUYS,
        recipients: env.BENCH_CHAIN_HOLDERS - env.BENCH_CHAIN_TRADERS,
        blocks: env.BENCH_CHAIN_BLOCKS,
        txsPerBlock: env.BENCH_CHAIN_TXS_PER_BLOCK,
      },
      (line) => console.log(line),
    );
    teardown.add('stop anvil', () => chain.stop());

    const database = `svc_bench_${runId}_chain`;
    await admin(env.DATABASE_URL, `create database "${database}"`);
    teardown.add(`drop database ${database}`, () =>
      admin(env.DATABASE_URL, `drop database if exists "${database}" with (force)`),
    );
    const databaseUrl = withDatabase(env.DATABASE_URL, database);
    const redis = new Redis(env.REDIS_URL);
    teardown.add('delete redis keys', async () => {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    });

    // The indexer's configuration, for this process and the worker process alike.
    const indexerEnv: Record<string, string> = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: env.REDIS_URL,
      REDIS_KEY_PREFIX: `${prefix}worker:`,
      TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: `bench-chain-${runId}`,
      CHAIN_RPC_URLS: `31337=${chain.url}`,
      LAUNCH_FACTORIES: `31337:virtuals=${chain.factory}`,
      CHAIN_FINALITY_DEPTH: '31337=0',
      ...(env.CHAIN_LOG_RANGE ? { CHAIN_LOG_RANGE: env.CHAIN_LOG_RANGE } : {}),
      ...secrets,
    };
    const config = loadConfig(indexerEnv);
    const logRange = config.chainSync.logRange;
    printChain(chain, logRange);

    const options = ormOptions(databaseUrl, config.databasePoolMax);
    const orm = await MikroORM.init({
      ...options,
      migrations: { ...options.migrations, silent: true },
    });
    teardown.add('close orm', () => orm.close());
    await migrate(orm);
    const pg = new PgClient({ connectionString: databaseUrl });
    await pg.connect();
    teardown.add('close pg', () => pg.end());
    await pg.query(FLOOR_TABLE);
    const slugs = await createTokens(pg, chain, runId);
    const held = new Map<string, bigint>();
    for (const token of chain.tokens) {
      held.set(
        token.instance.toLowerCase(),
        await heldOnChain(chain.url, chain.factory, token.instance),
      );
    }

    // Ours in this process: the activity as the worker builds it (its own viem client).
    const logger = createLogger(config.logLevel, 'bench-chain');
    const activities = createChainActivities({ orm, config, logger });
    const floorClient = createPublicClient({
      cacheTime: 0,
      transport: http(chain.url, { timeout: RPC_TIMEOUT_MS, retryCount: 0, batch: true }),
    });
    const addresses: Address[] = [chain.factory, ...chain.tokens.map((t) => t.instance)];

    const phases: Phase[] = ['ours', 'floor'];
    const temporal = createTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: 'default' });
    teardown.add('close temporal client', () => temporal.connection.close());
    let stopWorker: (() => Promise<void>) | null = null;
    if (env.BENCH_CHAIN_WORKFLOW === '1') {
      const workerStarted = Date.now();
      const worker = await startWorkerProcess(indexerEnv);
      stopWorker = worker.stop;
      teardown.add('stop the worker', worker.stop);
      teardown.add('terminate chain-sync', () =>
        terminateChainSync(temporal, config.temporal.taskQueue),
      );
      console.log(
        `  worker process (node dist/workers/main.js, pid ${worker.pid}) ready in ` +
          `${seconds(Date.now() - workerStarted)} s`,
      );
      phases.splice(1, 0, 'workflow');
    }

    const runs = new Map<Phase, IndexRun[]>(phases.map((phase) => [phase, []]));
    const run = async (phase: Phase): Promise<IndexRun> => {
      if (phase === 'floor') {
        await resetFloor(pg);
        const result = await indexFloor(floorClient, pg, addresses, logRange);
        await verifyFloor(pg, chain);
        return result;
      }
      await resetIndex(pg);
      const result =
        phase === 'ours'
          ? await indexDirect(activities, logRange)
          : await indexViaWorkflow(temporal, config, pg, chain.head, chain.counts.total);
      await verifyIndex(pg, chain, held);
      if (result.logs !== chain.counts.total) {
        throw new Error(`${phase}: read ${result.logs} logs of ${chain.counts.total}`);
      }
      return result;
    };
    // An uncounted run of each first: connections, JIT, PostgreSQL's caches.
    for (const phase of phases) await run(phase);
    for (let round = 0; round < env.BENCH_CHAIN_ROUNDS; round++) {
      const order = [
        ...phases.slice(round % phases.length),
        ...phases.slice(0, round % phases.length),
      ];
      const figures: string[] = [];
      for (const phase of order) {
        const result = await run(phase);
        runs.get(phase)!.push(result);
        figures.push(`${phase} ${seconds(result.ms)} s`);
      }
      console.log(`  round ${round + 1}: ${figures.join(', ')} (each run checked)`);
    }
    const ratios = printIndexing(runs, chain, phases);
    const direct = ratios.get('ours')!;
    console.log(
      `  ${direct >= GOALS.throughput ? 'met    ' : 'NOT met'}  ours ≥ ${GOALS.throughput} × ` +
        `floor: ${fmt(direct, 2)}` +
        (ratios.has('workflow')
          ? ` (through the workflow: ${fmt(ratios.get('workflow')!, 2)})`
          : ''),
    );

    if (env.BENCH_CHAIN_PROFILE === '1') {
      await profileOurs({ chain, config, logger, databaseUrl, pg, held, logRange });
    }

    if (env.BENCH_CHAIN_READS === '1') {
      // The reads run on the last run's index (the floor's runs leave it alone), checked again;
      // the worker is no longer needed.
      if (stopWorker) await stopWorker();
      await verifyIndex(pg, chain, held);
      // What autovacuum does after a load this size, before the reads.
      await pg.query('analyze');
      await benchHolders(env, teardown, databaseUrl, slugs, chain, runId, prefix, secrets);
    }
    console.log(`  took ${seconds(Date.now() - started)} s; ${machineLoad()}`);
  } finally {
    await teardown.run();
  }
}

if (require.main === module) {
  benchChainIndexer().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
