/**
 * How long a polling loop (the outbox dispatcher, notification delivery, the chain indexer)
 * sleeps after a look that found nothing: its poll interval, doubled after each further empty
 * look, at most a minute. New work does not wait for it: the worker's waker
 * (workers/waker.ts) sends the loop a `nudge` as soon as work arrives (a committed outbox event
 * or notification, a new block), which ends the sleep. The minute bounds the delay should a
 * nudge be lost. Pure: safe in workflow code.
 */
export const IDLE_MAX_WAIT_MS = 60_000;

export function idleWaitMs(pollIntervalMs: number, emptyLooks: number): number {
  // 2^16 × the smallest interval (50 ms) is far beyond the cap already.
  return Math.min(pollIntervalMs * 2 ** Math.min(emptyLooks, 16), IDLE_MAX_WAIT_MS);
}

/** The `patched()` id of the back-off: runs recorded before it keep their fixed interval. */
export const IDLE_BACKOFF_PATCH = 'idle-backoff';
