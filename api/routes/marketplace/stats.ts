import type { Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';

/**
 * Ratings, and the UTC day that keys agent_daily_stats. The marketplace figures themselves
 * (calls, median latency, rating) live in the read model `agent_market_stats`, kept by
 * database triggers (migration Migration20261125000000_marketplace_stats):
 * - callsLast30d: succeeded calls on the last 30 UTC days, today included (agent_daily_stats).
 * - p50LatencyMs: median latency of succeeded calls of the last 30 × 24 h, rounded; 0 when none.
 * - rating: the average rating rounded to 2 decimals, 0 when unrated; ratingCount beside it.
 */

/** The UTC calendar day of `now`, as agent_daily_stats keys its rows. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
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
