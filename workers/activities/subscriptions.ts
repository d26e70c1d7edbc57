import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Config } from '../../shared/config';
import type { EntityManager } from '../../shared/db/orm';
import { sqlOf, statement } from '../../shared/db/sql';
import { DAY_MS } from '../../shared/domain/calendar';
import { TIER_PRICE_USD_CENTS } from '../../shared/domain/tiers';
import type { Logger } from '../../shared/logger';
import { enqueueNotification } from '../../shared/notifications/queue';
import { createHttpProviders } from '../../shared/payments/http-providers';
import { signalLifecycle } from '../../shared/payments/lifecycle-signal';
import { confirmPaidAtProvider, openInvoices } from '../../shared/payments/reconcile';
import { issueInvoice, providerEnabled, type HttpProviders } from '../../shared/payments/invoices';
import {
  PROVIDER_RESPONSE_MAX_BYTES,
  PROVIDER_TIMEOUT_MS,
  PROVIDERS,
  ProviderError,
  type ProviderName,
} from '../../shared/payments/provider';
import type {
  PaymentsReconcileResult,
  SubscriptionState,
  SubscriptionStepInput,
} from '../../shared/temporal/workflows';
import { createOutboundClient } from '../../shared/net/outbound-client';
import {
  applySubscriptionPayment,
  endGrace,
  endSubscriptionPeriod,
  loadSubscriptionState,
  renewalDue,
} from '../subscriptions/lifecycle';

/** One user's open invoices checked before a lifecycle step (the newest; older ones expired). */
const RECONCILE_LIMIT = 10;
/** The reconciler looks at invoices of the last 3 days (Crypto Pay retries a callback as long). */
const RECONCILE_WINDOW_MS = 3 * DAY_MS;
/** Invoices asked about, and unapplied payments signalled, per reconciler round. */
const RECONCILE_BATCH = 100;

interface UnappliedPayment {
  id: string;
  userId: number;
}

/** Subscription payments paid over a minute ago and still unapplied, oldest first. */
const unappliedPayments = statement<UnappliedPayment, [limit: number]>(
  'payments.unapplied',
  `select id, user_id as "userId" from payments
    where status = 'paid' and purpose <> 'topup' and applied_at is null
      and paid_at < now() - interval '1 minute'
    order by paid_at limit $1`,
);

/**
 * Activities of the subscription lifecycle (`workflows/subscription.ts`). Every step is
 * idempotent (see `workers/subscriptions/lifecycle.ts`) and returns the row as it is after the
 * step, for the workflow to plan its next timer from.
 */
