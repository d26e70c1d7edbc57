import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Agent } from './agent';

/** The keyset index of one listing sort: published agents only, ending with the agent id. */
const sortIndex = (sort: string, columns: string) => ({
  name: `agent_market_stats_${sort}_index`,
  expression: `create index "agent_market_stats_${sort}_index" on "agent_market_stats" (${columns}) where "is_published"`,
});

/**
 * The marketplace read model: one row per agent with every figure the listing sorts by or
 * shows that grows with data, and copies of the agent's listing columns, so each sort is one
 * keyset index. Written only by database triggers and `agent_market_recompute` (migration
 * Migration20261125000000_marketplace_stats); never written through this entity, which exists
 * so the schema stays exactly what the entities describe.
 */
export const AgentMarketStats = defineEntity({
  name: 'AgentMarketStats',
  tableName: 'agent_market_stats',
  indexes: [
    sortIndex('trending', '"calls_7d" desc, "published_at" desc, "agent_id" desc'),
    sortIndex('new', '"published_at" desc, "agent_id" desc'),
    sortIndex('top_earning', '"earnings_30d" desc, "published_at" desc, "agent_id" desc'),
    sortIndex('top_rated', '"rating_avg" desc, "rating_count" desc, "agent_id" desc'),
    {
      name: 'agent_market_stats_days_expire_on_index',
      expression:
        'create index "agent_market_stats_days_expire_on_index" on "agent_market_stats" ("days_expire_on") where "days_expire_on" is not null',
    },
    {
      name: 'agent_market_stats_p50_expires_at_index',
      expression:
        'create index "agent_market_stats_p50_expires_at_index" on "agent_market_stats" ("p50_expires_at") where "p50_expires_at" is not null',
    },
  ],
  properties: {
    agent: () => p.manyToOne(Agent).primary().deleteRule('cascade'),
    isPublished: p.boolean().default(false),
    publishedAt: p.datetime(3).nullable(),
    tags: p.array().columnType('text[]').default('{}'),
    calls7d: p.bigint().fieldName('calls_7d').default(0),
    calls30d: p.bigint().fieldName('calls_30d').default(0),
    earnings30d: p.decimal().columnType('numeric').fieldName('earnings_30d').default(0),
    /** The first UTC day on which a day figure changes without a write; null when none can. */
    daysExpireOn: p.date().nullable(),
    p50LatencyMs: p.integer().fieldName('p50_latency_ms').default(0),
    /** When the oldest call inside the median's window leaves it; null when there is none. */
    p50ExpiresAt: p.datetime(3).fieldName('p50_expires_at').nullable(),
    /** The exact average (the top_rated key); 0 when unrated. */
    ratingAvg: p.decimal().columnType('numeric').default(0),
    /** The average rounded to 2 decimals, as shown; 0 when unrated. */
    rating: p.decimal().columnType('numeric').default(0),
    ratingCount: p.integer().default(0),
  },
});

export type AgentMarketStats = InferEntity<typeof AgentMarketStats>;

/** The parts of a row a note asks to recompute; `flush` is the note that queues the flush. */
const MARKET_STATS_PARTS = ['listing', 'days', 'latency', 'ratings', 'flush'] as const;

/**
 * A note, inside one transaction, that a statement changed some of an agent's figures; the
 * deferred trigger consumes the transaction's notes at commit (unlogged: nothing outlives it).
 */
export const AgentMarketDirty = defineEntity({
  name: 'AgentMarketDirty',
  tableName: 'agent_market_dirty',
  properties: {
    xact: p.bigint().primary(),
    agentId: p.uuid().primary(),
    part: p.enum([...MARKET_STATS_PARTS]).primary(),
  },
});

export type AgentMarketDirty = InferEntity<typeof AgentMarketDirty>;
