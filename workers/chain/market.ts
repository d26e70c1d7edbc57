import type { EntityManager } from '@mikro-orm/postgresql';
import type { TokenState } from '../../shared/db/entities/token';
import { epochMs, isoUtc, sqlOf, type Sql, statement } from '../../shared/db/sql';
import { enqueueOutboxEvent } from '../../shared/outbox/outbox';
import { CANDLE_ORIGIN_SQL } from '../../shared/market/candles';
import {
  lockMarketEvents,
  insertMarketEvents,
  type MarketEventInput,
} from '../../shared/market/events';
import type { Batch } from './decode';
import type { TokenChange } from './store';

/**
 * The market read models and stream events of the chain index (docs/chain.md "Market data"),
 * written in the transaction of the range or rollback that changes them. The candles follow
 * `token_trades` by themselves (statement triggers); this module recomputes the board's row of
 * each token a range touched, refreshes the rolling figures when the indexed chain's minute
 * moves, and appends the range's `trades` and `state` events to the outbox.
 */

type NoRow = Record<string, never>;

/** The tokens of the chain that own these (lowercase) instances. */
interface TokenOfInstanceRow {
  id: string;
  instance: string;
  slug: string;
  state: TokenState;
}
const tokensOfInstances = statement<TokenOfInstanceRow, [chainId: number, instances: string[]]>(
  'market.tokens_of_instances',
  `select id, lower(instance) as instance, slug, state from tokens
    where chain_id = $1 and lower(instance) = any($2::text[])`,
);

/**
 * Recomputes the board row of each launch among `instances` that belongs to a token, with the
 * rolling windows ending at the minute of `$3` (the indexed head's block time), and deletes
 * the rows of those whose launch is gone (a rollback). Every figure is an index lookup or a
 * sum over at most 1,440 one-minute bars.
 */
