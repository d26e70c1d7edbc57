import { getAddress } from 'viem';
import type { TokenState } from '../../shared/db/entities/token';
import type { MarketEventKind } from '../../shared/db/entities/market-event';
import { isoUtc, statement, type Sql } from '../../shared/db/sql';
import { RESOLUTIONS, type Resolution } from '../../shared/market/candles';
import { units } from '../wire';

/**
 * The token streams' events as they leave the outbox (docs/chain.md "Market data"): rows read
 * by sequence, their payloads (base units, lowercase addresses, tuples) turned into the wire's
 * SSE events, and the snapshot a fresh `GET /tokens/:slug/stream` starts with.
 */

const NAME_OF = new Map<number, Resolution>(
  Object.entries(RESOLUTIONS).map(([name, seconds]) => [seconds, name as Resolution]),
);

/** An outbox row. */
export interface MarketEventRow {
  /** int8, a string. */
  seq: string;
  tokenId: string;
  kind: MarketEventKind;
  payload: Record<string, unknown> & { slug: string };
}

const COLUMNS = `seq::text as seq, token_id as "tokenId", kind, payload`;

/** The events after `seq`, every token (the firehose, and each process's live read). */
export const eventsAfter = statement<MarketEventRow, [afterSeq: string, limit: number]>(
  'market.events_after',
  `select ${COLUMNS} from market_events where seq > $1::int8 order by seq limit $2`,
);

/** One token's events after `seq` (its stream's replay). */
export const tokenEventsAfter = statement<
  MarketEventRow,
  [tokenId: string, afterSeq: string, limit: number]
>(
  'market.token_events_after',
  `select ${COLUMNS} from market_events where token_id = $1 and seq > $2::int8
    order by seq limit $3`,
);

/** The outbox's bounds: the newest event, and the oldest still kept. */
export const outboxBounds = statement<{ first: string | null; last: string | null }, []>(
  'market.outbox_bounds',
  `select (select min(seq) from market_events)::text as first,
          (select max(seq) from market_events)::text as last`,
);

/**
 * A tick tuple as the outbox keeps it (see workers/chain/market.ts); its time is epoch
 * milliseconds, or an ISO string in events written before 2026-12-03 (kept 25 hours).
 */
type TickTuple = [
  number,
  number,
  string,
  number | string,
  'buy' | 'sell',
  string,
  string,
  string,
  string,
  string,
  string,
  number | null,
];
/** A bar tuple: [resolution (s), t, o, h, l, c, vBase, vQuote, n]. */
type BarTuple = [number, number, string, string, string, string, string, string, number];

function tick(tuple: TickTuple) {
  const [blockNumber, logIndex, txHash, time, side, trader] = tuple;
  return {
    blockNumber,
    txHash,
    logIndex,
    time: typeof time === 'number' ? new Date(time).toISOString() : time,
    side,
    trader: getAddress(trader),
    baseAmount: units(tuple[6]),
    quoteAmount: units(tuple[7]),
    priceBefore: units(tuple[8]),
    price: units(tuple[9]),
    marketCap: units(tuple[10]),
    progressToGraduation: tuple[11],
  };
}

export function bar(tuple: BarTuple) {
  return {
    resolution: NAME_OF.get(tuple[0])!,
    t: tuple[1],
    o: units(tuple[2]),
    h: units(tuple[3]),
    l: units(tuple[4]),
    c: units(tuple[5]),
    vBase: units(tuple[6]),
    vQuote: units(tuple[7]),
    n: tuple[8],
  };
}

/** SSE events; the group's id goes on its last event, so a reconnect never splits a group. */
function frames(seq: string, events: (readonly [name: string, data: unknown])[]): string {
  return events
    .map(
      ([name, data], i) =>
        `${i === events.length - 1 ? `id: ${seq}\n` : ''}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`,
    )
    .join('');
}

/** What a token stream writes for a row: nothing for a `token` row (firehose only). */
export function tokenStreamText(row: MarketEventRow, resolutions: readonly number[]): string {
  const { payload } = row;
  const wanted = (bars: BarTuple[]) => bars.filter((tuple) => resolutions.includes(tuple[0]));
  switch (row.kind) {
    case 'trades': {
      const ticks = (payload.ticks as TickTuple[]).map((tuple) => ['tick', tick(tuple)] as const);
      const bars = wanted(payload.bars as BarTuple[]).map((tuple) => ['bar', bar(tuple)] as const);
      return frames(row.seq, [...ticks, ...bars]);
    }
    case 'revert':
      return frames(row.seq, [
        [
          'revert',
          {
            fromBlock: payload.fromBlock,
            fromTime: payload.fromTime,
            removed: payload.removed,
            bars: wanted(payload.bars as BarTuple[]).map(bar),
          },
        ],
      ]);
    case 'state':
      return frames(row.seq, [
        ['state', { state: payload.state as TokenState, blockNumber: payload.blockNumber }],
      ]);
    case 'token':
      return '';
  }
}

