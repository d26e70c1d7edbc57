import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentPurpose } from '../../shared/db/entities/payment';
import type { SubscriptionStatus, Tier } from '../../shared/db/entities/subscription';
import { flowForUsdCents, GRACE_DAYS } from '../../shared/domain/billing';
import { addUtcMonths, DAY_MS } from '../../shared/domain/calendar';
import { tierRank } from '../../shared/domain/tiers';
import { creditUser } from '../../shared/flow/ledger';
import { epochMs } from '../../shared/db/sql';
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
  renews_at_ms: number;
  grace_until_ms: number | null;
  cancel_at_period_end: boolean;
  pending_tier: Tier | null;
  next_period_payment_id: string | null;
}

async function lockRow(em: EntityManager, userId: number): Promise<Row | null> {
  const [row] = await em.execute<Row[]>(
    `select tier, status, provider, ${epochMs('renews_at')} as renews_at_ms,
       ${epochMs('grace_until')} as grace_until_ms, cancel_at_period_end, pending_tier,
       next_period_payment_id
     from subscriptions where user_id = ? for update`,
    [userId],
  );
  return row ?? null;
}

/** The row as the workflow plans from it, with the payments it still has to apply. */
export async function loadSubscriptionState(
  em: EntityManager,
  userId: number,
  now: Date,
): Promise<SubscriptionState> {
  const [row] = await em.execute<(Row & { renewal_issued: boolean; unapplied: string[] | null })[]>(
    `select s.status, ${epochMs('s.renews_at')} as renews_at_ms,
       ${epochMs('s.grace_until')} as grace_until_ms, s.cancel_at_period_end,
       s.next_period_payment_id,
       exists (select 1 from payments p where p.user_id = u.id and p.purpose = 'renewal'
                 and p.status = 'pending' and p.expires_at > ?) as renewal_issued,
       (select array_agg(p.id::text order by p.paid_at, p.id) from payments p
         where p.user_id = u.id and p.status = 'paid' and p.purpose <> 'topup'
           and p.applied_at is null) as unapplied
     from users u left join subscriptions s on s.user_id = u.id
     where u.id = ?`,
    [now, userId],
  );
  return {
    status: row?.status ?? null,
    renewsAtMs: row?.renews_at_ms ?? null,
    graceUntilMs: row?.grace_until_ms ?? null,
    cancelAtPeriodEnd: row?.cancel_at_period_end ?? false,
    nextPeriodPaid: (row?.next_period_payment_id ?? null) !== null,
    renewalIssued: row?.renewal_issued ?? false,
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
  applied_at: Date | null;
  amount_usd_cents: string;
}

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
    const [payment] = await tx.execute<PaymentRow[]>(
      `select purpose, tier, provider, status, applied_at, amount_usd_cents
       from payments where id = ? and user_id = ? for update`,
      [input.paymentId, input.userId],
    );
    if (!payment || payment.status !== 'paid' || payment.applied_at !== null) return null;
    if (payment.purpose === 'topup') return null;
    const row = await lockRow(tx, input.userId);
    const outcome = await decide(tx, input, payment, row);
    await tx.execute(
      `update payments set applied_at = ?, outcome = ?, updated_at = ? where id = ?`,
      [input.now, outcome, input.now, input.paymentId],
    );
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
    await em.execute(
      `insert into subscriptions (user_id, tier, status, provider, renews_at, cancel_at_period_end,
         pending_tier, grace_until, next_period_payment_id, created_at, updated_at)
       values (?, ?, 'active', ?, ?, false, null, null, null, ?, ?)
       on conflict (user_id) do update set tier = excluded.tier, status = 'active',
         provider = excluded.provider, renews_at = excluded.renews_at,
         cancel_at_period_end = false, pending_tier = null, grace_until = null,
         next_period_payment_id = null, updated_at = excluded.updated_at`,
      [userId, payment.tier, payment.provider, addUtcMonths(now, 1), now, now],
    );
    await granted(em, userId, payment.tier, paymentId);
    return 'activated';
  }
  if (payment.purpose === 'upgrade') {
    if (tierRank(payment.tier) <= tierRank(row.tier)) return credit(em, input, payment);
    await em.execute(
      `update subscriptions set tier = ?, pending_tier = null, updated_at = ? where user_id = ?`,
      [payment.tier, now, userId],
    );
    await granted(em, userId, payment.tier, paymentId);
    return 'upgraded';
  }
  if (row.status === 'grace') {
    await em.execute(
      `update subscriptions set status = 'active', tier = ?, renews_at = ?, pending_tier = null,
         grace_until = null, next_period_payment_id = null, updated_at = ?
       where user_id = ?`,
      [payment.tier, addUtcMonths(new Date(row.renews_at_ms), 1), now, userId],
    );
    await granted(em, userId, payment.tier, paymentId);
    return 'renewed';
  }
  if (row.next_period_payment_id !== null) return credit(em, input, payment);
  // Paying the next period after a cancel is a resume: the payment wins over the flag.
  await em.execute(
    `update subscriptions set next_period_payment_id = ?, cancel_at_period_end = false,
       updated_at = ?
     where user_id = ?`,
    [paymentId, now, userId],
  );
  return 'prepaid';
}

