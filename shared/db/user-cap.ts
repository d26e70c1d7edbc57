import type { AppError } from '../errors';
import type { EntityManager } from './orm';
import { sqlOf, statement, type Statement } from './sql';

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

/** The user's row, locked until the caller's transaction ends. */
const lockUser = statement<{ id: number }, [userId: number]>(
  'user_cap.lock_user',
  'select id from users where id = $1 for update',
);

export async function lockUserAndCheckCap(
  em: EntityManager,
  userId: number,
  cap: UserCap,
): Promise<void> {
  await sqlOf(em).rows(lockUser, [userId]);
  if ((await cap.count(em)) >= cap.max) throw cap.refusal();
}

/**
 * Runs `counted` on `em` (the caller's transaction): the user's rows that count against the
 * cap, as `select count(*)::int as count … where user_id = $1 …`.
 */
export async function countForUser(
  em: EntityManager,
  counted: Statement<{ count: number }, [userId: number]>,
  userId: number,
): Promise<number> {
  const row = await sqlOf(em).row(counted, [userId]);
  return row?.count ?? 0;
}
