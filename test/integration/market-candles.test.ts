import { parseEther, type Address, type PrivateKeyAccount } from 'viem';
import { sqlOf } from '../../shared/db/sql';
import { refreshTokenMarkets } from '../../workers/chain/market';
import { eventually } from '../helpers/chain';
import { useOwnChain } from '../helpers/launchpad';

/**
 * The market read models of the chain index (docs/chain.md "Market data"): every trade priced
 * from the chain, candles that equal a recomputation from the trades whatever the order the
 * trades arrive in and whatever rollbacks happen between (the property the indexer's backfills
 * and reorgs rely on), and board rows that equal a recomputation from the trades. On a chain of
 * the file's own, since it moves the chain's clock.
 */

const world = useOwnChain();

const ORIGIN_S = Date.UTC(1970, 0, 5) / 1000;
const RESOLUTIONS = [60, 300, 900, 3600, 14400, 86400, 604800];
const ONE = 10n ** 18n;

type TradeRow = {
  chain_id: number;
  block_number: string;
  log_index: number;
  block_hash: string;
  tx_hash: string;
  block_time: Date;
  instance: string;
  kind: string;
  trader: string | null;
  amount_token: string;
  amount_payment: string;
  price: string;
  reserve_token: string | null;
  locked_payment: string | null;
  price_before: string | null;
  price_after: string | null;
  supply_after: string | null;
};

type Bar = {
  instance: string;
  resolution: number;
  bucket: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume_token: string;
  volume_payment: string;
  trades: number;
};

const ord = (trade: TradeRow) => BigInt(trade.block_number) * 1048576n + BigInt(trade.log_index);

/** The bars the trades add up to, recomputed here from scratch. */
function recompute(trades: TradeRow[]): Bar[] {
  const groups = new Map<string, TradeRow[]>();
  for (const trade of trades) {
    if (trade.price_after === null) continue;
    const seconds = trade.block_time.getTime() / 1000;
    for (const resolution of RESOLUTIONS) {
      const bucket = ORIGIN_S + Math.floor((seconds - ORIGIN_S) / resolution) * resolution;
      const key = `${trade.instance}|${resolution}|${bucket}`;
      groups.set(key, [...(groups.get(key) ?? []), trade]);
    }
  }
  const max = (values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));
  const min = (values: bigint[]) => values.reduce((a, b) => (b < a ? b : a));
  return [...groups].map(([key, rows]) => {
    const [instance, resolution, bucket] = key.split('|');
    const sorted = [...rows].sort((a, b) => (ord(a) < ord(b) ? -1 : 1));
    const prices = rows.flatMap((row) => [BigInt(row.price_before!), BigInt(row.price_after!)]);
    return {
      instance: instance!,
      resolution: Number(resolution),
      bucket: Number(bucket),
      open: sorted[0]!.price_before!,
      high: max(prices).toString(),
      low: min(prices).toString(),
      close: sorted.at(-1)!.price_after!,
      volume_token: rows.reduce((sum, row) => sum + BigInt(row.amount_token), 0n).toString(),
      volume_payment: rows.reduce((sum, row) => sum + BigInt(row.amount_payment), 0n).toString(),
      trades: rows.length,
    };
  });
}

const byKey = (a: Bar, b: Bar) =>
  a.instance.localeCompare(b.instance) || a.resolution - b.resolution || a.bucket - b.bucket;

async function storedBars(instances: string[]): Promise<Bar[]> {
  const rows = await world.ctx.sql<Bar>(
    `select instance, resolution, extract(epoch from bucket)::int as bucket, open::text,
            high::text, low::text, close::text, volume_token::text, volume_payment::text, trades
       from token_candles where instance = any($1::text[])`,
    [instances],
  );
  return rows.sort(byKey);
}

async function tradesOf(instances: string[]): Promise<TradeRow[]> {
  return world.ctx.sql<TradeRow>(
    `select * from token_trades where instance = any($1::text[])
      order by block_number, log_index`,
    [instances],
  );
}

const COLUMNS = [
  'chain_id',
  'block_number',
  'log_index',
  'block_hash',
  'tx_hash',
  'block_time',
  'instance',
  'kind',
  'trader',
  'amount_token',
  'amount_payment',
  'price',
  'reserve_token',
  'locked_payment',
  'price_before',
  'price_after',
  'supply_after',
] as const;

/** Inserts trade rows as the indexer does: one statement for a batch of them. */
async function insertTrades(rows: TradeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await world.ctx.sql(
    `insert into token_trades (${COLUMNS.join(', ')})
     select ${COLUMNS.join(', ')} from jsonb_populate_recordset(null::token_trades, $1::jsonb)`,
    [JSON.stringify(rows)],
  );
}

