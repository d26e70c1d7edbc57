import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { TIERS } from './subscription';
import { User } from './user';

export const PAYMENT_PURPOSES = ['subscription', 'renewal', 'upgrade', 'topup'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export const PAYMENT_STATUSES = ['pending', 'paid', 'expired'] as const;

/**
 * One invoice asked of a provider and what confirmed it (docs/payments.md). `paid` is set once,
 * by the first confirmation: a provider payment id confirms at most one payment, so a callback
 * delivered twice, or to two API instances at once, is applied once. Subscription payments are
 * then applied by the lifecycle workflow (`appliedAt`, `outcome`); top-ups are credited in the
 * confirming transaction.
 */
export const Payment = defineEntity({
  name: 'Payment',
  tableName: 'payments',
  indexes: [
    { properties: ['user', 'createdAt'] },
    {
      name: 'payments_usdt_pending_amount_unique',
      expression: `create unique index "payments_usdt_pending_amount_unique" on "payments" ("chain_id", "amount_units") where "status" = 'pending' and "provider" = 'usdt_bep20'`,
    },
  ],
  uniques: [
    { name: 'payments_provider_invoice_unique', properties: ['provider', 'providerInvoiceId'] },
    { name: 'payments_provider_payment_unique', properties: ['provider', 'providerPaymentId'] },
  ],
  checks: [
    {
      name: 'payments_amounts_positive',
      expression: 'amount_usd_cents > 0 and (amount_flow is null or amount_flow > 0)',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    purpose: p.enum([...PAYMENT_PURPOSES]),
    /** The tier bought (subscription, renewal, upgrade); null for top-ups. */
    tier: p.enum([...TIERS]).nullable(),
    provider: p.string().length(32),
    amountUsdCents: p.bigint(),
    /** Top-ups: the micro-FLOW credited on confirmation. */
    amountFlow: p.bigint().nullable(),
    status: p.enum([...PAYMENT_STATUSES]),
    providerInvoiceId: p.string().length(128).nullable(),
    /** What confirmed it: the provider's payment id, or `<txHash>:<logIndex>` for usdt_bep20. */
    providerPaymentId: p.string().length(200).nullable(),
    checkoutUrl: p.string().length(2048).nullable(),
    /** usdt_bep20: the chain and the exact token amount (base units) that identify it. */
    chainId: p.integer().nullable(),
    amountUnits: p.decimal('string').precision(78).scale(0).nullable(),
    expiresAt: p.datetime(3),
    paidAt: p.datetime(3).nullable(),
    /** Subscription payments: when the lifecycle applied it, and how. */
    appliedAt: p.datetime(3).nullable(),
    outcome: p.string().length(32).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export type Payment = InferEntity<typeof Payment>;
