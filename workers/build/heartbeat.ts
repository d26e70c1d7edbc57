import { asyncLocalStorage } from '@temporalio/activity';

const HEARTBEAT_EVERY_MS = 2_000;

/**
 * Heartbeats every 2 s while `work` runs, so that with a short heartbeat timeout a step whose
 * worker died is retried within seconds rather than after its whole start-to-close timeout.
 * Outside an activity (a test calling the activity directly) it just runs `work`.
 */
export async function withHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  const context = asyncLocalStorage.getStore();
  if (!context) return work();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
