import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentPurpose } from '../../shared/db/entities/payment';
import type { SubscriptionStatus, Tier } from '../../shared/db/entities/subscription';
import { flowForUsdCents, GRACE_DAYS } from '../../shared/domain/billing';
import { addUtcMonths, DAY_MS } from '../../shared/domain/calendar';
import { tierRank } from '../../shared/domain/tiers';
import { creditUser } from '../../shared/flow/ledger';
import { epochMs, sqlOf, statement } from '../../shared/db/sql';
import { enqueueNotification } from '../../shared/notifications/queue';
import { enqueueOutboxEvent } from '../../shared/outbox/outbox';
import { TOPUP_REF_TYPE } from '../../shared/payments/confirm';
import type { SubscriptionState } from '../../shared/temporal/workflows';

/**
 * The subscription row's transitions, run by the lifecycle workflow's activities
 * (docs/payments.md "Lifecycle"). Each is one transaction holding the row's lock, conditional
 * on the period it was planned for, so a retried or late step changes nothing twice. Times
 * come from the workflow (`now`), never from this process's clock: workflow time is what the
 * timers follow.
 */

interface Row {
  tier: Tier;
  status: SubscriptionStatus;
  provider: string;
  renewsAtMs: number;
  graceUntilMs: number | null;
  cancelAtPeriodEnd: boolean;
  pendingTier: Tier | null;
  nextPeriodPaymentId: string | null;
}

/** The row's columns as `Row` names them, for a statement on `subscriptions s`. */
const ROW_COLUMNS = `s.tier, s.status, s.provider, ${epochMs('s.renews_at')} as "renewsAtMs",
  ${epochMs('s.grace_until')} as "graceUntilMs", s.cancel_at_period_end as "cancelAtPeriodEnd",
  s.pending_tier as "pendingTier", s.next_period_payment_id as "nextPeriodPaymentId"`;

/** The user's subscription row, locked until the transaction ends. */
const lockSubscription = statement<Row, [userId: number]>(
  'subscriptions.lock_row',
  `select ${ROW_COLUMNS} from subscriptions s where s.user_id = $1 for update`,
);

async function lockRow(em: EntityManager, userId: number): Promise<Row | null> {
  return (await sqlOf(em).row(lockSubscription, [userId])) ?? null;
}

interface StateRow {
  status: SubscriptionStatus | null;
  renewsAtMs: number | null;
  graceUntilMs: number | null;
  cancelAtPeriodEnd: boolean | null;
  nextPeriodPaymentId: string | null;
  renewalIssued: boolean;
  unapplied: string[] | null;
}

/** The user's row (nulls without one), its open renewal, and its paid but unapplied payments. */
const subscriptionState = statement<StateRow, [now: Date, userId: number]>(
  'subscriptions.state',
  `select s.status, ${epochMs('s.renews_at')} as "renewsAtMs",
     ${epochMs('s.grace_until')} as "graceUntilMs", s.cancel_at_period_end as "cancelAtPeriodEnd",
     s.next_period_payment_id as "nextPeriodPaymentId",
     exists (select 1 from payments p where p.user_id = u.id and p.purpose = 'renewal'
               and p.status = 'pending' and p.expires_at > $1) as "renewalIssued",
     (select array_agg(p.id::text order by p.paid_at, p.id) from payments p
       where p.user_id = u.id and p.status = 'paid' and p.purpose <> 'topup'
         and p.applied_at is null) as unapplied
   from users u left join subscriptions s on s.user_id = u.id
   where u.id = $2`,
);

/** The row as the workflow plans from it, with the payments it still has to apply. */
export async function loadSubscriptionState(
  em: EntityManager,
  userId: number,
  now: Date,
): Promise<SubscriptionState> {
  const row = await sqlOf(em).row(subscriptionState, [now, userId]);
  return {
    status: row?.status ?? null,
    renewsAtMs: row?.renewsAtMs ?? null,
    graceUntilMs: row?.graceUntilMs ?? null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    nextPeriodPaid: (row?.nextPeriodPaymentId ?? null) !== null,
    renewalIssued: row?.renewalIssued ?? false,
    unappliedPaymentIds: row?.unapplied ?? [],
  };
}