export function createSubscriptionActivities(deps: {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  /** Signals lifecycles from the reconciler. */
  temporal: Client;
}) {
  // One pooled client per worker process; provider hosts pass the same SSRF checks as webhooks.
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: PROVIDER_TIMEOUT_MS,
    maxResponseBytes: PROVIDER_RESPONSE_MAX_BYTES,
  });
  const providers: HttpProviders = createHttpProviders(deps.config.payments, outbound);
  const payments = deps.config.payments;
  const state = (em: EntityManager, input: { userId: number; nowMs: number }) =>
    loadSubscriptionState(em, input.userId, new Date(input.nowMs));

  /** The subscription's provider, or another enabled one if it was switched off since. */
  const providerFor = (preferred: string): ProviderName | null => {
    const ordered = [preferred, ...PROVIDERS].filter((name): name is ProviderName =>
      (PROVIDERS as readonly string[]).includes(name),
    );
    return ordered.find((name) => providerEnabled({ payments, providers }, name)) ?? null;
  };

  /**
   * Issues the invoice of the period starting at `renewsAt` when one is due. A provider that
   * fails is logged, not retried here: in grace the next daily reminder issues it again.
   */
  async function invoiceRenewal(em: EntityManager, input: SubscriptionStepInput) {
    const now = new Date(input.nowMs);
    const renewsAt = new Date(input.renewsAtMs);
    const due = await renewalDue(em, { userId: input.userId, renewsAt, now });
    if (!due) return null;
    const provider = providerFor(due.provider);
    if (!provider) {
      deps.logger.warn(
        { userId: input.userId },
        'renewal not invoiced: no payment provider is enabled',
      );
      return null;
    }
    // Payable until the period ends; in grace, for a day (the next reminder issues a new one).
    const expiresAt =
      due.status === 'active'
        ? renewsAt
        : new Date(
            Math.min(input.nowMs + DAY_MS, due.graceUntil?.getTime() ?? input.nowMs + DAY_MS),
          );
    try {
      return await issueInvoice(
        { em, payments, providers },
        {
          userId: input.userId,
          purpose: 'renewal',
          tier: due.tier,
          provider,
          amountUsdCents: TIER_PRICE_USD_CENTS[due.tier],
          amountFlow: null,
          description: `${due.tier} subscription, 1 month (renewal)`,
          now,
          expiresAt,
        },
      );
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.logger.warn(
        { userId: input.userId, provider, detail: error.detail },
        'renewal invoice failed',
      );
      return null;
    }
  }

  /** A grace day: the invoice again (when none is open) and a message to the user. */
  async function remind(em: EntityManager, input: SubscriptionStepInput & { day: number }) {
    const invoice = await invoiceRenewal(em, input);
    const current = await state(em, input);
    if (current.status !== 'grace' || current.renewsAtMs !== input.renewsAtMs) return;
    const until = new Date(current.graceUntilMs ?? input.nowMs).toISOString();
    const pay = invoice ? ` Pay here: ${invoice.checkoutUrl}` : '';
    await enqueueNotification(em, {
      userId: input.userId,
      kind: 'subscription.grace',
      text: `Your subscription renewal is unpaid. Features stay on until ${until}.${pay}`,
      data: {
        day: input.day,
        graceUntil: until,
        paymentId: invoice?.paymentId ?? null,
        checkoutUrl: invoice?.checkoutUrl ?? null,
      },
      dedupeKey: `subscription.grace:${input.userId}:${input.renewsAtMs}:${input.day}`,
    });
  }

  return {
    /**
     * Asks the providers about the user's open subscription invoices and confirms those paid
     * there: a callback that never arrived must not put a paying subscriber into grace. Runs
     * before each time-driven step; the workflow applies what it confirmed before the step.
     */
    async reconcileSubscriptionPayments(input: {
      userId: number;
      nowMs: number;
    }): Promise<SubscriptionState> {
      const em = deps.orm.em.fork();
      const open = await openInvoices(
        em,
        { userId: input.userId, subscriptionsOnly: true },
        RECONCILE_LIMIT,
      );
      await confirmPaidAtProvider({ em, providers, logger: deps.logger }, open);
      return state(em, input);
    },

    /**
     * One round of the payments reconciler (`workflows/payments-reconcile.ts`): confirms the
     * recent open invoices paid at their provider (top-ups included), then signals the
     * lifecycle of every confirmed subscription payment still unapplied a minute after it was
     * paid (a signal lost after a callback or a confirmation here). A signal that fails fails
     * the round, which Temporal retries; what was confirmed stays confirmed.
     */
    async reconcilePayments(): Promise<PaymentsReconcileResult> {
      const em = deps.orm.em.fork();
      const open = await openInvoices(
        em,
        { createdAfter: new Date(Date.now() - RECONCILE_WINDOW_MS) },
        RECONCILE_BATCH,
      );
      const confirmed = await confirmPaidAtProvider({ em, providers, logger: deps.logger }, open);
      const stuck = await sqlOf(em).rows(unappliedPayments, [RECONCILE_BATCH]);
      // Confirmed now, or confirmed earlier with the signal lost: the lifecycle applies each once.
      const owed = new Map(stuck.map((payment) => [payment.id, payment.userId]));
      for (const payment of confirmed) {
        if (payment.needsLifecycle) owed.set(payment.id, payment.userId);
      }
      for (const [paymentId, userId] of owed) {
        await signalLifecycle({ temporal: deps.temporal, config: deps.config }, userId, {
          paymentConfirmed: paymentId,
        });
      }
      return { checked: open.length, confirmed: confirmed.length, signalled: owed.size };
    },

    async loadSubscription(input: { userId: number; nowMs: number }): Promise<SubscriptionState> {
      return state(deps.orm.em.fork(), input);
    },

    async applySubscriptionPayment(input: {
      userId: number;
      paymentId: string;
      nowMs: number;
    }): Promise<SubscriptionState> {
      const em = deps.orm.em.fork();
      const outcome = await applySubscriptionPayment(em, {
        userId: input.userId,
        paymentId: input.paymentId,
        now: new Date(input.nowMs),
        flowPerUsd: payments.flowPerUsd,
      });
      if (outcome)
        deps.logger.info(
          { userId: input.userId, paymentId: input.paymentId, outcome },
          'subscription payment applied',
        );
      return state(em, input);
    },

    async issueRenewalInvoice(input: SubscriptionStepInput): Promise<SubscriptionState> {
      const em = deps.orm.em.fork();
      await invoiceRenewal(em, input);
      return state(em, input);
    },

    async endSubscriptionPeriod(input: SubscriptionStepInput): Promise<SubscriptionState> {
      const em = deps.orm.em.fork();
      const outcome = await endSubscriptionPeriod(em, {
        userId: input.userId,
        renewsAt: new Date(input.renewsAtMs),
        now: new Date(input.nowMs),
      });
      if (outcome === 'grace') await remind(em, { ...input, day: 0 });
      return state(em, input);
    },

    async remindSubscriptionGrace(input: SubscriptionStepInput): Promise<SubscriptionState> {
      const em = deps.orm.em.fork();
      await remind(em, { ...input, day: input.day ?? 0 });
      return state(em, input);
    },

    async endSubscriptionGrace(input: SubscriptionStepInput): Promise<SubscriptionState> {
      const em = deps.orm.em.fork();
      await endGrace(em, {
        userId: input.userId,
        renewsAt: new Date(input.renewsAtMs),
        now: new Date(input.nowMs),
      });
      return state(em, input);
    },
  };
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;
