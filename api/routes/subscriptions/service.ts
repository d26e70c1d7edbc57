import { utcDateString } from '../../../shared/domain/calendar';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../../shared/config';
import {
  TIERS,
  type SubscriptionStatus,
  type Tier,
} from '../../../shared/db/entities/subscription';
import { flowForUsdCents, proratedUpgradeCents, usdNumber } from '../../../shared/domain/billing';
import { flowNumber } from '../../../shared/domain/flow';
import { featuresOf, TIER_PRICE_USD_CENTS, tierRank } from '../../../shared/domain/tiers';
import { epochMs, isoUtc, sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import {
  issueInvoice,
  providerEnabled,
  type HttpProviders,
  type IssuedInvoice,
  type InvoiceInput,
} from '../../../shared/payments/invoices';
import { PROVIDERS, ProviderError, type ProviderName } from '../../../shared/payments/provider';
import type { Actor } from '../../access/actor';
import { signalLifecycle, type LifecycleDeps } from '../../../shared/payments/lifecycle-signal';

/**
 * Subscriptions and FLOW top-ups (decisions in docs/payments.md). The API writes intent (a
 * pending payment, the cancel flag, a pending downgrade) and signals the lifecycle workflow
 * `subscription:<userId>`, which owns every time-driven change of the row.
 */

export interface SubscriptionDeps extends LifecycleDeps {
  em: EntityManager;
  config: Pick<Config, 'temporal' | 'payments'>;
  providers: HttpProviders;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  now: () => Date;
}

function tierOf(value: string): Tier {
  const tier = TIERS.find((known) => known === value);
  if (!tier) throw new AppError('tier_unknown', `tier: must be one of ${TIERS.join(', ')}`);
  return tier;
}

function enabledProviders(deps: SubscriptionDeps): ProviderName[] {
  return PROVIDERS.filter((name) =>
    providerEnabled({ payments: deps.config.payments, providers: deps.providers }, name),
  );
}

function providerOf(deps: SubscriptionDeps, value: string): ProviderName {
  const enabled = enabledProviders(deps);
  const provider = enabled.find((name) => name === value);
  if (!provider) {
    const list = enabled.length > 0 ? enabled.join(', ') : 'none';
    throw new AppError(
      'provider_unsupported',
      `provider: ${JSON.stringify(value.slice(0, 32))} is not enabled here (enabled: ${list})`,
    );
  }
  return provider;
}

async function invoice(deps: SubscriptionDeps, input: Omit<InvoiceInput, 'now' | 'expiresAt'>) {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + deps.config.payments.invoiceTtlMinutes * 60_000);
  try {
    return await issueInvoice(
      { em: deps.em, payments: deps.config.payments, providers: deps.providers },
      { ...input, now, expiresAt },
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.logger.warn({ provider: error.provider, detail: error.detail }, 'invoice not created');
    throw Object.assign(
      new AppError(
        'payment_provider_failed',
        `provider: ${input.provider} did not create the invoice; try again or use another provider`,
      ),
      { cause: error },
    );
  }
}

function checkoutWire(issued: IssuedInvoice, tier: Tier) {
  return {
    subscriptionId: issued.paymentId,
    tier,
    provider: issued.provider,
    checkoutUrl: issued.checkoutUrl,
    expiresAt: issued.expiresAt.toISOString(),
  };
}

/** `POST /subscriptions/checkout`: checks in the order of docs/spec/contract.md §11, then one invoice. */
export async function checkout(
  deps: SubscriptionDeps,
  actor: Actor,
  input: { tier: string; provider: string },
) {
  const tier = tierOf(input.tier);
  const provider = providerOf(deps, input.provider);
  const current = await subscriptionRow(deps.em, actor.userId);
  if (current && (current.status === 'active' || current.status === 'grace')) {
    throw new AppError(
      'subscription_active',
      `You already have the ${current.tier} tier (${current.status}); change it with POST /me/subscription/change`,
    );
  }
  const issued = await invoice(deps, {
    userId: actor.userId,
    purpose: 'subscription',
    tier,
    provider,
    amountUsdCents: TIER_PRICE_USD_CENTS[tier],
    amountFlow: null,
    description: `${tier} subscription, 1 month`,
  });
  return checkoutWire(issued, tier);
}

/** `POST /flow/topups`: an invoice whose confirmation credits FLOW (reason `topup`). */
export async function createTopup(
  deps: SubscriptionDeps,
  actor: Actor,
  input: { provider: string; amountUsd: number },
) {
  const provider = providerOf(deps, input.provider);
  const cents = Math.round(input.amountUsd * 100);
  const amountFlow = flowForUsdCents(cents, deps.config.payments.flowPerUsd);
  if (amountFlow <= 0n) throw new AppError('invalid_request', 'amountUsd: buys no FLOW');
  const issued = await invoice(deps, {
    userId: actor.userId,
    purpose: 'topup',
    tier: null,
    provider,
    amountUsdCents: cents,
    amountFlow,
    description: `${flowNumber(amountFlow)} FLOW`,
  });
  return {
    topupId: issued.paymentId,
    provider: issued.provider,
    amountUsd: usdNumber(cents),
    amountFlow: flowNumber(amountFlow),
    checkoutUrl: issued.checkoutUrl,
    expiresAt: issued.expiresAt.toISOString(),
  };
}

interface SubscriptionRow {
  tier: Tier;
  status: SubscriptionStatus;
  provider: ProviderName;
  renewsAtMs: number;
  cancelAtPeriodEnd: boolean;
  pendingTier: Tier | null;
}

const SUBSCRIPTION_ROW = `select tier, status, provider, ${epochMs('renews_at')} as "renewsAtMs",
    cancel_at_period_end as "cancelAtPeriodEnd", pending_tier as "pendingTier"
   from subscriptions where user_id = $1`;

/** The user's subscription row. */
const subscriptionOf = statement<SubscriptionRow, [userId: number]>(
  'subscriptions.row',
  SUBSCRIPTION_ROW,
);

/** The user's subscription row, locked until the transaction ends. */
const lockedSubscriptionOf = statement<SubscriptionRow, [userId: number]>(
  'subscriptions.row_for_update',
  `${SUBSCRIPTION_ROW} for update`,
);

async function subscriptionRow(
  em: EntityManager,
  userId: number,
  lock = false,
): Promise<SubscriptionRow | null> {
  const row = await sqlOf(em).row(lock ? lockedSubscriptionOf : subscriptionOf, [userId]);
  return row ?? null;
}

interface ViewRow {
  tier: Tier | null;
  status: SubscriptionStatus | null;
  provider: ProviderName | null;
  renewsAt: string | null;
  cancelAtPeriodEnd: boolean | null;
  pendingTier: Tier | null;
  graceUntil: string | null;
  renewalId: string | null;
  renewalTier: Tier | null;
  /** `bigint`, as a string. */
  renewalCents: string | null;
  renewalUrl: string | null;
  renewalExpiresAt: string | null;
}

/** The row and its open renewal invoice, in one statement (one row, of nulls without either). */
const subscriptionViewOf = statement<ViewRow, [userId: number]>(
  'subscriptions.view',
  `select s.tier, s.status, s.provider, ${isoUtc('s.renews_at')} as "renewsAt",
     s.cancel_at_period_end as "cancelAtPeriodEnd", s.pending_tier as "pendingTier",
     ${isoUtc('s.grace_until')} as "graceUntil",
     r.id as "renewalId", r.tier as "renewalTier", r.amount_usd_cents as "renewalCents",
     r.checkout_url as "renewalUrl", ${isoUtc('r.expires_at')} as "renewalExpiresAt"
   from (select $1::int as user_id) me
   left join subscriptions s on s.user_id = me.user_id
   left join lateral (
     select p.id, p.tier, p.amount_usd_cents, p.checkout_url, p.expires_at from payments p
     where p.user_id = me.user_id and p.purpose = 'renewal' and p.status = 'pending'
       and p.expires_at > now() and s.status in ('active', 'grace')
     order by p.created_at desc limit 1) r on true`,
);

/** `GET /me/subscription`: the caller's subscription as the API shows it. */
export async function subscriptionView(deps: Pick<SubscriptionDeps, 'em'>, actor: Actor) {
  return viewOf(deps.em, actor.userId);
}

/** The row and its open renewal invoice, in one statement. */
async function viewOf(em: EntityManager, userId: number) {
  return subscriptionWire(await sqlOf(em).row(subscriptionViewOf, [userId]));
}

function subscriptionWire(row: ViewRow | undefined) {
  if (!row?.status || row.status === 'none' || !row.tier) {
    return {
      tier: null,
      status: 'none' as const,
      renewsAt: null,
      provider: null,
      features: featuresOf(null),
      cancelAtPeriodEnd: false,
      pendingTier: null,
      graceUntil: null,
      renewal: null,
    };
  }
  const entitled = row.status === 'active' || row.status === 'grace';
  return {
    tier: row.tier,
    status: row.status,
    renewsAt: row.renewsAt,
    provider: row.provider ?? null,
    features: featuresOf(entitled ? row.tier : null),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd ?? false,
    pendingTier: row.pendingTier ?? null,
    graceUntil: row.graceUntil,
    renewal:
      row.renewalId && row.renewalTier && row.renewalUrl && row.renewalExpiresAt
        ? {
            paymentId: row.renewalId,
            tier: row.renewalTier,
            amountUsd: usdNumber(BigInt(row.renewalCents ?? 0)),
            checkoutUrl: row.renewalUrl,
            expiresAt: row.renewalExpiresAt,
          }
        : null,
  };
}

/**
 * The intent writes, each on the row `changeIntent` holds locked. Cancelling in grace ends the
 * subscription at once (`$1`).
 */
const cancelAtPeriodEnd = statement<Record<string, never>, [endNow: boolean, userId: number]>(
  'subscriptions.cancel',
  `update subscriptions set cancel_at_period_end = true, pending_tier = null,
     status = case when $1::boolean then 'none' else status end, updated_at = now()
   where user_id = $2`,
);

const resumeAtPeriodEnd = statement<Record<string, never>, [userId: number]>(
  'subscriptions.resume',
  `update subscriptions set cancel_at_period_end = false, updated_at = now() where user_id = $1`,
);

/** The next period's tier (null: the current one). */
const setPendingTier = statement<Record<string, never>, [pendingTier: Tier | null, userId: number]>(
  'subscriptions.set_pending_tier',
  `update subscriptions set pending_tier = $1, updated_at = now() where user_id = $2`,
);

function notFound(): AppError {
  return new AppError(
    'subscription_not_found',
    'You have no active subscription (start one with POST /subscriptions/checkout)',
  );
}

/**
 * Changes the row's intent under its lock, then tells the workflow. The change is committed
 * before the signal: a signal that fails is logged (the workflow reads the row at each step,
 * so it still sees the change, only later).
 */
async function changeIntent(
  deps: SubscriptionDeps,
  userId: number,
  change: (em: EntityManager, row: SubscriptionRow) => Promise<void>,
) {
  await deps.em.transactional(async (tx) => {
    const row = await subscriptionRow(tx, userId, true);
    if (!row || (row.status !== 'active' && row.status !== 'grace')) throw notFound();
    await change(tx, row);
  });
  try {
    await signalLifecycle(deps, userId, 'changed');
  } catch (error) {
    deps.logger.warn({ err: error, userId }, 'subscription workflow not signalled');
  }
  return viewOf(deps.em, userId);
}

/**
 * `POST /me/subscription/cancel`: the features stay until `renewsAt`, then the status is
 * `none`. In grace the paid period is already over, so the subscription ends at once.
 */
export async function cancelSubscription(deps: SubscriptionDeps, actor: Actor) {
  return changeIntent(deps, actor.userId, async (em, row) => {
    const ended = row.status === 'grace';
    await sqlOf(em).run(cancelAtPeriodEnd, [ended, actor.userId]);
  });
}

/** `POST /me/subscription/resume`: undoes a cancel while the period lasts. */
export async function resumeSubscription(deps: SubscriptionDeps, actor: Actor) {
  return changeIntent(deps, actor.userId, async (em) => {
    await sqlOf(em).run(resumeAtPeriodEnd, [actor.userId]);
  });
}

/**
 * `POST /me/subscription/change`: a downgrade (or staying) is recorded and takes effect at
 * `renewsAt`; an upgrade is a checkout of the price difference for the share of the period
 * left, and switches the tier as soon as it is paid.
 */
export async function changeSubscription(
  deps: SubscriptionDeps,
  actor: Actor,
  input: { tier: string; provider?: string },
) {
  const tier = tierOf(input.tier);
  const row = await subscriptionRow(deps.em, actor.userId);
  if (!row || (row.status !== 'active' && row.status !== 'grace')) throw notFound();
  if (tierRank(tier) <= tierRank(row.tier)) {
    if (tier === row.tier && row.pendingTier === null) {
      throw new AppError('invalid_request', `tier: you are on ${tier} already`);
    }
    // Downgrade, or back to the current tier: only the next period's tier changes.
    const subscription = await changeIntent(deps, actor.userId, async (em) => {
      await sqlOf(em).run(setPendingTier, [tier === row.tier ? null : tier, actor.userId]);
    });
    return { subscription, checkout: null };
  }
  if (row.status === 'grace') {
    throw new AppError(
      'subscription_past_due',
      'Your renewal is unpaid: pay it first (GET /me/subscription shows the invoice), then upgrade',
    );
  }
  const provider = providerOf(deps, input.provider ?? row.provider);
  const renewsAt = new Date(row.renewsAtMs);
  const amountUsdCents = proratedUpgradeCents(row.tier, tier, renewsAt, deps.now());
  const issued = await invoice(deps, {
    userId: actor.userId,
    purpose: 'upgrade',
    tier,
    provider,
    amountUsdCents,
    amountFlow: null,
    description: `upgrade ${row.tier} to ${tier} until ${utcDateString(renewsAt)}`,
  });
  return {
    subscription: await viewOf(deps.em, actor.userId),
    checkout: { ...checkoutWire(issued, tier), amountUsd: usdNumber(amountUsdCents) },
  };
}