const refreshMarkets = statement<NoRow, [chainId: number, instances: string[], headTime: string]>(
  'market.refresh',
  `with window_end as (select date_trunc('minute', $3::timestamptz) as at),
   gone as (
     delete from token_markets m
      where m.chain_id = $1 and m.instance = any($2::text[])
        and not exists (select 1 from chain_launches l join tokens t
                          on t.chain_id = l.chain_id and lower(t.instance) = l.instance
                         where l.chain_id = m.chain_id and l.instance = m.instance
                           and t.id = m.token_id))
   insert into token_markets (token_id, chain_id, instance, template, price, circulating,
     market_cap, volume_24h, trades_24h, volume_1h, trades_1h, price_24h_ago, price_change_24h,
     trending_score, progress, graduated, last_trade_at, activity_at, window_end)
   select t.id, l.chain_id, l.instance, l.template, now_.price, now_.circulating,
          div(now_.price * now_.circulating, 1000000000000000000),
          day.volume, day.trades, hour.volume, hour.trades, ago.price,
          case when ago.price > 0 then round((now_.price - ago.price) / ago.price, 8) else 0 end,
          hour.trades * (1 + case when day.volume > 0 then round(hour.volume / day.volume, 8)
                                  else 0 end),
          case when l.template = 'virtuals' then
            case when grad.done then 1
                 when (curve.args->>'graduationThreshold')::numeric > 0 then
                   least(1, trunc(coalesce(last.locked_payment, 0)
                                  / (curve.args->>'graduationThreshold')::numeric, 6))
                 else 0 end
          end,
          grad.done, last.block_time, coalesce(last.block_time, l.block_time), w.at
     from chain_launches l
     join tokens t on t.chain_id = l.chain_id and lower(t.instance) = l.instance
     cross join window_end w
     left join lateral (
       select r.price_after, r.supply_after, r.locked_payment, r.block_time from token_trades r
        where r.chain_id = l.chain_id and r.instance = l.instance and r.kind <> 'graduation'
        order by r.block_number desc, r.log_index desc limit 1) last on true
     left join lateral (
       select e.args from chain_events e
        where l.template = 'virtuals' and e.chain_id = l.chain_id and e.instance = l.instance
          and e.name = 'CurveCreated'
        order by e.block_number desc, e.log_index desc limit 1) curve on true
     left join lateral (
       select e.args from chain_events e
        where l.template = 'dpnm' and e.chain_id = l.chain_id and e.instance = l.instance
          and e.name = 'PoolUpdated'
        order by e.block_number desc, e.log_index desc limit 1) pool on true
     cross join lateral (
       select exists (select 1 from token_trades g
                       where g.chain_id = l.chain_id and g.instance = l.instance
                         and g.kind = 'graduation') as done) grad
     cross join lateral (
       select case when l.template = 'virtuals' then
                coalesce(last.price_after,
                         case when (curve.args->>'reserveToken')::numeric > 0 then
                           div((curve.args->>'virtualPayment')::numeric * 1000000000000000000,
                               (curve.args->>'reserveToken')::numeric) end, 0)
              else coalesce((pool.args->>'price')::numeric, (l.params->>'initialPrice')::numeric, 0)
              end as price,
              case when l.template = 'virtuals' then coalesce(last.supply_after, 0)
                   else coalesce((pool.args->>'totalSupply')::numeric, 0) end as circulating) now_
     cross join lateral (
       select coalesce(sum(c.volume_payment), 0) as volume, coalesce(sum(c.trades), 0)::int as trades
         from token_candles c
        where c.chain_id = l.chain_id and c.instance = l.instance and c.resolution = 60
          and c.bucket > w.at - interval '24 hours' and c.bucket <= w.at) day
     cross join lateral (
       select coalesce(sum(c.volume_payment), 0) as volume, coalesce(sum(c.trades), 0)::int as trades
         from token_candles c
        where c.chain_id = l.chain_id and c.instance = l.instance and c.resolution = 60
          and c.bucket > w.at - interval '1 hour' and c.bucket <= w.at) hour
     cross join lateral (
       select coalesce(
                (select c.close from token_candles c
                  where c.chain_id = l.chain_id and c.instance = l.instance and c.resolution = 60
                    and c.bucket <= w.at - interval '24 hours'
                  order by c.bucket desc limit 1),
                (select c.open from token_candles c
                  where c.chain_id = l.chain_id and c.instance = l.instance and c.resolution = 60
                  order by c.bucket limit 1),
                now_.price) as price) ago
    where l.chain_id = $1 and l.instance = any($2::text[])
    order by t.id
   on conflict (token_id) do update set
     chain_id = excluded.chain_id, instance = excluded.instance, template = excluded.template,
     price = excluded.price, circulating = excluded.circulating,
     market_cap = excluded.market_cap, volume_24h = excluded.volume_24h,
     trades_24h = excluded.trades_24h, volume_1h = excluded.volume_1h,
     trades_1h = excluded.trades_1h, price_24h_ago = excluded.price_24h_ago,
     price_change_24h = excluded.price_change_24h, trending_score = excluded.trending_score,
     progress = excluded.progress, graduated = excluded.graduated,
     last_trade_at = excluded.last_trade_at, activity_at = excluded.activity_at,
     window_end = excluded.window_end`,
);

/** Recomputes the board rows of these launches, the rolling windows ending at `headTime`. */
export async function refreshTokenMarkets(
  sql: Sql,
  chainId: number,
  instances: readonly string[],
  headTime: string,
): Promise<void> {
  if (instances.length > 0) await sql.run(refreshMarkets, [chainId, [...instances], headTime]);
}

/**
 * Launches whose rolling figures end before the head's minute while they still count trades,
 * and launches of tokens without a board row (linked after their launch was indexed, or
 * indexed before the board existed).
 */
interface InstanceRow {
  instance: string;
}
const staleMarkets = statement<InstanceRow, [chainId: number, headTime: string]>(
  'market.stale',
  `select m.instance from token_markets m
    where m.chain_id = $1 and m.trades_24h > 0
      and m.window_end < date_trunc('minute', $2::timestamptz)
   union
   select l.instance from chain_launches l
     join tokens t on t.chain_id = l.chain_id and lower(t.instance) = l.instance
    where l.chain_id = $1
      and not exists (select 1 from token_markets m where m.token_id = t.id)`,
);

