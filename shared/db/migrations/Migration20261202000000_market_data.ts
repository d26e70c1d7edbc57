import { Migration } from '@mikro-orm/migrations';

/**
 * Market data (docs/chain.md "Market data", docs/spec/contract.md §13).
 *
 * - `token_trades` gains the spot price before and after each buy or sell and the circulating
 *   supply after it; existing rows are filled from what the index already holds (virtuals: the
 *   curve's reserves and its `CurveCreated`; dpnm: the trade's own price, which is the
 *   protocol's price before it, and the `PoolUpdated` that follows it in its transaction).
 * - `token_candles`: one bar per stored resolution and bucket with trades, kept by statement
 *   triggers on `token_trades` like `token_holders`. An insert merges its trades into the bars
 *   with an order-independent rule (open from the earliest trade, close from the latest, by
 *   position; high, low and volumes commutative), so ranges indexed in any order give the same
 *   bars; a delete (a reorg's rollback) recomputes every bucket it touched from the trades that
 *   remain. Buckets are `date_bin` of block time from Monday 1970-01-05 UTC, so weeks start on
 *   Monday and every shorter stride is aligned to UTC midnight.
 * - `token_markets`: the board's figures per launched token, recomputed by the indexer.
 * - `market_events`: the outbox of the token streams.
 */

/** Seconds of each stored resolution: 1m, 5m, 15m, 1h, 4h, 1d, 1w. */
const RESOLUTIONS = 'array[60, 300, 900, 3600, 14400, 86400, 604800]';
/** The resolutions composed from one-minute bars. */
const COARSER = 'array[300, 900, 3600, 14400, 86400, 604800]';
const ORIGIN = `timestamptz '1970-01-05 00:00:00+00'`;
/** A trade's position as one sortable number (log indexes stay below 2^20). */
const ORD = 'block_number * 1048576 + log_index';

/**
 * The bars of a set of priced trades (`rows` has the trade columns), by bucket: the trades
 * aggregated once into one-minute bars, and every coarser bar composed from those (the
 * earliest open, the latest close, the extremes, the sums), so each trade is sorted once.
 */
function bars(rows: string): string {
  return `with minute as (
            select chain_id, instance,
                   date_bin(interval '60 seconds', block_time, ${ORIGIN}) as bucket,
                   (array_agg(price_before order by ${ORD}))[1] as open,
                   max(greatest(price_before, price_after)) as high,
                   min(least(price_before, price_after)) as low,
                   (array_agg(price_after order by ${ORD} desc))[1] as close,
                   min(${ORD}) as open_ord, max(${ORD}) as close_ord,
                   sum(amount_token) as volume_token, sum(amount_payment) as volume_payment,
                   count(*)::int as trades
              from ${rows} where price_after is not null
             group by chain_id, instance, bucket)
          select chain_id, instance, 60 as resolution, bucket, open, high, low, close, open_ord,
                 close_ord, volume_token, volume_payment, trades
            from minute
          union all
          select m.chain_id, m.instance, s.resolution,
                 date_bin(make_interval(secs => s.resolution), m.bucket, ${ORIGIN}),
                 (array_agg(m.open order by m.open_ord))[1], max(m.high), min(m.low),
                 (array_agg(m.close order by m.close_ord desc))[1], min(m.open_ord),
                 max(m.close_ord), sum(m.volume_token), sum(m.volume_payment),
                 sum(m.trades)::int
            from minute m cross join unnest(${COARSER}) as s(resolution)
           group by m.chain_id, m.instance, s.resolution, 4`;
}

const CANDLE_COLUMNS = `chain_id, instance, resolution, bucket, open, high, low, close, open_ord,
  close_ord, volume_token, volume_payment, trades`;

/** The buckets of `resolution` that a rollback's deleted trades fall in. */
function touched(resolution: number): string {
  return `select distinct chain_id, instance,
                 date_bin(make_interval(secs => ${resolution}), block_time, ${ORIGIN}) as bucket
            from old_rows where price_after is not null`;
}

/**
 * A rollback's recomputation, finest first: the 1m buckets it touched from the trades that
 * remain in them, then each coarser resolution's touched buckets from the finer bars inside
 * them (bars compose: the earliest open, the latest close, the extremes, the sums), so the
 * work is bounded by the buckets touched, not by how many trades a week holds.
 */
