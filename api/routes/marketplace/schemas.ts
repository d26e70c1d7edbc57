import { imageMediaIdField } from '../media/image-field';
import { z } from 'zod';
import { MONETIZATIONS } from '../../../shared/db/entities/agent';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../../shared/domain/slug';
import { PLATFORM_TOOL_NAMES } from '../../../shared/domain/tools';
import { pageOf, pageQuery } from '../../paging/page';
import { flowPrice, isoTime, type slugParams } from '../../wire';

/** Wire shapes of the agent and marketplace endpoints (spec "Agent (marketplace)"). */

export const MAX_TAGS = 10;
export const MAX_TOOL_PRICES = PLATFORM_TOOL_NAMES.length;
export const MAX_FREEMIUM_DAILY_CALLS = 10_000;
export const MARKETPLACE_SORTS = ['trending', 'new', 'top_earning', 'top_rated'] as const;
export type MarketplaceSort = (typeof MARKETPLACE_SORTS)[number];

const TAG_PATTERN = /^[a-z0-9-]{1,32}$/;
const TAG_RULE = 'must be 1 to 32 characters of a-z, 0-9 and -';

/** A tag as stored: trimmed and lowercased first, so `" NLP "` is the tag `nlp`. */
export const tag = z.string().trim().toLowerCase().regex(TAG_PATTERN, { error: TAG_RULE });

/** A tag list: at most 10 entries, duplicates (after normalising) dropped, first kept. */
function tagList(min: number) {
  return z
    .array(tag)
    .min(min, { error: 'must list at least one tag' })
    .max(MAX_TAGS, { error: `must list at most ${MAX_TAGS} tags` })
    .transform((tags) => [...new Set(tags)])
    .describe(
      `${min} to ${MAX_TAGS} tags, each 1 to 32 characters of a-z, 0-9 and - (trimmed and ` +
        'lowercased first; duplicates dropped)',
    );
}

const agentName = z
  .string()
  .trim()
  .min(1, { error: 'must be 1 to 64 characters' })
  .max(64, { error: 'must be 1 to 64 characters' });

const description = z
  .string()
  .trim()
  .min(1, { error: 'must be 1 to 2000 characters' })
  .max(2000, { error: 'must be 1 to 2000 characters' });

const imageUrl = z
  .string()
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine(isHttpsUrl, { error: 'must be an https URL' })
  .nullable()
  .describe('An https image URL, or null for none');

const endpointUrl = z
  .string()
  .min(1, { error: 'is required' })
  .max(2048, { error: 'must be at most 2048 characters' })
  .describe('Where the owner’s agent runtime answers; https, never a private address');

const PREMIUM = 'Premium agents answer only their owner and callers with the pro or max tier';
const premium = z.boolean({ error: 'must be a boolean' });

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

export const createAgentBody = z.strictObject({
  name: agentName,
  description: description.optional(),
  tags: tagList(0).optional(),
  imageUrl: imageUrl.optional(),
  imageMediaId: imageMediaIdField.optional(),
  endpointUrl,
  premium: premium.optional().describe(`${PREMIUM}; false when omitted`),
  slug: z
    .string()
    .max(SLUG_MAX_LENGTH, { error: `must be at most ${SLUG_MAX_LENGTH} characters` })
    .regex(SLUG_PATTERN, { error: 'must be lowercase a-z, 0-9 and single hyphens' })
    .optional()
    .describe('Derived from the name when omitted'),
});

export const updateAgentBody = z.strictObject({
  name: agentName.optional(),
  description: description.optional(),
  tags: tagList(0).optional(),
  imageUrl: imageUrl.optional(),
  imageMediaId: imageMediaIdField.optional(),
  endpointUrl: endpointUrl.optional(),
  premium: premium.optional().describe(PREMIUM),
});

/**
 * The monetization fields are taken loosely here and checked in the service, so that every
 * problem with them is `invalid_monetization` (spec Errors) rather than `invalid_request`.
 */
const loose = (description: string, jsonSchema: Record<string, unknown>) =>
  z.unknown().optional().describe(description).meta(jsonSchema);