async function credit(
  em: EntityManager,
  input: { userId: number; paymentId: string; now: Date; flowPerUsd: number },
  payment: PaymentRow,
): Promise<'credited'> {
  const amount = flowForUsdCents(Number(payment.amount_usd_cents), input.flowPerUsd);
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
    if (row.renews_at_ms !== input.renewsAt.getTime()) return null;
    if (row.cancel_at_period_end) {
      await tx.execute(
        `update subscriptions set status = 'none', pending_tier = null, updated_at = ?
         where user_id = ?`,
        [input.now, input.userId],
      );
      return 'ended';
    }
    if (row.next_period_payment_id !== null) {
      const [paid] = await tx.execute<{ tier: Tier }[]>(`select tier from payments where id = ?`, [
        row.next_period_payment_id,
      ]);
      const tier = paid?.tier ?? row.pending_tier ?? row.tier;
      await tx.execute(
        `update subscriptions set tier = ?, renews_at = ?, pending_tier = null,
           next_period_payment_id = null, updated_at = ?
         where user_id = ?`,
        [tier, addUtcMonths(new Date(row.renews_at_ms), 1), input.now, input.userId],
      );
      await granted(tx, input.userId, tier, row.next_period_payment_id);
      return 'renewed';
    }
    await tx.execute(
      `update subscriptions set status = 'grace', grace_until = ?, updated_at = ?
       where user_id = ?`,
      [new Date(row.renews_at_ms + GRACE_DAYS * DAY_MS), input.now, input.userId],
    );
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
    if (row.renews_at_ms !== input.renewsAt.getTime()) return false;
    await tx.execute(
      `update subscriptions set status = 'canceled', pending_tier = null, updated_at = ?
       where user_id = ?`,
      [input.now, input.userId],
    );
    await enqueueNotification(tx, {
      userId: input.userId,
      kind: 'subscription.canceled',
      text: `Your ${row.tier} subscription was canceled: its renewal stayed unpaid for ${GRACE_DAYS} days.`,
      data: { tier: row.tier, renewsAt: new Date(row.renews_at_ms).toISOString() },
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

/**
 * The renewal to invoice for the period starting at `renewsAt`, or null when none is due: the
 * row moved on, is canceled at period end, the next period is paid, or an invoice is open.
 */
export async function renewalDue(
  em: EntityManager,
  input: { userId: number; renewsAt: Date; now: Date },
): Promise<RenewalTarget | null> {
  const [row] = await em.execute<(Row & { open: boolean })[]>(
    `select s.tier, s.status, s.provider, ${epochMs('s.renews_at')} as renews_at_ms,
       ${epochMs('s.grace_until')} as grace_until_ms, s.cancel_at_period_end,
       s.pending_tier, s.next_period_payment_id,
       exists (select 1 from payments p where p.user_id = s.user_id and p.purpose = 'renewal'
                 and p.status = 'pending' and p.expires_at > ?) as open
     from subscriptions s where s.user_id = ?`,
    [input.now, input.userId],
  );
  if (!row || row.open || row.cancel_at_period_end || row.next_period_payment_id !== null) {
    return null;
  }
  if (row.status !== 'active' && row.status !== 'grace') return null;
  if (row.renews_at_ms !== input.renewsAt.getTime()) return null;
  return {
    tier: row.pending_tier ?? row.tier,
    provider: row.provider,
    status: row.status,
    graceUntil: row.grace_until_ms === null ? null : new Date(row.grace_until_ms),
  };
}
