import { parseEther, type Address, type PrivateKeyAccount } from 'viem';
import { eventually, localChain } from '../helpers/chain';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import {
  launchpad,
  startIndexer,
  type HolderItem,
  type Page,
  type TradeItem,
} from '../helpers/launchpad';
import { readTestServices } from '../helpers/services';

/**
 * The launchpad end to end on a real chain (anvil), through the API and the `chain-sync`
 * workflow: a wallet sends the service's `pendingLaunchTx`, the token goes live, trades show in
 * holders and trades, the figures equal the contract's own at the reported block, and a buy
 * past the threshold ends the curve (docs/chain.md).
 */

const state = useTestApp({ env: { ...UNLIMITED_RATES, CHAIN_POLL_INTERVAL_MS: '100' } });
const chain = localChain(readTestServices().anvilUrl);
let factory: Address;
let pad: ReturnType<typeof launchpad>;
let stopIndexer: () => Promise<void>;

beforeAll(async () => {
  await state.ctx.startWorker();
  stopIndexer = await startIndexer(state.ctx);
  factory = state.ctx.config.launchFactories[31337]!.virtuals!;
  const payment = await chain.read<Address>(factory, 'VirtualsFactory', 'paymentToken');
  pad = launchpad(state.app, chain, factory, payment);
});

afterAll(async () => stopIndexer?.());

interface Detail {
  slug: string;
  instance: string | null;
  state: string;
  progressToGraduation: number | null;
  lockedPaymentToken: string | null;
  graduationThreshold: string | null;
  estimatedTimeToGraduation: string | null;
  holdersCount: number | null;
  lastTradePrice: string | null;
  blockNumber: number | null;
}

interface Onchain {
  template: string;
  instance: Address;
  pair: Address;
  reserveToken: string;
  reservePayment: string;
  lockedPaymentToken: string;
  graduationThreshold: string;
  progressToGraduation: number;
  graduated: boolean;
  lastTradePrice: string;
  totalSupply: string;
  blockNumber: number;
}

