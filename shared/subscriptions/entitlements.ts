import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tier } from '../db/entities/subscription';
import { sqlOf, statement } from '../db/sql';

/**
 * Whose features are on: a subscription in `active` or `grace` (features stay during grace;
 * a canceled-at-period-end one stays `active` until the lifecycle workflow ends it at
 * `renewsAt`). The row is the read model, so no clock is read here.
 */
export const ENTITLED_STATUSES = ['active', 'grace'] as const;

/** `'active', 'grace'`: the list above as SQL literals (constants, never user input). */
export const ENTITLED_STATUSES_SQL = ENTITLED_STATUSES.map((status) => `'${status}'`).join(', ');

/**
 * A scalar subquery giving the entitled tier of the user id `userId` stands for (a placeholder
 * such as `$2::int`, or a column), null without one: for reads that decide an entitlement in
 * the same statement as the rest of their answer.
 */
export function entitledTierSql(userId: string): string {
  return `(select s.tier from subscriptions s
  where s.user_id = ${userId} and s.status in (${ENTITLED_STATUSES_SQL}))`;
}

/** The user's entitled tier (null: none). */
const entitledTierOf = statement<{ tier: Tier | null }, [userId: number]>(
  'entitlements.tier',
  `select ${entitledTierSql('$1::int')} as tier`,
);

/** The tier whose features the user has now, or null. */
export async function entitledTier(em: EntityManager, userId: number): Promise<Tier | null> {
  const row = await sqlOf(em).row(entitledTierOf, [userId]);
  return row?.tier ?? null;
}
