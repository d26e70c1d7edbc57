import type { TestContext } from './context';

/**
 * The marketplace read model checked against its sources: every figure of
 * `agent_market_stats` recomputed here from agents, agent_daily_stats, agent_calls and
 * agent_ratings, written independently of the migration's SQL (the definitions of
 * docs/decisions.md "Agents and the marketplace", as the listing computed them before the
 * read model existed).
 */
const RECOMPUTED = `
  select a.id::text as agent_id, a.is_published, a.published_at, a.tags,
    coalesce((select sum(d.calls) from agent_daily_stats d
               where d.agent_id = a.id and d.day >= (now() at time zone 'utc')::date - 6), 0)
      as calls_7d,
    coalesce((select sum(d.calls) from agent_daily_stats d
               where d.agent_id = a.id and d.day >= (now() at time zone 'utc')::date - 29), 0)
      as calls_30d,
    coalesce((select sum(d.earnings) from agent_daily_stats d
               where d.agent_id = a.id and d.day >= (now() at time zone 'utc')::date - 29), 0)
      as earnings_30d,
    coalesce((select round(percentile_cont(0.5) within group (order by c.latency_ms)::numeric)
                from agent_calls c
               where c.agent_id = a.id and c.status = 'succeeded'
                 and c.created_at >= now() - interval '720 hours'), 0) as p50_latency_ms,
    coalesce((select avg(r.rating) from agent_ratings r where r.agent_id = a.id), 0)::text
      as rating_avg,
    coalesce((select round(avg(r.rating), 2) from agent_ratings r where r.agent_id = a.id), 0)
      as rating,
    (select count(*) from agent_ratings r where r.agent_id = a.id) as rating_count
  from agents a`;

const STORED = `
  select agent_id::text as agent_id, is_published, published_at, tags, calls_7d, calls_30d,
         earnings_30d, p50_latency_ms, rating_avg::text as rating_avg, rating, rating_count
    from agent_market_stats`;

/**
 * Rows where the stored figures differ from the recomputation (a row on one side only counts
 * too), both sides shown; [] when the read model is exact. Run it while no write is in flight.
 */
export async function marketStatsMismatches(ctx: TestContext) {
  return ctx.sql<{ expected: unknown; stored: unknown }>(
    `with expected as (${RECOMPUTED}), stored as (${STORED})
     select to_jsonb(e) as expected, to_jsonb(s) as stored
       from expected e full join stored s using (agent_id)
      where e.agent_id is null or s.agent_id is null
         or (e.is_published, e.published_at, e.tags, e.calls_7d, e.calls_30d, e.earnings_30d,
             e.p50_latency_ms, e.rating_avg, e.rating, e.rating_count)
            is distinct from
            (s.is_published, s.published_at, s.tags, s.calls_7d, s.calls_30d, s.earnings_30d,
             s.p50_latency_ms, s.rating_avg, s.rating, s.rating_count)`,
  );
}

/** Notes left behind by a transaction (there must never be any once it has committed). */
export async function pendingMarketNotes(ctx: TestContext): Promise<number> {
  const [row] = await ctx.sql<{ count: string }>('select count(*) from agent_market_dirty');
  return Number(row?.count ?? 0);
}
