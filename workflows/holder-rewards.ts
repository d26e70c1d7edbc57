import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { HolderRewardActivities } from '../workers/activities/holder-rewards';
import type {
  HolderRewardDistributionInput,
  HolderRewardDistributionResult,
  HolderRewardsScheduleInput,
} from '../shared/temporal/workflows';

const { distributeHolderRewards } = proxyActivities<HolderRewardActivities>({
  // Thousands of payouts, one short transaction each; the activity beats between batches.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  // A database outage is waited out: every retry pays only what is still unpaid.
  retry: { initialInterval: '5 seconds', maximumInterval: '10 minutes' },
});

const { startDueHolderRewards } = proxyActivities<HolderRewardActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One holder-reward distribution of a token (docs/decisions.md "Holder rewards").
 *
 * - Id: `holder-rewards:<tokenId>:<period>`, `period` the UTC day; started by the scheduler
 *   below, or by hand to distribute now.
 * - Idempotency: the plan is one row per token and day, written with the pool's reservation in
 *   one transaction; each payout is marked paid in the transaction that credits it. A retried
 *   activity or a second run of the same id credits only what is still unpaid: nothing, once
 *   it completed.
 * - Timeouts: the activity has 30 minutes, heartbeats every 100 payouts (1-minute heartbeat
 *   timeout) and is retried with backoff until it succeeds.
 * - Terminal states: completed, with what this run credited.
 */
export async function holderRewardDistributionWorkflow(
  input: HolderRewardDistributionInput,
): Promise<HolderRewardDistributionResult> {
  return distributeHolderRewards(input);
}

/** The UTC day of a workflow timestamp (workflow time is deterministic). */
function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * Starts each token's distribution once per UTC day: every `intervalSeconds` it starts the
 * distributions due today (a pool to share, none made yet), so a day's distribution follows
 * soon after midnight, and one that found no user holding the token is tried again later.
 *
 * - Id: `maintenance:holder-rewards:<taskQueue>` (one per deployment); the API starts it on
 *   boot with the "use existing" conflict policy.
 * - Idempotency: distributions are per token and day in PostgreSQL and their workflow ids are
 *   the same business ids, so a repeated round starts nothing twice.
 * - Timeouts: each round's activity has 2 minutes and is retried with backoff.
 * - Terminal states: none; it continues as new after `roundsPerRun` rounds.
 */
export async function holderRewardsScheduleWorkflow(
  input: HolderRewardsScheduleInput,
): Promise<void> {
  for (let round = 0; round < input.roundsPerRun; round++) {
    await startDueHolderRewards({ period: utcDay(Date.now()) });
    await sleep(input.intervalSeconds * 1000);
  }
  await continueAsNew<typeof holderRewardsScheduleWorkflow>(input);
}
