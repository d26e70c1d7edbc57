import type { Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';

/**
 * Marketplace stats of agents and their ratings.
 * - callsLast30d: succeeded calls on the last 30 UTC days, today included (agent_daily_stats).
 * - p50LatencyMs: median latency of succeeded calls of the last 30 × 24 h, rounded; 0 when none.
 * - rating: the average rating rounded to 2 decimals, 0 when unrated; ratingCount beside it.
 */

export interface AgentStats {
  callsLast30d: number;
  p50LatencyMs: number;
  rating: number;
  ratingCount: number;
}

export const NO_STATS: AgentStats = { callsLast30d: 0, p50LatencyMs: 0, rating: 0, ratingCount: 0 };

const DAY_MS = 24 * 3600 * 1000;

/** The UTC calendar day of `now`, as agent_daily_stats keys its rows. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** A Postgres array literal of UUIDs (they contain nothing that needs quoting). */
export function uuidArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}

interface StatsRow {
  id: string;
  calls: string;
  p50: string;
  rating: string;
  rating_count: string;
}

/** Stats of every given agent in one query (each figure an indexed per-agent lookup). */
export async function statsFor(
  em: EntityManager,
  agentIds: readonly string[],
  now: Date,
): Promise<Map<string, AgentStats>> {
  const stats = new Map<string, AgentStats>();
  if (agentIds.length === 0) return stats;
  const rows = await em.execute<StatsRow[]>(
    `select x.id::text as id,
       coalesce((select sum(s.calls) from agent_daily_stats s
                  where s.agent_id = x.id and s.day >= ?::date - 29), 0)::text as calls,
       coalesce((select round(percentile_cont(0.5) within group (order by c.latency_ms)::numeric)
                   from agent_calls c
                  where c.agent_id = x.id and c.status = 'succeeded' and c.created_at >= ?),
                0)::text as p50,
       coalesce((select round(avg(r.rating), 2) from agent_ratings r where r.agent_id = x.id),
                0)::text as rating,
       (select count(*) from agent_ratings r where r.agent_id = x.id)::text as rating_count
     from unnest(?::uuid[]) as x(id)`,
    [utcDay(now), new Date(now.getTime() - 30 * DAY_MS), uuidArray(agentIds)],
  );
  for (const row of rows) {
    stats.set(row.id, {
      callsLast30d: Number(row.calls),
      p50LatencyMs: Number(row.p50),
      rating: Number(row.rating),
      ratingCount: Number(row.rating_count),
    });
  }
  return stats;
}

/**
 * Rates an agent for a caller who has used it (at least one succeeded call); the owner may not
 * rate their own agent. Rating again replaces the earlier rating.
 */
export async function rateAgent(em: EntityManager, agent: Agent, raterId: number, rating: number) {
  if (agent.owner.id === raterId) {
    throw new AppError('rating_not_allowed', 'rating: owners cannot rate their own agent');
  }
  const [called] = await em.execute<{ called: boolean }[]>(
    `select exists (select 1 from agent_calls
                     where agent_id = ? and caller_id = ? and status = 'succeeded') as called`,
    [agent.id, raterId],
  );
  if (called?.called !== true) {
    throw new AppError(
      'rating_not_allowed',
      `rating: only callers with a succeeded call of ${agent.slug} may rate it`,
    );
  }
  const now = new Date();
  await em.execute(
    `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at)
     values (?, ?, ?, ?, ?)
     on conflict (agent_id, rater_id)
     do update set rating = excluded.rating, updated_at = excluded.updated_at`,
    [agent.id, raterId, rating, now, now],
  );
  const [summary] = await em.execute<{ average: string; count: string }[]>(
    `select round(avg(rating), 2)::text as average, count(*)::text as count
       from agent_ratings where agent_id = ?`,
    [agent.id],
  );
  return {
    slug: agent.slug,
    rating,
    averageRating: Number(summary?.average ?? 0),
    ratingCount: Number(summary?.count ?? 0),
  };
}
