import { EventSource } from 'eventsource';
import { parseEther, type Address, type PrivateKeyAccount } from 'viem';
import {
  createDatafeed,
  type Bar,
  type HistoryMetadata,
  type SymbolInfo,
} from '../../examples/tradingview-datafeed';
import { eventually } from '../helpers/chain';
import { useOwnChain } from '../helpers/launchpad';

/**
 * examples/tradingview-datafeed.ts against the running API, driven as the Charting Library
 * drives a datafeed: a first `getBars` of `countBack` bars ending now, then older pages until
 * `noData`, then `subscribeBars`. The test asserts the ordering rules the library enforces (it
 * throws "time order violation" otherwise): each page oldest first, every page older than the
 * one before it, and a live bar never older than the newest bar the chart has. A year of
 * chain time, so a year of hourly bars; on a chain of the file's own, since it moves the clock.
 */

const world = useOwnChain();

let slug = '';
let instance: Address;
let trader: PrivateKeyAccount;
let head = 0;
let apiUrl = '';
const sources: EventSource[] = [];

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
  apiUrl = `http://127.0.0.1:${(world.app.server.address() as { port: number }).port}`;
  const creator = await world.chain.funded();
  const token = await world.pad.createVirtuals(creator, 'CHRT', '100000');
  slug = token.slug;
  instance = await world.pad.launchAndWait(creator, slug, token.pendingLaunchTx);
  trader = await world.pad.trader(parseEther('5000'));
  // A year of trading: a trade every nine days or so, a few hours apart now and then.
  const steps = [9 * 86_400, 3 * 3_600, 8 * 86_400, 40 * 60, 10 * 86_400];
  for (let i = 0; i < 64; i++) {
    const block = await world.chain.reader.getBlock();
    await world.chain.anvil.setNextBlockTimestamp({
      timestamp: block.timestamp + BigInt(steps[i % steps.length]!),
    });
    await world.chain.anvil.mine({ blocks: 1 });
    await world.pad.buy(trader, instance, parseEther(String(1 + (i % 7))));
  }
  const last = await world.chain.reader.getBlock();
  head = Number(last.timestamp);
  await eventually(
    async () => {
      const [cursor] = await world.ctx.sql<{ next_block: string }>(
        'select next_block from chain_cursors where chain_id = 31337',
      );
      return cursor && BigInt(cursor.next_block) > last.number ? true : undefined;
    },
    30_000,
    'the index to reach the last trade',
  );
}, 180_000);

afterAll(() => {
  for (const source of sources) source.close();
});

/**
 * REST through `inject` (keep-alive sockets of the global fetch would hold the server's close
 * for its keep-alive timeout); the stream over real HTTP with the `eventsource` package.
 */
const injectFetch = (async (input: string) => {
  const url = input.slice(apiUrl.length);
  const response = await world.app.inject({ method: 'GET', url });
  return new Response(response.body, { status: response.statusCode });
}) as typeof fetch;

function datafeed() {
  return createDatafeed({
    apiUrl,
    fetch: injectFetch,
    EventSource: class extends EventSource {
      constructor(url: string) {
        super(url);
        sources.push(this);
      }
    },
  });
}

function resolve(feed: ReturnType<typeof datafeed>): Promise<SymbolInfo> {
  return new Promise((done, fail) => feed.resolveSymbol(slug, done, fail));
}

function getBars(
  feed: ReturnType<typeof datafeed>,
  symbol: SymbolInfo,
  to: number,
  countBack: number,
  firstDataRequest: boolean,
): Promise<{ bars: Bar[]; meta: HistoryMetadata }> {
  return new Promise((done, fail) =>
    feed.getBars(
      symbol,
      '60',
      { from: to - countBack * 3600, to, countBack, firstDataRequest },
      (bars, meta) => done({ bars, meta }),
      fail,
    ),
  );
}

