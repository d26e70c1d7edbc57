import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { z } from 'zod';
import { loadConfig } from '../shared/config';
import { createLogger } from '../shared/logger';
import { deleteKeysWithPrefix } from '../scripts/redis-keys';
import { apiWorkflows, build, terminateWorkflows } from './hot-reads';
import { probe, runRounds, type Target } from './hot-reads-load';
import { startServer, stopServers, type ServerProcess } from './hot-reads-processes';
import {
  pairedRatio,
  fmt,
  machineLoad,
  median,
  type Results,
  printColumns,
  printVerdicts,
  type Verdict,
} from './hot-reads-report';
import { measureMarketFanout, printFanout } from './market-fanout';
import {
  boardStatement,
  candlesStatement,
  seedMarket,
  type FloorStatement,
  type MarketSet,
} from './market-fixture';
import { migratedDatabase } from './sse-fixture';
import { startServerProcess, stopServerProcesses, Teardown } from './sse-processes';
import { closeSockets } from './sse-subscribers';

/**
 * The market data reads and the token stream's fan-out (issue 31) as deployed, against bare
 * anchors run side by side in one run (bench/README.md).
 *
 * 1. Reads: `node dist/api/main.js` (NODE_ENV=production, built first) on two databases of its
 *    own, 100 and 10,000 launched tokens (bench/market-fixture.ts), one API process each, and
 *    per database the floors of bench/anchors/anchor.mjs: bare Fastify servers running the
 *    route's own statement (its text and values, recorded from the route's function) on a pool
 *    with our read pool's settings, mapped to the route's JSON (checked equal to ours before
 *    anything is counted). Targets: `GET /tokens/:slug/candles?resolution=1h&countback=500`
 *    and `GET /tokens?sort=market_cap` on both APIs (the same reads on each, so neither pays
 *    for garbage the other is spared), the floors of both at 10,000 tokens and of the board at
 *    100; autocannon in rounds as bench/hot-reads.ts loads them.
 * 2. Fan-out: one trade to 5,000 subscribers of one token's stream on the 10,000-token API,
 *    against the bare `node:http` SSE server of bench/sse-baseline.ts (bench/market-fanout.ts).
 *
 * Databases, Redis keys, Temporal workflows, processes and sockets are removed at the end,
 * also on failure or Ctrl-C.
 */
