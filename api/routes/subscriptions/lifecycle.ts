import type { Client } from '@temporalio/client';
import type { Config } from '../../../shared/config';
import {
  mainTaskQueue,
  subscriptionSignals,
  TEMPORAL_CALL_DEADLINE_MS,
  workflowIds,
  workflowTypes,
  type SubscriptionWorkflowInput,
} from '../../../shared/temporal';

export interface LifecycleDeps {
  temporal: Client;
  config: Pick<Config, 'temporal' | 'payments'>;
}

export type LifecycleSignal = { paymentConfirmed: string } | 'changed';

/**
 * Tells `subscription:<userId>` something changed, starting it if it is not running
 * (signal-with-start). Throws when Temporal does not answer within the call deadline; the
 * state it is told about is already committed, so a retry only repeats the signal.
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
  await deps.temporal.connection.withDeadline(Date.now() + TEMPORAL_CALL_DEADLINE_MS, () =>
    deps.temporal.workflow.signalWithStart(workflowTypes.subscription, {
      workflowId: workflowIds.subscription(userId),
      taskQueue: mainTaskQueue(deps.config.temporal.taskQueue),
      args: [input],
      signal: name,
      signalArgs: args,
    }),
  );
}
