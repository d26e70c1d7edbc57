import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** What the last failed delivery left on its subscription (spec: `last_error`). */
export interface WebhookLastError {
  at: string;
  deliveryId: string;
  status: number | null;
  error: string;
}

/**
 * A user's webhook subscription. `events` empty means every event type, including ones added
 * later. `secret` (`whsec_…`) signs deliveries and is shown only at creation. Deleting sets
 * `deletedAt`: deliveries keep their history, and nothing is sent to it any more.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  indexes: [{ properties: ['user', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    url: p.string().length(2048),
    events: p.array().columnType('text[]').default('{}'),
    secret: p.string().length(64),
    lastError: p.json<WebhookLastError>().nullable(),
    createdAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
});

export type Webhook = InferEntity<typeof Webhook>;