/** Seconds of the stored resolutions, whose current bars a `trades` event carries. */
const BAR_RESOLUTIONS = [60, 300, 900, 3600, 14400, 86400, 604800];

/** A bar as the outbox keeps it: [resolution, t, o, h, l, c, vBase, vQuote, n], base units. */
const BAR_TUPLE = `json_build_array(c.resolution, extract(epoch from c.bucket)::int8, c.open::text,
  c.high::text, c.low::text, c.close::text, c.volume_token::text, c.volume_payment::text,
  c.trades)`;

/**
 * One `trades` event per token traded in blocks `$2`..`$3`: its trades as tick tuples
 * [blockNumber, logIndex, txHash, time, side, trader, baseAmount, quoteAmount, priceBefore,
 * price, marketCap, progress] in chain order, and the latest bar of each stored resolution,
 * built where the rows are (base units, lowercase addresses, time in epoch milliseconds: the
 * API maps them to the wire, once per event, where formatting costs the indexer nothing).
 */
const insertTradeEvents = statement<
  NoRow,
  [chainId: number, fromBlock: number, toBlock: number, instances: string[]]
>(
  'market.insert_trade_events',
  `insert into market_events (token_id, kind, payload, created_at)
   select t.id, 'trades', json_build_object(
            'slug', t.slug, 'blockNumber', $3::int8,
            'ticks', (
              select json_agg(json_build_array(r.block_number, r.log_index, r.tx_hash,
                       ${epochMs('r.block_time')}, r.kind, r.trader, r.amount_token::text,
                       r.amount_payment::text, r.price_before::text, r.price_after::text,
                       div(r.price_after * r.supply_after, 1000000000000000000)::text,
                       case when curve.threshold > 0
                            then least(1, trunc(r.locked_payment / curve.threshold, 6)) end)
                     order by r.block_number, r.log_index)
                from token_trades r
               where r.chain_id = $1 and r.instance = i.instance and r.price_after is not null
                 and r.block_number >= $2 and r.block_number <= $3),
            'bars', (
              select json_agg(b.bar order by b.resolution)
                from unnest(array[${BAR_RESOLUTIONS.join(', ')}]) as s(resolution)
                cross join lateral (
                  select c.resolution, ${BAR_TUPLE} as bar from token_candles c
                   where c.chain_id = $1 and c.instance = i.instance
                     and c.resolution = s.resolution
                   order by c.bucket desc limit 1) b)), now()
     from unnest($4::text[]) as i(instance)
     join tokens t on t.chain_id = $1 and lower(t.instance) = i.instance
     left join lateral (
       select (e.args->>'graduationThreshold')::numeric as threshold from chain_events e
        where e.chain_id = $1 and e.instance = i.instance and e.name = 'CurveCreated'
        order by e.block_number desc, e.log_index desc limit 1) curve on true
    order by t.id`,
);

export interface RangeMarket {
  chainId: number;
  /** The range's blocks, and its last block's time. */
  fromBlock: number;
  toBlock: number;
  headTime: string;
  batch: Batch;
  /** Tokens whose state the range changed: launched, graduated or failed. */
  states: StateChange[];
}

/**
 * The board rows and the stream events of a written range, in its transaction: board rows of
 * the launches it touched and of those whose rolling window moved, then (under the outbox's
 * lock) one `trades` event per traded token and a `state` per changed token.
 */
export async function recordRangeMarket(sql: Sql, range: RangeMarket): Promise<boolean> {
  const { chainId, batch } = range;
  const touched = new Set<string>();
  for (const trade of batch.trades) touched.add(trade.instance);
  for (const launch of batch.launches) touched.add(launch.instance);
  for (const event of batch.events) if (event.name === 'PoolUpdated') touched.add(event.instance);
  for (const row of await sql.rows(staleMarkets, [chainId, range.headTime])) {
    touched.add(row.instance);
  }
  await refreshTokenMarkets(sql, chainId, [...touched], range.headTime);

  const traded = [
    ...new Set(batch.trades.filter((trade) => trade.priceAfter !== null).map((t) => t.instance)),
  ];
  if (traded.length === 0 && range.states.length === 0) return false;
  await sql.run(lockMarketEvents, []);
  if (traded.length > 0) {
    await sql.run(insertTradeEvents, [chainId, range.fromBlock, range.toBlock, traded]);
  }
  await insertMarketEvents(sql, [
    ...tokenEvents(range.states, range.toBlock),
    ...stateEvents(range.states, range.toBlock),
  ]);
  return true;
}

