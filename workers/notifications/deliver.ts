import type { MikroORM } from '@mikro-orm/postgresql';
import { sqlOf, statement, type Sql } from '../../shared/db/sql';
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
  sentAt: Date | null;
  attempts: number;
  matrixUserId: string | null;
  /** An older notification of the same user is unsent. */
  behind: boolean;
}
/** A notification, its user's Matrix account and whether it must wait behind an older one. */
const notificationToDeliver = statement<NotificationRow, [notificationId: string]>(
  'notification_delivery.notification',
  `select n.text, n.sent_at as "sentAt", n.attempts, u.matrix_user_id as "matrixUserId",
          exists (select 1 from notifications o
                   where o.user_id = n.user_id and o.sent_at is null
                     and (o.created_at, o.id) < (n.created_at, n.id)) as behind
     from notifications n join users u on u.id = n.user_id
    where n.id = $1`,
);

/** Sent: the Matrix event, recorded once (only while unsent). */
const markSent = statement<Record<string, never>, [eventId: string, notificationId: string]>(
  'notification_delivery.mark_sent',
  `update notifications set sent_at = now(), event_id = $1, next_attempt_at = null
    where id = $2 and sent_at is null`,
);

/** Forgets a direct room the bot can no longer use. */
const deleteDirectRoom = statement<Record<string, never>, [matrixUserId: string, roomId: string]>(
  'notification_delivery.delete_direct_room',
  'delete from matrix_direct_rooms where matrix_user_id = $1 and room_id = $2',
);

interface DirectRoomRow {
  roomId: string;
}
const directRoom = statement<DirectRoomRow, [matrixUserId: string]>(
  'notification_delivery.direct_room',
  'select room_id as "roomId" from matrix_direct_rooms where matrix_user_id = $1',
);

/** A new direct room, unless another attempt stored one first. */
const insertDirectRoom = statement<Record<string, never>, [matrixUserId: string, roomId: string]>(
  'notification_delivery.insert_direct_room',
  `insert into matrix_direct_rooms (matrix_user_id, room_id, created_at) values ($1, $2, now())
   on conflict (matrix_user_id) do nothing`,
);

/** A failed attempt: its error and when the next one is due. */
const recordAttemptFailed = statement<
  Record<string, never>,
  [lastError: string, retryInSeconds: number, notificationId: string]
>(
  'notification_delivery.attempt_failed',
  `update notifications
      set attempts = attempts + 1, last_error = $1,
          next_attempt_at = now() + make_interval(secs => $2::float8)
    where id = $3 and sent_at is null`,
);

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
  const sql = sqlOf(deps.orm.em.fork());
  const row = await sql.row(notificationToDeliver, [notificationId]);
  if (!row || row.sentAt !== null) return { status: 'done' };
  if (row.matrixUserId === null) return { status: 'not_linked' };
  if (row.behind) return { status: 'blocked' };

  const { matrixUserId } = row;
  let storedRoom: string | null = null;
  try {
    storedRoom = await storedDirectRoom(sql, matrixUserId);
    const roomId = storedRoom ?? (await openDirectRoom(sql, deps.bot, matrixUserId));
    const eventId = await deps.bot.sendMessage(
      roomId,
      messageContent({ text: row.text }),
      notificationTxnId(notificationId),
    );
    await sql.run(markSent, [eventId, notificationId]);
    return { status: 'sent', eventId };
  } catch (error) {
    if (!isMatrixFailure(error)) throw error;
    if (storedRoom !== null && roomUnusable(error)) {
      await sql.run(deleteDirectRoom, [matrixUserId, storedRoom]);
    }
    return recordFailure(sql, notificationId, row.attempts, error);
  }
}

async function storedDirectRoom(sql: Sql, matrixUserId: string): Promise<string | null> {
  const stored = await sql.row(directRoom, [matrixUserId]);
  return stored?.roomId ?? null;
}

/**
 * Creates a direct room with the account invited and stores it, unless another attempt stored
 * one first: then that one is used (the room created here stays empty).
 */
async function openDirectRoom(sql: Sql, bot: MatrixBot, matrixUserId: string): Promise<string> {
  const created = await bot.createDirectRoom(matrixUserId);
  await sql.run(insertDirectRoom, [matrixUserId, created]);
  return (await storedDirectRoom(sql, matrixUserId)) ?? created;
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
  sql: Sql,
  notificationId: string,
  failedBefore: number,
  error: MatrixFailure,
): Promise<NotificationDeliveryOutcome> {
  const wait = retryDelayMs(failedBefore);
  const retryInMs = error instanceof MatrixRateLimited ? Math.max(wait, error.retryAfterMs) : wait;
  const message = failureText(error);
  await sql.run(recordAttemptFailed, [message, retryInMs / 1000, notificationId]);
  return {
    status: 'failed',
    error: message,
    retryInMs,
    homeserverFailed: homeserverFailed(error),
  };
}
