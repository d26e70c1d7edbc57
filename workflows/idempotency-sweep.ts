import { continueAsNew, patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../workers/activities/maintenance';
import type { IdempotencySweepInput } from '../shared/temporal/workflows';

const { purgeExpiredIdempotencyKeys, releaseExpiredFlowHolds } =
  proxyActivities<MaintenanceActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });

/**
 * Purges expired Idempotency-Key records forever, and releases FLOW holds of agent calls that
 * never settled.
 *
 * - Id: `maintenance:idempotency-sweep:<taskQueue>` (one per deployment); the API starts it
 *   on boot with the "use existing" conflict policy, so many API instances start it once.
 * - Idempotency: the purge activity deletes only expired rows, so a retried or repeated
 *   purge is harmless.
 * - Timeouts: each purge has 1 minute and is retried with backoff.
 * - Terminal states: none in normal operation; it continues as new after `purgesPerRun`
 *   purges to keep its history small. Cancelling or terminating it is safe.
 */
export async function idempotencySweepWorkflow(input: IdempotencySweepInput): Promise<void> {
  for (let purge = 0; purge < input.purgesPerRun; purge++) {
    await purgeExpiredIdempotencyKeys();
    // Added after the first release: runs that started before it replay without the call.
    if (patched('release-expired-flow-holds')) await releaseExpiredFlowHolds();
    await sleep(input.intervalSeconds * 1000);
  }
  await continueAsNew<typeof idempotencySweepWorkflow>(input);
}