describe('chain indexer, virtuals end to end', () => {
  let slug: string;
  let instance: Address;
  const traders: PrivateKeyAccount[] = [];

  it('links a launch sent from pendingLaunchTx: instance and live within 5 s', async () => {
    const creator = await chain.funded();
    const token = await pad.createVirtuals(creator, 'IDXA', '1000');
    slug = token.slug;
    expect(token.state).toBe('pending');
    const pending = await pad.get<Detail>(`/tokens/${slug}`);
    expect(pending.progressToGraduation).toBeNull();
    expect(pending.holdersCount).toBeNull();
    const noHolders = await pad.get<Page<HolderItem>>(`/tokens/${slug}/holders`);
    expect(noHolders.items).toEqual([]);
    expect((await pad.get<Page<TradeItem>>(`/tokens/${slug}/trades`)).items).toEqual([]);
    expect((await pad.get<Onchain>(`/tokens/${slug}/onchain`)).reserveToken).toBeNull();

    const receipt = await chain.sendCalldata(creator, factory, token.pendingLaunchTx);
    const sentAt = Date.now();
    const live = await eventually(
      async () => {
        const detail = await pad.get<Detail>(`/tokens/${slug}`);
        return detail.state === 'live' ? detail : undefined;
      },
      5_000,
      'the token to go live',
    );
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    // Operators see the change in the worker's log, written just after the commit the API
    // read (and after the market announcement): waited for, not raced.
    const logged = await eventually(
      async () =>
        state.ctx.logs.find(
          (line) => line.msg === 'token state changed by the chain' && line.tokenId === token.id,
        ),
      5_000,
      'the state change in the worker log',
    );
    expect(logged).toMatchObject({ state: 'live', chainId: 31337 });
    instance = live.instance as Address;
    const [, , , threshold] = await chain.read<readonly bigint[]>(
      factory,
      'VirtualsFactory',
      'curves',
      [instance],
    );
    expect(threshold).toBe(parseEther('1000'));
    expect(live.blockNumber).toBeGreaterThanOrEqual(Number(receipt.blockNumber));
    expect(live.graduationThreshold).toBe('1000');
    expect(live.progressToGraduation).toBe(0);
    expect(live.holdersCount).toBe(0);
    expect(live.estimatedTimeToGraduation).toBeNull();
    const listed = await pad.get<{ items: { slug: string }[] }>('/tokens?state=live&chainId=31337');
    expect(listed.items.map((item) => item.slug)).toContain(slug);
  });

  it('shows buys and sells of three accounts in holders and trades, as the contract has them', async () => {
    for (const amount of [parseEther('100'), parseEther('50'), parseEther('25')]) {
      const account = await pad.trader(parseEther('10000'));
      traders.push(account);
      await pad.buy(account, instance, amount);
    }
    const balance = await chain.read<bigint>(instance, 'VirtualsToken', 'balanceOf', [
      traders[0]!.address,
    ]);
    const last = await pad.sell(traders[0]!, instance, balance / 4n);

    const trades = await pad.tradesAt(slug, last.blockNumber);
    expect(trades.items.map((trade) => trade.kind)).toEqual(['sell', 'buy', 'buy', 'buy']);
    expect(trades.items[0]!.trader).toBe(traders[0]!.address);
    expect(trades.items[0]!.txHash).toBe(last.transactionHash);
    expect(parseEther(trades.items[0]!.amountToken)).toBe(balance / 4n);
    expect(trades.items.map((trade) => trade.trader)).toEqual(
      [0, 2, 1, 0].map((i) => traders[i]!.address),
    );

    const holders = await pad.get<Page<HolderItem>>(`/tokens/${slug}/holders`);
    const at = BigInt(holders.blockNumber!);
    expect(holders.items).toHaveLength(3);
    const shares = holders.items.reduce((sum, holder) => sum + holder.share, 0);
    expect(Math.abs(shares - 1)).toBeLessThan(1e-9);
    for (const holder of holders.items) {
      const held = await chain.read<bigint>(
        instance,
        'VirtualsToken',
        'balanceOf',
        [holder.address],
        at,
      );
      expect(parseEther(holder.balance)).toBe(held);
    }
    const balances = holders.items.map((holder) => parseEther(holder.balance));
    expect([...balances].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(balances);

    const onchain = await pad.get<Onchain>(`/tokens/${slug}/onchain`);
    const [reserveToken, lockedPayment, virtualPayment, threshold, graduated] = await chain.read<
      readonly [bigint, bigint, bigint, bigint, boolean]
    >(factory, 'VirtualsFactory', 'curves', [instance], BigInt(onchain.blockNumber));
    expect(onchain.instance).toBe(instance);
    expect(onchain.pair).toBe(factory);
    expect(parseEther(onchain.reserveToken)).toBe(reserveToken);
    expect(parseEther(onchain.lockedPaymentToken)).toBe(lockedPayment);
    expect(parseEther(onchain.reservePayment)).toBe(lockedPayment + virtualPayment);
    expect(parseEther(onchain.graduationThreshold)).toBe(threshold);
    expect(onchain.graduated).toBe(graduated);
    expect(onchain.progressToGraduation).toBeCloseTo(Number(lockedPayment) / Number(threshold), 6);
    expect(parseEther(onchain.totalSupply)).toBe(
      await chain.read<bigint>(instance, 'VirtualsToken', 'totalSupply'),
    );
    const detail = await pad.get<Detail>(`/tokens/${slug}`);
    expect(detail.holdersCount).toBe(3);
    expect(parseEther(detail.lockedPaymentToken!)).toBe(lockedPayment);
    expect(detail.lastTradePrice).toBe(trades.items[0]!.price);
    // Net buying in the last 24 hours: an estimate exists, as an ISO 8601 duration.
    expect(detail.estimatedTimeToGraduation).toMatch(/^P(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$/);
  });

  it('pages holders and trades with cursors, neither repeating nor skipping', async () => {
    const all = await pad.get<Page<TradeItem>>(`/tokens/${slug}/trades?limit=100`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page: Page<TradeItem> = await pad.get(`/tokens/${slug}/trades?limit=3${query}`);
      seen.push(...page.items.map((trade) => trade.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((trade) => trade.id));
    const first = await pad.get<Page<HolderItem>>(`/tokens/${slug}/holders?limit=2`);
    expect(first.items).toHaveLength(2);
    const rest = await pad.get<Page<HolderItem>>(
      `/tokens/${slug}/holders?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`,
    );
    expect(rest.items).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    const misused = await state.app.inject({
      method: 'GET',
      url: `/tokens/${slug}/trades?cursor=${encodeURIComponent(first.nextCursor!)}`,
    });
    expect(misused.statusCode).toBe(400);
    expect(misused.json<{ error: { code: string } }>().error.code).toBe('invalid_cursor');
  });

  it('answers 404 token_not_found for an unknown slug on every chain read', async () => {
    for (const path of ['', '/holders', '/trades', '/onchain']) {
      const response = await state.app.inject({
        method: 'GET',
        url: `/tokens/no-such-token${path}`,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('token_not_found');
    }
  });

  it('ends sentient when a buy passes the threshold, and the curve refuses further trades', async () => {
    const whale = await pad.trader(parseEther('5000'));
    const graduating = await pad.buy(whale, instance, parseEther('2000'));
    const sentient = await eventually(
      async () => {
        const detail = await pad.get<Detail>(`/tokens/${slug}`);
        return detail.state === 'sentient' ? detail : undefined;
      },
      5_000,
      'the token to be sentient',
    );
    expect(sentient.progressToGraduation).toBe(1);
    expect(sentient.estimatedTimeToGraduation).toBeNull();
    const trades = await pad.tradesAt(slug, graduating.blockNumber);
    expect(trades.items[0]!.kind).toBe('graduation');
    expect(trades.items[0]!.trader).toBe(whale.address);
    expect(trades.items[1]!.kind).toBe('buy');
    const onchain = await pad.get<Onchain>(`/tokens/${slug}/onchain`);
    expect(onchain.graduated).toBe(true);
    const reason = await chain.revertOf(whale, factory, 'VirtualsFactory', 'buy', [
      instance,
      parseEther('1'),
      0n,
      await chain.deadline(),
    ]);
    expect(reason).toBe('graduated');
    const listed = await pad.get<{ items: { slug: string }[] }>('/tokens?state=sentient');
    expect(listed.items.map((item) => item.slug)).toContain(slug);
  });
});
