/**
 * Guards for tests whose expectations are tied to a UTC calendar period (a daily quota, a
 * spend period, the trending window). Called before such tests, it waits out the end of a
 * UTC day, so they never straddle midnight, which also starts every week and month.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A hook calling `awaitFreshUtcDay(minLeftMs)` needs this long as its timeout. */
export const freshDayHookTimeout = (minLeftMs = 60_000) => minLeftMs + 30_000;

/** Returns once at least `minLeftMs` remain before the next UTC midnight. */
export async function awaitFreshUtcDay(minLeftMs = 60_000): Promise<void> {
  const left = DAY_MS - (Date.now() % DAY_MS);
  if (left < minLeftMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** Returns once at least `minLeftMs` remain before the next UTC minute (rate-limit windows). */
export async function awaitFreshUtcMinute(minLeftMs: number): Promise<void> {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < minLeftMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
