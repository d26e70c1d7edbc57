import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { Client as PgClient } from 'pg';
import { tokenCandles } from '../api/routes/tokens/candles';
import { listTokens } from '../api/routes/tokens/list';
import { candlesQuery } from '../api/routes/tokens/market-schemas';
import { listTokensQuery } from '../api/routes/tokens/schemas';
import { Sql } from '../shared/db/sql';
import { CANDLE_ORIGIN_SQL, RESOLUTIONS } from '../shared/market/candles';

/**
 * The market bench's data (bench/market.ts) and the statements its floors run.
 *
 * A data set is `tokens` launched tokens on chain 31337, written straight into the tables the
 * market reads use, each by one `insert … select … from generate_series(…)` in one
 * transaction, pseudo-random but repeatable (`setseed`): `tokens` (`live`, an instance, half
 * virtuals, half dpnm), their `chain_launches`, `token_holder_totals` and `token_markets`
 * (varied market caps, volumes, changes, progress), the chain's cursor, and 1h bars in
 * `token_candles`: `CHART_BARS` ending at the current hour for the charted token, a day's for
 * every other one. The candle triggers are on `token_trades`, which stays empty.
 */

/** 1h bars of the charted token (the candles read asks for 500 of them). */
const CHART_BARS = 600;
/** 1h bars of every other token: a day's. */
const OTHER_BARS = 24;
const CHAIN_ID = 31337;
const HOUR = RESOLUTIONS['1h'];

export interface MarketSet {
  tokens: number;
  /** The token whose candles are read, and whose stream the fan-out subscribes to. */
  chartSlug: string;
  chartTokenId: string;
  bars: number;
}

const instance = (offset: string) => `'0x' || lpad(to_hex(${offset}), 40, '0')`;
const hash = (offset: string) => `'0x' || lpad(to_hex(${offset}), 64, '0')`;

