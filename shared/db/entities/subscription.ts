import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

export const TIERS = ['plus', 'pro', 'max'] as const;
export type Tier = (typeof TIERS)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'grace', 'canceled'] as const;

/**
 * A user's paid platform tier (a feature gate, not credit). One row per user; the
 * subscription lifecycle workflow moves it. Users without a row have status `none`.
 */
export const Subscription = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    tier: p.enum([...TIERS]),
    status: p.enum([...SUBSCRIPTION_STATUSES]),
    provider: p.string().length(32),
    renewsAt: p.datetime(3),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export type Subscription = InferEntity<typeof Subscription>;
