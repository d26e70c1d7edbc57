import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

export const TIERS = ['plus', 'pro', 'max'] as const;
export type Tier = (typeof TIERS)[number];
/** `none`: a canceled-at-period-end subscription whose period has ended (no features). */
export const SUBSCRIPTION_STATUSES = ['active', 'grace', 'canceled', 'none'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A user's paid platform tier (a feature gate, not credit). One row per user: the read model
 * the lifecycle workflow `subscription:<userId>` keeps (docs/payments.md). Features are on while
 * `status` is `active` or `grace`; users without a row have status `none`.
 */
export const Subscription = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    tier: p.enum([...TIERS]),
    status: p.enum([...SUBSCRIPTION_STATUSES]),
    provider: p.string().length(32),
    /** The end of the current period (when grace ends: the end of the unpaid one). */
    renewsAt: p.datetime(3),
    cancelAtPeriodEnd: p.boolean().default(false),
    /** A downgrade, effective at `renewsAt`. */
    pendingTier: p.enum([...TIERS]).nullable(),
    /** In grace: when the subscription is canceled unless the renewal is paid. */
    graceUntil: p.datetime(3).nullable(),
    /** The payment that already paid the period starting at `renewsAt`. */
    nextPeriodPaymentId: p.uuid().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export type Subscription = InferEntity<typeof Subscription>;