export const publishBody = z
  .strictObject({
    monetization: loose('Required: per_call, subscription, hybrid or freemium', {
      type: 'string',
      enum: [...MONETIZATIONS],
    }),
    perCallPriceFlow: loose(
      'FLOW per call: required for per_call and hybrid; for freemium the price of calls beyond ' +
        'the daily free quota (without it they are refused); not allowed for subscription',
      { type: 'number', minimum: 0 },
    ),
    subscriptionFlowPerMonth: loose('FLOW per month: required for subscription and hybrid', {
      type: 'number',
      minimum: 0,
    }),
    freemiumDailyCalls: loose('Free calls per caller and UTC day: required for freemium', {
      type: 'integer',
      minimum: 1,
      maximum: MAX_FREEMIUM_DAILY_CALLS,
    }),
    tags: tagList(1),
    tokenSlug: z
      .string()
      .max(128)
      .nullable()
      .optional()
      .describe('Links one of the caller’s tokens; null unlinks; omitted keeps the current link'),
    premium: premium.optional().describe(`${PREMIUM}; omitted keeps the current setting`),
  })
  .meta({
    // One per model: which prices each takes is checked by the service, not the schema.
    // `x-examples` (named, for the OpenAPI document): zod drops `examples` from the input
    // schema of a body that transforms (its tags), since they would be output values.
    'x-examples': {
      per_call: {
        summary: 'per_call: every call pays the price',
        value: { monetization: 'per_call', perCallPriceFlow: 1.5, tags: ['research', 'summaries'] },
      },
      subscription: {
        summary: 'subscription: subscribers call at no base price',
        value: {
          monetization: 'subscription',
          subscriptionFlowPerMonth: 30,
          tags: ['research'],
          tokenSlug: 'atlas',
        },
      },
      hybrid: {
        summary: 'hybrid: subscribers free, others per call; premium tiers only',
        value: {
          monetization: 'hybrid',
          perCallPriceFlow: 1.5,
          subscriptionFlowPerMonth: 30,
          tags: ['research'],
          premium: true,
        },
      },
      freemium: {
        summary: 'freemium: 20 free calls a day, then 0.5 FLOW',
        value: {
          monetization: 'freemium',
          freemiumDailyCalls: 20,
          perCallPriceFlow: 0.5,
          tags: ['research'],
        },
      },
    },
  });

export const toolPricesBody = z.strictObject({
  tools: z
    .array(z.strictObject({ tool: z.string().max(64), perCallFlow: flowPrice }))
    .max(MAX_TOOL_PRICES, { error: `must list at most ${MAX_TOOL_PRICES} tools` })
    .superRefine((tools, ctx) => {
      const seen = new Set<string>();
      tools.forEach((entry, index) => {
        if (seen.has(entry.tool)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'tool'],
            message: `${entry.tool} is listed twice`,
          });
        }
        seen.add(entry.tool);
      });
    })
    .describe('The whole price list: it replaces the previous one'),
});

export const ratingBody = z.strictObject({
  rating: z
    .number({ error: 'must be an integer from 1 to 5' })
    .int({ error: 'must be an integer from 1 to 5' })
    .min(1, { error: 'must be an integer from 1 to 5' })
    .max(5, { error: 'must be an integer from 1 to 5' }),
});

export const marketplaceQuery = z.object({
  ...pageQuery,
  tag: tag.optional().describe('Only agents with this tag'),
  sort: z
    .enum(MARKETPLACE_SORTS)
    .default('trending')
    .describe(
      'trending: succeeded calls in the last 7 UTC days (today included), ties by newest; ' +
        'new: newest published first; top_earning: FLOW billed in the last 30 UTC days; ' +
        'top_rated: average rating, unrated agents last, ties by number of ratings',
    ),
});

const money = z.number().nullable();

const premiumFlag = z.boolean().describe(PREMIUM);

export const toolPriceSchema = z.object({ tool: z.string(), perCallFlow: z.number() });

export const ownerAgentSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    imageUrl: z.string().nullable(),
    endpointUrl: z.string(),
    isPublished: z.boolean(),
    publishedAt: isoTime.nullable(),
    unpublishedAt: isoTime.nullable(),
    listedUntil: isoTime.nullable(),
    monetization: z.enum(MONETIZATIONS).nullable(),
    perCallPriceFlow: money,
    subscriptionFlowPerMonth: money,
    freemiumDailyCalls: z.number().int().nullable(),
    premium: premiumFlag,
    tokenSlug: z.string().nullable(),
    toolPrices: z.array(toolPriceSchema),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: 'OwnedAgent' });

export const createdAgentSchema = ownerAgentSchema
  .extend({
    endpointSecret: z
      .string()
      .describe('Signs the platform’s calls to endpointUrl (`whsec_…`); shown this once'),
  })
  .meta({ id: 'CreatedAgent' });

export const publishedSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    isPublished: z.boolean(),
    publishedAt: isoTime,
    marketplaceUrl: z.string(),
  })
  .meta({ id: 'PublishedAgent' });

export const unpublishedSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    isPublished: z.literal(false),
    unpublishedAt: isoTime.nullable(),
    listedUntil: isoTime
      .nullable()
      .describe('Existing callers keep access until then (the start of the next UTC month)'),
  })
  .meta({ id: 'UnpublishedAgent' });

