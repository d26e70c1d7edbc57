import { parseEther, type Address, type PrivateKeyAccount } from 'viem';
import { useOwnChain, type HolderItem, type Page, type TradeItem } from '../helpers/launchpad';

/**
 * The dpnm template through the indexer (docs/world.chain.md "dpnm", "Reads"): a launch from
 * `pendingLaunchTx`, tree activations, buys and sells whose fees walk the tree, a lapsed upline
 * accruing and claiming GWT; the API's pool, tree and holder figures equal the protocol's own
 * views at the reported block. On a chain of its own: it moves the clock by a month.
 */

const world = useOwnChain({}, 'dpnm');
const MAX_UINT = 2n ** 256n - 1n;

interface PoolOnchain {
  template: string;
  instance: Address;
  flowProtocol: Address;
  phenomenalTree: Address;
  gwt: Address;
  currentPrice: string;
  poolUsdt: string;
  totalSupply: string;
  totalActivePositions: number;
  totalTreePositions: number;
  lifetimeFeesUsdt: string;
  lifetimeGwtMinted: string;
  blockNumber: number;
}

describe('chain indexer, dpnm end to end', () => {
  it('indexes the pool, the tree, fees and GWT as the protocol has them', async () => {
    const factory = world.ctx.config.launchFactories[31337]!.dpnm!;
    const usdt = await world.chain.read<Address>(factory, 'DpnmFactory', 'usdt');
    const creator = await world.chain.funded();
    const { slug, instance, protocol } = await world.pad.launchDpnm(creator, 'PHNM');
    const member = (referrer: PrivateKeyAccount | null) => world.pad.dpnmMember(protocol, referrer);
    const buy = async (account: PrivateKeyAccount, usdtIn: string) =>
      world.chain.send(account, protocol, 'DpnmProtocol', 'buy', [
        parseEther(usdtIn),
        0n,
        await world.chain.deadline(),
      ]);
    // creator (root) ← a ← b ← c
    const a = await member(null);
    const b = await member(a);
    const c = await member(b);
    await buy(c, '100');
    await buy(b, '50');
    const held = await world.chain.read<bigint>(instance, 'DpnmToken', 'balanceOf', [a.address]);
    expect(held).toBe(0n);
    await buy(a, '20');
    const aHeld = await world.chain.read<bigint>(instance, 'DpnmToken', 'balanceOf', [a.address]);
    await world.chain.send(a, protocol, 'DpnmProtocol', 'sell', [
      aHeld / 2n,
      0n,
      await world.chain.deadline(),
    ]);

    // A month on, everyone lapses but a and the creator extend: b's share of c's fee turns
    // into claimable GWT, which b claims.
    await world.chain.anvil.increaseTime({ seconds: 31 * 24 * 3600 });
    await world.chain.send(a, protocol, 'DpnmProtocol', 'extendTree', []);
    await world.chain.send(creator, usdt, 'TestToken', 'mint', [
      creator.address,
      parseEther('100'),
    ]);
    await world.chain.send(creator, usdt, 'TestToken', 'approve', [protocol, MAX_UINT]);
    await world.chain.send(creator, protocol, 'DpnmProtocol', 'extendTree', []);
    await buy(c, '30');
    const claimable = await world.chain.read<bigint>(protocol, 'DpnmProtocol', 'claimableGwt', [
      b.address,
    ]);
    expect(claimable).toBeGreaterThan(0n);
    const last = await world.chain.send(b, protocol, 'DpnmProtocol', 'claimGWT', []);

    const trades = await world.pad.tradesAt(slug, last.blockNumber);
    expect(trades.items.map((trade: TradeItem) => [trade.kind, trade.trader])).toEqual([
      ['buy', c.address],
      ['sell', a.address],
      ['buy', a.address],
      ['buy', b.address],
      ['buy', c.address],
    ]);
    expect(trades.items[4]!.amountPayment).toBe('100');

    // Market data (docs/chain.md "Market data"): each trade's spot price before and after it
    // and the circulating supply after it are the protocol's own price() and supply then.
    const priced = await world.ctx.sql<{
      block_number: string;
      price_before: string;
      price_after: string;
      supply_after: string;
    }>(
      `select block_number, price_before::text, price_after::text, supply_after::text
         from token_trades where instance = $1 order by block_number`,
      [instance.toLowerCase()],
    );
    expect(priced).toHaveLength(5);
    for (const trade of priced) {
      const block = BigInt(trade.block_number);
      const price = (at: bigint) =>
        world.chain.read<bigint>(protocol, 'DpnmProtocol', 'price', [], at);
      expect(BigInt(trade.price_before)).toBe(await price(block - 1n));
      expect(BigInt(trade.price_after)).toBe(await price(block));
      expect(BigInt(trade.supply_after)).toBe(
        await world.chain.read<bigint>(instance, 'DpnmToken', 'totalSupply', [], block),
      );
    }

    const onchain = await world.pad.get<PoolOnchain>(`/tokens/${slug}/onchain`);
    const at = BigInt(onchain.blockNumber);
    const view = <T>(
      name: string,
      args: unknown[] = [],
      address = protocol,
      abi = 'DpnmProtocol',
    ) => world.chain.read<T>(address, abi, name, args, at);
    expect(onchain.instance).toBe(instance);
    expect(onchain.flowProtocol).toBe(protocol);
    expect(onchain.phenomenalTree).toBe(await view<Address>('tree'));
    expect(onchain.gwt).toBe(await view<Address>('gwt'));
    expect(parseEther(onchain.currentPrice)).toBe(await view<bigint>('price'));
    expect(parseEther(onchain.poolUsdt)).toBe(await view<bigint>('poolUsdt'));
    expect(parseEther(onchain.totalSupply)).toBe(
      await view<bigint>('totalSupply', [], instance, 'DpnmToken'),
    );
    expect(parseEther(onchain.lifetimeFeesUsdt)).toBe(await view<bigint>('lifetimeFeesUsdt'));
    expect(parseEther(onchain.lifetimeGwtMinted)).toBe(await view<bigint>('lifetimeGwtMinted'));
    expect(parseEther(onchain.lifetimeGwtMinted)).toBe(claimable);
    expect(onchain.totalTreePositions).toBe(4);
    // Only a and the creator extended past the month.
    expect(onchain.totalActivePositions).toBe(2);

    const detail = await world.pad.get<Record<string, unknown>>(`/tokens/${slug}`);
    expect(detail).toMatchObject({
      state: 'live',
      flowProtocol: protocol,
      phenomenalTree: onchain.phenomenalTree,
      gwt: onchain.gwt,
      currentPrice: onchain.currentPrice,
      poolUsdt: onchain.poolUsdt,
      totalSupply: onchain.totalSupply,
      holdersCount: 3,
      treeActivePositions: 2,
    });

    const holders = await world.pad.get<Page<HolderItem>>(`/tokens/${slug}/holders`);
    expect(holders.items.map((holder) => holder.address).sort()).toEqual(
      [a.address, b.address, c.address].sort(),
    );
    for (const holder of holders.items) {
      expect(parseEther(holder.balance)).toBe(
        await world.chain.read<bigint>(instance, 'DpnmToken', 'balanceOf', [holder.address], at),
      );
    }
    expect(Math.abs(holders.items.reduce((sum, h) => sum + h.share, 0) - 1)).toBeLessThan(1e-9);

    // The tree as the indexer derived it: c's uplines by level, and who paid whom.
    const paths = await world.ctx.sql<{ ancestor: string; level: number }>(
      'select ancestor, level from dpnm_tree_paths where descendant = $1 order by level',
      [c.address.toLowerCase()],
    );
    expect(paths).toEqual(
      [b, a, creator].map((account, i) => ({
        ancestor: account.address.toLowerCase(),
        level: i + 1,
      })),
    );
    const [accrued] = await world.ctx.sql<{ subject: string; args: { claimable: string } }>(
      `select subject, args from chain_events where name = 'GwtAccrued' order by block_number desc limit 1`,
    );
    expect(accrued).toEqual({
      subject: b.address.toLowerCase(),
      args: expect.objectContaining({ claimable: claimable.toString() }),
    });
  });
});
