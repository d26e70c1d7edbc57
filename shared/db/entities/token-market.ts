import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { TOKEN_TEMPLATES, Token } from './token';

/**
 * The board's figures of a launched token (docs/chain.md "Market data"), one row per token
 * whose launch is indexed, recomputed by the indexer in the transaction that changes them:
 * when a range adds or a rollback removes the token's trades, and when the indexed chain's
 * minute moves while its rolling figures are not zero. Amounts in base units; prices in the
 * quote token's base units per whole token; rolling windows end at `windowEnd`, the minute of
 * the indexed head's block time. Each sort of `GET /tokens` reads one of the indexes below.
 */
export const TokenMarket = defineEntity({
  name: 'TokenMarket',
  tableName: 'token_markets',
  uniques: [
    { name: 'token_markets_chain_id_instance_unique', properties: ['chainId', 'instance'] },
  ],
  indexes: [
    {
      name: 'token_markets_market_cap_index',
      expression:
        'create index "token_markets_market_cap_index" on "token_markets" ("market_cap" desc, "token_id" desc)',
    },
    {
      name: 'token_markets_volume_index',
      expression:
        'create index "token_markets_volume_index" on "token_markets" ("volume_24h" desc, "token_id" desc)',
    },
    {
      name: 'token_markets_change_index',
      expression:
        'create index "token_markets_change_index" on "token_markets" ("price_change_24h" desc, "token_id" desc)',
    },
    {
      name: 'token_markets_activity_index',
      expression:
        'create index "token_markets_activity_index" on "token_markets" ("activity_at" desc, "token_id" desc)',
    },
    {
      name: 'token_markets_trending_index',
      expression:
        'create index "token_markets_trending_index" on "token_markets" ("trending_score" desc, "token_id" desc)',
    },
    {
      name: 'token_markets_graduating_index',
      expression:
        'create index "token_markets_graduating_index" on "token_markets" ("progress" desc, "token_id" desc) where "template" = \'virtuals\' and not "graduated"',
    },
    {
      // The minute's refresh: rows whose rolling figures still count trades.
      name: 'token_markets_rolling_index',
      expression:
        'create index "token_markets_rolling_index" on "token_markets" ("chain_id", "window_end") where "trades_24h" > 0',
    },
  ],
  properties: {
    token: () => p.manyToOne(Token).primary().deleteRule('cascade'),
    chainId: p.integer(),
    instance: p.string().length(42),
    template: p.enum([...TOKEN_TEMPLATES]),
    /** Spot price after the last trade (the curve's or pool's opening price before any). */
    price: p.decimal().columnType('numeric(78,0)'),
    /** Total supply minus what the curve, pool and protocol contracts hold. */
    circulating: p.decimal().columnType('numeric(78,0)'),
    /** price × circulating, in quote base units. */
    marketCap: p.decimal().columnType('numeric(78,0)'),
    volume24h: p.decimal().fieldName('volume_24h').columnType('numeric(78,0)'),
    trades24h: p.integer().fieldName('trades_24h'),
    volume1h: p.decimal().fieldName('volume_1h').columnType('numeric(78,0)'),
    trades1h: p.integer().fieldName('trades_1h'),
    /** The price at the window's start: the close before it, else the first open. */
    price24hAgo: p.decimal().fieldName('price_24h_ago').columnType('numeric(78,0)'),
    /** (price − price24hAgo) / price24hAgo, 0 when there was no price. */
    priceChange24h: p.decimal().fieldName('price_change_24h').columnType('numeric'),
    /** trades1h × (1 + volume1h / volume24h): docs/chain.md "Market data". */
    trendingScore: p.decimal().columnType('numeric'),
    /** virtuals: locked payment over the graduation threshold, capped at 1; null for dpnm. */
    progress: p.decimal().columnType('numeric').nullable(),
    graduated: p.boolean(),
    lastTradeAt: p.datetime(3).nullable(),
    /** The last trade's time, or the launch's before any: the `last_trade` sort. */
    activityAt: p.datetime(3),
    windowEnd: p.datetime(3),
  },
});

export type TokenMarket = InferEntity<typeof TokenMarket>;
