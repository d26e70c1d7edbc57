import { patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../workers/activities/webhooks';
import type { WebhookDeliveryInput } from '../shared/temporal/workflows';
import { DELIVERY_RETRY_BASES_MS } from '../shared/temporal/workflow-constants';

// The bases of shared/webhooks/events.ts; the type makes a mismatch a compile error.

// Only infrastructure failures throw (HTTP failures are values), so retry them until the
// database or a worker is back.
const retry = { initialInterval: '1 second', maximumInterval: '1 minute' } as const;

/**
 * Attempts run as local activities: on the worker that runs the workflow, inside its workflow
 * task, recorded as one marker. Temporal does a third of the work of a regular activity (no
 * activity task to schedule, dispatch and complete, no second workflow task), which is what
 * bounds delivery throughput. A POST takes at most 10 s; the rest is two short queries.
 */
const local = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry,
  // Longer pauses between infrastructure retries (a database outage) wait on a server timer,
  // so the workflow task and its slot are given back meanwhile.
  localRetryThreshold: '5 seconds',
});

/** Deliveries started before `local-delivery-attempts` replay with regular activities. */
const regular = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '5 seconds',
  retry,
});

export interface WebhookDeliveryResult {
  ok: boolean;
  attempts: number;
}

/**
 * Sends one webhook delivery: attempt 1, then up to 3 retries with full-jitter exponential
 * backoff (before retry k, a random pause in [0, DELIVERY_RETRY_BASES_MS[k-1]] ms; the
 * workflow's Math.random is deterministic on replay). Each attempt re-signs with a fresh
 * timestamp and the same envelope id.
 *
 * - Id: `webhook-delivery:<deliveryId>`: starting it twice for one delivery finds the first.
 * - Idempotency: a delivery already `succeeded` or `failed` is not sent again; an attempt
 *   whose worker died is re-sent (at least once; receivers dedupe by `webhook-id`). A dead
 *   worker is noticed when its workflow task times out (10 s), and another worker replays the
 *   workflow and runs the attempt again.
 * - Timeouts: 10 s per POST (the outbound client), 30 s per attempt.
 * - Terminal states: the delivery row ends `succeeded` or `failed` (then the subscription's
 *   `last_error` is set); the workflow itself always completes.
 */
export async function webhookDeliveryWorkflow(
  input: WebhookDeliveryInput,
): Promise<WebhookDeliveryResult> {
  const { deliveryId } = input;
  const { attemptDelivery } = patched('local-delivery-attempts') ? local : regular;
  let attempt = 1;
  for (;;) {
    const result = await attemptDelivery({ deliveryId, attempt });
    const base: number | undefined = DELIVERY_RETRY_BASES_MS[attempt - 1];
    // `done` comes with the last attempt at the latest; `base` guards a row edited by hand.
    if (result.done || base === undefined) return { ok: result.ok, attempts: attempt };
    const pauseMs = Math.floor(Math.random() * (base + 1));
    if (pauseMs > 0) await sleep(pauseMs);
    attempt += 1;
  }
}
