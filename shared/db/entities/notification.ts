import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A message for a user through the messaging bot. Queued here (`sentAt` null) until the
 * notification delivery workflow sends it to the user's linked Matrix account, so nothing is
 * lost while the bot is absent or down (docs/decisions.md "Milestone notifications").
 */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  indexes: [
    // GET /me/notifications: a user's notifications newest first, keyset-paged.
    { properties: ['user', 'createdAt', 'id'] },
    {
      name: 'notifications_unsent_index',
      expression: `create index "notifications_unsent_index" on "notifications" ("created_at") where "sent_at" is null`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    kind: p.string().length(64),
    text: p.text(),
    data: p.json<Record<string, unknown>>(),
    dedupeKey: p.string().length(200).unique(),
    createdAt: p.datetime(3),
    sentAt: p.datetime(3).nullable(),
    /** The Matrix event the bot sent it as (set with `sentAt`). */
    eventId: p.string().length(255).nullable(),
    /** Delivery attempts that failed so far (the backoff's exponent). */
    attempts: p.integer().default(0),
    /** Not delivered before this (backoff after a failed attempt); null: due now. */
    nextAttemptAt: p.datetime(3).nullable(),
    /** Why the last failed attempt failed (kept after a later success, like webhooks). */
    lastError: p.text().nullable(),
  },
});

export type Notification = InferEntity<typeof Notification>;