/** Loads history as the library does: pages of `countBack` ending where the last began. */
async function loadHistory(
  feed: ReturnType<typeof datafeed>,
  symbol: SymbolInfo,
  countBack: number,
) {
  const pages: Bar[][] = [];
  let to = head + 3600;
  for (let request = 0; request < 100; request++) {
    const { bars, meta } = await getBars(feed, symbol, to, countBack, request === 0);
    if (bars.length === 0) {
      if (meta.noData) return pages;
      // Older bars exist: the library jumps to them.
      to = meta.nextTime! / 1000 + 3600;
      continue;
    }
    pages.push(bars);
    to = bars[0]!.time / 1000;
  }
  throw new Error('the history never ended with noData');
}

/** The library's rules for a history page and the pages before it. */
function expectTimeOrder(pages: Bar[][]) {
  let older = Infinity;
  for (const page of pages) {
    for (let i = 1; i < page.length; i++) expect(page[i]!.time).toBeGreaterThan(page[i - 1]!.time);
    expect(page.at(-1)!.time).toBeLessThan(older);
    older = page[0]!.time;
  }
}

describe('the TradingView datafeed example', () => {
  it('loads a year of hourly bars, page after page, in the order the library requires', async () => {
    const stored = await world.ctx.sql<{ t: number; close: string }>(
      `select extract(epoch from bucket)::int as t, close::text from token_candles
        where instance = $1 and resolution = 3600 order by bucket`,
      [instance.toLowerCase()],
    );
    expect(stored.at(-1)!.t - stored[0]!.t).toBeGreaterThan(300 * 86_400);
    const feed = datafeed();
    const symbol = await resolve(feed);
    expect(symbol).toMatchObject({ ticker: slug, currency_code: 'VIRTUAL', has_intraday: true });
    for (const countBack of [300, 7]) {
      const pages = await loadHistory(feed, symbol, countBack);
      expectTimeOrder(pages);
      const bars = pages.reverse().flat();
      expect(bars.map((bar) => bar.time / 1000)).toEqual(stored.map((row) => row.t));
      expect(bars.at(-1)!.close).toBeCloseTo(Number(BigInt(stored.at(-1)!.close)) / 1e18, 15);
    }
  });

  it('adds the live bar without going back in time', async () => {
    const feed = datafeed();
    const symbol = await resolve(feed);
    const { bars } = await getBars(feed, symbol, head + 3600, 300, true);
    const newestHistorical = bars.at(-1)!.time;
    const ticks: Bar[] = [];
    let resets = 0;
    feed.subscribeBars(
      symbol,
      '60',
      (bar) => ticks.push(bar),
      'live',
      () => void resets++,
    );
    // The chart is open before the trade: the server has the stream (it then gets every event
    // committed from here on, replayed if it arrives while the stream starts).
    await eventually(
      async () => (world.app.marketStreams.connectionCount > 0 ? true : undefined),
      10_000,
      'the stream to be open',
    );
    const bought = await world.pad.buy(trader, instance, parseEther('3'));
    await eventually(
      async () => {
        const [cursor] = await world.ctx.sql<{ next_block: string }>(
          'select next_block from chain_cursors where chain_id = 31337',
        );
        return cursor && BigInt(cursor.next_block) > bought.blockNumber ? true : undefined;
      },
      15_000,
      'the trade to be indexed',
    );
    const [candle] = await world.ctx.sql<{ t: number; close: string }>(
      `select extract(epoch from bucket)::int as t, close::text from token_candles
        where instance = $1 and resolution = 3600 order by bucket desc limit 1`,
      [instance.toLowerCase()],
    );
    const close = Number(BigInt(candle!.close)) / 1e18;
    // The live bar with the trade: the stream's bar after it (or its snapshot, when the
    // stream started after the trade was indexed).
    await eventually(
      async () =>
        ticks.some(
          (bar) => bar.time / 1000 === candle!.t && Math.abs(bar.close - close) <= close * 1e-12,
        )
          ? true
          : undefined,
      15_000,
      'the live bar with the trade',
    );
    expect(ticks[0]!.time).toBeGreaterThanOrEqual(newestHistorical);
    for (let i = 1; i < ticks.length; i++) {
      expect(ticks[i]!.time).toBeGreaterThanOrEqual(ticks[i - 1]!.time);
    }
    expect(resets).toBe(0);
  });
});
