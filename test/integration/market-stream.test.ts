import { EventSource } from 'eventsource';
import { parseEther, type Address, type PrivateKeyAccount } from 'viem';
import { eventually } from '../helpers/chain';
import { watchEventLoop } from '../helpers/event-loop';
import { useOwnChain } from '../helpers/launchpad';

/**
 * The token streams (docs/chain.md "Market data", docs/spec/contract.md §13) on a real chain,
 * read by the `eventsource` client a browser would use: a token's ticks and bars and the
 * firehose's slim ticks within a second of the indexed block, replay from `Last-Event-ID`,
 * `reset` for an id no longer kept, and `revert` with the corrected bars after a reorg. On a
 * chain of the file's own, since it reorganises it.
 */

const world = useOwnChain({ CHAIN_FINALITY_DEPTH: '31337=10' });

interface Seen {
  type: string;
  id: string;
  data: Record<string, unknown>;
  at: number;
}

const TYPES = ['snapshot', 'tick', 'bar', 'revert', 'state', 'reset', 'token'];
const sources: EventSource[] = [];
let base = '';

function follow(path: string, lastEventId?: string) {
  const source = new EventSource(`${base}${path}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...init?.headers, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      }),
  });
  sources.push(source);
  const seen: Seen[] = [];
  for (const type of TYPES) {
    source.addEventListener(type, (event) => {
      if (typeof (event as { data?: unknown }).data !== 'string') return;
      seen.push({
        type,
        id: event.lastEventId,
        data: JSON.parse(event.data) as Record<string, unknown>,
        at: Date.now(),
      });
    });
  }
  const opened = new Promise<void>((resolve) => source.addEventListener('open', () => resolve()));
  return { source, seen, opened };
}

async function seenWhen(follower: { seen: Seen[] }, test: (seen: Seen[]) => boolean, what: string) {
  return eventually(async () => (test(follower.seen) ? follower.seen : undefined), 15_000, what);
}

/** When the index first covers `block` (the cursor passes it), polled every 50 ms. */
async function indexedAt(block: bigint): Promise<number> {
  return eventually(
    async () => {
      const [cursor] = await world.ctx.sql<{ next_block: string }>(
        'select next_block from chain_cursors where chain_id = 31337',
      );
      return cursor && BigInt(cursor.next_block) > block ? Date.now() : undefined;
    },
    15_000,
    `the index to pass block ${block}`,
  );
}

let slug = '';
let instance: Address;
let alice: PrivateKeyAccount;
let bob: PrivateKeyAccount;

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(world.app.server.address() as { port: number }).port}`;
  const creator = await world.chain.funded();
  const token = await world.pad.createVirtuals(creator, 'LIVE', '100000');
  slug = token.slug;
  instance = await world.pad.launchAndWait(creator, slug, token.pendingLaunchTx);
  alice = await world.pad.trader(parseEther('1000'));
  bob = await world.pad.trader(parseEther('1000'));
  const first = await world.pad.buy(bob, instance, parseEther('50'));
  await indexedAt(first.blockNumber);
}, 120_000);

afterAll(() => {
  for (const source of sources) source.close();
});

