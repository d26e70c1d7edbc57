import { DAY_MS, utcDateString } from '../../../shared/domain/calendar';
import type { Sql } from '../../../shared/db/sql';
import { periodStart } from '../../../shared/domain/spend-period';
import { analyticsLevelOf } from '../../../shared/domain/tiers';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import type { UsageRecorder } from '../../access/usage-recorder';
import { advancedAnalytics, basicAnalytics, entitledTier } from './queries';
import {
  BASIC_MAX_DAYS,
  LATENCY_MAX_DAYS,
  LATENCY_MAX_SAMPLES,
  type Analytics,
  type AnalyticsQuery,
} from './schemas';

/**
 * `GET /me/analytics` (docs/spec/contract.md §11): basic analytics for plus, advanced for pro and max.
 * Two statements: the caller's tier (one primary-key row), then the whole answer for that
 * level, so a refused caller costs one lookup and a basic caller never pays for the advanced
 * parts.
 */

export interface AnalyticsDeps {
  db: Sql;
  /** This instance's buffered usage rows, written before the read (read-your-writes). */
  usage: Pick<UsageRecorder, 'flush'>;
}

/** The UTC day `daysBack` days before the one starting at `dayStart`, as YYYY-MM-DD. */
function dayBefore(dayStart: Date, daysBack: number): string {
  return utcDateString(new Date(dayStart.getTime() - daysBack * DAY_MS));
}

export async function myAnalytics(
  deps: AnalyticsDeps,
  actor: Actor,
  query: AnalyticsQuery,
): Promise<Analytics> {
  // Read-your-writes on this instance: the key requests it has buffered are written first.
  await deps.usage.flush();
  const { userId } = actor;
  const now = new Date();
  const tier = (await deps.db.row(entitledTier, [userId]))?.tier ?? null;
  const level = analyticsLevelOf(tier);
  if (tier === null || level === 'none') {
    throw new AppError(
      'feature_not_in_tier',
      'analytics: GET /me/analytics needs the plus tier or higher (GET /me/subscription)',
    );
  }
  const { days } = query;
  if (level === 'basic' && days > BASIC_MAX_DAYS) {
    throw new AppError(
      'feature_not_in_tier',
      `days: more than ${BASIC_MAX_DAYS} days of analytics need the pro tier or higher ` +
        `(your tier: ${tier})`,
    );
  }
  const today = periodStart('day', now);
  const from = dayBefore(today, days - 1);
  const to = dayBefore(today, 0);
  const head = { level, tier, days, from, to };
  if (level === 'basic') {
    const row = await deps.db.row(basicAnalytics, [userId, from, to]);
    if (!row) throw new Error('analytics: the statement returned no row');
    return { ...head, ...row };
  }
  const latencyDays = Math.min(days, LATENCY_MAX_DAYS);
  const latencyFrom = dayBefore(today, latencyDays - 1);
  const row = await deps.db.row(advancedAnalytics, [userId, from, to, latencyFrom]);
  if (!row) throw new Error('analytics: the statement returned no row');
  return {
    ...head,
    ...row,
    latencyWindow: { from: latencyFrom, days: latencyDays, maxSamples: LATENCY_MAX_SAMPLES },
  };
}