/** A seeded generator, so a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffled<T>(items: T[], next: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Deletes the instances' trades, then inserts them back in a random order, in random batches,
 * with random rollbacks between batches (every row above a random block deleted in one
 * statement, as a reorg's rollback does, and inserted again later).
 */
async function replay(all: TradeRow[], seed: number): Promise<number> {
  const next = random(seed);
  const instances = [...new Set(all.map((trade) => trade.instance))];
  await world.ctx.sql('delete from token_trades where instance = any($1::text[])', [instances]);
  let pending = shuffled(all, next);
  let rolledBack = 0;
  while (pending.length > 0) {
    const size = 1 + Math.floor(next() * 6);
    await insertTrades(pending.slice(0, size));
    pending = pending.slice(size);
    if (next() < 0.3) {
      const blocks = all.map((trade) => Number(trade.block_number));
      const above = blocks[Math.floor(next() * blocks.length)]!;
      const removed = await world.ctx.sql<TradeRow>(
        `delete from token_trades where instance = any($1::text[]) and block_number > $2
         returning *`,
        [instances, above],
      );
      pending = shuffled([...pending, ...removed], next);
      rolledBack += removed.length;
    }
  }
  return rolledBack;
}

/** Buys and sells from several wallets, the chain's clock moved by minutes to days between. */
async function tradeOverTime(instance: Address, traders: PrivateKeyAccount[], count: number) {
  const next = random(count);
  const steps = [5, 40, 70, 400, 3_700, 15_000, 90_000, 700_000];
  for (let i = 0; i < count; i++) {
    const block = await world.chain.reader.getBlock();
    const step = steps[Math.floor(next() * steps.length)]!;
    // An empty block at the new time; the trade follows it (its deadline counts from there).
    await world.chain.anvil.setNextBlockTimestamp({ timestamp: block.timestamp + BigInt(step) });
    await world.chain.anvil.mine({ blocks: 1 });
    const trader = traders[i % traders.length]!;
    if (i % 4 === 3) {
      const held = await world.chain.read<bigint>(instance, 'VirtualsToken', 'balanceOf', [
        trader.address,
      ]);
      if (held > 0n) {
        await world.pad.sell(trader, instance, held / 3n);
        continue;
      }
    }
    await world.pad.buy(trader, instance, parseEther(String(5 + Math.floor(next() * 40))));
  }
}

let instances: string[] = [];
let traded: TradeRow[] = [];

beforeAll(async () => {
  const creator = await world.chain.funded();
  const traders: PrivateKeyAccount[] = [];
  for (let i = 0; i < 3; i++) traders.push(await world.pad.trader(parseEther('5000')));
  const launched: Address[] = [];
  for (const ticker of ['CNDA', 'CNDB']) {
    const token = await world.pad.createVirtuals(creator, ticker, '2000');
    launched.push(await world.pad.launchAndWait(creator, token.slug, token.pendingLaunchTx));
  }
  await tradeOverTime(launched[0]!, traders, 24);
  await tradeOverTime(launched[1]!, traders, 12);
  const head = await world.chain.reader.getBlockNumber();
  instances = launched.map((address) => address.toLowerCase());
  traded = await eventually(
    async () => {
      const [cursor] = await world.ctx.sql<{ next_block: string }>(
        'select next_block from chain_cursors where chain_id = 31337',
      );
      return cursor && BigInt(cursor.next_block) > head ? tradesOf(instances) : undefined;
    },
    30_000,
    'the index to reach the last trade',
  );
}, 180_000);

describe('trade prices', () => {
  it('are the curve’s spot prices before and after each trade, read from the chain', async () => {
    expect(traded.length).toBe(36);
    for (const trade of traded.slice(0, 8)) {
      const instance = trade.instance as Address;
      const at = async (block: bigint) => {
        const curve = await world.chain.read<readonly bigint[]>(
          world.factory,
          'VirtualsFactory',
          'curves',
          [instance],
          block,
        );
        const [reserve, locked, virtualPayment] = curve;
        return { price: ((locked! + virtualPayment!) * ONE) / reserve!, reserve: reserve! };
      };
      const block = BigInt(trade.block_number);
      const before = await at(block - 1n);
      const after = await at(block);
      const supply = await world.chain.read<bigint>(instance, 'VirtualsToken', 'totalSupply');
      expect(trade.price_before).toBe(before.price.toString());
      expect(trade.price_after).toBe(after.price.toString());
      expect(trade.supply_after).toBe((supply - after.reserve).toString());
    }
  });
});

