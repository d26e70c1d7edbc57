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

interface Candles {
  s: 'ok' | 'no_data';
  resolution: string;
  quoteSymbol: string;
  t: number[];
  o: string[];
  h: string[];
  l: string[];
  c: string[];
  vBase: string[];
  vQuote: string[];
  n: number[];
  filled: boolean[];
  nextTime: number | null;
  partialLast: boolean;
  blockNumber: number | null;
}

describe('GET /tokens/:slug/candles', () => {
  let slug = '';
  let instance = '';
  const candles = async (query: string) => {
    const response = await world.app.inject({
      method: 'GET',
      url: `/tokens/${slug}/candles?${query}`,
    });
    return response;
  };
  const ok = async (query: string) => {
    const response = await candles(query);
    expect(response.statusCode).toBe(200);
    return response.json<Candles>();
  };
  /** Base units as the wire writes them: whole units, every decimal kept, zeros trimmed. */
  const whole = (base: string) => {
    const value = BigInt(base);
    const units = value / ONE;
    const fraction = (value % ONE).toString().padStart(18, '0').replace(/0+$/, '');
    return fraction ? `${units}.${fraction}` : `${units}`;
  };

  beforeAll(async () => {
    instance = instances[0]!;
    const [row] = await world.ctx.sql<{ slug: string }>(
      'select slug from tokens where lower(instance) = $1',
      [instance],
    );
    slug = row!.slug;
  });

  it('answers the stored bars of a range, columnar, in whole units', async () => {
    const stored = (await storedBars([instance])).filter((bar) => bar.resolution === 3600);
    const from = stored[0]!.bucket;
    const to = stored.at(-1)!.bucket + 3600;
    const body = await ok(`resolution=1h&from=${from}&to=${to}`);
    expect(body).toMatchObject({
      s: 'ok',
      resolution: '1h',
      quoteSymbol: 'VIRTUAL',
      filled: stored.map(() => false),
    });
    expect(body.t).toEqual(stored.map((bar) => bar.bucket));
    expect(body.o).toEqual(stored.map((bar) => whole(bar.open)));
    expect(body.h).toEqual(stored.map((bar) => whole(bar.high)));
    expect(body.l).toEqual(stored.map((bar) => whole(bar.low)));
    expect(body.c).toEqual(stored.map((bar) => whole(bar.close)));
    expect(body.vBase).toEqual(stored.map((bar) => whole(bar.volume_token)));
    expect(body.vQuote).toEqual(stored.map((bar) => whole(bar.volume_payment)));
    expect(body.n).toEqual(stored.map((bar) => bar.trades));
    // The last trade's hour ended long before the head? Only the chain's clock can say.
    const [cursor] = await world.ctx.sql<{ head: number; block: string }>(
      'select extract(epoch from head_time)::float8 as head, (next_block - 1)::text as block from chain_cursors',
    );
    expect(body.partialLast).toBe(stored.at(-1)!.bucket + 3600 > cursor!.head);
    expect(body.blockNumber).toBe(Number(cursor!.block));
  });

  it('answers countback bars ending at to, and fills empty buckets with the previous close', async () => {
    const stored = (await storedBars([instance])).filter((bar) => bar.resolution === 86400);
    const to = stored.at(-1)!.bucket + 86400;
    const last3 = await ok(`resolution=1d&countback=3&to=${to}`);
    expect(last3.t).toEqual(stored.slice(-3).map((bar) => bar.bucket));

    const days = (stored.at(-1)!.bucket - stored[0]!.bucket) / 86400 + 1;
    expect(days).toBeGreaterThan(stored.length); // the clock jumped days: some days are empty
    const filled = await ok(`resolution=1d&from=${stored[0]!.bucket}&to=${to}&fill=previous`);
    expect(filled.t).toHaveLength(days);
    let close = '';
    filled.t.forEach((t, i) => {
      expect(t).toBe(stored[0]!.bucket + i * 86400);
      const bar = stored.find((row) => row.bucket === t);
      if (bar) {
        expect(filled.filled[i]).toBe(false);
        expect(filled.c[i]).toBe(whole(bar.close));
      } else {
        expect(filled.filled[i]).toBe(true);
        expect([filled.o[i], filled.h[i], filled.l[i], filled.c[i]]).toEqual([
          close,
          close,
          close,
          close,
        ]);
        expect([filled.vBase[i], filled.vQuote[i], filled.n[i]]).toEqual(['0', '0', 0]);
      }
      close = filled.c[i]!;
    });
    const counted = await ok(`resolution=1d&countback=${days}&to=${to}&fill=previous`);
    expect(counted.t).toEqual(filled.t);
  });

  it('answers no_data with the start of the nearest older bar, or null when there is none', async () => {
    const stored = (await storedBars([instance])).filter((bar) => bar.resolution === 60);
    const gap = stored.findIndex((bar, i) => i > 0 && bar.bucket - stored[i - 1]!.bucket > 600);
    expect(gap).toBeGreaterThan(0);
    const empty = await ok(
      `resolution=1m&from=${stored[gap - 1]!.bucket + 60}&to=${stored[gap]!.bucket}`,
    );
    expect(empty).toMatchObject({
      s: 'no_data',
      t: [],
      o: [],
      n: [],
      filled: [],
      nextTime: stored[gap - 1]!.bucket,
      partialLast: false,
    });
    const before = await ok(`resolution=1m&from=0&to=${stored[0]!.bucket}&countback=5`);
    expect(before).toMatchObject({ s: 'no_data', nextTime: null });
  });

  it('computes 15-second bars from the trades', async () => {
    const mine = traded.filter((trade) => trade.instance === instance);
    const last = Math.floor(mine.at(-1)!.block_time.getTime() / 1000);
    const body = await ok(`resolution=15s&countback=1500&to=${last + 15}`);
    const buckets = new Map<number, TradeRow[]>();
    for (const trade of mine) {
      const at = Math.floor(trade.block_time.getTime() / 1000);
      const bucket = ORIGIN_S + Math.floor((at - ORIGIN_S) / 15) * 15;
      buckets.set(bucket, [...(buckets.get(bucket) ?? []), trade]);
    }
    const starts = [...buckets.keys()].sort((a, b) => a - b);
    expect(body.t).toEqual(starts);
    starts.forEach((start, i) => {
      const rows = buckets.get(start)!;
      expect(body.o[i]).toBe(whole(rows[0]!.price_before!));
      expect(body.c[i]).toBe(whole(rows.at(-1)!.price_after!));
      expect(body.n[i]).toBe(rows.length);
    });
  });

  it('lets caches keep a final range for a day, a range still open for 2 s', async () => {
    const stored = (await storedBars([instance])).filter((bar) => bar.resolution === 60);
    const closed = await candles(`resolution=1m&from=${stored[0]!.bucket}&to=${stored[1]!.bucket}`);
    expect(closed.headers['cache-control']).toBe('public, max-age=86400');
    // The chain's clock ran ahead of the wall clock here: "still open" is after its head.
    const [cursor] = await world.ctx.sql<{ head: number }>(
      'select extract(epoch from head_time)::float8 as head from chain_cursors',
    );
    const open = await candles(`resolution=1m&countback=10&to=${cursor!.head + 60}`);
    expect(open.headers['cache-control']).toBe('public, max-age=2');
  });

  it.each([
    ['resolution=2m&countback=5', 'resolution: must be one of 15s, 1m, 5m, 15m, 1h, 4h, 1d, 1w'],
    ['countback=5', 'resolution: must be one of 15s, 1m, 5m, 15m, 1h, 4h, 1d, 1w'],
    ['resolution=1m&to=1000', 'from: is required unless countback is given'],
    ['resolution=1m&from=2000&to=1000', 'from: must be before to'],
    [
      'resolution=1m&from=0&to=90001',
      'from: the range holds 1501 1m bars, more than 1500; narrow it or use countback',
    ],
    ['resolution=1m&countback=0', 'countback: must be an integer from 1 to 1500'],
    ['resolution=1m&countback=1501', 'countback: must be an integer from 1 to 1500'],
    ['resolution=1m&countback=5&fill=zero', 'fill: must be none or previous'],
    ['resolution=1m&from=1.5&to=1000', 'from: must be Unix seconds (an integer)'],
  ])('refuses %s with 400 invalid_request naming the field', async (query, message) => {
    const response = await candles(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_request', message } });
  });

  it('answers 404 token_not_found for an unknown slug, and no_data for a token not launched', async () => {
    const unknown = await world.app.inject({
      method: 'GET',
      url: '/tokens/no-such-token/candles?resolution=1m&countback=5',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: { code: 'token_not_found', message: expect.any(String) },
    });
    const creator = await world.chain.funded();
    const pending = await world.pad.createVirtuals(creator, 'CNDP', '2000');
    const response = await world.app.inject({
      method: 'GET',
      url: `/tokens/${pending.slug}/candles?resolution=1h&countback=24`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      s: 'no_data',
      t: [],
      nextTime: null,
      partialLast: false,
    });
  });
});

interface ListItem {
  id: string;
  slug: string;
  template: string;
  state: string;
  instance: string | null;
  market: {
    quoteSymbol: string;
    price: string;
    marketCap: string;
    volume24h: string;
    priceChange24h: number;
    trades24h: number;
    holdersCount: number;
    progressToGraduation: number | null;
    lastTradeAt: string | null;
  } | null;
}

describe('GET /tokens, the board', () => {
  const list = async (query: string) => {
    const response = await world.app.inject({ method: 'GET', url: `/tokens?${query}` });
    expect(response.statusCode).toBe(200);
    return response.json<{ items: ListItem[]; nextCursor: string | null }>();
  };
  /** Every page of a sort, one token at a time (keyset paging: no repeat, no gap). */
  const walk = async (query: string) => {
    const items: ListItem[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(
        `${query}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  };

  beforeAll(async () => {
    // The board as of just after the last trade, so the rolling figures count trades.
    const last = Math.max(...traded.map((trade) => trade.block_time.getTime()));
    await refreshTokenMarkets(
      sqlOf(world.ctx.deps.orm.em.fork()),
      31337,
      instances,
      new Date(last + 30 * 60_000).toISOString(),
    );
  });

  it('shows each launched token’s figures as the trades and holders add up, null before a launch', async () => {
    const { items } = await list('limit=100');
    const launched = items.filter((item) => item.instance !== null);
    expect(launched.length).toBeGreaterThanOrEqual(2);
    for (const item of items.filter((row) => row.instance === null)) expect(item.market).toBeNull();
    for (const instance of instances) {
      const item = items.find((row) => row.instance?.toLowerCase() === instance)!;
      const trades = traded.filter((trade) => trade.instance === instance && trade.price_after);
      const lastTrade = trades.at(-1)!;
      const transfers = await world.ctx.sql<{
        from_address: string;
        to_address: string;
        value: string;
      }>('select from_address, to_address, value::text from token_transfers where instance = $1', [
        instance,
      ]);
      const balances = new Map<string, bigint>();
      for (const transfer of transfers) {
        balances.set(
          transfer.to_address,
          (balances.get(transfer.to_address) ?? 0n) + BigInt(transfer.value),
        );
        balances.set(
          transfer.from_address,
          (balances.get(transfer.from_address) ?? 0n) - BigInt(transfer.value),
        );
      }
      const holders = [...balances].filter(
        ([address, balance]) =>
          balance > 0n &&
          address !== '0x0000000000000000000000000000000000000000' &&
          address !== world.factory.toLowerCase(),
      ).length;
      expect(item.market).toMatchObject({
        quoteSymbol: 'VIRTUAL',
        holdersCount: holders,
        lastTradeAt: lastTrade.block_time.toISOString(),
      });
      expect(parseFloat(item.market!.price)).toBeCloseTo(
        Number(BigInt(lastTrade.price_after!)) / 1e18,
        12,
      );
      expect(holders).toBeGreaterThan(0);
      const [row] = await world.ctx.sql<{ market_cap: string; progress: string }>(
        'select market_cap::text, progress::text from token_markets where instance = $1',
        [instance],
      );
      expect(item.market!.progressToGraduation).toBe(Number(row!.progress));
      expect(BigInt(item.market!.marketCap.replace('.', '').padEnd(1, '0'))).toBeGreaterThan(0n);
    }
  });

  it.each([
    ['market_cap', 'market_cap'],
    ['volume_24h', 'volume_24h'],
    ['price_change_24h', 'price_change_24h'],
    ['last_trade', 'activity_at'],
    ['trending', 'trending_score'],
    ['graduating', 'progress'],
  ])('sorts by %s, highest first, paged without repeats or gaps', async (sort, column) => {
    const expected = await world.ctx.sql<{ token_id: string }>(
      `select m.token_id from token_markets m join tokens t on t.id = m.token_id
        ${sort === 'graduating' ? `where m.template = 'virtuals' and not m.graduated and t.state = 'live'` : ''}
        order by m.${column} desc, m.token_id desc`,
    );
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const walked = await walk(`sort=${sort}`);
    expect(walked.map((item) => item.id)).toEqual(expected.map((row) => row.token_id));
    expect(walked.every((item) => item.market !== null)).toBe(true);
  });

  it('filters a board sort like the catalogue', async () => {
    expect((await list('sort=market_cap&template=dpnm')).items).toEqual([]);
    expect((await list('sort=market_cap&template=virtuals')).items.length).toBeGreaterThanOrEqual(
      2,
    );
    expect((await list('sort=market_cap&state=pending')).items).toEqual([]);
  });

  it('refuses a cursor of another sort', async () => {
    const page = await list('sort=market_cap&limit=1');
    const response = await world.app.inject({
      method: 'GET',
      url: `/tokens?sort=volume_24h&cursor=${encodeURIComponent(page.nextCursor!)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_cursor');
  });
});
