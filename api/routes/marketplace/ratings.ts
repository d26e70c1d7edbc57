import { sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { ownsAgent, visibleAgent } from './access';
import type { RatingInput } from './schemas';
import type { MarketplaceDeps } from './service';

/** Whether the rater has a succeeded call of the agent. */
interface CalledRow {
  called: boolean;
}

const hasCalled = statement<CalledRow, [agentId: string, raterId: number]>(
  'ratings.has_called',
  `select exists (select 1 from agent_calls
                   where agent_id = $1 and caller_id = $2 and status = 'succeeded') as called`,
);

/** The rater's rating of the agent, replacing an earlier one. */
const upsertRating = statement<
  Record<string, never>,
  [agentId: string, raterId: number, rating: number, now: Date]
>(
  'ratings.upsert',
  `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at)
   values ($1, $2, $3, $4, $4)
   on conflict (agent_id, rater_id)
   do update set rating = excluded.rating, updated_at = excluded.updated_at`,
);

/** The agent's average rating (2 decimals) and number of ratings, as text. */
interface RatingSummaryRow {
  average: string | null;
  count: string;
}

const ratingSummary = statement<RatingSummaryRow, [agentId: string]>(
  'ratings.summary',
  `select round(avg(rating), 2)::text as average, count(*)::text as count
     from agent_ratings where agent_id = $1`,
);

/**
 * Rates an agent the caller may see, for a caller who has used it (at least one succeeded
 * call); the owner may not rate their own agent. Rating again replaces the earlier rating.
 */
export async function rateAgent(
  deps: Pick<MarketplaceDeps, 'em'>,
  actor: Actor,
  input: RatingInput,
) {
  const { em } = deps;
  const { agent } = await visibleAgent(em, actor, input.slug);
  const { rating } = input;
  const raterId = actor.userId;
  if (ownsAgent(agent, actor)) {
    throw new AppError('rating_not_allowed', 'rating: owners cannot rate their own agent');
  }
  const sql = sqlOf(em);
  const called = await sql.row(hasCalled, [agent.id, raterId]);
  if (called?.called !== true) {
    throw new AppError(
      'rating_not_allowed',
      `rating: only callers with a succeeded call of ${agent.slug} may rate it`,
    );
  }
  const now = new Date();
  await sql.run(upsertRating, [agent.id, raterId, rating, now]);
  const summary = await sql.row(ratingSummary, [agent.id]);
  return {
    slug: agent.slug,
    rating,
    averageRating: Number(summary?.average ?? 0),
    ratingCount: Number(summary?.count ?? 0),
  };
}