const benchEnv = z.object({
  BENCH_DURATION_S: z.coerce.number().positive().default(5),
  BENCH_ROUNDS: z.coerce.number().int().positive().default(3),
  BENCH_WARMUP_S: z.coerce.number().min(0).default(2),
  BENCH_PRIME_S: z.coerce.number().min(0).default(1),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(50),
  BENCH_MARKET_TOKENS: z.coerce.number().int().min(40).default(10_000),
  BENCH_MARKET_SMALL_TOKENS: z.coerce.number().int().min(40).default(100),
  BENCH_MARKET_BARS: z.coerce.number().int().min(1).max(500).default(500),
  BENCH_MARKET_SUBSCRIBERS: z.coerce.number().int().positive().default(5_000),
  BENCH_MARKET_EVENTS: z.coerce.number().int().positive().default(20),
  BENCH_MARKET_FANOUT_ROUNDS: z.coerce.number().int().positive().default(5),
  /** 0: skip a part. */
  BENCH_MARKET_READS: z.enum(['0', '1']).default('1'),
  BENCH_MARKET_FANOUT: z.enum(['0', '1']).default('1'),
  BENCH_SKIP_BUILD: z.enum(['0', '1']).default('0'),
  DATABASE_URL: z.string().default('postgres://postgres:postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  DATABASE_POOL_MAX: z.string().optional(),
});
type BenchEnv = z.infer<typeof benchEnv>;

/** The goals of issue 31. */
const GOALS = { floor: 0.5, scale: 0.9, fanoutP99: 1.1 };
const NO_LIMIT_RPM = '1000000000';
/** The session settings of the API's read pool (shared/db/sql.ts, createSqlPool). */
const READ_POOL_OPTIONS = '-c plan_cache_mode=force_generic_plan -c jit=off';

interface DataSet {
  name: 'small' | 'large';
  databaseUrl: string;
  market: MarketSet;
  taskQueue: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function createDataSet(
  env: BenchEnv,
  teardown: Teardown,
  runId: string,
  name: DataSet['name'],
  tokens: number,
): Promise<DataSet> {
  const database = `svc_bench_${runId}_${name}`;
  const databaseUrl = await migratedDatabase(env.DATABASE_URL, database, teardown);
  const started = Date.now();
  const market = await seedMarket(databaseUrl, tokens);
  console.log(
    `  ${name}: ${fmt(tokens)} launched tokens with board rows, ${market.bars} 1h bars of ` +
      `${market.chartSlug}, seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { name, databaseUrl, market, taskQueue: `bench-market-${runId}-${name}` };
}

interface Servers {
  api: ServerProcess;
  targets: Target[];
}

/** The API and the floors of one data set, and the targets on them. */
async function startSet(
  env: BenchEnv,
  set: DataSet,
  prefix: string,
  secrets: Record<string, string>,
): Promise<Servers> {
  const poolMax = loadConfig({ DATABASE_POOL_MAX: env.DATABASE_POOL_MAX }).databasePoolMax;
  const floorEnv = (statement: FloorStatement) => ({
    DATABASE_URL: set.databaseUrl,
    PG_POOL_MAX: String(poolMax),
    PG_OPTIONS: READ_POOL_OPTIONS,
    FLOOR_STATEMENT: JSON.stringify(statement),
  });
  const large = set.name === 'large';
  const candlesPath = `/tokens/${set.market.chartSlug}/candles?resolution=1h&countback=${env.BENCH_MARKET_BARS}`;
  const [api, board, candles] = await Promise.all([
    startServer(
      `api ${set.name}`,
      ['dist/api/main.js'],
      {
        NODE_ENV: 'production',
        DATABASE_URL: set.databaseUrl,
        ...(env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: env.DATABASE_POOL_MAX } : {}),
        REDIS_URL: env.REDIS_URL,
        REDIS_KEY_PREFIX: `${prefix}${set.name}:`,
        TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: set.taskQueue,
        // 5,000 streams open from one address within seconds; autocannon's load likewise.
        RATE_LIMIT_ANONYMOUS_RPM: NO_LIMIT_RPM,
        RATE_LIMIT_USER_RPM: NO_LIMIT_RPM,
        ...secrets,
      },
      '/healthz',
    ),
    startServer(
      `board floor ${set.name}`,
      ['bench/anchors/anchor.mjs', 'board'],
      floorEnv(await boardStatement('market_cap')),
      '/board',
    ),
    large
      ? startServer(
          `candles floor ${set.name}`,
          ['bench/anchors/anchor.mjs', 'candles'],
          floorEnv(await candlesStatement(set.market.chartSlug, env.BENCH_MARKET_BARS)),
          '/candles',
        )
      : null,
  ]);
  const size = `${fmt(set.market.tokens)} tokens`;
  const target = (id: string, label: string, url: string, floor: string): Target => ({
    id,
    label,
    url,
    headers: [],
    anchors: { hello: floor, pg: floor, redis: floor },
    anchor: id.startsWith('pg-'),
  });
  const suffix = large ? '' : '-small';
  // Both API processes serve the same reads, so neither's board pays for the other's garbage.
  const targets = [
    target(
      `candles${suffix}`,
      `GET /tokens/:slug/candles?resolution=1h&countback=${env.BENCH_MARKET_BARS}, ${size}`,
      api.url(candlesPath),
      candles ? 'pg-candles' : '',
    ),
    ...(candles
      ? [
          target(
            'pg-candles',
            `anchor: pg floor of the candles, ${size}`,
            candles.url('/candles'),
            'pg-candles',
          ),
        ]
      : []),
    target(
      `board${suffix}`,
      `GET /tokens?sort=market_cap, ${size}`,
      api.url('/tokens?sort=market_cap'),
      `pg-board${suffix}`,
    ),
    target(
      `pg-board${suffix}`,
      `anchor: pg floor of the board, ${size}`,
      board.url('/board'),
      `pg-board${suffix}`,
    ),
  ];
  console.log(
    `  ${set.name}: pool size ${poolMax}; pids: ` +
      [api, board, candles]
        .filter((server) => server !== null)
        .map((server) => `${server.name} ${server.pid}`)
        .join(', '),
  );
  return { api, targets };
}

async function json(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

/**
 * Before anything is counted: ours answers the full page (the bars asked for; 20 tokens by
 * market cap, highest first, with a next page) and each floor answers the same JSON as ours
 * (the board's cursor apart: ours is signed, the floor's is not).
 */
async function checkPages(targets: Target[], bars: number): Promise<void> {
  const byId = new Map(targets.map((t) => [t.id, t]));
  for (const ours of targets.filter((t) => !t.anchor)) {
    const floor = byId.get(ours.anchors.pg);
    const [mine, theirs] = await Promise.all([json(ours.url), floor ? json(floor.url) : null]);
    if (ours.id.startsWith('candles')) {
      const body = mine as { s: string; t: number[] };
      if (body.s !== 'ok' || body.t.length !== bars) {
        throw new Error(`${ours.label}: ${body.t.length} bars instead of ${bars}`);
      }
      if (floor && !isDeepStrictEqual(mine, theirs)) {
        throw new Error(`${ours.label}: the floor's answer differs from ours`);
      }
      continue;
    }
    type Page = { items: { market: { marketCap: string } | null }[]; nextCursor: string | null };
    const [page, floorPage] = [mine as Page, theirs as Page];
    const caps = page.items.map((item) => Number(item.market?.marketCap));
    if (
      page.items.length !== 20 ||
      page.nextCursor === null ||
      caps.some((cap, i) => !(cap > 0) || (i > 0 && cap > caps[i - 1]!))
    ) {
      throw new Error(`${ours.label}: not a full page by market cap`);
    }
    if (!isDeepStrictEqual(page.items, floorPage.items) || floorPage.nextCursor === null) {
      throw new Error(`${ours.label}: the floor's page differs from ours`);
    }
  }
}