async function granted(em: EntityManager, userId: number, tier: Tier, paymentId: string) {
  await enqueueOutboxEvent(em, {
    userId,
    event: 'subscription.granted',
    // Tiers are feature gates, not credit: no FLOW comes with them (spec "Subscription").
    data: { tier, amount_flow: 0, payment_id: paymentId },
    dedupeKey: `subscription.granted:${paymentId}`,
  });
}

interface PaymentRow {
  purpose: PaymentPurpose;
  tier: Tier;
  provider: string;
  status: string;
  /** Applied already (`applied_at` set). */
  applied: boolean;
  /** `bigint`, as a string. */
  amountUsdCents: string;
}

/** The user's payment, locked (before the subscription row) while it is applied. */
const lockPayment = statement<PaymentRow, [paymentId: string, userId: number]>(
  'subscriptions.lock_payment',
  `select purpose, tier, provider, status, applied_at is not null as applied,
     amount_usd_cents as "amountUsdCents"
   from payments where id = $1 and user_id = $2 for update`,
);

/** Marks a payment applied, with what applying it did. */
const markApplied = statement<
  Record<string, never>,
  [now: Date, outcome: ApplyOutcome, paymentId: string]
>(
  'subscriptions.mark_payment_applied',
  `update payments set applied_at = $1, outcome = $2, updated_at = $1 where id = $3`,
);

/** A new period from now: a new row, or an ended one started again. */
const activateSubscription = statement<
  Record<string, never>,
  [userId: number, tier: Tier, provider: string, renewsAt: Date, now: Date]
>(
  'subscriptions.activate',
  `insert into subscriptions (user_id, tier, status, provider, renews_at, cancel_at_period_end,
     pending_tier, grace_until, next_period_payment_id, created_at, updated_at)
   values ($1, $2, 'active', $3, $4, false, null, null, null, $5, $5)
   on conflict (user_id) do update set tier = excluded.tier, status = 'active',
     provider = excluded.provider, renews_at = excluded.renews_at,
     cancel_at_period_end = false, pending_tier = null, grace_until = null,
     next_period_payment_id = null, updated_at = excluded.updated_at`,
);

/** An upgrade: the higher tier at once, `renews_at` unchanged. */
const upgradeSubscription = statement<
  Record<string, never>,
  [tier: Tier, now: Date, userId: number]
>(
  'subscriptions.upgrade',
  `update subscriptions set tier = $1, pending_tier = null, updated_at = $2 where user_id = $3`,
);

/** The unpaid period paid in grace: active again, the next period from the old `renews_at`. */
const renewFromGrace = statement<
  Record<string, never>,
  [tier: Tier, renewsAt: Date, now: Date, userId: number]
>(
  'subscriptions.renew_from_grace',
  `update subscriptions set status = 'active', tier = $1, renews_at = $2, pending_tier = null,
     grace_until = null, next_period_payment_id = null, updated_at = $3
   where user_id = $4`,
);

/** The next period paid (which undoes a cancel at period end). */
const prepayNextPeriod = statement<
  Record<string, never>,
  [paymentId: string, now: Date, userId: number]
>(
  'subscriptions.prepay',
  `update subscriptions set next_period_payment_id = $1, cancel_at_period_end = false,
     updated_at = $2
   where user_id = $3`,
);

export type ApplyOutcome = 'activated' | 'renewed' | 'prepaid' | 'upgraded' | 'credited';

/**
 * Applies a confirmed subscription payment, once (`applied_at`). Locks the payment, then the
 * subscription row (the API's cancel, resume and change lock only the row).
 * - no subscription, or an ended one: a new period starts now (`activated`);
 * - in grace: the unpaid period is paid, and the next starts at the old `renewsAt` (`renewed`);
 * - active: a renewal (or a second checkout) pays the next period (`prepaid`), once, and
 *   undoes a cancel at period end (paying for the next period is a resume);
 * - an upgrade to a higher tier switches the tier at once, `renewsAt` unchanged (`upgraded`);
 * - anything else (a second payment for a period already paid, a stale upgrade) is credited as
 *   FLOW at FLOW_PER_USD (`credited`), so no money is ever lost.
 */
