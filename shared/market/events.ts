import type { MarketEventKind } from '../db/entities/market-event';
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

/** The events in the order given (their `seq` follows it). */
const insertEvents = statement<NoRow, [events: string]>(
  'market.insert_events',
  `insert into market_events (token_id, kind, payload, created_at)
   select (e.value->>'tokenId')::uuid, e.value->>'kind', (e.value->'payload')::json, now()
     from jsonb_array_elements($1::jsonb) with ordinality as e(value, n)
    order by e.n`,
);

/** Appends events; the caller holds the lock (`lockMarketEvents`) in the same transaction. */
export async function insertMarketEvents(
  sql: Sql,
  events: readonly MarketEventInput[],
): Promise<void> {
  if (events.length > 0) await sql.run(insertEvents, [JSON.stringify(events)]);
}
