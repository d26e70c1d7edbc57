import type { Redis } from 'ioredis';
import type { MarketEventKind } from '../db/entities/market-event';
import type { Logger } from '../logger';
import { type Sql, statement } from '../db/sql';

/**
 * Writing the token streams' outbox (`market_events`, docs/chain.md "Market data"). Every
 * writer takes the outbox's lock in its transaction before its first insert and keeps it to
 * its commit, so events become visible in `seq` order: a reader that has seen `seq` n never
 * later finds a smaller one, and `Last-Event-ID` replay can never skip an event.
 */

export interface MarketEventInput {
  tokenId: string;
  kind: MarketEventKind;
  /** Base units and lowercase addresses; the API maps them to the wire when it frames them. */
  payload: Record<string, unknown>;
}

/** An arbitrary advisory lock key of the outbox (the transaction's, released at its end). */
const MARKET_EVENTS_LOCK_KEY = 7_302_113_031;

type NoRow = Record<string, never>;

export const lockMarketEvents = statement<NoRow, []>(
  'market.lock_events',
  `select from pg_advisory_xact_lock(${MARKET_EVENTS_LOCK_KEY})`,
);

/**
 * The events in the order given (their `seq` follows it), each payload with its token's slug,
 * a `token` event's with the token's name, ticker, template, chain and instance too.
 */
const insertEvents = statement<NoRow, [events: string]>(
  'market.insert_events',
  `insert into market_events (token_id, kind, payload, created_at)
   select t.id, e.value->>'kind',
          (jsonb_build_object('slug', t.slug)
            || case when e.value->>'kind' = 'token'
                    then jsonb_build_object('name', t.name, 'ticker', t.ticker,
                                            'template', t.template, 'chainId', t.chain_id,
                                            'instance', t.instance)
                    else '{}' end
            || (e.value->'payload'))::json, now()
     from jsonb_array_elements($1::jsonb) with ordinality as e(value, n)
     join tokens t on t.id = (e.value->>'tokenId')::uuid
    order by e.n`,
);

/** Appends events; the caller holds the lock (`lockMarketEvents`) in the same transaction. */
export async function insertMarketEvents(
  sql: Sql,
  events: readonly MarketEventInput[],
): Promise<void> {
  if (events.length > 0) await sql.run(insertEvents, [JSON.stringify(events)]);
}

/** The Redis channel that tells API processes the outbox has new events (a hint, no data). */
export function marketEventsChannel(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}market-events`;
}

/**
 * Tells the API processes, after the commit, that the outbox has new events. Best effort: a
 * lost message only delays delivery until their next poll of the outbox.
 */
export async function announceMarketEvents(
  redis: Redis,
  redisKeyPrefix: string,
  logger: Logger,
): Promise<void> {
  await redis.publish(marketEventsChannel(redisKeyPrefix), '1').catch((err: unknown) => {
    logger.warn({ err }, 'market events: announcing on Redis failed; API processes will poll');
  });
}
