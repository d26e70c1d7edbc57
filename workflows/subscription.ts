import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  defineSignal,
} from '@temporalio/workflow';
import { DAY_MS } from '../shared/domain/calendar';
import type { SubscriptionActivities } from '../workers/activities/subscriptions';
import type {
  PaymentConfirmedSignal,
  SubscriptionState,
  SubscriptionWorkflowInput,
  subscriptionSignals,
} from '../shared/temporal/workflows';

const acts = proxyActivities<SubscriptionActivities>({
  // Short transactions and at most one provider call (15 s) each.
  startToCloseTimeout: '1 minute',
  // A database outage is waited out; every step is conditional on the period it was planned for.
  retry: { initialInterval: '5 seconds', maximumInterval: '10 minutes' },
});

// Names from shared/temporal/workflows.ts; the types make a mismatch a compile error.
const PAYMENT_CONFIRMED: (typeof subscriptionSignals)['paymentConfirmed'] = 'paymentConfirmed';
const CHANGED: (typeof subscriptionSignals)['changed'] = 'changed';
export const paymentConfirmedSignal = defineSignal<[PaymentConfirmedSignal]>(PAYMENT_CONFIRMED);
export const subscriptionChangedSignal = defineSignal(CHANGED);

/** With nothing to drive (no subscription, or it ended), wait this long for a signal, then end. */
const IDLE_MS = DAY_MS;
/** Steps per run before continuing as new, in case periods never advance (a safety bound). */
const STEPS_PER_RUN = 200;

type Step =
  | {
      activity: 'issueRenewalInvoice' | 'endSubscriptionPeriod' | 'endSubscriptionGrace';
      atMs: number;
      day?: undefined;
    }
  | { activity: 'remindSubscriptionGrace'; atMs: number; day: number };

/**
 * The next thing the lifecycle does, from the row: issue the renewal invoice `renewalLeadMs`
 * before `renewsAt` (once per period), end the period at `renewsAt`, remind daily in grace, and
 * cancel at `graceUntil`. Null when there is nothing to drive.
 */
function nextStep(
  state: SubscriptionState,
  now: number,
  renewalLeadMs: number,
  invoicedFor: number | null,
): Step | null {
  const renewsAt = state.renewsAtMs;
  if (renewsAt === null) return null;
  if (state.status === 'active') {
    const invoiceDue =
      !state.cancelAtPeriodEnd &&
      !state.nextPeriodPaid &&
      !state.renewalIssued &&
      invoicedFor !== renewsAt;
    if (invoiceDue) return { activity: 'issueRenewalInvoice', atMs: renewsAt - renewalLeadMs };
    return { activity: 'endSubscriptionPeriod', atMs: renewsAt };
  }
  if (state.status === 'grace' && state.graceUntilMs !== null) {
    const day = Math.max(1, Math.floor((now - renewsAt) / DAY_MS) + 1);
    const reminderAt = renewsAt + day * DAY_MS;
    if (reminderAt < state.graceUntilMs) {
      return { activity: 'remindSubscriptionGrace', atMs: reminderAt, day };
    }
    return { activity: 'endSubscriptionGrace', atMs: state.graceUntilMs };
  }
  return null;
}

/**
 * A user's platform subscription over time (docs/payments.md "Lifecycle").
 *
 * - Id: `subscription:<userId>`, one per user. Started and signalled with signal-with-start by
 *   the API: `paymentConfirmed` after a provider confirmed a subscription payment, `changed`
 *   after cancel, resume or a downgrade changed the row.
 * - State: the `subscriptions` row is the read model the API serves; this workflow owns its
 *   time-driven transitions and the application of payments. Each step is an activity that
 *   locks the row and is conditional on the period it was planned for, so retries, replays and
 *   late signals change nothing twice. Payments are applied once (`payments.applied_at`); on
 *   start it also applies any confirmed payment whose signal was lost, and before each
 *   time-driven step it asks the providers about open invoices (a lost callback).
 * - Periods: calendar months. The renewal invoice is issued `renewalLeadMs` before `renewsAt`;
 *   unpaid at `renewsAt` → grace (features stay), the invoice re-issued and the user notified
 *   daily; paid within 7 days → active, the next period continuing from the old `renewsAt`;
 *   unpaid after 7 days → canceled. Cancel at period end → `none` at `renewsAt`.
 * - Timeouts: each activity 1 minute, retried with backoff until it succeeds.
 * - Terminal states: completes after a day with nothing to drive (no subscription, canceled or
 *   ended); the next signal-with-start begins a new run. Continues as new whenever a period
 *   advances, carrying payments signalled but not yet applied.
 */
export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<void> {
  const { userId, renewalLeadMs } = input;
  const payments: string[] = [...(input.paymentIds ?? [])];
  let changed = false;
  setHandler(paymentConfirmedSignal, ({ paymentId }) => {
    if (!payments.includes(paymentId)) payments.push(paymentId);
  });
  setHandler(subscriptionChangedSignal, () => {
    changed = true;
  });
  const woken = () => payments.length > 0 || changed;

  let state = await acts.loadSubscription({ userId, nowMs: Date.now() });
  const startedPeriod = state.renewsAtMs;
  let invoicedFor: number | null = null;
  for (let step = 0; step < STEPS_PER_RUN; step++) {
    for (const paymentId of state.unappliedPaymentIds) {
      if (!payments.includes(paymentId)) payments.push(paymentId);
    }
    while (payments.length > 0) {
      const paymentId = payments.shift()!;
      state = await acts.applySubscriptionPayment({ userId, paymentId, nowMs: Date.now() });
    }
    if (changed) {
      changed = false;
      state = await acts.loadSubscription({ userId, nowMs: Date.now() });
      continue;
    }
    // A new period began (a renewal, not the activation): start a fresh history.
    const advanced = startedPeriod !== null && state.renewsAtMs !== startedPeriod;
    if (state.status === 'active' && advanced) break;
    const next = nextStep(state, Date.now(), renewalLeadMs, invoicedFor);
    if (next === null) {
      if (await condition(woken, IDLE_MS)) continue;
      await condition(allHandlersFinished);
      if (payments.length === 0 && !changed) return;
      continue;
    }
    const wait = next.atMs - Date.now();
    if (wait > 0 && (await condition(woken, wait))) continue;
    if (next.activity !== 'issueRenewalInvoice') {
      // A payment whose callback was lost is found at the provider before time moves on.
      state = await acts.reconcileSubscriptionPayments({ userId, nowMs: Date.now() });
      if (state.unappliedPaymentIds.length > 0) continue;
    }
    const renewsAtMs = state.renewsAtMs!;
    if (next.activity === 'issueRenewalInvoice') invoicedFor = renewsAtMs;
    state = await acts[next.activity]({ userId, renewsAtMs, nowMs: Date.now(), day: next.day });
  }
  await condition(allHandlersFinished);
  await continueAsNew<typeof subscriptionWorkflow>({ userId, renewalLeadMs, paymentIds: payments });
}
