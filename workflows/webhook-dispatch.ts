import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  isCancellation,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { WebhookActivities } from '../workers/activities/webhooks';
import { OUTBOX_BATCH } from '../shared/temporal/workflow-constants';
import type { WebhookDispatchInput, webhookDispatchSignals } from '../shared/temporal/workflows';
import { IDLE_BACKOFF_PATCH, idleWaitMs } from './idle';

const retry = { initialInterval: '1 second', maximumInterval: '1 minute' } as const;

/**
 * One poll is one local activity: an idle poll costs Temporal a marker and a timer. Pauses
 * between retries longer than 5 s wait on a server timer (the workflow task is given back),
 * and a poll still failing after 10 minutes counts as an empty one, so a long database outage
 * neither fails the dispatcher nor keeps it from continuing as new.
 */
const local = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '10 minutes',
  localRetryThreshold: '5 seconds',
  retry,
});

/** Runs started before `single-step-dispatch` replay with their three regular activities. */
const regular = proxyActivities<WebhookActivities>({ startToCloseTimeout: '1 minute', retry });

// Names from shared/temporal/; the type makes a signal name mismatch a compile error.
const NUDGE: (typeof webhookDispatchSignals)['nudge'] = 'nudge';
export const nudgeSignal = defineSignal(NUDGE);

async function pollInOneStep(): Promise<number> {
  try {
    return (await local.dispatchOutboxBatch()).events;
  } catch (error) {
    // Only a poll that used up its retries; a cancellation or a bug in this code is not one.
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    log.error('outbox poll failed for 10 minutes; polling again', { error: String(error) });
    return 0;
  }
}

/** The poll as three regular activities, as runs before `single-step-dispatch` recorded it. */
async function pollInThreeSteps(): Promise<number> {
  const batch = await regular.dispatchOutbox();
  if (batch.deliveryIds.length > 0) {
    await regular.startDeliveryWorkflows({ deliveryIds: batch.deliveryIds });
  }
  await regular.markOutboxDispatched({ outboxEventIds: batch.outboxEventIds });
  return batch.outboxEventIds.length;
}

/**
 * The outbox dispatcher: turns committed outbox events into deliveries and starts one
 * `webhook-delivery:<id>` workflow per delivery (from an activity, not as children, so this
 * history stays small however many deliveries pass), forever.
 *
 * - Id: `webhooks:dispatch:<taskQueue>` (one per deployment); the API starts it on boot with
 *   the "use existing" conflict policy.
 * - Crash safety: outbox rows are marked dispatched only after their deliveries' workflows
 *   were started (see `dispatchOutboxBatch`); until then every poll finds the same rows, the
 *   same deliveries (unique per event and subscription) and starts the workflows still missing
 *   (ids are business ids, so a running one is not started twice). Nothing is lost between
 *   commit and start.
 * - Timeouts: each poll has 1 minute and is retried with backoff for up to 10 minutes.
 * - Terminal states: none; it continues as new after `pollsPerRun` polls or when Temporal
 *   suggests it. A `nudge` signal cuts the wait short; after polls that found nothing the wait
 *   doubles, up to a minute (`idleWaitMs`, patched as `idle-backoff`): the worker's waker nudges
 *   it when an outbox event is committed (workers/waker.ts).
 */
export async function webhookDispatchWorkflow(input: WebhookDispatchInput): Promise<void> {
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  const singleStep = patched('single-step-dispatch');
  const backoff = patched(IDLE_BACKOFF_PATCH);
  let emptyLooks = 0;
  for (let poll = 0; poll < input.pollsPerRun; poll++) {
    nudged = false;
    const events = singleStep ? await pollInOneStep() : await pollInThreeSteps();
    if (workflowInfo().continueAsNewSuggested) break;
    emptyLooks = events === 0 ? emptyLooks + 1 : 0;
    if (events < OUTBOX_BATCH) {
      const wait = backoff
        ? idleWaitMs(input.pollIntervalMs, Math.max(0, emptyLooks - 1))
        : input.pollIntervalMs;
      await condition(() => nudged, wait);
    }
  }
  await continueAsNew<typeof webhookDispatchWorkflow>(input);
}