function recompute(): string {
  const [finest, ...coarser] = [60, 300, 900, 3600, 14400, 86400, 604800];
  const steps = [
    `insert into token_candles (${CANDLE_COLUMNS})
     select t.chain_id, t.instance, ${finest}, t.bucket,
            (array_agg(r.price_before order by r.${ORD}))[1],
            max(greatest(r.price_before, r.price_after)), min(least(r.price_before, r.price_after)),
            (array_agg(r.price_after order by r.${ORD} desc))[1],
            min(r.${ORD}), max(r.${ORD}), sum(r.amount_token), sum(r.amount_payment), count(*)::int
       from (${touched(finest)}) t
       join token_trades r
         on r.chain_id = t.chain_id and r.instance = t.instance and r.kind <> 'graduation'
        and r.price_after is not null
        and r.block_time >= t.bucket and r.block_time < t.bucket + interval '${finest} seconds'
      group by t.chain_id, t.instance, t.bucket
      order by t.chain_id, t.instance, t.bucket;`,
  ];
  let finer = finest;
  for (const resolution of coarser) {
    steps.push(`insert into token_candles (${CANDLE_COLUMNS})
     select t.chain_id, t.instance, ${resolution}, t.bucket,
            (array_agg(c.open order by c.open_ord))[1], max(c.high), min(c.low),
            (array_agg(c.close order by c.close_ord desc))[1],
            min(c.open_ord), max(c.close_ord), sum(c.volume_token), sum(c.volume_payment),
            sum(c.trades)::int
       from (${touched(resolution)}) t
       join token_candles c
         on c.chain_id = t.chain_id and c.instance = t.instance and c.resolution = ${finer}
        and c.bucket >= t.bucket and c.bucket < t.bucket + interval '${resolution} seconds'
      group by t.chain_id, t.instance, t.bucket
      order by t.chain_id, t.instance, t.bucket;`);
    finer = resolution;
  }
  return steps.join('\n    ');
}

const CANDLES_APPLY = `create function token_candles_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into token_candles (${CANDLE_COLUMNS})
    select * from (${bars('new_rows')}) b order by chain_id, instance, resolution, bucket
    on conflict (chain_id, instance, resolution, bucket) do update set
      open = case when excluded.open_ord < token_candles.open_ord
                  then excluded.open else token_candles.open end,
      open_ord = least(token_candles.open_ord, excluded.open_ord),
      close = case when excluded.close_ord > token_candles.close_ord
                   then excluded.close else token_candles.close end,
      close_ord = greatest(token_candles.close_ord, excluded.close_ord),
      high = greatest(token_candles.high, excluded.high),
      low = least(token_candles.low, excluded.low),
      volume_token = token_candles.volume_token + excluded.volume_token,
      volume_payment = token_candles.volume_payment + excluded.volume_payment,
      trades = token_candles.trades + excluded.trades;
  else
    delete from token_candles c
     using (select distinct r.chain_id, r.instance, s.resolution,
                   date_bin(make_interval(secs => s.resolution), r.block_time, ${ORIGIN}) as bucket
              from old_rows r cross join unnest(${RESOLUTIONS}) as s(resolution)
             where r.price_after is not null) t
     where c.chain_id = t.chain_id and c.instance = t.instance
       and c.resolution = t.resolution and c.bucket = t.bucket;
    ${recompute()}
  end if;
  return null;
end $$;`;

const TRANSITIONS = {
  insert: 'new table as new_rows',
  delete: 'old table as old_rows',
} as const;

/** Virtuals spot price: (locked + virtual payment) per token on the curve, per whole token. */
const curvePrice = (payment: string, reserve: string) =>
  `case when (${reserve}) > 0 then div((${payment}) * 1000000000000000000, ${reserve}) else 0 end`;

