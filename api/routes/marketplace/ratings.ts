import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { visibleAgent } from './access';
import type { RatingInput } from './schemas';
import type { MarketplaceDeps } from './service';

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
