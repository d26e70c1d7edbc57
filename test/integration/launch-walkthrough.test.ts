import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEther, type Address } from 'viem';
import { runWalkthrough, type WalkthroughResult } from '../../examples/launch-local';
import { localChain } from '../helpers/chain';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { startIndexer } from '../helpers/launchpad';
import { freePort, readTestServices } from '../helpers/services';

/**
 * docs/launch-walkthrough.md, executed: examples/launch-local.ts runs against this file's API,
 * listening on a real port, with the worker and the chain-sync indexer on the shared test
 * anvil. Only public HTTP endpoints and the chain, as a wallet developer would; the figures it
 * got are checked here against the contracts at the blocks the API named. The doc's code
 * blocks must still be excerpts of the script.
 */

const ROOT = join(__dirname, '..', '..');
const chain = localChain(readTestServices().anvilUrl);
let stopIndexer: () => Promise<void>;
let result: WalkthroughResult;
const lines: string[] = [];
let port: number;

const test = useTestApp({
  // The SIWE message must name the service's SIWE_DOMAIN, and the script takes it from the
  // API's URL, as a web app takes it from its own origin: pick the port first.
  env: async () => {
    port = await freePort();
    return { ...UNLIMITED_RATES, CHAIN_POLL_INTERVAL_MS: '100', SIWE_DOMAIN: `127.0.0.1:${port}` };
  },
  worker: true,
  beforeClose: () => stopIndexer?.(),
});
beforeAll(async () => {
  await test.app.listen({ port, host: '127.0.0.1' });
  stopIndexer = await startIndexer(test.ctx);
  result = await runWalkthrough({
    apiUrl: `http://127.0.0.1:${port}`,
    rpcUrl: chain.url,
    log: (line) => lines.push(line),
  });
}, 120_000);

type Curve = readonly [bigint, bigint, bigint, bigint, boolean, Address];

