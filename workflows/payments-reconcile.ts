import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { SubscriptionActivities } from '../workers/activities/subscriptions';
import type { PaymentsReconcileInput } from '../shared/temporal/workflows';

const { reconcilePayments } = proxyActivities<SubscriptionActivities>({
  // Up to 100 provider calls of at most 15 s each, in the worst case.
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '10 minutes' },
});

/**
 * The payments reconciler (docs/payments.md "Lost callbacks"): every `intervalSeconds` it asks
 * the providers about the open invoices of the last 3 days and confirms those paid there, and
 * signals the lifecycle of confirmed subscription payments still unapplied.
 *
 * - Id: `maintenance:payments-reconcile:<taskQueue>` (one per deployment); the API starts it
 *   on boot with the "use existing" conflict policy.
 * - Idempotency: confirming is once per payment, and a signal only makes the lifecycle apply
 *   what it has not applied yet, so a repeated round changes nothing.
 * - Timeouts: each round's activity has 30 minutes and is retried with backoff.
 * - Terminal states: none; it continues as new after `roundsPerRun` rounds.
 */
export async function paymentsReconcileWorkflow(input: PaymentsReconcileInput): Promise<void> {
  for (let round = 0; round < input.roundsPerRun; round++) {
    await reconcilePayments();
    await sleep(input.intervalSeconds * 1000);
  }
  await continueAsNew<typeof paymentsReconcileWorkflow>(input);
}
