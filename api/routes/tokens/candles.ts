import { statement } from '../../../shared/db/sql';
import {
  CANDLE_ORIGIN_SQL,
  RESOLUTIONS,
  bucketAtOrAfter,
  bucketOf,
} from '../../../shared/market/candles';
import type { Actor } from '../../access/actor';
import { looksLikeSlug, units } from '../../wire';
import { tokenNotFound } from './access';
import { MAX_BARS, QUOTE_SYMBOLS, type CandlesInput } from './market-schemas';
import type { TokenDeps } from './service';

/**
 * `GET /tokens/:slug/candles` (docs/spec/contract.md §13, docs/chain.md "Market data"): one
 * statement reads the token, the indexed block, and the bars (stored ones from
 * `token_candles`, 15-second ones aggregated from the trades) with the last bar before the
 * range, which gives `nextTime` and the close that `fill=previous` carries. Public.
 */

/** A bar as the statement builds it: [t, o, h, l, c, vBase, vQuote, n], amounts base units. */
type BarTuple = [number, string, string, string, string, string, string, number];

interface CandlesRow {
  template: 'virtuals' | 'dpnm';
  /** `chain_cursors.next_block - 1` (int8, a string); null before the first range. */
  blockNumber: string | null;
  /** Unix seconds of the indexed head's block and of the newest final one. */
  headTime: number | null;
  finalTime: number | null;
  bars: BarTuple[];
  /** The last bar before `from`: [t, close]. */
  before: [number, string] | null;
}

type CandleParams = [slug: string, resolution: number, from: number, to: number, limit: number];

const TOKEN = `select t.template, (c.next_block - 1)::text as "blockNumber",
          extract(epoch from c.head_time)::float8 as "headTime",
          extract(epoch from c.final_time)::float8 as "finalTime",
          coalesce(b.bars, '[]') as bars, p.bar as before
     from tokens t
     left join chain_cursors c on c.chain_id = t.chain_id
     left join chain_launches l on l.chain_id = t.chain_id and l.instance = lower(t.instance)`;

const TUPLE = `json_build_array(x.t, x.o::text, x.h::text, x.l::text, x.c::text, x.vb::text,
                                x.vq::text, x.n)`;

/** Stored bars: the `limit` latest with a start in [from, to), oldest first. */
const storedCandles = statement<CandlesRow, CandleParams>(
  'tokens.candles',
  `${TOKEN}
     left join lateral (
       select json_agg(${TUPLE} order by x.t) as bars
         from (select extract(epoch from k.bucket)::int8 as t, k.open as o, k.high as h,
                      k.low as l, k.close as c, k.volume_token as vb, k.volume_payment as vq,
                      k.trades as n
                 from token_candles k
                where k.chain_id = l.chain_id and k.instance = l.instance and k.resolution = $2
                  and k.bucket >= to_timestamp($3) and k.bucket < to_timestamp($4)
                order by k.bucket desc limit $5) x) b on true
     left join lateral (
       select json_build_array(extract(epoch from k.bucket)::int8, k.close::text) as bar
         from token_candles k
        where k.chain_id = l.chain_id and k.instance = l.instance and k.resolution = $2
          and k.bucket < to_timestamp($3)
        order by k.bucket desc limit 1) p on true
    where t.slug = $1`,
);

/**
 * 15-second bars from the trades in [from, to). Without a lower bound (countback) the range
 * starts at the `limit`-th latest one-minute bar before `to`: each 15-second bar with trades
 * lies in a one-minute bar, so no more trades are read than those bars hold.
 */
const tradeCandles = statement<CandlesRow, CandleParams>(
  'tokens.candles_15s',
  `${TOKEN}
     left join lateral (
       select greatest(to_timestamp($3), coalesce((
                select k.bucket from token_candles k
                 where k.chain_id = l.chain_id and k.instance = l.instance and k.resolution = 60
                   and k.bucket < to_timestamp($4)
                 order by k.bucket desc offset $5 - 1 limit 1), '-infinity')) as at) f on true
     left join lateral (
       select json_agg(${TUPLE} order by x.t) as bars
         from (select extract(epoch from date_bin($2 * interval '1 second', r.block_time,
                                                   ${CANDLE_ORIGIN_SQL}))::int8 as t,
                      (array_agg(r.price_before order by r.block_number, r.log_index))[1] as o,
                      max(greatest(r.price_before, r.price_after)) as h,
                      min(least(r.price_before, r.price_after)) as l,
                      (array_agg(r.price_after order by r.block_number desc, r.log_index desc))[1]
                        as c,
                      sum(r.amount_token) as vb, sum(r.amount_payment) as vq, count(*)::int as n
                 from token_trades r
                where r.chain_id = l.chain_id and r.instance = l.instance
                  and r.kind <> 'graduation' and r.price_after is not null
                  and r.block_time >= f.at and r.block_time < to_timestamp($4)
                group by 1 order by 1 desc limit $5) x) b on true
     left join lateral (
       select json_build_array(
                extract(epoch from date_bin($2 * interval '1 second', r.block_time,
                                            ${CANDLE_ORIGIN_SQL}))::int8,
                r.price_after::text) as bar
         from token_trades r
        where r.chain_id = l.chain_id and r.instance = l.instance and r.kind <> 'graduation'
          and r.price_after is not null and r.block_time < to_timestamp($3)
        order by r.block_time desc, r.block_number desc, r.log_index desc limit 1) p on true
    where t.slug = $1`,
);

