import type { EntityManager } from '@mikro-orm/postgresql';
import { Subscription, type Tier } from '../db/entities/subscription';

/**
 * The tier whose features a user has now: an active or grace subscription, or a canceled one
 * until the end of the period already paid (spec: "Tier stays until renewsAt").
 */
export async function currentTier(
  em: EntityManager,
  userId: number,
  now = new Date(),
): Promise<Tier | null> {
  const subscription = await em.findOne(Subscription, { user: userId });
  if (!subscription) return null;
  if (subscription.status === 'canceled' && subscription.renewsAt <= now) return null;
  return subscription.tier;
}
