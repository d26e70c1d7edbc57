import { parseEther, type PrivateKeyAccount, type TransactionReceipt } from 'viem';
import { eventually } from '../helpers/chain';
import { useOwnChain, type HolderItem, type Page } from '../helpers/launchpad';

/**
 * A reorganisation above the finality line (docs/spec/contract.md §10): the indexer has indexed three
 * blocks of trades, the chain replaces them with another branch, and the index ends up with
 * exactly the new branch's trades and balances, no row twice. On a chain of the test's own,
 * since it rewrites history.
 */

const world = useOwnChain({ CHAIN_FINALITY_DEPTH: '31337=10' });

async function duplicates(): Promise<number> {
  const [row] = await world.ctx.sql<{ count: string }>(
    `select count(*) from (
       select chain_id, block_number, log_index from token_trades
       union all select chain_id, block_number, log_index from token_transfers
       union all select chain_id, block_number, log_index from chain_events
       union all select chain_id, block_number, log_index from chain_launches) logs
     group by chain_id, block_number, log_index having count(*) > 1`,
  );
  return Number(row?.count ?? 0);
}

describe('a reorg of depth 3 above the finality line', () => {
  it('replaces the orphaned trades and balances with the new branch, exactly', async () => {
    const creator = await world.chain.funded();
    const token = await world.pad.createVirtuals(creator, 'REORG', '100000');
    const instance = await world.pad.launchAndWait(creator, token.slug, token.pendingLaunchTx);
    const traders: PrivateKeyAccount[] = [];
    for (let i = 0; i < 3; i++) traders.push(await world.pad.trader(parseEther('1000')));

    const fork = await world.chain.anvil.snapshot();
    const forkBlock = await world.chain.reader.getBlockNumber();
    const orphaned: TransactionReceipt[] = [];
    for (const [i, amount] of [100, 50, 30].entries()) {
      orphaned.push(await world.pad.buy(traders[i]!, instance, parseEther(String(amount))));
    }
    const before = await world.pad.tradesAt(token.slug, orphaned[2]!.blockNumber);
    expect(before.items.map((trade) => trade.txHash)).toEqual(
      orphaned.map((receipt) => receipt.transactionHash).reverse(),
    );
    expect(orphaned[2]!.blockNumber - forkBlock).toBe(3n);

    // The other branch: the same height and one more block, other trades.
    await world.chain.anvil.revert({ id: fork });
    const branch: TransactionReceipt[] = [];
    for (const [i, amount] of [
      [1, 70],
      [2, 10],
      [0, 5],
    ] as const) {
      branch.push(await world.pad.buy(traders[i]!, instance, parseEther(String(amount))));
    }
    await world.chain.anvil.mine({ blocks: 1 });
    const head = await world.chain.reader.getBlockNumber();

    const after = await eventually(
      async () => {
        const page = await world.pad.tradesAt(token.slug, head);
        const hashes = page.items.map((trade) => trade.txHash);
        return hashes.includes(branch[2]!.transactionHash) ? page : undefined;
      },
      15_000,
      'the new branch in the index',
    );
    expect(after.items.map((trade) => trade.txHash)).toEqual(
      branch.map((receipt) => receipt.transactionHash).reverse(),
    );
    expect(after.items.map((trade) => trade.blockNumber)).toEqual(
      branch.map((receipt) => Number(receipt.blockNumber)).reverse(),
    );
    expect(await duplicates()).toBe(0);

    const holders = await world.pad.get<Page<HolderItem>>(`/tokens/${token.slug}/holders`);
    expect(holders.items).toHaveLength(3);
    for (const holder of holders.items) {
      const held = await world.chain.read<bigint>(
        instance,
        'VirtualsToken',
        'balanceOf',
        [holder.address],
        BigInt(holders.blockNumber!),
      );
      expect(parseEther(holder.balance)).toBe(held);
    }
    expect(holders.items.map((holder) => holder.address)).toEqual(
      [1, 2, 0].map((i) => traders[i]!.address),
    );
    const [totals] = await world.ctx.sql<{ holders_count: number; held_supply: string }>(
      'select holders_count, held_supply::text from token_holder_totals where instance = $1',
      [instance.toLowerCase()],
    );
    const held = holders.items.reduce((sum, holder) => sum + parseEther(holder.balance), 0n);
    expect(totals).toEqual({ holders_count: 3, held_supply: held.toString() });
    expect(
      world.ctx.logs.some(
        (line) => line.msg === 'chain reorganisation: rolled back above the ancestor',
      ),
    ).toBe(true);
  });

  it('keeps a graduation above the finality line graduating, and takes it back with its block', async () => {
    const creator = await world.chain.funded();
    const token = await world.pad.createVirtuals(creator, 'GRAD', '100');
    const instance = await world.pad.launchAndWait(creator, token.slug, token.pendingLaunchTx);
    const whale = await world.pad.trader(parseEther('1000'));
    const fork = await world.chain.anvil.snapshot();
    await world.pad.buy(whale, instance, parseEther('150'));
    const stateOf = async () =>
      (await world.pad.get<{ state: string }>(`/tokens/${token.slug}`)).state;
    await eventually(
      async () => ((await stateOf()) === 'graduating' ? true : undefined),
      10_000,
      'the token to be graduating',
    );
    const listed = await world.pad.get<{ items: { slug: string }[] }>('/tokens?state=graduating');
    expect(listed.items.map((item) => item.slug)).toContain(token.slug);

    // The graduation's block is orphaned: the token is live again, its curve open.
    await world.chain.anvil.revert({ id: fork });
    await world.chain.anvil.mine({ blocks: 2 });
    await eventually(
      async () => ((await stateOf()) === 'live' ? true : undefined),
      10_000,
      'the orphaned graduation to be taken back',
    );

    // Graduated again, and final once 10 blocks are on top of it.
    await world.pad.buy(whale, instance, parseEther('150'));
    await eventually(
      async () => ((await stateOf()) === 'graduating' ? true : undefined),
      10_000,
      'graduating again',
    );
    await world.chain.anvil.mine({ blocks: 10 });
    await eventually(
      async () => ((await stateOf()) === 'sentient' ? true : undefined),
      10_000,
      'the graduation to be final',
    );
  });
});
