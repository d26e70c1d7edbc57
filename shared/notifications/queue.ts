import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../db/sql';

export interface NotificationInput {
  userId: number;
  /** e.g. `project.completed` */
  kind: string;
  /** The message as the bot will send it. */
  text: string;
  data: Record<string, unknown>;
  /** Deterministic per cause and recipient, so a retried writer is a no-op. */
  dedupeKey: string;
}

/** A notification, unless one with its dedupe key is already queued. */
const insertNotification = statement<
  Record<string, never>,
  [id: string, userId: number, kind: string, text: string, data: string, dedupeKey: string]
>(
  'notification_queue.insert',
  `insert into notifications (id, user_id, kind, text, data, dedupe_key, created_at)
   values ($1, $2, $3, $4, $5::jsonb, $6, now())
   on conflict (dedupe_key) do nothing`,
);

/**
 * Queues a message for the messaging bot. Rows stay unsent (`sent_at` null) until the bot
 * gateway delivers them, so nothing is dropped while the bot is absent.
 */
export async function enqueueNotification(
  em: EntityManager,
  input: NotificationInput,
): Promise<void> {
  await sqlOf(em).run(insertNotification, [
    randomUUID(),
    input.userId,
    input.kind,
    input.text,
    JSON.stringify(input.data),
    input.dedupeKey,
  ]);
}