export async function applySubscriptionPayment(
  em: EntityManager,
  input: { userId: number; paymentId: string; now: Date; flowPerUsd: number },
): Promise<ApplyOutcome | null> {
  return em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const payment = await sql.row(lockPayment, [input.paymentId, input.userId]);
    if (!payment || payment.status !== 'paid' || payment.applied) return null;
    if (payment.purpose === 'topup') return null;
    const row = await lockRow(tx, input.userId);
    const outcome = await decide(tx, input, payment, row);
    await sql.run(markApplied, [input.now, outcome, input.paymentId]);
    return outcome;
  });
}

async function decide(
  em: EntityManager,
  input: { userId: number; paymentId: string; now: Date; flowPerUsd: number },
  payment: PaymentRow,
  row: Row | null,
): Promise<ApplyOutcome> {
  const { userId, paymentId, now } = input;
  if (!row || row.status === 'canceled' || row.status === 'none') {
    if (payment.purpose === 'upgrade') return credit(em, input, payment);
    await sqlOf(em).run(activateSubscription, [
      userId,
      payment.tier,
      payment.provider,
      addUtcMonths(now, 1),
      now,
    ]);
    await granted(em, userId, payment.tier, paymentId);
    return 'activated';
  }
  if (payment.purpose === 'upgrade') {
    if (tierRank(payment.tier) <= tierRank(row.tier)) return credit(em, input, payment);
    await sqlOf(em).run(upgradeSubscription, [payment.tier, now, userId]);
    await granted(em, userId, payment.tier, paymentId);
    return 'upgraded';
  }
  if (row.status === 'grace') {
    await sqlOf(em).run(renewFromGrace, [
      payment.tier,
      addUtcMonths(new Date(row.renewsAtMs), 1),
      now,
      userId,
    ]);
    await granted(em, userId, payment.tier, paymentId);
    return 'renewed';
  }
  if (row.nextPeriodPaymentId !== null) return credit(em, input, payment);
  // Paying the next period after a cancel is a resume: the payment wins over the flag.
  await sqlOf(em).run(prepayNextPeriod, [paymentId, now, userId]);
  return 'prepaid';
}

async function credit(
  em: EntityManager,
  input: { userId: number; paymentId: string; now: Date; flowPerUsd: number },
  payment: PaymentRow,
): Promise<'credited'> {
  const amount = flowForUsdCents(Number(payment.amountUsdCents), input.flowPerUsd);
  if (amount > 0n) {
    await creditUser(em, input.userId, amount, {
      reason: 'topup',
      refType: TOPUP_REF_TYPE,
      refId: input.paymentId,
      metadata: { provider: payment.provider, unapplied: payment.purpose },
      now: input.now,
    });
  }
  return 'credited';
}

export type PeriodEndOutcome = 'ended' | 'renewed' | 'grace' | null;

/** Canceled at period end, and the period is over: no subscription. */
const endCanceled = statement<Record<string, never>, [now: Date, userId: number]>(
  'subscriptions.end_canceled',
  `update subscriptions set status = 'none', pending_tier = null, updated_at = $1
    where user_id = $2`,
);

/** The tier a payment bought. */
const paidTier = statement<{ tier: Tier }, [paymentId: string]>(
  'subscriptions.paid_tier',
  `select tier from payments where id = $1`,
);

/** The prepaid next period starts, with the tier its payment bought. */
const startPrepaidPeriod = statement<
  Record<string, never>,
  [tier: Tier, renewsAt: Date, now: Date, userId: number]
>(
  'subscriptions.start_prepaid_period',
  `update subscriptions set tier = $1, renews_at = $2, pending_tier = null,
     next_period_payment_id = null, updated_at = $3
   where user_id = $4`,
);

/** The period is over unpaid: grace until `graceUntil`. */
const enterGrace = statement<Record<string, never>, [graceUntil: Date, now: Date, userId: number]>(
  'subscriptions.enter_grace',
  `update subscriptions set status = 'grace', grace_until = $1, updated_at = $2
    where user_id = $3`,
);

