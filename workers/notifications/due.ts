import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../../shared/db/sql';
import { NOTIFICATION_BATCH } from '../../shared/temporal/workflow-constants';

interface DueRow {
  id: string;
}
/** The ids of the notifications due for delivery (`dueNotifications`). */
const due = statement<DueRow, [batchSize: number]>(
  'notification_delivery.due',
  `select n.id from notifications n
     join users u on u.id = n.user_id and u.matrix_user_id is not null
    where n.sent_at is null
      and (n.next_attempt_at is null or n.next_attempt_at <= now())
      and not exists (
        select 1 from notifications o
         where o.user_id = n.user_id and o.sent_at is null
           and (o.created_at, o.id) < (n.created_at, n.id)
           and o.next_attempt_at > now())
    order by n.created_at, n.id
    limit $1`,
);

/**
 * The ids of notifications due for delivery, oldest first: unsent, their user has a linked
 * Matrix account, their backoff (if any) has passed, and no older unsent notification of the
 * same user is waiting out a backoff (a user's notifications arrive in the order they were
 * queued). Reads only: the workflow delivers them one by one, and the delivery re-reads each
 * row, so a row sent or unlinked meanwhile is simply skipped then.
 *
 * The partial index `notifications_unsent_index` (created_at where sent_at is null) serves the
 * scan; the older-row check reads `(user_id, created_at, id)`.
 */
export async function dueNotifications(
  em: EntityManager,
  batchSize: number = NOTIFICATION_BATCH,
): Promise<string[]> {
  const rows = await sqlOf(em).rows(due, [batchSize]);
  return rows.map((row) => row.id);
}

/** Milliseconds until the earliest backoff of a deliverable row ends; null when none waits. */
const nextDue = statement<{ ms: number | null }, []>(
  'notification_delivery.next_due',
  `select ceil(extract(epoch from min(n.next_attempt_at) - now()) * 1000)::int as ms
     from notifications n
     join users u on u.id = n.user_id and u.matrix_user_id is not null
    where n.sent_at is null and n.next_attempt_at > now()`,
);

/**
 * How long until a notification waiting out its backoff is due (`nextNotificationDueInMs`):
 * an idle delivery loop sleeps no longer than that, so a retry keeps its time.
 */
export async function nextNotificationDueInMs(em: EntityManager): Promise<number | null> {
  const row = await sqlOf(em).row(nextDue, []);
  return row?.ms ?? null;
}
