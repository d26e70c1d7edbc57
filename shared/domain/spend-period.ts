/**
 * Spend periods of API keys (docs/spec/contract.md §5): they roll over at UTC boundaries, day at 00:00,
 * week on Monday 00:00, month on the 1st 00:00; `forever` never rolls over.
 */

import {
  DAY_MS,
  startOfNextUtcDay,
  startOfNextUtcMonth,
  startOfUtcDay,
  startOfUtcMonth,
  startOfUtcWeek,
} from './calendar';

export const SPEND_PERIODS = ['day', 'week', 'month', 'forever'] as const;
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

/** The single start of the `forever` period. */
export const FOREVER_START = new Date(0);

export function periodStart(period: SpendPeriod, now: Date): Date {
  switch (period) {
    case 'day':
      return startOfUtcDay(now);
    case 'week':
      return startOfUtcWeek(now);
    case 'month':
      return startOfUtcMonth(now);
    case 'forever':
      return FOREVER_START;
  }
}

/** When the period containing `now` ends; null for `forever`. */
export function periodEnd(period: SpendPeriod, now: Date): Date | null {
  switch (period) {
    case 'day':
      return startOfNextUtcDay(now);
    case 'week':
      return new Date(startOfUtcWeek(now).getTime() + 7 * DAY_MS);
    case 'month':
      return startOfNextUtcMonth(now);
    case 'forever':
      return null;
  }
}

/**
 * What a key has spent in the period containing `now`, from its stored counter and the start
 * of the period that counter belongs to: a counter of an earlier period counts as nothing.
 */
export function spentInPeriod(
  period: SpendPeriod,
  counted: { used: bigint; periodStart: Date },
  now: Date,
): bigint {
  return counted.periodStart.getTime() === periodStart(period, now).getTime() ? counted.used : 0n;
}