function reportReads(
  targets: Target[],
  results: Results,
  options: { bars: number; tokens: number; smallTokens: number },
): void {
  const [large, small] = [fmt(options.tokens), fmt(options.smallTokens)];
  console.log('market reads: medians over rounds (ratios: medians of per-round ratios)');
  const rows = targets.map((target) => {
    const runs = results.get(target.id) ?? [];
    return [
      target.label,
      fmt(median(runs.map((m) => m.okRps))),
      fmt(median(runs.map((m) => m.p99))),
      target.anchor ? '1' : fmt(pairedRatio(results, target.id, target.anchors.pg), 2),
      fmt(runs.reduce((sum, m) => sum + m.non2xx + m.errors, 0)),
    ];
  });
  printColumns(['target', 'ok req/s', 'p99 ms', '× pg floor', 'failed'], rows);
  const verdicts: Verdict[] = [
    {
      goal: `candles (${options.bars} bars) at ${large} tokens ≥ ${GOALS.floor} × pg floor`,
      value: pairedRatio(results, 'candles', 'pg-candles'),
      minimum: GOALS.floor,
      targets: ['candles', 'pg-candles'],
    },
    {
      goal: `board by market cap at ${large} tokens ≥ ${GOALS.floor} × pg floor`,
      value: pairedRatio(results, 'board', 'pg-board'),
      minimum: GOALS.floor,
      targets: ['board', 'pg-board'],
    },
  ];
  if (results.has('board-small')) {
    verdicts.push({
      goal: `board at ${large} tokens ≥ ${GOALS.scale} × at ${small}`,
      value: pairedRatio(results, 'board', 'board-small'),
      minimum: GOALS.scale,
      targets: ['board', 'board-small'],
      detail: `the pg floors, ${large}/${small}: ${fmt(pairedRatio(results, 'pg-board', 'pg-board-small'), 2)}`,
    });
  }
  printVerdicts(verdicts, results);
  if (results.has('candles-small')) {
    console.log(
      `  (no goal) candles at ${large} tokens: ` +
        `${fmt(pairedRatio(results, 'candles', 'candles-small'), 2)} × at ${small}`,
    );
  }
}

