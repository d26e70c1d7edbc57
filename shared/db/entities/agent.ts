import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Token } from './token';
import { User } from './user';

export const MONETIZATIONS = ['per_call', 'subscription', 'hybrid', 'freemium'] as const;
export type Monetization = (typeof MONETIZATIONS)[number];

/**
 * An agent in the marketplace. Prices are integer micro-FLOW. `endpointSecret` signs the
 * platform's calls to `endpointUrl`; it is shown to the owner once, at creation.
 * After unpublish the agent is hidden from new callers at once; callers who already used it
 * keep access until `listedUntil` (the end of the month).
 */
export const Agent = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  indexes: [
    { properties: ['owner', 'createdAt', 'id'] },
    { properties: ['publishedAt', 'id'] },
    {
      name: 'agents_name_trgm_index',
      expression:
        'create index "agents_name_trgm_index" on "agents" using gin (lower("name") gin_trgm_ops)',
    },
    {
      name: 'agents_tags_index',
      expression: 'create index "agents_tags_index" on "agents" using gin ("tags")',
    },
  ],
  checks: [
    {
      name: 'agents_prices_nonnegative',
      expression:
        '(per_call_price is null or per_call_price >= 0) and (subscription_price is null or subscription_price >= 0)',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    slug: p.string().length(80).unique(),
    name: p.string().length(64),
    description: p.text().nullable(),
    tags: p.array().columnType('text[]').default('{}'),
    imageUrl: p.string().length(2048).nullable(),
    endpointUrl: p.string().length(2048),
    endpointSecret: p.string().length(64),
    monetization: p.enum([...MONETIZATIONS]).nullable(),
    perCallPrice: p.bigint().nullable(),
    subscriptionPrice: p.bigint().nullable(),
    freemiumDailyCalls: p.integer().nullable(),
    token: () => p.manyToOne(Token).nullable().deleteRule('set null'),
    /** Only callers whose tier has `premiumAgents` (pro, max) may invoke it. */
    premium: p.boolean().default(false),
    isPublished: p.boolean().default(false),
    publishedAt: p.datetime(3).nullable(),
    unpublishedAt: p.datetime(3).nullable(),
    listedUntil: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export type Agent = InferEntity<typeof Agent>;
