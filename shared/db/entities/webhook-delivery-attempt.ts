import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { WebhookDelivery } from './webhook-delivery';

/**
 * One POST of a delivery: when, the receiver's status (null on a network error or timeout),
 * how long it took, the error, and at most 1 KB of the response body.
 */
export const WebhookDeliveryAttempt = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  properties: {
    delivery: () => p.manyToOne(WebhookDelivery).deleteRule('cascade').primary(),
    attempt: p.integer().primary(),
    startedAt: p.datetime(3),
    durationMs: p.integer(),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    responseBody: p.string().length(1024).nullable(),
  },
});

export type WebhookDeliveryAttempt = InferEntity<typeof WebhookDeliveryAttempt>;