describe('candles', () => {
  it('equal a recomputation from the trades as indexed', async () => {
    expect(await storedBars(instances)).toEqual(recompute(traded).sort(byKey));
    const bars = await storedBars(instances);
    // Seconds apart: some minutes hold several trades, so open and close need the order.
    expect(bars.some((bar) => bar.resolution === 60 && bar.trades > 1)).toBe(true);
    const weeks = bars.filter((bar) => bar.resolution === 604800);
    // The clock moved by days: the trades span several weeks, each starting on a Monday.
    expect(weeks.length).toBeGreaterThan(2);
    for (const week of weeks) expect(new Date(week.bucket * 1000).getUTCDay()).toBe(1);
  });

  it.each([1, 2, 3, 4, 5])(
    'equal it after the trades arrive in a random order with rollbacks between (seed %i)',
    async (seed) => {
      // Rollbacks that took trades back (and the trades inserted again after them).
      expect(await replay(traded, seed)).toBeGreaterThan(0);
      expect(await tradesOf(instances)).toHaveLength(traded.length);
      expect(await storedBars(instances)).toEqual(recompute(traded).sort(byKey));
    },
  );

  it('would not with a merge that depends on the order (negative control)', async () => {
    // The same trigger, but an upsert's open and close simply overwrite the stored ones.
    const [row] = await world.ctx.sql<{ definition: string }>(
      `select pg_get_functiondef('token_candles_apply'::regproc) as definition`,
    );
    const definition = row!.definition;
    const broken = definition
      .replace(
        /open = case when excluded\.open_ord < token_candles\.open_ord\s+then excluded\.open else token_candles\.open end/,
        'open = excluded.open',
      )
      .replace(
        /close = case when excluded\.close_ord > token_candles\.close_ord\s+then excluded\.close else token_candles\.close end/,
        'close = excluded.close',
      );
    expect(broken).not.toBe(definition);
    await world.ctx.sql(broken);
    try {
      await replay(traded, 7);
      expect(await storedBars(instances)).not.toEqual(recompute(traded).sort(byKey));
    } finally {
      await world.ctx.sql(definition);
      await replay(traded, 8);
    }
    expect(await storedBars(instances)).toEqual(recompute(traded).sort(byKey));
  });
});

describe('the board', () => {
  it('equals a recomputation from the trades at any point of the chain’s clock', async () => {
    const times = traded.map((trade) => trade.block_time.getTime());
    const last = Math.max(...times);
    for (const headMs of [last, last + 30 * 60_000, last + 23 * 3_600_000, last + 49 * 3_600_000]) {
      await refreshTokenMarkets(
        sqlOf(world.ctx.deps.orm.em.fork()),
        31337,
        instances,
        new Date(headMs).toISOString(),
      );
      const windowEnd = Math.floor(headMs / 60_000) * 60_000;
      for (const instance of instances) {
        const trades = traded.filter((trade) => trade.instance === instance && trade.price_after);
        const inWindow = (hours: number) =>
          trades.filter((trade) => {
            const minute = Math.floor(trade.block_time.getTime() / 60_000) * 60_000;
            return minute > windowEnd - hours * 3_600_000 && minute <= windowEnd;
          });
        const sum = (rows: TradeRow[]) =>
          rows.reduce((total, row) => total + BigInt(row.amount_payment), 0n).toString();
        const lastTrade = trades.at(-1)!;
        const before = trades.filter(
          (trade) =>
            Math.floor(trade.block_time.getTime() / 60_000) * 60_000 <= windowEnd - 24 * 3_600_000,
        );
        const ago = before.length ? before.at(-1)!.price_after! : trades[0]!.price_before!;
        const [row] = await world.ctx.sql<Record<string, string | number>>(
          `select price::text, circulating::text, market_cap::text, volume_24h::text, trades_24h,
                  volume_1h::text, trades_1h, price_24h_ago::text
             from token_markets where instance = $1`,
          [instance],
        );
        const price = BigInt(lastTrade.price_after!);
        expect(row).toEqual({
          price: price.toString(),
          circulating: lastTrade.supply_after,
          market_cap: ((price * BigInt(lastTrade.supply_after!)) / ONE).toString(),
          volume_24h: sum(inWindow(24)),
          trades_24h: inWindow(24).length,
          volume_1h: sum(inWindow(1)),
          trades_1h: inWindow(1).length,
          price_24h_ago: ago,
        });
      }
    }
  });
});
