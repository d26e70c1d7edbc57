import type { SubscriptionStatus, Tier } from '../../shared/db/entities/subscription';
import type { TestContext } from './context';

export type { SubscriptionStatus, Tier };

const DAY_MS = 86_400_000;

/**
 * Gives a user a platform tier by writing the subscription row the lifecycle workflow keeps
 * (docs/payments.md): for tests of what a tier unlocks, not of how it is bought. `renewsInMs`
 * may be negative (a grace period started that long ago).
 */
export async function grantTier(
  ctx: Pick<TestContext, 'sql'>,
  userId: number,
  tier: Tier,
  status: SubscriptionStatus = 'active',
  renewsInMs = 30 * DAY_MS,
): Promise<void> {
  await ctx.sql(
    `insert into subscriptions (user_id, tier, status, provider, renews_at, created_at, updated_at)
     values ($1, $2, $3, 'cryptobot', now() + make_interval(secs => $4), now(), now())
     on conflict (user_id) do update
       set tier = excluded.tier, status = excluded.status, renews_at = excluded.renews_at`,
    [userId, tier, status, renewsInMs / 1000],
  );
}
