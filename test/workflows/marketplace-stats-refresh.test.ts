import { randomUUID } from 'node:crypto';
import type { App } from '../../api/app';
import { ensureMarketplaceStatsRefresh } from '../../api/maintenance';
import { workflowIds } from '../../shared/temporal';
import { createMarketplaceActivities } from '../../workers/activities/marketplace';
import { waitFor } from '../helpers/build-fixtures';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { marketStatsMismatches } from '../helpers/market-stats';

/**
 * The marketplace stats refresh (real Temporal server, real worker): figures that change with
 * time alone, with no write to fire the triggers, are recomputed by the workflow.
 */

let ctx: TestContext;
let app: App;
let ownerId: number;

beforeAll(async () => {
  ctx = await createTestContext(UNLIMITED_RATES);
  app = await ctx.newApi();
  await app.ready();
  await ctx.startWorker();
  const [owner] = await ctx.sql<{ id: number }>(
    `insert into users (address) values ('0x${'d'.repeat(40)}') returning id`,
  );
  ownerId = owner?.id ?? 0;
});
afterAll(async () => ctx.close());

beforeEach(() => awaitFreshUtcDay(120_000), freshDayHookTimeout(120_000));

async function insertAgent(slug: string): Promise<string> {
  const [agent] = await ctx.sql<{ id: string }>(
    `insert into agents (id, owner_id, slug, name, description, tags, endpoint_url,
                         endpoint_secret, monetization, per_call_price, is_published,
                         published_at, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $2, 'd', '{refresh}', 'https://agent.example.com',
             'whsec_x', 'per_call', 1000, true, now(), now(), now())
     returning id`,
    [ownerId, slug],
  );
  return agent?.id ?? '';
}

async function insertCall(agentId: string, latencyMs: number, age: string): Promise<void> {
  await ctx.sql(
    `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
     values ($1, $2, $3, 'succeeded', $4, now() - $5::interval)`,
    [randomUUID(), agentId, ownerId, latencyMs, age],
  );
}

interface Stats {
  callsLast30d: number;
  p50LatencyMs: number;
  rating: number;
  ratingCount: number;
}

async function statsOf(slug: string): Promise<Stats> {
  const response = await app.inject({ method: 'GET', url: `/marketplace/agents/${slug}` });
  expect(response.statusCode).toBe(200);
  return response.json<{ stats: Stats }>().stats;
}

async function trendingCalls(agentId: string): Promise<number> {
  const [row] = await ctx.sql<{ calls: number }>(
    'select calls_7d::int as calls from agent_market_stats where agent_id = $1',
    [agentId],
  );
  return row?.calls ?? -1;
}

describe('marketplace stats refresh workflow', () => {
  it('is started by the API once and recomputes rows as calls age out and days pass', async () => {
    const { temporal } = ctx.deps;
    const taskQueue = ctx.config.temporal.taskQueue;

    // A call about to leave the median's 30 × 24 h window, and a fresh one.
    const aging = await insertAgent('refresh-aging');
    await insertCall(aging, 1000, '719 hours 59 minutes 57 seconds');
    await insertCall(aging, 100, '0 seconds');
    expect((await statsOf('refresh-aging')).p50LatencyMs).toBe(550);

    // The row as it was computed yesterday: a day row 7 days back (today outside the 7-day
    // window, still inside the 30-day one) then still counted, expiring today.
    const yesterday = await insertAgent('refresh-yesterday');
    await ctx.sql(
      `insert into agent_daily_stats (agent_id, day, calls, earnings)
       values ($1, (now() at time zone 'utc')::date - 7, 5, 0),
              ($1, (now() at time zone 'utc')::date - 3, 2, 0)`,
      [yesterday],
    );
    expect(await trendingCalls(yesterday)).toBe(2);
    await ctx.sql(
      `update agent_market_stats set calls_7d = 7, days_expire_on = (now() at time zone 'utc')::date
        where agent_id = $1`,
      [yesterday],
    );

    const input = { intervalSeconds: 1, refreshesPerRun: 3 };
    const runId = await ensureMarketplaceStatsRefresh(temporal, taskQueue, input);
    // A second API instance booting finds the running workflow instead of starting another.
    expect(await ensureMarketplaceStatsRefresh(temporal, taskQueue, input)).toBe(runId);

    await waitFor(async () => (await trendingCalls(yesterday)) === 2, 15_000, 'day window');
    const [row] = await ctx.sql<{ expires: number }>(
      `select days_expire_on - (now() at time zone 'utc')::date as expires
         from agent_market_stats where agent_id = $1`,
      [yesterday],
    );
    // Next change: the day 3 back leaves the 7-day window in 4 days.
    expect(row?.expires).toBe(4);

    // Across continue-as-new, the aging call drops out of the median once it is 30 × 24 h old.
    await waitFor(
      async () => (await statsOf('refresh-aging')).p50LatencyMs === 100,
      20_000,
      'latency window',
    );
    expect(await statsOf('refresh-aging')).toEqual({
      callsLast30d: 0,
      p50LatencyMs: 100,
      rating: 0,
      ratingCount: 0,
    });
    expect(await marketStatsMismatches(ctx)).toEqual([]);

    const handle = temporal.workflow.getHandle(workflowIds.marketplaceStatsRefresh(taskQueue));
    await waitFor(async () => (await handle.describe()).runId !== runId, 15_000, 'continue-as-new');
    const description = await handle.describe();
    expect(description.type).toBe('marketplaceStatsRefreshWorkflow');
    expect(description.status.name).toBe('RUNNING');
    expect(description.runId).not.toBe(runId);
    await handle.terminate('test finished');
  }, 60_000);

  it('refreshes nothing when nothing has expired', async () => {
    const activities = createMarketplaceActivities({ orm: ctx.deps.orm });
    await activities.refreshMarketplaceStats();
    expect(await activities.refreshMarketplaceStats()).toEqual({ refreshed: 0 });
  });
});
