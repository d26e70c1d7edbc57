import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  MatrixError,
  MatrixRateLimited,
  MatrixUnavailable,
  type MatrixBot,
} from '../../shared/matrix/client';
import { messageContent } from '../../shared/matrix/content';
import type { NotificationDeliveryOutcome } from '../../shared/temporal/workflows';

/** The first retry waits about this long; each failure doubles it. */
export const RETRY_BASE_MS = 5_000;
/** The longest wait between two attempts of one notification. */
export const RETRY_CAP_MS = 3_600_000;
const LAST_ERROR_MAX_CHARS = 1_000;

/**
 * The Matrix transaction id of a notification's message: derived from its id alone, so every
 * attempt (a retried activity, another worker) sends the same transaction and the homeserver
 * answers the first event instead of posting a second one.
 */
export function notificationTxnId(notificationId: string): string {
  return `notification-${notificationId}`;
}

/**
 * The wait after the `failedBefore + 1`-th failed attempt: 5 s × 2^failedBefore capped at 1 h,
 * with equal jitter (half of it fixed, half random), so rows that failed together (a homeserver
 * outage) do not all come due in the same instant.
 */
export function retryDelayMs(failedBefore: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(failedBefore, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface DeliverDeps {
  orm: MikroORM;
  bot: MatrixBot;
}

interface NotificationRow {
  text: string;
  sent_at: Date | null;
  attempts: number;
  matrix_user_id: string | null;
  /** An older notification of the same user is unsent. */
  behind: boolean;
}

type MatrixFailure = MatrixError | MatrixUnavailable | MatrixRateLimited;

function isMatrixFailure(error: unknown): error is MatrixFailure {
  return (
    error instanceof MatrixError ||
    error instanceof MatrixUnavailable ||
    error instanceof MatrixRateLimited
  );
}

/**
 * Delivers one queued notification to its user's linked Matrix account, at least once and
 * never twice:
 *
 * 1. The row and its user: already sent (or gone) → done; no linked account → it stays queued;
 *    an older notification of the user still unsent → it waits behind that one.
 * 2. The direct room of the Matrix account: the stored one, or a new one (`createDirectRoom`,
 *    the account invited) stored with `on conflict do nothing`; whatever is stored is used, so
 *    two attempts racing agree on one room.
 * 3. The message, `messageContent({text})`, sent with the transaction id `notification-<id>`:
 *    an attempt that dies after the homeserver took the message and before step 4 committed is
 *    retried with the same transaction in the same room, and the homeserver answers the same
 *    event without sending again.
 * 4. `sent_at` and `event_id` together, in one statement, only while `sent_at` is null.
 *
 * Matrix failures (unreachable, an error answer, rate-limited past its budget) are values: the
 * row records `attempts`, `last_error` and `next_attempt_at` (backoff, `retryDelayMs`), and
 * nothing throws. A send refused with `M_FORBIDDEN` or 404 means the stored room is no use
 * (the bot was kicked, the room is gone): its row is deleted, so the next attempt opens a new
 * direct room. Only infrastructure failures (the database) throw, for Temporal to retry.
 */
export async function deliverNotification(
  deps: DeliverDeps,
  notificationId: string,
): Promise<NotificationDeliveryOutcome> {
  const em = deps.orm.em.fork();
  const [row] = await em.execute<NotificationRow[]>(
    `select n.text, n.sent_at, n.attempts, u.matrix_user_id,
            exists (select 1 from notifications o
                     where o.user_id = n.user_id and o.sent_at is null
                       and (o.created_at, o.id) < (n.created_at, n.id)) as behind
       from notifications n join users u on u.id = n.user_id
      where n.id = ?`,
    [notificationId],
  );
  if (!row || row.sent_at !== null) return { status: 'done' };
  if (row.matrix_user_id === null) return { status: 'not_linked' };
  if (row.behind) return { status: 'blocked' };

  const matrixUserId = row.matrix_user_id;
  let storedRoom: string | null = null;
  try {
    storedRoom = await storedDirectRoom(em, matrixUserId);
    const roomId = storedRoom ?? (await openDirectRoom(em, deps.bot, matrixUserId));
    const eventId = await deps.bot.sendMessage(
      roomId,
      messageContent({ text: row.text }),
      notificationTxnId(notificationId),
    );
    await em.execute(
      `update notifications set sent_at = now(), event_id = ?, next_attempt_at = null
        where id = ? and sent_at is null`,
      [eventId, notificationId],
    );
    return { status: 'sent', eventId };
  } catch (error) {
    if (!isMatrixFailure(error)) throw error;
    if (storedRoom !== null && roomUnusable(error)) {
      await em.execute('delete from matrix_direct_rooms where matrix_user_id = ? and room_id = ?', [
        matrixUserId,
        storedRoom,
      ]);
    }
    return recordFailure(em, notificationId, row.attempts, error);
  }
}

async function storedDirectRoom(em: EntityManager, matrixUserId: string): Promise<string | null> {
  const [stored] = await em.execute<{ room_id: string }[]>(
    'select room_id from matrix_direct_rooms where matrix_user_id = ?',
    [matrixUserId],
  );
  return stored?.room_id ?? null;
}

/**
 * Creates a direct room with the account invited and stores it, unless another attempt stored
 * one first: then that one is used (the room created here stays empty).
 */
async function openDirectRoom(
  em: EntityManager,
  bot: MatrixBot,
  matrixUserId: string,
): Promise<string> {
  const created = await bot.createDirectRoom(matrixUserId);
  await em.execute(
    `insert into matrix_direct_rooms (matrix_user_id, room_id, created_at) values (?, ?, now())
     on conflict (matrix_user_id) do nothing`,
    [matrixUserId, created],
  );
  return (await storedDirectRoom(em, matrixUserId)) ?? created;
}

/** The bot may not send there (kicked, never joined) or the room does not exist. */
function roomUnusable(error: MatrixFailure): boolean {
  return error instanceof MatrixError && (error.errcode === 'M_FORBIDDEN' || error.status === 404);
}

/** Not this notification's fault: the homeserver is down or busy, or refuses the bot itself. */
function homeserverFailed(error: MatrixFailure): boolean {
  if (!(error instanceof MatrixError)) return true;
  return error.status >= 500 || error.status === 401 || error.status === 429;
}

function failureText(error: MatrixFailure): string {
  const text =
    error instanceof MatrixError
      ? `${error.status} ${error.errcode}: ${error.message}`
      : error.message;
  return text.slice(0, LAST_ERROR_MAX_CHARS);
}

async function recordFailure(
  em: EntityManager,
  notificationId: string,
  failedBefore: number,
  error: MatrixFailure,
): Promise<NotificationDeliveryOutcome> {
  const wait = retryDelayMs(failedBefore);
  const retryInMs = error instanceof MatrixRateLimited ? Math.max(wait, error.retryAfterMs) : wait;
  const message = failureText(error);
  await em.execute(
    `update notifications
        set attempts = attempts + 1, last_error = ?,
            next_attempt_at = now() + make_interval(secs => ?)
      where id = ? and sent_at is null`,
    [message, retryInMs / 1000, notificationId],
  );
  return {
    status: 'failed',
    error: message,
    retryInMs,
    homeserverFailed: homeserverFailed(error),
  };
}