/** A launch's `token` event for the firehose (`launched`), beside its `state`. */
function tokenEvents(states: readonly StateChange[], blockNumber: number): MarketEventInput[] {
  return states
    .filter((change) => change.state === 'live')
    .map((change) => ({
      tokenId: change.tokenId,
      kind: 'token',
      payload: { reason: 'launched', blockNumber },
    }));
}

type StateChange = { tokenId: string; state: TokenState };

/** A `state` event per changed token, at the block that changed it. */
function stateEvents(states: readonly StateChange[], blockNumber: number): MarketEventInput[] {
  return states.map((change) => ({
    tokenId: change.tokenId,
    kind: 'state',
    payload: { state: change.state, blockNumber },
  }));
}

/** The `state` events of changes made outside a range (graduations becoming final). */
export async function recordStateEvents(
  sql: Sql,
  states: readonly StateChange[],
  blockNumber: number,
): Promise<boolean> {
  return appendEvents(sql, stateEvents(states, blockNumber));
}

/** Appends events under the outbox's lock; false when there were none. */
async function appendEvents(sql: Sql, events: readonly MarketEventInput[]): Promise<boolean> {
  if (events.length === 0) return false;
  await sql.run(lockMarketEvents, []);
  await insertMarketEvents(sql, events);
  return true;
}

/** Priced trades above the common ancestor, in chain order. */
interface RemovedTradeRow {
  instance: string;
  txHash: string;
  logIndex: number;
  blockTime: string;
}
const tradesAbove = statement<RemovedTradeRow, [chainId: number, ancestor: number]>(
  'market.trades_above',
  `select instance, tx_hash as "txHash", log_index as "logIndex", ${isoUtc('block_time')} as "blockTime"
     from token_trades
    where chain_id = $1 and block_number > $2 and price_after is not null
    order by block_number, log_index`,
);

/** Launches whose board rows the removed blocks change: launched, traded or repriced there. */
const instancesAbove = statement<InstanceRow, [chainId: number, ancestor: number]>(
  'market.instances_above',
  `select instance from chain_launches where chain_id = $1 and block_number > $2
   union select instance from token_trades where chain_id = $1 and block_number > $2
   union select instance from chain_events
          where chain_id = $1 and block_number > $2 and name = 'PoolUpdated'`,
);

/** The bars of `instance` from the bucket holding `fromTime` on, every stored resolution. */
interface InstanceBarRow {
  instance: string;
  /** As `BAR_TUPLE` builds it. */
  bar: unknown[];
}
const barsFrom = statement<InstanceBarRow, [chainId: number, from: string]>(
  'market.bars_from',
  `select i.instance, ${BAR_TUPLE} as bar
     from jsonb_to_recordset($2::jsonb) as i(instance text, "fromTime" timestamptz)
     cross join unnest(array[${BAR_RESOLUTIONS.join(', ')}]) as s(resolution)
     join token_candles c
       on c.chain_id = $1 and c.instance = i.instance and c.resolution = s.resolution
      and c.bucket >= date_bin(make_interval(secs => s.resolution), i."fromTime",
                               ${CANDLE_ORIGIN_SQL})
    order by i.instance, c.resolution, c.bucket`,
);

const headTimeOf = statement<{ headTime: string | null }, [chainId: number]>(
  'market.head_time',
  `select head_time as "headTime" from chain_cursors where chain_id = $1`,
);

/** What a rollback takes away, read before it deletes anything. */
export interface RollbackMarket {
  chainId: number;
  ancestor: number;
  removed: RemovedTradeRow[];
  instances: string[];
  tokens: TokenOfInstanceRow[];
}

