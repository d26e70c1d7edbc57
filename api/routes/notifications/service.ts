import type { z } from 'zod';
import type { CursorCodec } from '../../../shared/domain/cursor';
import type { Sql } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { keyset } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { matrixLinked, NOTIFICATION_ORDER, notificationPage } from './queries';
import type { notificationPageSchema, notificationsQuery } from './schemas';

export interface NotificationDeps {
  db: Sql;
  cursors: CursorCodec;
}

/**
 * The caller's notifications, newest first, keyset-paged, and whether they have a linked
 * Matrix account (without one, nothing is delivered: `sentAt` stays null).
 */
export async function listNotifications(
  deps: NotificationDeps,
  actor: Actor,
  query: z.output<typeof notificationsQuery>,
): Promise<z.input<typeof notificationPageSchema>> {
  const { userId } = actor;
  const page = keyset(deps.cursors, NOTIFICATION_ORDER, {
    scope: pageScope('notifications', { userId }),
    limit: query.limit,
    cursor: query.cursor,
  });
  const [rows, linked] = await Promise.all([
    deps.db.rows(notificationPage, [userId, ...page.after, page.fetch]),
    deps.db.rows(matrixLinked, [userId]),
  ]);
  const { items, nextCursor } = page.page(rows);
  return { items, nextCursor, matrixLinked: linked[0]?.linked ?? false };
}
