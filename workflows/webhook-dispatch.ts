import {
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { WebhookActivities } from '../workers/activities/webhooks';
import type { OUTBOX_BATCH } from '../workers/webhooks/dispatch-outbox';
import type { WebhookDispatchInput, webhookDispatchSignals } from '../shared/temporal/workflows';

const { dispatchOutbox, startDeliveryWorkflows, markOutboxDispatched } =
  proxyActivities<WebhookActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });

// Names from shared/temporal/; the type makes a signal name mismatch a compile error.
const NUDGE: (typeof webhookDispatchSignals)['nudge'] = 'nudge';
export const nudgeSignal = defineSignal(NUDGE);

/** The activity's batch size (typed to match): a full batch means more rows are waiting. */
const FULL_BATCH: typeof OUTBOX_BATCH = 100;

/**
 * The outbox dispatcher: turns committed outbox events into deliveries and starts one
 * `webhook-delivery:<id>` workflow per delivery (from an activity, not as children, so this
 * history stays small however many deliveries pass), forever.
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
    if (batch.deliveryIds.length > 0) {
      await startDeliveryWorkflows({ deliveryIds: batch.deliveryIds });
    }
    await markOutboxDispatched({ outboxEventIds: batch.outboxEventIds });
    if (workflowInfo().continueAsNewSuggested) break;
    if (batch.outboxEventIds.length < FULL_BATCH) {
      await condition(() => nudged, input.pollIntervalMs);
    }
  }
  await continueAsNew<typeof webhookDispatchWorkflow>(input);
}
