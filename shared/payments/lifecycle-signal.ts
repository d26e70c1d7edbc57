import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import {
  mainTaskQueue,
  subscriptionSignals,
  workflowIds,
  workflowTypes,
  type SubscriptionWorkflowInput,
} from '../temporal';
import { ensureSearchAttributesRegistered } from '../temporal/search-attribute-registration';
import { searchAttributes } from '../temporal/search-attributes';
import { withTemporalDeadline } from '../temporal/start-with-deadline';

/**
 * The one way to tell a user's subscription lifecycle (`subscription:<userId>`, docs/payments.md
 * "Lifecycle") that something changed: the API after a provider's callback or a change of the
 * row, the chain indexer after a `usdt_bep20` transfer confirmed a payment.
 */

export interface LifecycleDeps {
  temporal: Client;
  config: Pick<Config, 'temporal' | 'payments'>;
}

export type LifecycleSignal = { paymentConfirmed: string } | 'changed';

/**
 * Tells `subscription:<userId>` something changed, starting it if it is not running
 * (signal-with-start; search attribute `UserId`, set when it starts it). Throws when Temporal
 * does not answer within the call deadline; the state it is told about is already committed,
 * so a retry only repeats the signal.
 */
export async function signalLifecycle(
  deps: LifecycleDeps,
  userId: number,
  signal: LifecycleSignal,
): Promise<void> {
  const input: SubscriptionWorkflowInput = {
    userId,
    renewalLeadMs: deps.config.payments.renewalLeadHours * 3_600_000,
  };
  const [name, args] =
    signal === 'changed'
      ? [subscriptionSignals.changed, []]
      : [subscriptionSignals.paymentConfirmed, [{ paymentId: signal.paymentConfirmed }]];
  await withTemporalDeadline(deps.temporal, async () => {
    await ensureSearchAttributesRegistered(deps.temporal);
    await deps.temporal.workflow.signalWithStart(workflowTypes.subscription, {
      workflowId: workflowIds.subscription(userId),
      taskQueue: mainTaskQueue(deps.config.temporal.taskQueue),
      args: [input],
      signal: name,
      signalArgs: args,
      typedSearchAttributes: searchAttributes({ userId }),
    });
  });
}
