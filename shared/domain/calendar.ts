/**
 * UTC calendar math, the one home for it: spend periods, quotas, listing ends, billing
 * periods and analytics days all roll over at UTC boundaries. Pure, no imports, so any
 * layer may use it.
 */

export const DAY_MS = 86_400_000;

/** 00:00 UTC of the day containing `at`. */
export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** Monday 00:00 UTC of the ISO week containing `at`. */
export function startOfUtcWeek(at: Date): Date {
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - sinceMonday));
}

/** The 1st 00:00 UTC of the month containing `at`. */
export function startOfUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** 00:00 UTC of the day after `at`. */
export function startOfNextUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/** The 1st 00:00 UTC of the month after `at`. */
export function startOfNextUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/**
 * The same instant `months` calendar months later (or earlier, when negative) in UTC, the day
 * clamped to the month's end: Jan 31 + 1 month = Feb 28 (29 in leap years).
 */
export function addUtcMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(from.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

/** The UTC calendar date of `at` as `YYYY-MM-DD` (how daily rows are keyed). */
export function utcDateString(at: Date): string {
  return at.toISOString().slice(0, 10);
}
