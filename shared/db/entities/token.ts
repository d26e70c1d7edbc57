import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

export const TOKEN_TEMPLATES = ['virtuals', 'dpnm'] as const;
export type TokenTemplate = (typeof TOKEN_TEMPLATES)[number];

/**
 * `pending` until the launch is seen on chain (created without an `instance`); then the spec's
 * `live`, `graduating`, `sentient` or `failed`.
 */
export const TOKEN_STATES = ['pending', 'live', 'graduating', 'sentient', 'failed'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

/**
 * Off-chain metadata of a launched (or launching) token. The ticker is unique per chain, and so
 * is the instance address once known. `holderRewardPool` is micro-FLOW accrued for the token's
 * holders (5 % of the earnings of agents linked to it) until holders are read from the chain.
 */
export const Token = defineEntity({
  name: 'Token',
  tableName: 'tokens',
  uniques: [
    { name: 'tokens_chain_id_ticker_unique', properties: ['chainId', 'ticker'] },
    { name: 'tokens_chain_id_instance_unique', properties: ['chainId', 'instance'] },
  ],
  indexes: [
    { properties: ['createdAt', 'id'] },
    // GET /tokens?sort=name pages by (name, id).
    { properties: ['name', 'id'] },
    {
      name: 'tokens_instance_lower_index',
      expression:
        'create index "tokens_instance_lower_index" on "tokens" (lower("instance")) where "instance" is not null',
    },
    {
      name: 'tokens_name_trgm_index',
      expression:
        'create index "tokens_name_trgm_index" on "tokens" using gin (lower("name") gin_trgm_ops)',
    },
    {
      name: 'tokens_ticker_trgm_index',
      expression:
        'create index "tokens_ticker_trgm_index" on "tokens" using gin (lower("ticker") gin_trgm_ops)',
    },
  ],
  checks: [
    { name: 'tokens_holder_reward_pool_nonnegative', expression: 'holder_reward_pool >= 0' },
  ],
  properties: {
    id: p.uuid().primary(),
    owner: () => p.manyToOne(User).deleteRule('cascade').index(),
    slug: p.string().length(80).unique(),
    name: p.string().length(64),
    ticker: p.string().length(6),
    template: p.enum([...TOKEN_TEMPLATES]),
    chainId: p.integer(),
    instance: p.string().length(42).nullable(),
    imageUrl: p.string().length(2048).nullable(),
    brief: p.text().nullable(),
    /** Editable by the creator at any time (PATCH /tokens/:slug), like the links. */
    description: p.text().nullable(),
    linkWebsite: p.string().length(2048).nullable(),
    linkTwitter: p.string().length(2048).nullable(),
    linkTelegram: p.string().length(2048).nullable(),
    params: p.json<Record<string, unknown>>(),
    state: p.enum([...TOKEN_STATES]),
    pendingLaunchTx: p.text().nullable(),
    holderRewardPool: p.bigint().default(0),
    createdAt: p.datetime(3),
  },
});

export type Token = InferEntity<typeof Token>;
