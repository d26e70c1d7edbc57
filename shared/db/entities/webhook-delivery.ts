import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Webhook } from './webhook';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event sent to one subscription, by the `webhook-delivery:<id>` workflow. `payload` is
 * the envelope (`id`, `event`, `user_id`, `created_at`, `data`); its `id` is the event's, the
 * same for every subscription and every retry, so receivers dedupe by it. One delivery per
 * outbox event and subscription (unique), so a re-run dispatcher creates none twice.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  uniques: [{ name: 'webhook_deliveries_outbox_unique', properties: ['outboxEventId', 'webhook'] }],
  indexes: [{ properties: ['webhook', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade'),
    outboxEventId: p.uuid().nullable(),
    event: p.string().length(64),
    payload: p.json<Record<string, unknown>>(),
    status: p.enum([...DELIVERY_STATUSES]),
    attempts: p.integer().default(0),
    createdAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
});

export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