export class Migration20261202000000_market_data extends Migration {
  override up(): void {
    this.addSql(
      `alter table "chain_cursors" add column "final_block" bigint null, add column "final_time" timestamptz(3) null;`,
    );
    this.addSql(
      `alter table "token_trades" add column "price_before" numeric(78,0) null, add column "price_after" numeric(78,0) null, add column "supply_after" numeric(78,0) null;`,
    );
    // Virtuals: the reserves after the trade are on the row; before it, the trade undone.
    this.addSql(
      `update token_trades t
          set price_before = ${curvePrice(
            `t.locked_payment + case when t.kind = 'buy' then -t.amount_payment else t.amount_payment end + (c.args->>'virtualPayment')::numeric`,
            `t.reserve_token + case when t.kind = 'buy' then t.amount_token else -t.amount_token end`,
          )},
              price_after = ${curvePrice(`t.locked_payment + (c.args->>'virtualPayment')::numeric`, 't.reserve_token')},
              supply_after = (c.args->>'reserveToken')::numeric - t.reserve_token
         from chain_events c
        where t.kind <> 'graduation' and t.reserve_token is not null
          and c.chain_id = t.chain_id and c.instance = t.instance and c.name = 'CurveCreated';`,
    );
    // dpnm: the trade's price is the protocol's price() before it; PoolUpdated follows it.
    this.addSql(
      `update token_trades t
          set price_before = t.price,
              price_after = (p.args->>'price')::numeric,
              supply_after = (p.args->>'totalSupply')::numeric
         from chain_events p
        where t.kind <> 'graduation' and t.reserve_token is null
          and p.chain_id = t.chain_id and p.instance = t.instance and p.name = 'PoolUpdated'
          and p.tx_hash = t.tx_hash
          and p.block_number = t.block_number
          and p.log_index = (select min(q.log_index) from chain_events q
                              where q.chain_id = t.chain_id and q.instance = t.instance
                                and q.name = 'PoolUpdated' and q.block_number = t.block_number
                                and q.tx_hash = t.tx_hash and q.log_index > t.log_index);`,
    );
    this.addSql(
      `create table "token_candles" ("chain_id" int not null, "instance" varchar(42) not null, "resolution" int not null, "bucket" timestamptz(3) not null, "open" numeric(78,0) not null, "high" numeric(78,0) not null, "low" numeric(78,0) not null, "close" numeric(78,0) not null, "open_ord" bigint not null, "close_ord" bigint not null, "volume_token" numeric(78,0) not null, "volume_payment" numeric(78,0) not null, "trades" int not null, constraint "token_candles_pkey" primary key ("chain_id", "instance", "resolution", "bucket"));`,
    );
    this.addSql(
      `insert into token_candles (${CANDLE_COLUMNS})
       select * from (${bars('token_trades')}) b order by chain_id, instance, resolution, bucket;`,
    );
    this.addSql(CANDLES_APPLY);
    for (const op of ['insert', 'delete'] as const) {
      this.addSql(
        `create trigger "token_candles_${op}" after ${op} on "token_trades" referencing ${TRANSITIONS[op]} for each statement execute function token_candles_apply();`,
      );
    }
    this.addSql(
      `create table "token_markets" ("token_id" uuid not null, "chain_id" int not null, "instance" varchar(42) not null, "template" text check ("template" in ('virtuals', 'dpnm')) not null, "price" numeric(78,0) not null, "circulating" numeric(78,0) not null, "market_cap" numeric(78,0) not null, "volume_24h" numeric(78,0) not null, "trades_24h" int not null, "volume_1h" numeric(78,0) not null, "trades_1h" int not null, "price_24h_ago" numeric(78,0) not null, "price_change_24h" numeric not null, "trending_score" numeric not null, "progress" numeric null, "graduated" boolean not null, "last_trade_at" timestamptz(3) null, "activity_at" timestamptz(3) not null, "window_end" timestamptz(3) not null, constraint "token_markets_pkey" primary key ("token_id"));`,
    );
    for (const [name, columns] of [
      ['market_cap', '"market_cap" desc, "token_id" desc'],
      ['volume', '"volume_24h" desc, "token_id" desc'],
      ['change', '"price_change_24h" desc, "token_id" desc'],
      ['activity', '"activity_at" desc, "token_id" desc'],
      ['trending', '"trending_score" desc, "token_id" desc'],
    ] as const) {
      this.addSql(`create index "token_markets_${name}_index" on "token_markets" (${columns});`);
    }
    this.addSql(
      `create index "token_markets_graduating_index" on "token_markets" ("progress" desc, "token_id" desc) where "template" = 'virtuals' and not "graduated";`,
    );
    this.addSql(
      `create index "token_markets_rolling_index" on "token_markets" ("chain_id", "window_end") where "trades_24h" > 0;`,
    );
    this.addSql(
      `alter table "token_markets" add constraint "token_markets_chain_id_instance_unique" unique ("chain_id", "instance");`,
    );
    this.addSql(
      `alter table "token_markets" add constraint "token_markets_token_id_foreign" foreign key ("token_id") references "tokens" ("id") on update cascade on delete cascade;`,
    );
    // Filled by the indexer's next pass, which computes the row of every launch without one.
    this.addSql(
      `create table "market_events" ("seq" bigserial primary key, "token_id" uuid not null, "kind" text check ("kind" in ('token', 'trades', 'revert', 'state')) not null, "payload" json not null, "created_at" timestamptz(3) not null);`,
    );
    this.addSql(`create index "market_events_token_index" on "market_events" ("token_id", "seq");`);
    this.addSql(`create index "market_events_created_at_index" on "market_events" ("created_at");`);
  }

  override down(): void {
    this.addSql('alter table "chain_cursors" drop column "final_block", drop column "final_time";');
    this.addSql('drop table if exists "market_events";');
    this.addSql('drop table if exists "token_markets";');
    this.addSql('drop trigger if exists "token_candles_insert" on "token_trades";');
    this.addSql('drop trigger if exists "token_candles_delete" on "token_trades";');
    this.addSql('drop function if exists token_candles_apply();');
    this.addSql('drop table if exists "token_candles";');
    this.addSql(
      'alter table "token_trades" drop column "price_before", drop column "price_after", drop column "supply_after";',
    );
  }
}
