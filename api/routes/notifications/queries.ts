import { isoUtc, statement } from '../../../shared/db/sql';
import { keysetOrder } from '../../paging/keyset';

/** The notification reads (decisions "Hot reads"): prepared statements, no entities. */

/** A notification as the wire shows it. */
export interface NotificationRow {
  id: string;
  kind: string;
  text: string;
  data: Record<string, unknown>;
  /** ISO 8601, as the wire writes it. */
  createdAt: string;
  sentAt: string | null;
}

/** Newest first (index `notifications (user_id, created_at, id)`). */
export const NOTIFICATION_ORDER = keysetOrder('desc', [
  { column: 'created_at', type: 'timestamptz', field: 'createdAt' },
  { column: 'id', type: 'uuid', field: 'id' },
]);

export const notificationPage = statement<
  NotificationRow,
  [userId: number, ...after: string[], fetch: number]
>(
  'notifications.page',
  `select id, kind, text, data, ${isoUtc('created_at')} as "createdAt",
          ${isoUtc('sent_at')} as "sentAt"
     from notifications
    where user_id = $1
      and ${NOTIFICATION_ORDER.after(2)}
    order by ${NOTIFICATION_ORDER.orderBy}
    limit $${2 + NOTIFICATION_ORDER.arity}`,
);

/** Whether the user has a linked Matrix account (no row: the user is gone). */
export const matrixLinked = statement<{ linked: boolean }, [userId: number]>(
  'notifications.matrix_linked',
  'select matrix_user_id is not null as linked from users where id = $1',
);
