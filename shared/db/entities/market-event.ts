import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const MARKET_EVENT_KINDS = ['token', 'trades', 'revert', 'state'] as const;
export type MarketEventKind = (typeof MARKET_EVENT_KINDS)[number];

/**
 * The outbox of the token streams (docs/chain.md "Market data"): written in the transaction
 * that makes the change (the indexer's range or rollback, a token's creation), read by every
 * API process to serve `GET /tokens/stream` and `GET /tokens/:slug/stream`. `seq` is the
 * events' SSE id. Writers hold an advisory lock from their first insert to their commit, so
 * sequence numbers become visible in order and a reader that saw `seq` never later finds a
 * smaller one. Rows are kept at least 24 hours. `payload` holds base units; the API maps it to
 * the wire when it frames the event. One `trades` row holds a token's new trades of an indexed
 * range and its bars after them: the stream writes it as `tick` events then `bar` events.
 */
export const MarketEvent = defineEntity({
  name: 'MarketEvent',
  tableName: 'market_events',
  indexes: [
    {
      name: 'market_events_token_index',
      expression: 'create index "market_events_token_index" on "market_events" ("token_id", "seq")',
    },
    { name: 'market_events_created_at_index', properties: ['createdAt'] },
  ],
  properties: {
    seq: p.bigint().primary(),
    tokenId: p.uuid(),
    kind: p.enum([...MARKET_EVENT_KINDS]),
    /** `json`, not `jsonb`: written once, read whole, never queried inside. */
    payload: p.json<Record<string, unknown>>().columnType('json'),
    createdAt: p.datetime(3),
  },
});

export type MarketEvent = InferEntity<typeof MarketEvent>;
