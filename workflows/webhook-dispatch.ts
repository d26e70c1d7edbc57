import {
  condition,
  continueAsNew,
  defineSignal,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { WebhookActivities } from '../workers/activities/webhooks';
import type { OUTBOX_BATCH } from '../workers/webhooks/dispatch-outbox';
import type { WebhookDispatchInput, webhookDispatchSignals } from '../shared/temporal/workflows';
import { webhookDeliveryWorkflow } from './webhook-delivery';

const { dispatchOutbox, markOutboxDispatched } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// Names from shared/temporal/; the type makes a signal name mismatch a compile error.
const NUDGE: (typeof webhookDispatchSignals)['nudge'] = 'nudge';
export const nudgeSignal = defineSignal(NUDGE);

/** `workflowIds.webhookDelivery` (shared/temporal/workflow-ids.ts; the test checks they agree). */
const deliveryWorkflowId = (deliveryId: string) => `webhook-delivery:${deliveryId}`;

/** The activity's batch size (typed to match): a full batch means more rows are waiting. */
const FULL_BATCH: typeof OUTBOX_BATCH = 100;

/**
 * The outbox dispatcher: turns committed outbox events into deliveries and starts one
 * `webhook-delivery:<id>` workflow per delivery, forever.
 *
 * - Id: `webhooks:dispatch:<taskQueue>` (one per deployment); the API starts it on boot with
 *   the "use existing" conflict policy.
 * - Crash safety: outbox rows are marked dispatched only after their deliveries' workflows
 *   were started; until then every poll finds the same rows, the same deliveries (unique per
 *   event and subscription) and starts the workflows still missing (ids are business ids, so a
 *   running one is not started twice). Nothing is lost between commit and start.
 * - Timeouts: each activity has 1 minute and is retried with backoff.
 * - Terminal states: none; it continues as new after `pollsPerRun` polls or when Temporal
 *   suggests it. A `nudge` signal cuts the wait short.
 */
export async function webhookDispatchWorkflow(input: WebhookDispatchInput): Promise<void> {
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  for (let poll = 0; poll < input.pollsPerRun; poll++) {
    nudged = false;
    const batch = await dispatchOutbox();
    await Promise.all(batch.deliveryIds.map(startDelivery));
    await markOutboxDispatched({ outboxEventIds: batch.outboxEventIds });
    if (workflowInfo().continueAsNewSuggested) break;
    if (batch.outboxEventIds.length < FULL_BATCH) {
      await condition(() => nudged, input.pollIntervalMs);
    }
  }
  await continueAsNew<typeof webhookDispatchWorkflow>(input);
}

/** Starts a delivery's workflow and lets it outlive this run (abandon on close). */
async function startDelivery(deliveryId: string): Promise<void> {
  try {
    await startChild(webhookDeliveryWorkflow, {
      workflowId: deliveryWorkflowId(deliveryId),
      args: [{ deliveryId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      // A delivery whose workflow completed is never sent again by the dispatcher; only a
      // failed run (not a failed delivery: that completes) may be started again.
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    });
  } catch (error) {
    // Running or already finished: both mean this delivery is handled.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