/** What the firehose writes for a row: slim ticks, states and tokens; no bars, no reverts. */
export function firehoseText(row: MarketEventRow): string {
  const { payload } = row;
  switch (row.kind) {
    case 'trades':
      return frames(
        row.seq,
        (payload.ticks as TickTuple[]).map((tuple) => [
          'tick',
          {
            slug: payload.slug,
            side: tuple[4],
            price: units(tuple[9]),
            quoteAmount: units(tuple[7]),
            marketCap: units(tuple[10]),
          },
        ]),
      );
    case 'state':
      return frames(row.seq, [
        ['state', { slug: payload.slug, state: payload.state, blockNumber: payload.blockNumber }],
      ]);
    case 'token':
      return frames(row.seq, [
        [
          'token',
          {
            slug: payload.slug,
            name: payload.name,
            ticker: payload.ticker,
            template: payload.template,
            chainId: payload.chainId,
            instance: payload.instance,
            reason: payload.reason,
          },
        ],
      ]);
    case 'revert':
      return '';
  }
}

/** A `reset`: the client's id is not in the outbox any more; it refetches over REST. */
export function resetText(reason: string): string {
  return `event: reset\ndata: ${JSON.stringify({ reason })}\n\n`;
}

interface SnapshotRow {
  tokenId: string;
  state: TokenState;
  blockNumber: string | null;
  /** The newest event at the snapshot's moment: the stream's first id. */
  lastSeq: string | null;
  lastTick: TickTuple | null;
  bars: BarTuple[] | null;
}

/**
 * A token's stream start, in one statement (one snapshot of the database, so `lastSeq` is
 * exactly what the rest reflects): its state, the indexed block, the last trade as a tick, and
 * the latest bar of each asked resolution.
 */
const snapshotStatement = statement<SnapshotRow, [slug: string, resolutions: number[]]>(
  'market.snapshot',
  `select t.id as "tokenId", t.state, (c.next_block - 1)::text as "blockNumber",
          (select max(seq) from market_events)::text as "lastSeq",
          (select json_build_array(r.block_number, r.log_index, r.tx_hash,
                    ${isoUtc('r.block_time')}, r.kind, r.trader, r.amount_token::text,
                    r.amount_payment::text, r.price_before::text, r.price_after::text,
                    div(r.price_after * r.supply_after, 1000000000000000000)::text,
                    case when (cv.args->>'graduationThreshold')::numeric > 0
                         then least(1, trunc(r.locked_payment
                                             / (cv.args->>'graduationThreshold')::numeric, 6))
                    end)
             from token_trades r
            where r.chain_id = l.chain_id and r.instance = l.instance
              and r.price_after is not null
            order by r.block_number desc, r.log_index desc limit 1) as "lastTick",
          (select json_agg(b.bar order by b.resolution)
             from unnest($2::int[]) as s(resolution)
             cross join lateral (
               select k.resolution, json_build_array(k.resolution,
                        extract(epoch from k.bucket)::int8, k.open::text, k.high::text,
                        k.low::text, k.close::text, k.volume_token::text,
                        k.volume_payment::text, k.trades) as bar
                 from token_candles k
                where k.chain_id = l.chain_id and k.instance = l.instance
                  and k.resolution = s.resolution
                order by k.bucket desc limit 1) b) as bars
     from tokens t
     left join chain_cursors c on c.chain_id = t.chain_id
     left join chain_launches l on l.chain_id = t.chain_id and l.instance = lower(t.instance)
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'CurveCreated'
        order by e.block_number desc, e.log_index desc limit 1) cv on true
    where t.slug = $1`,
);

export interface Snapshot {
  tokenId: string;
  lastSeq: string;
  text: string;
}

/** The token's snapshot event (`id` = the newest event then), or null for an unknown slug. */
export async function snapshotOf(
  db: Sql,
  slug: string,
  resolutions: readonly number[],
): Promise<Snapshot | null> {
  const row = await db.row(snapshotStatement, [slug, [...resolutions]]);
  if (!row) return null;
  const lastSeq = row.lastSeq ?? '0';
  const data = {
    lastTick: row.lastTick ? tick(row.lastTick) : null,
    bars: Object.fromEntries((row.bars ?? []).map((tuple) => [NAME_OF.get(tuple[0])!, bar(tuple)])),
    state: row.state,
    blockNumber:
      row.blockNumber === null || Number(row.blockNumber) < 0 ? null : Number(row.blockNumber),
  };
  return { tokenId: row.tokenId, lastSeq, text: frames(lastSeq, [['snapshot', data]]) };
}

/** A token's id by slug (a reconnecting stream needs no snapshot). */
export const tokenIdBySlug = statement<{ id: string }, [slug: string]>(
  'market.token_id',
  'select id from tokens where slug = $1',
);