/** How long a shared cache may keep an answer: a day once its bars are final, else 2 s. */
export const FINAL_MAX_AGE_S = 86_400;
export const LIVE_MAX_AGE_S = 2;

export async function tokenCandles(
  deps: Pick<TokenDeps, 'db'>,
  _actor: Actor | null,
  input: CandlesInput,
) {
  const seconds = RESOLUTIONS[input.resolution];
  const { to, fill } = input;
  const lastBucket = bucketOf(to - 1, seconds);
  // countback with fill=previous is the range of that many buckets ending at `to`.
  const from =
    input.countback === undefined
      ? bucketAtOrAfter(input.from!, seconds)
      : fill === 'previous'
        ? lastBucket - (input.countback - 1) * seconds
        : 0;
  const limit = input.countback ?? MAX_BARS;
  const found = looksLikeSlug(input.slug)
    ? await deps.db.row(seconds === 15 ? tradeCandles : storedCandles, [
        input.slug,
        seconds,
        from,
        to,
        limit,
      ])
    : undefined;
  if (!found) throw tokenNotFound(input.slug);
  const bars = fill === 'previous' ? filled(found, from, lastBucket, seconds) : plain(found.bars);
  const last = bars.t.at(-1);
  return {
    body: {
      s: bars.t.length > 0 ? ('ok' as const) : ('no_data' as const),
      resolution: input.resolution,
      quoteSymbol: QUOTE_SYMBOLS[found.template],
      ...bars,
      nextTime: bars.t.length > 0 ? null : (found.before?.[0] ?? null),
      partialLast:
        last !== undefined && (found.headTime === null || last + seconds > found.headTime),
      blockNumber:
        found.blockNumber === null || Number(found.blockNumber) < 0
          ? null
          : Number(found.blockNumber),
    },
    // Every bar of the range has ended by the newest final block's time: it cannot change.
    maxAgeS:
      found.finalTime !== null && lastBucket + seconds <= found.finalTime
        ? FINAL_MAX_AGE_S
        : LIVE_MAX_AGE_S,
  };
}

interface Columns {
  t: number[];
  o: string[];
  h: string[];
  l: string[];
  c: string[];
  vBase: string[];
  vQuote: string[];
  n: number[];
  filled: boolean[];
}

function columns(): Columns {
  return { t: [], o: [], h: [], l: [], c: [], vBase: [], vQuote: [], n: [], filled: [] };
}

function push(out: Columns, bar: BarTuple, isFilled: boolean): void {
  out.t.push(bar[0]);
  out.o.push(units(bar[1]));
  out.h.push(units(bar[2]));
  out.l.push(units(bar[3]));
  out.c.push(units(bar[4]));
  out.vBase.push(units(bar[5]));
  out.vQuote.push(units(bar[6]));
  out.n.push(bar[7]);
  out.filled.push(isFilled);
}

function plain(bars: BarTuple[]): Columns {
  const out = columns();
  for (const bar of bars) push(out, bar, false);
  return out;
}

/**
 * Every bucket from `from` to `lastBucket`: a bar where there were trades, else the previous
 * close with no volume. Buckets before the token's first trade have no close to carry: left out.
 */
function filled(row: CandlesRow, from: number, lastBucket: number, seconds: number): Columns {
  const out = columns();
  const byStart = new Map(row.bars.map((bar) => [bar[0], bar]));
  let close = row.before?.[1] ?? null;
  for (let t = from; t <= lastBucket; t += seconds) {
    const bar = byStart.get(t);
    if (bar) {
      push(out, bar, false);
      close = bar[4];
    } else if (close !== null) {
      push(out, [t, close, close, close, close, '0', '0', 0], true);
    }
  }
  return out;
}