export async function benchMarket(): Promise<void> {
  const env = benchEnv.parse(process.env);
  const runId = `${Date.now().toString(36)}${hex(3)}`;
  const prefix = `svc-bench:${runId}:`;
  const metricsToken = hex(16);
  const secrets = { JWT_SECRET: hex(32), API_KEY_PEPPER: hex(32), METRICS_TOKEN: metricsToken };
  const teardown = new Teardown('market');
  const started = Date.now();
  console.log(
    `market: node dist/api/main.js (NODE_ENV=production, default LOG_LEVEL) vs bare anchors; ` +
      `reads: ${env.BENCH_ROUNDS} rounds × ${env.BENCH_DURATION_S} s per target, ` +
      `-c ${env.BENCH_CONNECTIONS}, ${env.BENCH_WARMUP_S} s warm-up each, ` +
      `${env.BENCH_PRIME_S} s uncounted before each measurement; fan-out: ` +
      `${env.BENCH_MARKET_FANOUT_ROUNDS} rounds × ${env.BENCH_MARKET_EVENTS} events to ` +
      `${fmt(env.BENCH_MARKET_SUBSCRIBERS)} subscribers; ${machineLoad()}`,
  );
  try {
    await build(env);
    const redis = new Redis(env.REDIS_URL);
    teardown.add('delete redis keys', async () => {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    });
    const sets: DataSet[] = [
      await createDataSet(env, teardown, runId, 'large', env.BENCH_MARKET_TOKENS),
    ];
    if (env.BENCH_MARKET_READS === '1') {
      sets.push(await createDataSet(env, teardown, runId, 'small', env.BENCH_MARKET_SMALL_TOKENS));
    }
    teardown.add('terminate temporal workflows', () =>
      terminateWorkflows(
        env.TEMPORAL_ADDRESS,
        sets.map((set) => set.taskQueue),
        apiWorkflows,
      ),
    );
    teardown.add('stop servers', stopServers);
    const servers = await Promise.all(sets.map((set) => startSet(env, set, prefix, secrets)));
    const large = servers[0]!;

    if (env.BENCH_MARKET_READS === '1') {
      const targets = servers.flatMap((s) => s.targets);
      await probe(targets);
      await checkPages(targets, env.BENCH_MARKET_BARS);
      const watcher = new PgClient({ connectionString: env.DATABASE_URL });
      await watcher.connect();
      teardown.add('close the settle connection', () => watcher.end());
      const results = await runRounds(
        targets,
        {
          durationS: env.BENCH_DURATION_S,
          warmUpS: env.BENCH_WARMUP_S,
          primeS: env.BENCH_PRIME_S,
          rounds: env.BENCH_ROUNDS,
          connections: env.BENCH_CONNECTIONS,
        },
        watcher,
        `svc_bench_${runId}_%`,
      );
      reportReads(targets, results, {
        bars: env.BENCH_MARKET_BARS,
        tokens: env.BENCH_MARKET_TOKENS,
        smallTokens: env.BENCH_MARKET_SMALL_TOKENS,
      });
    }

    if (env.BENCH_MARKET_FANOUT === '1') {
      const channel = `${prefix}sse-baseline`;
      teardown.add('stop the baseline', stopServerProcesses);
      teardown.add('close subscribers', async () => closeSockets());
      const baseline = await startServerProcess('baseline', resolve(__dirname, 'sse-baseline.ts'), {
        REDIS_URL: env.REDIS_URL,
        SSE_BASELINE_CHANNEL: channel,
      });
      const set = sets[0]!;
      const options = {
        size: env.BENCH_MARKET_SUBSCRIBERS,
        events: env.BENCH_MARKET_EVENTS,
        rounds: env.BENCH_MARKET_FANOUT_ROUNDS,
      };
      console.log(
        `  fan-out: api large (pid ${large.api.pid}) vs baseline (pid ${baseline.pid}); ` +
          `subscribers and writer in pid ${process.pid}`,
      );
      const fanout = await measureMarketFanout(
        {
          api: large.api,
          metricsToken,
          databaseUrl: set.databaseUrl,
          apiPrefix: `${prefix}${set.name}:`,
          baseline,
          baselineChannel: channel,
          redis,
          logger: createLogger('warn', 'bench-market'),
          slug: set.market.chartSlug,
          tokenId: set.market.chartTokenId,
        },
        options,
      );
      printFanout(fanout, options);
      const met = fanout.p99Ratio <= GOALS.fanoutP99 && fanout.complete;
      console.log(
        `  ${met ? 'met    ' : 'NOT met'}  p99 delivery to ${fmt(options.size)} streams ≤ ` +
          `${GOALS.fanoutP99} × the bare node:http SSE server: ${fmt(fanout.p99Ratio, 2)}` +
          (fanout.complete ? '' : ' [deliveries missing: not a clean measurement]'),
      );
    }
    console.log(`  took ${((Date.now() - started) / 60_000).toFixed(1)} min; ${machineLoad()}`);
  } finally {
    await teardown.run();
  }
}

if (require.main === module) {
  benchMarket().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