export async function beforeRollback(
  sql: Sql,
  chainId: number,
  ancestor: number,
): Promise<RollbackMarket> {
  const removed = await sql.rows(tradesAbove, [chainId, ancestor]);
  const instances = (await sql.rows(instancesAbove, [chainId, ancestor])).map(
    (row) => row.instance,
  );
  const tokens = instances.length ? await sql.rows(tokensOfInstances, [chainId, instances]) : [];
  return { chainId, ancestor, removed, instances, tokens };
}

/**
 * After the rollback's deletes (the candles recomputed by their triggers): the board rows of
 * the launches it touched, then a `revert` per token that lost trades, with the trades removed
 * and every bar from the first touched bucket on, and a `state` per token it moved back.
 */
export async function afterRollback(
  sql: Sql,
  rollback: RollbackMarket,
  states: readonly StateChange[],
): Promise<boolean> {
  const { chainId, ancestor, removed, instances } = rollback;
  if (instances.length > 0) {
    const head = await sql.row(headTimeOf, [chainId]);
    await refreshTokenMarkets(sql, chainId, instances, head?.headTime ?? new Date(0).toISOString());
  }
  const tokenOf = new Map(rollback.tokens.map((token) => [token.instance, token]));
  const firstRemoved = new Map<string, RemovedTradeRow>();
  for (const trade of removed)
    if (!firstRemoved.has(trade.instance)) firstRemoved.set(trade.instance, trade);
  const from = [...firstRemoved.values()].map((trade) => ({
    instance: trade.instance,
    fromTime: trade.blockTime,
  }));
  const bars = from.length ? await sql.rows(barsFrom, [chainId, JSON.stringify(from)]) : [];
  const events: MarketEventInput[] = [];
  for (const [instance, first] of firstRemoved) {
    const token = tokenOf.get(instance);
    if (!token) continue;
    events.push({
      tokenId: token.id,
      kind: 'revert',
      payload: {
        fromBlock: ancestor + 1,
        fromTime: Math.floor(Date.parse(first.blockTime) / 1000),
        removed: removed
          .filter((trade) => trade.instance === instance)
          .map((trade) => ({ txHash: trade.txHash, logIndex: trade.logIndex })),
        bars: bars.filter((row) => row.instance === instance).map((row) => row.bar),
      },
    });
  }
  events.push(...stateEvents(states, ancestor));
  return appendEvents(sql, events);
}

/** The token's owner and what its webhook events carry. */
interface TokenEventRow {
  id: string;
  ownerId: number;
  slug: string;
  instance: string | null;
  chainId: number;
}
const tokensByIds = statement<TokenEventRow, [ids: string[]]>(
  'market.tokens_by_ids',
  `select id, owner_id as "ownerId", slug, instance, chain_id as "chainId"
     from tokens where id = any($1::uuid[]) order by id`,
);

const WEBHOOK_OF_STATE = {
  live: 'token.launched',
  graduating: 'token.graduated',
  sentient: 'token.graduated',
  failed: 'token.failed',
} as const;

/**
 * The webhook events of a range's state changes, to each token's owner (docs/decisions.md
 * "Webhook event emitters"): `token.launched` when its launch is indexed, `token.graduated`
 * when the graduating buy is (whether it is final yet or not), `token.failed` when it fails.
 * A dedupe key per token and transaction makes a re-indexed launch or graduation on a new
 * branch of the same transaction no second event.
 */
export async function enqueueTokenWebhooks(
  tx: EntityManager,
  changes: readonly TokenChange[],
  blockNumber: number,
): Promise<void> {
  if (changes.length === 0) return;
  const tokens = await sqlOf(tx).rows(tokensByIds, [changes.map((change) => change.tokenId)]);
  const byId = new Map(tokens.map((token) => [token.id, token]));
  for (const change of changes) {
    const token = byId.get(change.tokenId);
    if (!token) continue;
    const event = WEBHOOK_OF_STATE[change.state];
    await enqueueOutboxEvent(tx, {
      userId: token.ownerId,
      event,
      data: { slug: token.slug, instance: token.instance, chainId: token.chainId, blockNumber },
      dedupeKey: `${event}:${token.id}:${change.txHash ?? 'none'}`,
    });
  }
}