describe('the launch walk-through (examples/launch-local.ts)', () => {
  it('prints each step', () => {
    const steps = lines.filter((line) => /^\n\d+\. /.test(line));
    expect(steps.length).toBeGreaterThanOrEqual(12);
    expect(lines.join('\n')).toContain('Done: ');
  });

  it('creates the token pending, with the calldata of the factory GET /chains names', () => {
    const { virtuals } = result;
    expect(virtuals.created.state).toBe('pending');
    expect(virtuals.created.instance).toBeNull();
    expect(virtuals.created.pendingLaunchTx).toMatch(/^0x[0-9a-f]+$/);
    expect(virtuals.factory).toBe(test.ctx.config.launchFactories[31337]!.virtuals);
    expect(result.chain.faucet?.setBalanceRpcMethod).toBe('anvil_setBalance');
    expect(virtuals.created.params).toEqual({ graduationThreshold: '1000', initialBuy: '10' });
  });

  it('goes live within a few seconds of the launch, linked to the instance the factory made', async () => {
    const { virtuals } = result;
    expect(virtuals.liveAfterMs).toBeLessThan(5_000);
    expect(virtuals.live.state).toBe('live');
    expect(virtuals.live.launchFactory).toBeNull();
    expect(virtuals.live.pendingLaunchTx).toBeUndefined();
    expect(virtuals.live.blockNumber).toBeGreaterThanOrEqual(
      Number(virtuals.receipts.launch.blockNumber),
    );
    const ref = await chain.read<string>(virtuals.instance, 'VirtualsToken', 'ref');
    expect(ref).toBe(`0x${virtuals.created.id.replaceAll('-', '')}`);
    const [, , , threshold, , creator] = await chain.read<Curve>(
      virtuals.factory,
      'VirtualsFactory',
      'curves',
      [virtuals.instance],
    );
    expect(threshold).toBe(parseEther('1000'));
    expect(creator).toBe(result.creator);
  });

  it('shows the initial buy, the buy and the sell in trades and holders, as the chain has them', async () => {
    const { virtuals } = result;
    const { trades, holders, onchain, receipts } = virtuals;
    expect(trades.blockNumber).toBeGreaterThanOrEqual(Number(receipts.sell.blockNumber));
    expect(trades.items.map((trade) => trade.kind)).toEqual(['sell', 'buy', 'buy']);
    expect(trades.items.map((trade) => trade.txHash)).toEqual([
      receipts.sell.transactionHash,
      receipts.buy.transactionHash,
      receipts.launch.transactionHash,
    ]);
    for (const trade of trades.items) expect(trade.trader).toBe(result.creator);
    expect(trades.items[2]!.amountPayment).toBe('10');
    expect(trades.items[1]!.amountPayment).toBe('100');

    expect(holders.items).toHaveLength(1);
    expect(holders.items[0]!.address).toBe(result.creator);
    expect(holders.items[0]!.share).toBe(1);
    const at = BigInt(holders.blockNumber!);
    const held = await chain.read<bigint>(
      virtuals.instance,
      'VirtualsToken',
      'balanceOf',
      [result.creator],
      at,
    );
    expect(parseEther(holders.items[0]!.balance)).toBe(held);

    const [reserveToken, locked, virtualPayment, threshold, graduated] = await chain.read<Curve>(
      virtuals.factory,
      'VirtualsFactory',
      'curves',
      [virtuals.instance],
      BigInt(onchain.blockNumber!),
    );
    expect(onchain.instance).toBe(virtuals.instance);
    expect(onchain.pair).toBe(virtuals.factory);
    expect(parseEther(onchain.reserveToken!)).toBe(reserveToken);
    expect(parseEther(onchain.lockedPaymentToken!)).toBe(locked);
    expect(parseEther(onchain.reservePayment!)).toBe(locked + virtualPayment);
    expect(parseEther(onchain.graduationThreshold!)).toBe(threshold);
    expect(onchain.graduated).toBe(graduated);
    expect(onchain.graduated).toBe(false);
    expect(onchain.lastTradePrice).toBe(trades.items[0]!.price);
  });

  it('ends sentient after the graduating buy, and the curve then refuses to trade', async () => {
    const { virtuals } = result;
    expect(virtuals.sentient.state).toBe('sentient');
    expect(virtuals.sentient.progressToGraduation).toBe(1);
    expect(virtuals.finalTrades.items.map((trade) => trade.kind)).toEqual([
      'graduation',
      'buy',
      'sell',
      'buy',
      'buy',
    ]);
    expect(virtuals.finalTrades.items[0]!.txHash).toBe(virtuals.graduation.transactionHash);
    expect(virtuals.finalOnchain.graduated).toBe(true);
    expect(virtuals.refusedBuyReason).toBe('graduated');
    const [, locked, , threshold, graduated] = await chain.read<Curve>(
      virtuals.factory,
      'VirtualsFactory',
      'curves',
      [virtuals.instance],
    );
    expect(graduated).toBe(true);
    expect(locked).toBe(threshold);
    expect(parseEther(virtuals.finalOnchain.lockedPaymentToken!)).toBe(locked);
  });

  it('meets the documented error envelopes for the usual mistakes', () => {
    const codes = result.mistakes.map(({ status, code }) => `${status} ${code}`);
    expect(codes).toEqual([
      '401 siwe_invalid',
      '400 params_invalid',
      '404 token_not_found',
      '404 token_not_found',
      '400 params_invalid',
      '409 ticker_taken',
      '400 chain_unsupported',
      '401 unauthenticated',
    ]);
    const domain = test.ctx.config.siweDomain;
    expect(result.mistakes[0]!.message).toBe(`message: domain must be ${domain}`);
    expect(result.mistakes[1]!.message).toBe('params.graduationThreshold: must be greater than 0');
    expect(result.mistakes[4]!.message).toBe('params.initialBuys: is not a known field');
  });

  it('launches a dpnm token, and a member joins its tree and buys, as the protocol has it', async () => {
    const { dpnm } = result;
    expect(dpnm.created.state).toBe('pending');
    expect(dpnm.live.state).toBe('live');
    const instance = dpnm.live.instance!;
    expect(await chain.read<Address>(dpnm.factory, 'DpnmFactory', 'protocolOf', [instance])).toBe(
      dpnm.protocol,
    );
    const at = BigInt(dpnm.onchain.blockNumber!);
    expect(dpnm.onchain.blockNumber).toBeGreaterThanOrEqual(Number(dpnm.receipts.buy.blockNumber));
    const read = <T>(functionName: string, args: unknown[] = []) =>
      chain.read<T>(dpnm.protocol, 'DpnmProtocol', functionName, args, at);
    expect(parseEther(dpnm.onchain.poolUsdt!)).toBe(await read<bigint>('poolUsdt'));
    expect(parseEther(dpnm.onchain.currentPrice!)).toBe(await read<bigint>('price'));
    expect(parseEther(dpnm.onchain.lifetimeFeesUsdt!)).toBe(await read<bigint>('lifetimeFeesUsdt'));
    expect(parseEther(dpnm.onchain.totalSupply!)).toBe(
      await chain.read<bigint>(instance, 'DpnmToken', 'totalSupply', [], at),
    );
    expect(dpnm.onchain.totalTreePositions).toBe(2);
    expect(dpnm.onchain.totalActivePositions).toBe(2);
    const tree = await read<Address>('tree');
    expect(dpnm.onchain.phenomenalTree).toBe(tree);
    expect(await chain.read<Address>(tree, 'PhenomenalTree', 'parentOf', [dpnm.member])).toBe(
      result.creator,
    );
    expect(dpnm.trades.items.map((trade) => [trade.kind, trade.trader, trade.txHash])).toEqual([
      ['buy', dpnm.member, dpnm.receipts.buy.transactionHash],
    ]);
    expect(dpnm.trades.items[0]!.amountPayment).toBe('100');
  });

  it('is what an outside developer writes: no imports from the service, only the ABIs', () => {
    const source = readFileSync(join(ROOT, 'examples', 'launch-local.ts'), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
    const local = imports.filter((path) => path.startsWith('.'));
    expect(local.length).toBeGreaterThan(0);
    for (const path of local) expect(path).toMatch(/^\.\.\/contracts\/abi\/\w+\.json$/);
  });

  it('keeps the doc in step: each TypeScript block of the walk-through is an excerpt of the script', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'launch-walkthrough.md'), 'utf8');
    const script = readFileSync(join(ROOT, 'examples', 'launch-local.ts'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
      match[1]!.trimEnd().split('\n'),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const block of blocks) {
      const wanted = block.map((line) => line.trim());
      const found = script.some((_, start) =>
        wanted.every((line, offset) => script[start + offset] === line),
      );
      if (!found) throw new Error(`not in examples/launch-local.ts:\n${block.join('\n')}`);
    }
    // And every region the script marks (// #region <name>) is one of them, whole.
    const marked = script
      .join('\n')
      .matchAll(/\/\/ #region ([\w-]+)\n([\s\S]*?)\n\/\/ #endregion/g);
    const shown = new Set(blocks.map((block) => block.map((line) => line.trim()).join('\n')));
    for (const [, region, body] of marked) {
      if (!shown.has(body!)) throw new Error(`region ${region} is not a block of the doc`);
    }
  });
});
