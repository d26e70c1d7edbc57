import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { MarketplaceActivities } from '../workers/activities/marketplace';
import type { MarketplaceStatsRefreshInput } from '../shared/temporal/workflows';

const { refreshMarketplaceStats } = proxyActivities<MarketplaceActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Keeps the marketplace figures right as time passes: the day windows move at UTC midnight
 * and the median's 30 × 24 h window rolls on, with no write to fire the triggers that keep
 * `agent_market_stats` exact otherwise. Every `intervalSeconds` it recomputes the rows whose
 * figures have expired since (a few index probes when none has).
 *
 * - Id: `maintenance:marketplace-stats-refresh:<taskQueue>` (one per deployment); the API
 *   starts it on boot with the "use existing" conflict policy, so many API instances start it
 *   once.
 * - Idempotency: the activity recomputes expired rows from source under their row locks, so a
 *   retried or repeated refresh changes nothing more.
 * - Timeouts: each refresh has 2 minutes and is retried with backoff.
 * - Terminal states: none in normal operation; it continues as new after `refreshesPerRun`
 *   refreshes to keep its history small. Cancelling or terminating it is safe (figures then
 *   go stale by time only, never by writes).
 */
export async function marketplaceStatsRefreshWorkflow(
  input: MarketplaceStatsRefreshInput,
): Promise<void> {
  for (let refresh = 0; refresh < input.refreshesPerRun; refresh++) {
    await refreshMarketplaceStats();
    await sleep(input.intervalSeconds * 1000);
  }
  await continueAsNew<typeof marketplaceStatsRefreshWorkflow>(input);
}