describe('a buy and a sell', () => {
  it('reach the token’s stream and the firehose within a second of the indexed block', async () => {
    const loop = watchEventLoop();
    const token = follow(`/tokens/${slug}/stream?resolutions=1m,5m`);
    const firehose = follow('/tokens/stream');
    await Promise.all([token.opened, firehose.opened]);
    await seenWhen(
      token,
      (seen) => seen.some((event) => event.type === 'snapshot'),
      'the snapshot',
    );
    const snapshot = token.seen[0]!;
    expect(snapshot.type).toBe('snapshot');
    expect(snapshot.data).toMatchObject({
      state: 'live',
      lastTick: { side: 'buy', trader: bob.address },
    });
    expect(Object.keys(snapshot.data.bars as object).sort()).toEqual(['1m', '5m']);

    const bought = await world.pad.buy(alice, instance, parseEther('20'));
    const held = await world.chain.read<bigint>(instance, 'VirtualsToken', 'balanceOf', [
      bob.address,
    ]);
    const sold = await world.pad.sell(bob, instance, held / 2n);
    const indexed = await indexedAt(sold.blockNumber);
    const ticks = await seenWhen(
      token,
      (seen) => seen.filter((event) => event.type === 'tick').length >= 2,
      'two ticks',
    );
    const slim = await seenWhen(
      firehose,
      (seen) =>
        seen.filter((event) => event.type === 'tick' && event.data.slug === slug).length >= 2,
      'two firehose ticks',
    );
    const tickEvents = ticks.filter((event) => event.type === 'tick');
    expect(
      tickEvents.map((event) => [event.data.side, event.data.trader, event.data.txHash]),
    ).toEqual([
      ['buy', alice.address, bought.transactionHash],
      ['sell', bob.address, sold.transactionHash],
    ]);
    const sell = tickEvents[1]!.data;
    expect(Number(sell.price)).toBeLessThan(Number(sell.priceBefore));
    expect(tickEvents[0]!.data.priceBefore).toBe(
      (snapshot.data.lastTick as { price: string }).price,
    );
    // After each trade's range: its bars, the whole current bar of each asked resolution.
    const barsAfter = (seen: Seen[]) =>
      seen.slice(seen.indexOf(tickEvents[1]!) + 1).filter((event) => event.type === 'bar');
    await seenWhen(token, (seen) => barsAfter(seen).length >= 2, 'the bars after the sell');
    const bars = barsAfter(token.seen);
    expect(bars.map((event) => event.data.resolution)).toEqual(['1m', '5m']);
    expect(bars[0]!.data.c).toBe(sell.price);
    expect(slim.filter((event) => event.type === 'tick').map((event) => event.data.side)).toEqual([
      'buy',
      'sell',
    ]);
    // Ids increase; a group's id is on its last event.
    const ids = token.seen.filter((event) => event.id).map((event) => BigInt(event.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    const bound = 1000 + 2 * loop.maxDelayMs();
    loop.stop();
    const last = Math.max(
      bars.at(-1)!.at,
      slim.filter((event) => event.type === 'tick').at(-1)!.at,
    );
    expect(last - indexed).toBeLessThanOrEqual(bound);
  });
});

describe('metrics', () => {
  it('count the open token streams, and their lag behind the outbox', async () => {
    const follower = follow(`/tokens/${slug}/stream`);
    await seenWhen(follower, (seen) => seen.length > 0, 'the snapshot');
    const response = await world.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    const value = (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(response.body)?.[1]);
    expect(value('svc_market_streams_open')).toBeGreaterThanOrEqual(1);
    // Caught up: nothing written since the streams last read.
    expect(value('svc_market_outbox_lag_seconds')).toBe(0);
    follower.source.close();
  });
});

describe('reconnecting', () => {
  it('with Last-Event-ID replays exactly the events missed, and nothing before them', async () => {
    const first = follow(`/tokens/${slug}/stream?resolutions=1h`);
    await first.opened;
    await seenWhen(first, (seen) => seen.length > 0, 'the snapshot');
    const lastId = first.seen.at(-1)!.id;
    first.source.close();

    const missed = await world.pad.buy(alice, instance, parseEther('3'));
    await indexedAt(missed.blockNumber);
    const again = follow(`/tokens/${slug}/stream?resolutions=1h`, lastId);
    const seen = await seenWhen(
      again,
      (events) => events.some((event) => event.type === 'bar'),
      'the missed trade and its bar',
    );
    expect(seen.map((event) => event.type)).toEqual(['tick', 'bar']);
    expect(seen[0]!.data.txHash).toBe(missed.transactionHash);
    // Exactly the outbox's events of the token after the id (one group here).
    const [newer] = await world.ctx.sql<{ seqs: string[] }>(
      `select coalesce(array_agg(seq::text order by seq), '{}') as seqs from market_events
        where token_id = (select id from tokens where slug = $1) and seq > $2`,
      [slug, lastId],
    );
    expect(seen.filter((event) => event.id).map((event) => event.id)).toEqual(newer!.seqs);
    again.source.close();
  });

  it('with an id no longer kept, or never issued, gets reset and a fresh snapshot', async () => {
    const [bounds] = await world.ctx.sql<{ first: string; last: string }>(
      'select min(seq)::text as first, max(seq)::text as last from market_events',
    );
    const unknown = follow(`/tokens/${slug}/stream`, String(BigInt(bounds!.last) + 1000n));
    await seenWhen(unknown, (seen) => seen.length >= 2, 'reset and snapshot');
    expect(unknown.seen.slice(0, 2).map((event) => [event.type, event.data.reason])).toEqual([
      ['reset', 'unknown_id'],
      ['snapshot', undefined],
    ]);
    unknown.source.close();
    // What the retention would do after a day: the oldest events gone.
    await world.ctx.sql('delete from market_events where seq <= $1', [bounds!.first]);
    const expired = follow(`/tokens/${slug}/stream`, String(BigInt(bounds!.first) - 1n));
    await seenWhen(expired, (seen) => seen.length >= 2, 'reset and snapshot');
    expect(expired.seen.slice(0, 2).map((event) => [event.type, event.data.reason])).toEqual([
      ['reset', 'expired'],
      ['snapshot', undefined],
    ]);
    expired.source.close();
  });
});

describe('a reorg', () => {
  it('sends revert with the trades removed and the corrected bars', async () => {
    const follower = follow(`/tokens/${slug}/stream?resolutions=1m,1h`);
    await seenWhen(follower, (seen) => seen.length > 0, 'the snapshot');
    const fork = await world.chain.anvil.snapshot();
    const orphaned = await world.pad.buy(alice, instance, parseEther('7'));
    await seenWhen(
      follower,
      (seen) =>
        seen.some(
          (event) => event.type === 'tick' && event.data.txHash === orphaned.transactionHash,
        ),
      'the orphaned trade’s tick',
    );
    await world.chain.anvil.revert({ id: fork });
    const kept = await world.pad.buy(bob, instance, parseEther('2'));
    await world.chain.anvil.mine({ blocks: 2 });
    const seen = await seenWhen(
      follower,
      (events) =>
        events.some((event) => event.type === 'revert') &&
        events.some((event) => event.type === 'tick' && event.data.txHash === kept.transactionHash),
      'the revert and the new branch’s trade',
    );
    const revert = seen.find((event) => event.type === 'revert')!.data as {
      fromBlock: number;
      removed: { txHash: string }[];
      bars: { resolution: string; t: number; c: string }[];
    };
    expect(revert.removed.map((trade) => trade.txHash)).toEqual([orphaned.transactionHash]);
    expect(revert.fromBlock).toBeLessThanOrEqual(Number(orphaned.blockNumber));
    // The corrected bars are what the trades left by the rollback add up to (the new
    // branch's trade came after the revert): each bar's close and count, every bucket from the
    // one of the first removed trade on.
    const left = await world.ctx.sql<{ t: number; price_after: string }>(
      `select extract(epoch from block_time)::int as t, price_after::text from token_trades
        where instance = $1 and price_after is not null and tx_hash <> $2
        order by block_number, log_index`,
      [instance.toLowerCase(), kept.transactionHash],
    );
    expect(revert.bars.length).toBeGreaterThan(0);
    for (const bar of revert.bars as { resolution: string; t: number; c: string; n: number }[]) {
      const seconds = bar.resolution === '1m' ? 60 : 3600;
      const inBar = left.filter((trade) => trade.t >= bar.t && trade.t < bar.t + seconds);
      expect(bar.n).toBe(inBar.length);
      expect(parseEther(bar.c)).toBe(BigInt(inBar.at(-1)!.price_after));
    }
    follower.source.close();
  });
});

describe('refusals', () => {
  it('answers 400 for unknown resolutions and 404 for an unknown token, as JSON', async () => {
    const bad = await world.app.inject({
      method: 'GET',
      url: `/tokens/${slug}/stream?resolutions=1m,15s`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'resolutions: must be a comma-separated list of 1m, 5m, 15m, 1h, 4h, 1d, 1w',
      },
    });
    const unknown = await world.app.inject({ method: 'GET', url: '/tokens/no-such-token/stream' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('token_not_found');
  });
});

describe('state changes', () => {
  it('write state events and the token.launched webhook to the owner', async () => {
    const [launch] = await world.ctx.sql<{
      kind: string;
      payload: { state: string; slug: string };
    }>(
      `select kind, payload from market_events
        where token_id = (select id from tokens where slug = $1) and kind = 'state'
        order by seq limit 1`,
      [slug],
    );
    expect(launch).toMatchObject({ kind: 'state', payload: { state: 'live', slug } });
    const [hook] = await world.ctx.sql<{ event: string; data: Record<string, unknown> }>(
      `select o.event, o.data from outbox_events o join tokens t on t.owner_id = o.user_id
        where t.slug = $1 and o.event = 'token.launched'`,
      [slug],
    );
    expect(hook).toEqual({
      event: 'token.launched',
      data: { slug, instance, chainId: 31337, blockNumber: expect.any(Number) },
    });
  });
});

describe('the estimated time to graduation', () => {
  it('is a duration of hours, not seconds or null, for a curve launched with a buy', async () => {
    // The case: launched with an initial buy of 100 of a 1,000 threshold, the launch
    // and its buy in one block, so the curve's age at the index is 0 seconds.
    const creator = await world.pad.trader(parseEther('1000'));
    const token = await world.pad.createVirtuals(creator, 'SOON', '1000', '100');
    await world.pad.launchAndWait(creator, token.slug, token.pendingLaunchTx);
    const detail = await eventually(
      async () => {
        const body = await world.pad.get<{ estimatedTimeToGraduation: string | null }>(
          `/tokens/${token.slug}`,
        );
        return body.estimatedTimeToGraduation === null ? undefined : body;
      },
      10_000,
      'an estimate',
    );
    // 100 an hour at least (counted over one hour), 900 to go: nine hours.
    expect(detail.estimatedTimeToGraduation).toBe('PT9H');
  });
});

describe('the DEX Screener Adapter', () => {
  const get = async (url: string) => world.app.inject({ method: 'GET', url });

  it('shows the bonding-curve pair, its assets and its swaps up to the final block only', async () => {
    // Finality depth 10 here: the newest ten blocks are not final.
    const recent = await world.pad.buy(alice, instance, parseEther('4'));
    await indexedAt(recent.blockNumber);
    const head = await world.chain.reader.getBlockNumber();
    const latest = await eventually(
      async () => {
        const response = await get('/dexscreener/latest-block');
        return response.statusCode === 200
          ? response.json<{ block: { blockNumber: number; blockTimestamp: number } }>()
          : undefined;
      },
      10_000,
      'a final block',
    );
    expect(latest.block.blockNumber).toBeLessThanOrEqual(Number(head) - 10);
    const before = (await get(`/dexscreener/events?fromBlock=0&toBlock=${head}`)).json<{
      events: { txnId: string; block: { blockNumber: number } }[];
    }>();
    // The final block only moves on: read after the events, it bounds every one of them.
    const [cursor] = await world.ctx.sql<{ final_block: string }>(
      'select final_block::text from chain_cursors where chain_id = 31337',
    );
    for (const event of before.events) {
      expect(event.block.blockNumber).toBeLessThanOrEqual(Number(cursor!.final_block));
    }
    expect(before.events.map((event) => event.txnId)).not.toContain(recent.transactionHash);

    // Ten blocks on, the swap is final and shown, in the adapter's shape.
    await world.chain.anvil.mine({ blocks: 11 });
    const swap = await eventually(
      async () => {
        const body = (await get(`/dexscreener/events?fromBlock=0&toBlock=${head + 20n}`)).json<{
          events: Record<string, unknown>[];
        }>();
        return body.events.find((event) => event.txnId === recent.transactionHash);
      },
      15_000,
      'the swap to become final',
    );
    const [trade] = await world.ctx.sql<{ amount_token: string; price_after: string }>(
      'select amount_token::text, price_after::text from token_trades where tx_hash = $1',
      [recent.transactionHash],
    );
    expect(swap).toMatchObject({
      eventType: 'swap',
      txnIndex: 0,
      maker: alice.address,
      pairId: instance,
      asset1In: '4',
      asset0Out: expect.any(String),
      block: { blockNumber: Number(recent.blockNumber), blockTimestamp: expect.any(Number) },
    });
    expect(parseEther(swap.asset0Out as string)).toBe(BigInt(trade!.amount_token));
    expect(parseEther(swap.priceNative as string)).toBe(BigInt(trade!.price_after));

    const pairBody = (await get(`/dexscreener/pair?id=${instance}`)).json<{
      pair: { asset0Id: string; asset1Id: string; dexKey: string; feeBps: number };
    }>();
    const payment = await world.chain.read<Address>(
      world.factory,
      'VirtualsFactory',
      'paymentToken',
    );
    expect(pairBody.pair).toMatchObject({
      asset0Id: instance,
      asset1Id: payment,
      dexKey: 'virtuals',
      feeBps: 0,
    });
    const token = (await get(`/dexscreener/asset?id=${instance}`)).json<{
      asset: Record<string, string>;
    }>();
    expect(token.asset).toMatchObject({ id: instance, symbol: 'LIVE', totalSupply: '1000000000' });
    const quote = (await get(`/dexscreener/asset?id=${payment}`)).json<{
      asset: Record<string, string>;
    }>();
    const supply = await world.chain.read<bigint>(payment, 'TestToken', 'totalSupply');
    expect(parseEther(quote.asset.totalSupply!)).toBe(supply);
  });

  it('answers clear errors', async () => {
    const backwards = await get('/dexscreener/events?fromBlock=10&toBlock=5');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({
      error: { code: 'invalid_request', message: 'toBlock: must not be before fromBlock' },
    });
    const unknown = await get(`/dexscreener/pair?id=0x${'1'.repeat(40)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
    const chain = await get('/dexscreener/latest-block?chainId=5');
    expect(chain.statusCode).toBe(400);
    expect(chain.json().error.code).toBe('chain_unsupported');
  });
});