/** Statements in order; `$1`, where a statement has it, is the owner's user id. */
function statements(tokens: number, chart: number): string[] {
  return [
    `select setseed(0.31)`,
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, image_url,
                         brief, params, state, created_at)
     select gen_random_uuid(), $1, 'market-' || i, 'Market Coin ' || i,
            'M' || upper(lpad(to_hex(i), 5, '0')),
            case when i % 2 = 0 then 'virtuals' else 'dpnm' end, ${CHAIN_ID},
            ${instance('3000000 + i')}, 'https://img.example.com/tokens/' || i || '.png',
            'A token for the market bench, number ' || i,
            case when i % 2 = 0
                 then '{"graduationThreshold":"42000","initialBuy":"0"}'::jsonb
                 else '{"initialPrice":"0.01","dailyLimitFloor":"50","incomeLimitMultiplier":3,"treeActivationCost":"10"}'::jsonb
            end,
            'live', now() - interval '30 days' + i * interval '1 second'
       from generate_series(1, ${tokens}) i`,
    `insert into chain_launches (chain_id, instance, template, factory, ref, creator, token_id,
                                 block_number, log_index, block_hash, tx_hash, block_time)
     select t.chain_id, lower(t.instance), t.template, ${instance('1')}, t.id, ${instance('2')},
            t.id, 1000 + n, 0, ${hash('n')}, ${hash('1000000 + n')}, t.created_at
       from (select t.*, row_number() over (order by t.created_at) as n from tokens t) t`,
    `insert into token_holder_totals (chain_id, instance, holders_count, held_supply)
     select t.chain_id, lower(t.instance), 1 + floor(random() * 5000)::int,
            floor(random() * 1e27)::numeric
       from tokens t`,
    // Prices around 10^-6 to 10^-3 of the quote, a billion tokens circulating; market caps
    // spread over four orders of magnitude so the board's order is not the insert order.
    `insert into token_markets (token_id, chain_id, instance, template, price, circulating,
                                market_cap, volume_24h, trades_24h, volume_1h, trades_1h,
                                price_24h_ago, price_change_24h, trending_score, progress,
                                graduated, last_trade_at, activity_at, window_end)
     select id, chain_id, lower(instance), template, price, circulating,
            div(price * circulating, 1000000000000000000), volume, trades, div(volume, 24),
            trades / 24, price_ago, round((price - price_ago) / price_ago, 6),
            round(((trades / 24) * (1 + random()))::numeric, 6),
            case when template = 'virtuals' then round(random()::numeric, 6) end, false,
            traded_at, traded_at, date_trunc('minute', now()) + interval '1 minute'
       from (select t.id, t.chain_id, t.instance, t.template,
                    floor(1e12 * power(1000, random()))::numeric as price,
                    floor(1e27 * (0.5 + random()))::numeric as circulating,
                    floor(1e21 * power(1000, random()))::numeric as volume,
                    floor(random() * 2000)::int as trades,
                    floor(1e12 * power(1000, random()))::numeric as price_ago,
                    now() - random() * interval '1 day' as traded_at
               from tokens t) m`,
    `insert into chain_cursors (chain_id, next_block, head_time, final_block, final_time,
                                updated_at)
     values (${CHAIN_ID}, ${1000 + tokens + 50_000}, now(), ${1000 + tokens + 49_990},
             now() - interval '20 seconds', now())`,
    // Hourly bars, each opening at the previous close, up to the current (still open) hour.
    `insert into token_candles (chain_id, instance, resolution, bucket, open, high, low, close,
                                open_ord, close_ord, volume_token, volume_payment, trades)
     select chain_id, instance, ${HOUR}, bucket, open, greatest(open, close) + spread,
            greatest(1, least(open, close) - spread), close, ord, ord + 20, volume,
            div(volume * close, 1000000000000000000), 1 + floor(random() * 200)::int
       from (select l.chain_id, l.instance, b.bucket, b.ord,
                    floor(1e12 * (1 + 0.001 * b.k))::numeric as open,
                    floor(1e12 * (1 + 0.001 * b.k) * (0.97 + 0.06 * random()))::numeric as close,
                    floor(1e10 * random())::numeric as spread,
                    floor(1e21 * (1 + 100 * random()))::numeric as volume
               from chain_launches l
               join tokens t on t.id = l.token_id
              cross join lateral (
                select k, date_bin(interval '${HOUR} seconds', now(), ${CANDLE_ORIGIN_SQL})
                            - (k * interval '${HOUR} seconds') as bucket,
                       (1000 + k) * 1048576 as ord
                  from generate_series(0, case when t.slug = 'market-${chart}' then ${CHART_BARS}
                                               else ${OTHER_BARS} end - 1) k) b) c`,
    // What autovacuum would do after such a load, before the reads.
    `analyze tokens, chain_launches, token_holder_totals, token_markets, chain_cursors,
             token_candles`,
  ];
}

/** Seeds a migrated, empty database with `tokens` launched tokens (see above). */
export async function seedMarket(databaseUrl: string, tokens: number): Promise<MarketSet> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  const chart = Math.ceil(tokens / 2);
  try {
    await pg.query('begin');
    const { rows } = await pg.query<{ id: number }>(
      `insert into users (address, created_at) values ($1, now()) returning id`,
      [`0x${'b'.repeat(40)}`],
    );
    const owner = rows[0]!.id;
    for (const text of statements(tokens, chart)) {
      await pg.query(text, text.includes('$1') ? [owner] : []);
    }
    await pg.query('commit');
    const chartSlug = `market-${chart}`;
    const found = await pg.query<{ id: string; bars: number }>(
      `select t.id, (select count(*)::int from token_candles k
                      where k.chain_id = l.chain_id and k.instance = l.instance) as bars
         from tokens t join chain_launches l on l.token_id = t.id
        where t.slug = $1`,
      [chartSlug],
    );
    return { tokens, chartSlug, chartTokenId: found.rows[0]!.id, bars: found.rows[0]!.bars };
  } catch (err) {
    await pg.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await pg.end();
  }
}

/**
 * What a market floor runs (bench/anchors/anchor.mjs, FLOOR_STATEMENT): the statement's name,
 * text and values as the route sends them; `now`, the index of the value the route sets to the
 * current Unix second per request; the candles' bar width; a keyset page's size.
 */
export interface FloorStatement {
  name: string;
  text: string;
  values: unknown[];
  now: number | null;
  seconds?: number;
  resolution?: string;
  page?: number;
}

/**
 * The first statement a read sends, taken from the route's own function run on a `Sql` that
 * records it instead of sending it (the read then fails on the empty answer; that is ignored):
 * the floor runs exactly the text and values the route runs.
 */
async function recorded(read: (db: Sql) => Promise<unknown>): Promise<QueryConfig> {
  let sent: QueryConfig | undefined;
  const db = new Sql(<Row extends QueryResultRow>(config: QueryConfig) => {
    sent ??= config;
    return Promise.resolve({ rows: [] as Row[] } as QueryResult<Row>);
  });
  await read(db).catch(() => undefined);
  if (!sent?.name || !sent.values) throw new Error('market bench: the read sent no statement');
  return sent;
}

const noCursors = {
  encode: () => {
    throw new Error('market bench: no cursor expected');
  },
  decode: () => {
    throw new Error('market bench: no cursor expected');
  },
};

/** `GET /tokens/:slug/candles?resolution=1h&countback=<bars>`: the route's statement. */
export async function candlesStatement(slug: string, bars: number): Promise<FloorStatement> {
  const query = candlesQuery.parse({ resolution: '1h', countback: String(bars) });
  const sent = await recorded((db) => tokenCandles({ db }, null, { ...query, slug }));
  const now = sent.values!.indexOf(query.to);
  if (now === -1 || sent.values!.lastIndexOf(query.to) !== now) {
    throw new Error('market bench: cannot tell which value of the candles read is `to`');
  }
  return {
    name: sent.name!,
    text: sent.text,
    values: sent.values!,
    now,
    seconds: HOUR,
    resolution: query.resolution,
  };
}

/** `GET /tokens?sort=<sort>`, the default page: the route's statement. */
export async function boardStatement(sort: 'market_cap'): Promise<FloorStatement> {
  const query = listTokensQuery.parse({ sort });
  const sent = await recorded((db) => listTokens({ db, cursors: noCursors }, null, query));
  return { name: sent.name!, text: sent.text, values: sent.values!, now: null, page: query.limit };
}
