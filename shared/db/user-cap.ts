import type { AppError } from '../errors';
import type { EntityManager } from './orm';

/**
 * A per-user cap on rows a user holds (active API keys, webhooks). Inside the caller's
 * transaction the user's row is locked first, so concurrent creations by one user serialise
 * and the count cannot be passed by a race; then the rows are counted and `refusal` is thrown
 * at `max` or above. The lock is released when the caller's transaction ends, after its insert.
 * It lives here, not with one route, because every writer of a capped row must take the same
 * lock in the same order (users row first) for the cap to hold.
 */
export interface UserCap {
  /** How many rows count against the cap now (run after the lock, in the same transaction). */
  count: (em: EntityManager) => Promise<number>;
  max: number;
  refusal: () => AppError;
}

export async function lockUserAndCheckCap(
  em: EntityManager,
  userId: number,
  cap: UserCap,
): Promise<void> {
  await em.execute('select id from users where id = ? for update', [userId]);
  if ((await cap.count(em)) >= cap.max) throw cap.refusal();
}

/** `count(*)` of one statement whose single parameter is the user id. */
export async function countForUser(
  em: EntityManager,
  sql: string,
  userId: number,
): Promise<number> {
  const [row] = await em.execute<{ count: string }[]>(sql, [userId]);
  return Number(row?.count ?? 0);
}
