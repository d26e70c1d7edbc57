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
import type { NotificationActivities } from '../workers/activities/notifications';
import { NOTIFICATION_BATCH } from '../shared/temporal/workflow-constants';
import { IDLE_BACKOFF_PATCH, idleWaitMs } from './idle';
import type {
  NotificationDeliveryInput,
  NotificationDeliveryOutcome,
  notificationDeliverySignals,
} from '../shared/temporal/workflows';

/** Infrastructure failures (the database) only: Matrix failures are outcomes, not errors. */
const retry = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
} as const;

/**
 * The poll is a local activity (an idle poll costs Temporal a marker and a timer), retried for
 * up to 10 minutes; pauses longer than 5 s wait on a server timer.
 */
const local = proxyLocalActivities<NotificationActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '10 minutes',
  localRetryThreshold: '5 seconds',
  retry,
});

/**
 * A delivery is a regular activity so it can heartbeat: a worker that dies while the homeserver
 * holds its request is noticed within 5 s and the delivery retried on another worker. Each call
 * to the homeserver is cut at 10 s (rate limits waited out for 10 s more), so 1 minute covers
 * the room's creation and the send.
 */
const remote = proxyActivities<NotificationActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '5 seconds',
  scheduleToCloseTimeout: '10 minutes',
  retry,
});

// Names from shared/temporal/; the type makes a signal name mismatch a compile error.
const NUDGE: (typeof notificationDeliverySignals)['nudge'] = 'nudge';
export const nudgeSignal = defineSignal(NUDGE);

/** An activity that used up its retries (not a cancellation, not a bug in this code). */
function exhausted(error: unknown): boolean {
  return !isCancellation(error) && error instanceof ActivityFailure;
}

/**
 * The sleep of an idle loop: it doubles with each empty look (up to a minute), but never
 * outlasts the backoff of a row that will be due (a failed delivery's retry keeps its time).
 * A queued notification, or a user who links a Matrix account, nudges the loop at once.
 */
async function idleWait(input: NotificationDeliveryInput, emptyLooks: number): Promise<number> {
  const idle = idleWaitMs(input.pollIntervalMs, Math.max(0, emptyLooks - 1));
  let nextDue: number | null = null;
  try {
    nextDue = await local.nextNotificationDueInMs();
  } catch (error) {
    if (!exhausted(error)) throw error;
  }
  return nextDue === null ? idle : Math.min(idle, Math.max(nextDue, input.pollIntervalMs));
}

async function due(): Promise<string[]> {
  try {
    return await local.dueNotifications();
  } catch (error) {
    if (!exhausted(error)) throw error;
    log.error('notification poll failed for 10 minutes; polling again', { error: String(error) });
    return [];
  }
}

/** One delivery; null when it failed for 10 minutes (the row is untouched: a later poll). */
async function deliver(notificationId: string): Promise<NotificationDeliveryOutcome | null> {
  try {
    return await remote.deliverNotification({ notificationId });
  } catch (error) {
    if (!exhausted(error)) throw error;
    log.error('notification delivery failed for 10 minutes', {
      notificationId,
      error: String(error),
    });
    return null;
  }
}

/**
 * Delivers queued milestone notifications to their users' linked Matrix accounts, forever.
 *
 * - Id: `notifications:deliver:<taskQueue>` (one per deployment); the API starts it on boot
 *   with the "use existing" policy (`ensureNotificationDelivery`).
 * - Loop: `dueNotifications` (a local activity) returns up to 20 due ids, oldest first; each is
 *   delivered by its own `deliverNotification` activity, one after the other, so a user's
 *   notifications arrive in order. A failure of the homeserver or the bot ends the batch early.
 *   When the batch was not full (or ended early), the workflow waits `pollIntervalMs` or until a
 *   `nudge` signal; after looks that found nothing the wait doubles, up to a minute
 *   (`idleWaitMs`, patched as `idle-backoff`): the worker's waker nudges it when a
 *   notification is queued (workers/waker.ts).
 * - Idempotency: the delivery re-reads its row and skips it when sent; the message's Matrix
 *   transaction id is `notification-<id>`, so a retried delivery whose first attempt reached
 *   the homeserver gets the same event, not a second message. At least once, never twice.
 * - Failures: Matrix failures are recorded on the row with its next attempt (backoff up to
 *   1 h) and never fail an activity; database failures are retried by Temporal (1 s doubling
 *   to 1 min) for up to 10 minutes, then the poll counts as empty or the row waits for a later
 *   poll, so an outage neither fails this workflow nor keeps it from continuing as new.
 * - Timeouts: a delivery has 1 minute and a 5 s heartbeat timeout; a poll 1 minute.
 * - Terminal states: none; it continues as new after `pollsPerRun` polls or when Temporal
 *   suggests it.
 */
export async function notificationDeliveryWorkflow(
  input: NotificationDeliveryInput,
): Promise<void> {
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  const backoff = patched(IDLE_BACKOFF_PATCH);
  let emptyLooks = 0;
  for (let poll = 0; poll < input.pollsPerRun; poll++) {
    nudged = false;
    const ids = await due();
    let endedEarly = false;
    for (const id of ids) {
      const outcome = await deliver(id);
      if (outcome === null || (outcome.status === 'failed' && outcome.homeserverFailed)) {
        endedEarly = true;
        break;
      }
    }
    if (workflowInfo().continueAsNewSuggested) break;
    emptyLooks = ids.length === 0 ? emptyLooks + 1 : 0;
    if (endedEarly || ids.length < NOTIFICATION_BATCH) {
      await condition(
        () => nudged,
        backoff ? await idleWait(input, emptyLooks) : input.pollIntervalMs,
      );
    }
  }
  await continueAsNew<typeof notificationDeliveryWorkflow>(input);
}
