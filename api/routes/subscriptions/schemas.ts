import { z } from 'zod';
import { SUBSCRIPTION_STATUSES, TIERS } from '../../../shared/db/entities/subscription';
import { PROVIDERS } from '../../../shared/payments/provider';
import { isoTime } from '../../wire';

/** Wire shapes of subscriptions, top-ups and provider callbacks (docs/payments.md). */

// Strings first, checked against the lists in the service: an unknown tier or provider has
// its own code (tier_unknown, provider_unsupported), after the body's shape (docs/spec/contract.md §11).
const tierField = z
  .string({ error: 'is required' })
  .max(32)
  .describe(`One of ${TIERS.join(', ')}`)
  .meta({ example: 'pro' });
const providerField = z
  .string({ error: 'is required' })
  .max(32)
  .describe(`One of ${PROVIDERS.join(', ')} (only those enabled in this deployment)`)
  .meta({ example: 'cryptobot' });

export const checkoutBody = z.strictObject({ tier: tierField, provider: providerField });

export const checkoutSchema = z
  .object({
    subscriptionId: z
      .uuid()
      .describe('This checkout’s id: the payment that activates the subscription when paid'),
    tier: z.enum(TIERS),
    provider: z.enum(PROVIDERS),
    checkoutUrl: z
      .string()
      .describe(
        'Where the payer goes to pay; for usdt_bep20 an EIP-681 URI carrying the exact amount',
      ),
    expiresAt: isoTime.describe('The invoice cannot be paid after this'),
  })
  .meta({
    id: 'SubscriptionCheckout',
    example: {
      subscriptionId: '6f1c2a7e-5b8d-4e2f-9a41-2d7c0b9e8f13',
      tier: 'pro',
      provider: 'cryptobot',
      checkoutUrl: 'https://t.me/CryptoBot?start=IVyfohCLxj',
      expiresAt: '2026-11-25T11:00:00.000Z',
    },
  });

const featuresSchema = z.object({
  priorityQueue: z.boolean(),
  premiumAgents: z.boolean(),
  fasterSse: z.boolean(),
  privateProjects: z.boolean(),
  dedicatedRuntime: z.boolean(),
});

export const subscriptionSchema = z
  .object({
    tier: z.enum(TIERS).nullable().describe('Null when there is no subscription'),
    status: z
      .enum(SUBSCRIPTION_STATUSES)
      .describe('active and grace have the features; canceled (renewal unpaid) and none do not'),
    renewsAt: isoTime.nullable().describe('End of the current period'),
    provider: z.enum(PROVIDERS).nullable(),
    features: featuresSchema,
    cancelAtPeriodEnd: z.boolean(),
    pendingTier: z.enum(TIERS).nullable().describe('A downgrade that takes effect at renewsAt'),
    graceUntil: isoTime
      .nullable()
      .describe('In grace: the subscription is canceled then unless the renewal is paid'),
    renewal: z
      .object({
        paymentId: z.uuid(),
        tier: z.enum(TIERS),
        amountUsd: z.number(),
        checkoutUrl: z.string(),
        expiresAt: isoTime,
      })
      .nullable()
      .describe('The open renewal invoice, if one is issued and unpaid'),
  })
  .meta({
    id: 'Subscription',
    example: {
      tier: 'pro',
      status: 'active',
      renewsAt: '2026-12-25T10:00:00.000Z',
      provider: 'cryptobot',
      features: {
        priorityQueue: true,
        premiumAgents: true,
        fasterSse: true,
        privateProjects: false,
        dedicatedRuntime: false,
      },
      cancelAtPeriodEnd: false,
      pendingTier: null,
      graceUntil: null,
      renewal: {
        paymentId: '0b9e4d2c-7a61-4f3e-8c5d-1e2f3a4b5c6d',
        tier: 'pro',
        amountUsd: 100,
        checkoutUrl: 'https://t.me/CryptoBot?start=IVq3ZrT8mK',
        expiresAt: '2026-12-25T10:00:00.000Z',
      },
    },
  });

export const changeBody = z.strictObject({
  tier: tierField,
  provider: providerField
    .optional()
    .describe('For an upgrade: who takes the pro-rated payment (default: the subscription’s)'),
});

export const changeResultSchema = z
  .object({
    subscription: subscriptionSchema,
    checkout: checkoutSchema
      .extend({ amountUsd: z.number().describe('The pro-rated price difference') })
      .nullable()
      .describe('Upgrade: the checkout of the pro-rated difference; the tier switches when paid'),
  })
  .meta({ id: 'SubscriptionChange' });

const MAX_TOPUP_USD = 10_000;
export const topupBody = z.strictObject({
  provider: providerField,
  amountUsd: z
    .number({ error: 'must be a number' })
    .min(1, { error: 'must be at least 1' })
    .max(MAX_TOPUP_USD, { error: `must be at most ${MAX_TOPUP_USD}` })
    // Cents: 12.34 is 1234 within float error; 12.345 is not.
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      error: 'must have at most 2 decimals',
    })
    .meta({ example: 25 }),
});

export const topupSchema = z
  .object({
    topupId: z.uuid(),
    provider: z.enum(PROVIDERS),
    amountUsd: z.number(),
    amountFlow: z.number().describe('FLOW credited when the payment is confirmed'),
    checkoutUrl: z.string(),
    expiresAt: isoTime,
  })
  .meta({
    id: 'FlowTopup',
    example: {
      topupId: '3d5e7f90-1a2b-4c3d-9e8f-7a6b5c4d3e2f',
      provider: 'usdt_bep20',
      amountUsd: 25,
      amountFlow: 25,
      checkoutUrl:
        'ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0x9a3C0f0D1b5e6A7c8E2d4F1B3a5C7e9D0f2A4b6C&uint256=25000041700000000000',
      expiresAt: '2026-11-25T11:00:00.000Z',
    },
  });

export const callbackParams = z.object({
  provider: z.string().max(32).describe('cryptobot or platega'),
});

export const callbackAckSchema = z.object({ ok: z.literal(true) });
