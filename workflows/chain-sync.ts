import {
  condition,
  continueAsNew,
  defineSignal,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ChainActivities } from '../workers/activities/chain';
import type { ChainSyncInput, chainSyncSignals } from '../shared/temporal/workflows';
import { IDLE_BACKOFF_PATCH, idleWaitMs } from './idle';

/**
 * A pass reads at most this many ranges or for this long, so one activity never holds a
 * connection or a history event for long, and a worker shutdown waits seconds, not minutes.
 */
const PASS = { maxRanges: 50, budgetMs: 20_000 } as const;

const { syncChain } = proxyActivities<ChainActivities>({
  startToCloseTimeout: '2 minutes',
  // A pass beats after every range: a worker that died mid-pass is noticed in seconds, not at
  // the 2-minute timeout, and the retry resumes from the last committed range.
  heartbeatTimeout: '10 seconds',
  // An RPC or database outage is waited out, never given up on: the index resumes from its
  // committed cursor whenever the pass succeeds again.
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// Names from shared/temporal/; the type makes a signal name mismatch a compile error.
const NUDGE: (typeof chainSyncSignals)['nudge'] = 'nudge';
export const chainSyncNudgeSignal = defineSignal(NUDGE);

/**
 * The chain indexer of one chain (docs/chain.md "Indexer").
 *
 * - Id: `chain-sync:<chainId>:<taskQueue>` (one per chain and deployment); the API starts one
 *   per configured chain on boot with the "use existing" conflict policy.
 * - Idempotency: all progress is the cursor in PostgreSQL, written in the transaction of the
 *   rows it covers, so a retried or repeated pass continues where the last commit left off.
 *   Payloads carry block numbers only, never logs.
 * - Timeouts: a pass has 2 minutes (it stops itself after 20 s or 50 ranges), heartbeats after
 *   every range (10 s heartbeat timeout) and is retried with backoff forever.
 * - Terminal states: none; it continues as new after `passesPerRun` passes or when Temporal
 *   suggests it, carrying the range size that worked. A `nudge` signal ends a wait early; a
 *   wait that ran out doubles the next, up to a minute (`idleWaitMs`, patched as
 *   `idle-backoff`): the worker's waker nudges the indexer on every new block
 *   (workers/waker.ts).
 */
export async function chainSyncWorkflow(input: ChainSyncInput): Promise<void> {
  let nudged = false;
  setHandler(chainSyncNudgeSignal, () => {
    nudged = true;
  });
  let logRange = input.logRange;
  const backoff = patched(IDLE_BACKOFF_PATCH);
  let idleWaits = 0;
  for (let pass = 0; pass < input.passesPerRun; pass++) {
    nudged = false;
    const result = await syncChain({ chainId: input.chainId, logRange, ...PASS });
    // A refused range was halved; the next pass tries twice that again, up to the maximum.
    logRange = Math.min(input.maxLogRange, result.logRange * 2);
    if (workflowInfo().continueAsNewSuggested) break;
    if (!result.caughtUp) {
      idleWaits = 0;
      continue;
    }
    const wait = backoff ? idleWaitMs(input.pollIntervalMs, idleWaits) : input.pollIntervalMs;
    const woken = await condition(() => nudged, wait);
    // A nudge is a new block: the wait starts short again. A wait that ran out grows.
    idleWaits = woken ? 0 : idleWaits + 1;
  }
  await continueAsNew<typeof chainSyncWorkflow>({ ...input, logRange });
}