export const toolPricesSchema = z
  .object({ slug: z.string(), toolPrices: z.array(toolPriceSchema) })
  .meta({ id: 'AgentToolPrices' });

export const ratingSchema = z
  .object({
    slug: z.string(),
    rating: z.number().int(),
    averageRating: z.number(),
    ratingCount: z.number().int(),
  })
  .meta({ id: 'AgentRatingResult' });

export const agentListItemSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    imageUrl: z.string().nullable(),
    tags: z.array(z.string()),
    monetization: z.enum(MONETIZATIONS).nullable(),
    perCallPriceFlow: money,
    premium: premiumFlag,
    stats: z.object({
      callsLast30d: z.number().int().describe('Succeeded calls in the last 30 UTC days'),
      p50LatencyMs: z
        .number()
        .int()
        .describe('Median latency of succeeded calls in the last 30 days; 0 when none'),
      rating: z.number().describe('Average rating, 2 decimals; 0 when unrated'),
      ratingCount: z.number().int(),
    }),
    tokenSlug: z.string().nullable(),
  })
  .meta({ id: 'AgentListItem' });

export const agentDetailSchema = agentListItemSchema
  .extend({
    description: z.string().nullable(),
    isPublished: z.boolean(),
    publishedAt: isoTime.nullable(),
    monetizationConfig: z.object({
      model: z.enum(MONETIZATIONS).nullable(),
      perCallPriceFlow: money,
      subscriptionFlowPerMonth: money,
      freemiumDailyCalls: z.number().int().nullable(),
    }),
    toolPrices: z.array(toolPriceSchema),
    linkedToken: z
      .object({
        slug: z.string(),
        name: z.string(),
        ticker: z.string(),
        chainId: z.number().int(),
        instance: z.string().nullable(),
        imageUrl: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'AgentDetail' });

export const toolsSchema = z
  .object({ items: z.array(z.object({ tool: z.string(), description: z.string() })) })
  .meta({
    id: 'MarketplaceTools',
    examples: [
      {
        items: [
          { tool: 'web_search', description: 'Searches the web and returns ranked results' },
          { tool: 'web_fetch', description: 'Fetches a web page or document by URL' },
        ],
      },
    ],
  });

export type CreateAgentInput = z.output<typeof createAgentBody>;
export type UpdateAgentInput = z.output<typeof updateAgentBody>;
export type PublishInput = z.output<typeof publishBody>;
export type OwnerAgentView = z.infer<typeof ownerAgentSchema>;
export type AgentListItem = z.infer<typeof agentListItemSchema>;
export type AgentDetail = z.infer<typeof agentDetailSchema>;

export const ownerAgentsQuery = z.object(pageQuery);
export const ownerAgentPageSchema = pageOf(ownerAgentSchema);
export const agentListPageSchema = pageOf(agentListItemSchema);

// Paid calls and agent subscriptions (`invoke-routes.ts`, docs/spec/contract.md §6).

export const invokeBody = z.strictObject({
  input: z
    .unknown()
    .refine((value) => value !== undefined, { message: 'is required' })
    .describe('Anything JSON; passed to the agent as is'),
  tools: z
    .array(z.string().max(64))
    .max(PLATFORM_TOOL_NAMES.length)
    .optional()
    .describe('Tools the agent may use in this call (default: all platform tools)'),
});

export const invokeResult = z
  .object({
    callId: z.uuid(),
    output: z.unknown(),
    model: z.string().nullable(),
    toolsUsed: z.array(z.string()),
    usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
    costFlow: z.number().describe('FLOW charged: base price (if any) plus the tools used'),
  })
  .meta({ id: 'AgentCallResult' });

export const subscriptionResult = z
  .object({
    agentSlug: z.string(),
    subscribed: z.literal(true),
    periodStart: isoTime,
    periodEnd: isoTime,
    costFlow: z.number(),
  })
  .meta({ id: 'AgentSubscription' });

/** What each service takes: the path's slug beside the parsed body or query. */
export type AgentSlugInput = z.output<typeof slugParams>;
export type ToolPricesInput = z.output<typeof toolPricesBody>;
export type RatingInput = AgentSlugInput & z.output<typeof ratingBody>;
export type MarketplaceInput = z.output<typeof marketplaceQuery>;
export type OwnerAgentsInput = z.output<typeof ownerAgentsQuery>;
export type InvokeInput = AgentSlugInput & z.output<typeof invokeBody>;
export type InvokeResult = z.infer<typeof invokeResult>;
export type SubscriptionResult = z.infer<typeof subscriptionResult>;
