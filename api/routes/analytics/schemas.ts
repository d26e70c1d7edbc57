import { z } from 'zod';
import { TIERS } from '../../../shared/db/entities/subscription';

/** Wire shapes of `GET /me/analytics` (docs/spec/contract.md §11; docs/decisions.md "Analytics"). */

export const DEFAULT_DAYS = 30;
/** The longest window of basic analytics (plus). */
export const BASIC_MAX_DAYS = 30;
/** The longest window of advanced analytics (pro, max). */
export const ADVANCED_MAX_DAYS = 365;
/** Latency percentiles cover at most this many of the window's last days… */
export const LATENCY_MAX_DAYS = 30;
/** …and at most this many of the newest calls (or requests) of each agent (or key). */
export const LATENCY_MAX_SAMPLES = 20_000;

const DAYS_RULE = `must be an integer from 1 to ${ADVANCED_MAX_DAYS}`;

export const analyticsQuery = z.object({
  days: z.coerce
    .number({ error: DAYS_RULE })
    .int({ error: DAYS_RULE })
    .min(1, { error: DAYS_RULE })
    .max(ADVANCED_MAX_DAYS, { error: DAYS_RULE })
    .default(DEFAULT_DAYS)
    .describe(
      `UTC days to cover, ending today (included); ${DEFAULT_DAYS} by default. Basic ` +
        `analytics (plus) allow at most ${BASIC_MAX_DAYS} (more is 403 feature_not_in_tier), ` +
        `advanced (pro, max) up to ${ADVANCED_MAX_DAYS}`,
    ),
});

const day = z.iso.date().describe('A UTC calendar day, YYYY-MM-DD');
const count = z.number().int();
const flow = z.number();

const latencySchema = z
  .object({
    p50Ms: count.nullable().describe('Median latency in ms; null without samples'),
    p95Ms: count.nullable().describe('95th percentile latency in ms; null without samples'),
    samples: count.describe(
      `How many calls (requests) the percentiles were taken from: those of the latency ` +
        `window, at most the newest ${LATENCY_MAX_SAMPLES}`,
    ),
  })
  .meta({ id: 'AnalyticsLatency' });

const agentTotals = z.object({
  calls: count.describe('Succeeded (billed) calls'),
  flowEarned: flow.describe(
    'Gross FLOW the agent billed (calls and subscriptions), before the 5 % holder share of a ' +
      'linked token',
  ),
});

const keyTotals = z.object({
  requests: count,
  errors: count.describe('Requests answered with a status of 400 or more'),
  flowSpent: flow.describe('FLOW charged to requests made with the key'),
});

const agentEntry = z
  .object({
    slug: z.string(),
    name: z.string(),
    premium: z.boolean(),
    isPublished: z.boolean(),
    totals: agentTotals,
    daily: z
      .array(agentTotals.extend({ day }))
      .describe('Days with activity only, oldest first (a missing day had none)'),
    latency: latencySchema
      .optional()
      .describe(
        'Advanced only: latency of the agent’s succeeded calls, as the platform timed them',
      ),
  })
  .meta({ id: 'AnalyticsAgent' });

const keyEntry = z
  .object({
    id: z.uuid(),
    prefix: z.string(),
    name: z.string(),
    revoked: z.boolean(),
    totals: keyTotals,
    daily: z
      .array(keyTotals.extend({ day }))
      .describe('Days with activity only, oldest first (a missing day had none)'),
    latency: latencySchema
      .optional()
      .describe('Advanced only: latency of every request made with the key'),
  })
  .meta({ id: 'AnalyticsApiKey' });

const totals = agentTotals.extend(keyTotals.shape);

export const analyticsSchema = z
  .object({
    level: z.enum(['basic', 'advanced']).describe('basic: plus; advanced: pro and max'),
    tier: z.enum(TIERS).describe('The caller’s entitled tier (active or in grace)'),
    days: count,
    from: day.describe('The first day covered'),
    to: day.describe('The last day covered: today (UTC), still in progress'),
    totals: totals.describe('The whole window: every agent and every API key of the caller'),
    daily: z
      .array(totals.extend({ day }))
      .describe('Every day of the window, oldest first, zeros included'),
    agents: z
      .array(agentEntry)
      .describe('Every agent the caller owns, newest first; calls and earnings of the window'),
    apiKeys: z
      .array(keyEntry)
      .describe(
        'Every API key of the caller usable during the window (revoked or expired ones ' +
          'included until then), newest first',
      ),
    byModel: z
      .array(
        z.object({
          model: z.string(),
          requests: count,
          flowSpent: flow,
          inputTokens: count,
          outputTokens: count,
        }),
      )
      .optional()
      .describe('Advanced only: the caller’s API key requests by model, most used first'),
    byEndpoint: z
      .array(
        z.object({
          method: z.string(),
          route: z.string(),
          requests: count,
          errors: count,
          flowSpent: flow,
        }),
      )
      .optional()
      .describe('Advanced only: the caller’s API key requests by endpoint, most used first'),
    latencyWindow: z
      .object({ from: day, days: count, maxSamples: count })
      .optional()
      .describe(
        `Advanced only: the days the latency percentiles cover (the window’s last ` +
          `${LATENCY_MAX_DAYS} at most), and the newest calls (requests) taken per agent (key)`,
      ),
  })
  .meta({ id: 'Analytics' });

export type AnalyticsQuery = z.output<typeof analyticsQuery>;
export type Analytics = z.infer<typeof analyticsSchema>;
