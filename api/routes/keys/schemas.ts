import { z } from 'zod';
import { parseFlow } from '../../../shared/domain/flow';
import { SPEND_PERIODS } from '../../../shared/domain/spend-period';
import { pageLimit } from '../../paging/page';
import { idParams, isoTime } from '../../wire';

/** Wire shapes of the API key endpoints (docs/spec/contract.md §4): snake_case, as the spec writes them. */

export const MAX_RATE_LIMIT_RPM = 100_000;
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;
export const DEFAULT_GRACE_SECONDS = 24 * 3600;

export const keyName = z
  .string()
  .trim()
  .min(1, { error: 'must be 1 to 64 characters' })
  .max(64, { error: 'must be 1 to 64 characters' });

export const rateLimitRpm = z
  .number()
  .int({ error: 'must be an integer' })
  .min(0, { error: `must be 0 to ${MAX_RATE_LIMIT_RPM}` })
  .max(MAX_RATE_LIMIT_RPM, { error: `must be 0 to ${MAX_RATE_LIMIT_RPM}` })
  .describe('Requests per minute; 0 means the key counts against its owner’s bucket');

/** A decimal string or a number; more than 6 decimals are rounded down. Null removes the cap. */
export const spendLimitFlow = z
  .union([z.string().max(32), z.number()])
  .nullable()
  .transform((value, ctx) => {
    if (value === null) return null;
    const micro = parseFlow(value);
    if (micro === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-negative FLOW amount' });
      return z.NEVER;
    }
    return micro;
  })
  .describe('FLOW cap per spend period, e.g. "25.5"; omitted or null means no cap');

export const spendPeriod = z.enum(SPEND_PERIODS);

export const createKeyBody = z.strictObject({
  name: keyName,
  rate_limit_rpm: rateLimitRpm.default(60),
  spend_limit_flow: spendLimitFlow.optional(),
  spend_period: spendPeriod.default('month'),
});

export const updateKeyBody = z.strictObject({
  name: keyName.optional(),
  rate_limit_rpm: rateLimitRpm.optional(),
  spend_limit_flow: spendLimitFlow.optional(),
  spend_period: spendPeriod.optional(),
});

export const rollKeyBody = z
  .strictObject({
    grace_seconds: z
      .number()
      .int({ error: 'must be an integer' })
      .min(0, { error: `must be 0 to ${MAX_GRACE_SECONDS}` })
      .max(MAX_GRACE_SECONDS, { error: `must be 0 to ${MAX_GRACE_SECONDS}` })
      .default(DEFAULT_GRACE_SECONDS)
      .describe('How long the old key keeps working; 24 h by default, at most 7 days'),
  })
  // The body may be left out entirely (Fastify then hands the route null).
  .nullish();

export const keyIdParams = idParams;

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    prefix: z.string(),
    name: z.string(),
    rate_limit_rpm: z.number().int(),
    spend_limit_flow: z.string().nullable(),
    spend_period: spendPeriod,
    spend_period_used: z.number(),
    spend_period_resets_at: isoTime.nullable(),
    last_used_at: isoTime.nullable(),
    created_at: isoTime,
    revoked: z.boolean(),
    expires_at: isoTime
      .nullable()
      .describe('Set once the key is rolled: it stops working at this time'),
  })
  .meta({ id: 'ApiKey' });

export const keyListSchema = z.object({ items: z.array(apiKeySchema) });

export const revokedResponse = z.null().describe('Revoked');

export const createdKeySchema = apiKeySchema
  .extend({ key: z.string().describe('The raw key, shown this once') })
  .meta({ id: 'ApiKeyWithSecret' });

export const rolledKeySchema = createdKeySchema
  .extend({
    rolled_from: z.object({ id: z.uuid(), prefix: z.string(), expires_at: isoTime }),
  })
  .meta({ id: 'RolledApiKey' });

export const usageQuery = z.object({
  since: z.enum(['day', 'week', 'month', 'all']).default('month'),
});

export const usageSchema = z
  .object({
    since: z.enum(['day', 'week', 'month', 'all']),
    from: isoTime,
    to: isoTime,
    requests: z.number().int(),
    errors: z.number().int(),
    flow_spent: z.number(),
    by_model: z.array(
      z.object({
        model: z.string(),
        requests: z.number().int(),
        flow_spent: z.number(),
        input_tokens: z.number().int(),
        output_tokens: z.number().int(),
      }),
    ),
    by_endpoint: z.array(
      z.object({ method: z.string(), route: z.string(), requests: z.number().int() }),
    ),
  })
  .meta({ id: 'ApiKeyUsage' });

export const recentQuery = z.object({
  limit: pageLimit(50, 200).describe('50 by default; values above 200 are clamped'),
});

export const recentSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.uuid(),
        method: z.string(),
        route: z.string(),
        status: z.number().int(),
        flow_cost: z.number(),
        model: z.string().nullable(),
        latency_ms: z.number().int(),
        created_at: isoTime,
      }),
    ),
  })
  .meta({ id: 'ApiKeyRecentCalls' });

/** What each service takes: the path's id beside the parsed body or query. */
export type KeyIdInput = z.output<typeof keyIdParams>;
export type CreateKeyInput = z.output<typeof createKeyBody>;
export type UpdateKeyInput = KeyIdInput & z.output<typeof updateKeyBody>;
/** `grace_seconds` is missing when the body was left out. */
export type RollKeyInput = KeyIdInput & Partial<NonNullable<z.output<typeof rollKeyBody>>>;
export type UsageInput = KeyIdInput & z.output<typeof usageQuery>;
export type RecentInput = KeyIdInput & z.output<typeof recentQuery>;
