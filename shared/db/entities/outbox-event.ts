import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * Transactional outbox of webhook events: written in the same transaction as the state change
 * that causes it; the webhook dispatcher turns each row into deliveries and sets
 * `dispatchedAt`. `id` is the delivery envelope's `id`; `dedupeKey` makes a retried writer
 * harmless.
 */
export const OutboxEvent = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  indexes: [
    {
      name: 'outbox_events_pending_index',
      expression: `create index "outbox_events_pending_index" on "outbox_events" ("created_at") where "dispatched_at" is null`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    event: p.string().length(64),
    data: p.json<Record<string, unknown>>(),
    dedupeKey: p.string().length(200).unique(),
    createdAt: p.datetime(3),
    dispatchedAt: p.datetime(3).nullable(),
  },
});

export type OutboxEvent = InferEntity<typeof OutboxEvent>;