/** Grace ran out unpaid. */
const cancelAfterGrace = statement<Record<string, never>, [now: Date, userId: number]>(
  'subscriptions.cancel_after_grace',
  `update subscriptions set status = 'canceled', pending_tier = null, updated_at = $1
    where user_id = $2`,
);

/**
 * The period ending at `renewsAt` is over: a canceled subscription ends (`none`), a prepaid
 * one starts its next period (the pending downgrade, if any, takes effect: the next period's
 * tier is the one its payment bought), an unpaid one enters grace for 7 days.
 */
export async function endSubscriptionPeriod(
  em: EntityManager,
  input: { userId: number; renewsAt: Date; now: Date },
): Promise<PeriodEndOutcome> {
  return em.transactional(async (tx) => {
    const row = await lockRow(tx, input.userId);
    if (!row || row.status !== 'active') return null;
    if (row.renewsAtMs !== input.renewsAt.getTime()) return null;
    const sql = sqlOf(tx);
    if (row.cancelAtPeriodEnd) {
      await sql.run(endCanceled, [input.now, input.userId]);
      return 'ended';
    }
    if (row.nextPeriodPaymentId !== null) {
      const paid = await sql.row(paidTier, [row.nextPeriodPaymentId]);
      const tier = paid?.tier ?? row.pendingTier ?? row.tier;
      await sql.run(startPrepaidPeriod, [
        tier,
        addUtcMonths(new Date(row.renewsAtMs), 1),
        input.now,
        input.userId,
      ]);
      await granted(tx, input.userId, tier, row.nextPeriodPaymentId);
      return 'renewed';
    }
    await sql.run(enterGrace, [
      new Date(row.renewsAtMs + GRACE_DAYS * DAY_MS),
      input.now,
      input.userId,
    ]);
    return 'grace';
  });
}

/** Grace ran out unpaid: the subscription is canceled and its features go off. */
export async function endGrace(
  em: EntityManager,
  input: { userId: number; renewsAt: Date; now: Date },
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const row = await lockRow(tx, input.userId);
    if (!row || row.status !== 'grace') return false;
    if (row.renewsAtMs !== input.renewsAt.getTime()) return false;
    await sqlOf(tx).run(cancelAfterGrace, [input.now, input.userId]);
    await enqueueNotification(tx, {
      userId: input.userId,
      kind: 'subscription.canceled',
      text: `Your ${row.tier} subscription was canceled: its renewal stayed unpaid for ${GRACE_DAYS} days.`,
      data: { tier: row.tier, renewsAt: new Date(row.renewsAtMs).toISOString() },
      dedupeKey: `subscription.canceled:${input.userId}:${input.renewsAt.getTime()}`,
    });
    return true;
  });
}

/** What a renewal invoice is for: the row's tier for the next period and its provider. */
export interface RenewalTarget {
  tier: Tier;
  provider: string;
  status: SubscriptionStatus;
  graceUntil: Date | null;
}

/** The row, and whether a renewal invoice is open (pending and not expired at `now`). */
const renewalCandidate = statement<Row & { open: boolean }, [now: Date, userId: number]>(
  'subscriptions.renewal_candidate',
  `select ${ROW_COLUMNS},
     exists (select 1 from payments p where p.user_id = s.user_id and p.purpose = 'renewal'
               and p.status = 'pending' and p.expires_at > $1) as open
   from subscriptions s where s.user_id = $2`,
);

/**
 * The renewal to invoice for the period starting at `renewsAt`, or null when none is due: the
 * row moved on, is canceled at period end, the next period is paid, or an invoice is open.
 */
export async function renewalDue(
  em: EntityManager,
  input: { userId: number; renewsAt: Date; now: Date },
): Promise<RenewalTarget | null> {
  const row = await sqlOf(em).row(renewalCandidate, [input.now, input.userId]);
  if (!row || row.open || row.cancelAtPeriodEnd || row.nextPeriodPaymentId !== null) {
    return null;
  }
  if (row.status !== 'active' && row.status !== 'grace') return null;
  if (row.renewsAtMs !== input.renewsAt.getTime()) return null;
  return {
    tier: row.pendingTier ?? row.tier,
    provider: row.provider,
    status: row.status,
    graceUntil: row.graceUntilMs === null ? null : new Date(row.graceUntilMs),
  };
}
