import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseEther, type Address } from 'viem';
import { launchCalldata } from '../../shared/chain/launchpad';
import { createLogger } from '../../shared/logger';
import { createChainActivities } from '../../workers/activities/chain';
import { abiOf, localChain } from '../helpers/chain';
import { useTestApp } from '../helpers/context';
import { readTestServices } from '../helpers/services';

/**
 * Providers cap eth_getLogs (a block range, a result count) and answer a JSON-RPC error when a
 * request exceeds it. In front of the test chain, a proxy answers as such a provider does
 * (code -32005, "query exceeds max block range"); the indexer halves its range until the
 * provider accepts it and indexes everything. Any other failure is not a range problem: the
 * pass fails and Temporal retries it.
 */

const MAX_RANGE = 3;
const anvilUrl = readTestServices().anvilUrl;
let proxy: Server;
let refused = 0;
let broken = false;
/** Answer wide ranges with a body over viem's 10 MB limit instead of an error. */
let oversized = false;

interface RpcRequest {
  id: number;
  method: string;
  params: { fromBlock?: string; toBlock?: string }[];
}

async function answer(request: RpcRequest): Promise<unknown> {
  if (request.method === 'eth_getLogs') {
    const { fromBlock, toBlock } = request.params[0] ?? {};
    if (Number(toBlock) - Number(fromBlock) + 1 > MAX_RANGE) {
      refused++;
      if (oversized) return { jsonrpc: '2.0', id: request.id, result: [], pad: 'x'.repeat(11e6) };
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32005, message: `query exceeds max block range ${MAX_RANGE}` },
      };
    }
  }
  const response = await fetch(anvilUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  return response.json();
}

beforeAll(async () => {
  proxy = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (broken) {
        res.writeHead(502).end('bad gateway');
        return;
      }
      const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
      const answered = Array.isArray(parsed) ? Promise.all(parsed.map(answer)) : answer(parsed);
      void answered.then((result) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});
const test = useTestApp({
  env: () => ({
    CHAIN_RPC_URLS: `31337=http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
  }),
  apis: 0,
});
afterAll(async () => new Promise((resolve) => proxy?.close(resolve)));

describe('a provider that refuses wide eth_getLogs ranges', () => {
  it('is read in halved ranges until accepted, and nothing is missed', async () => {
    const chain = localChain(anvilUrl);
    const factory = test.ctx.config.launchFactories[31337]!.virtuals!;
    const activities = createChainActivities({
      orm: test.ctx.deps.orm,
      config: test.ctx.config,
      logger: createLogger('silent', 'test'),
    });
    // Trades spread over more blocks than one accepted range.
    const trader = await chain.funded();
    const payment = await chain.read<Address>(factory, 'VirtualsFactory', 'paymentToken');
    await chain.send(trader, payment, 'TestToken', 'mint', [trader.address, parseEther('100')]);
    await chain.send(trader, payment, 'TestToken', 'approve', [factory, parseEther('100')]);
    const data = launchCalldata('virtuals', randomUUID(), 'Ranged', 'RNGD', {
      graduationThreshold: '1000',
      initialBuy: '1',
    });
    await chain.sendCalldata(trader, factory, data);
    const [launch] = await chain.reader.getContractEvents({
      address: factory,
      abi: abiOf('VirtualsFactory'),
      eventName: 'Launched',
      args: { creator: trader.address },
      fromBlock: 0n,
    });
    const instance = (launch as unknown as { args: { instance: Address } }).args.instance;
    for (let i = 0; i < 8; i++) {
      await chain.send(trader, factory, 'VirtualsFactory', 'buy', [
        instance,
        parseEther('1'),
        0n,
        await chain.deadline(),
      ]);
    }
    const head = await chain.reader.getBlockNumber();
    let pass = await activities.syncChain({
      chainId: 31337,
      logRange: 64,
      maxRanges: 100_000,
      budgetMs: 120_000,
    });
    while (pass.nextBlock <= Number(head)) {
      pass = await activities.syncChain({
        ...pass,
        chainId: 31337,
        maxRanges: 100_000,
        budgetMs: 120_000,
      });
    }
    expect(refused).toBeGreaterThan(0);
    expect(pass.logRange).toBeLessThanOrEqual(MAX_RANGE);

    // Everything the factory said up to the head, read straight from the chain.
    const trades = await chain.reader.getContractEvents({
      address: factory,
      abi: abiOf('VirtualsFactory'),
      eventName: 'Trade',
      fromBlock: 0n,
      toBlock: head,
    });
    const [row] = await test.ctx.sql<{ count: string }>(
      `select count(*) from token_trades r
        where r.kind <> 'graduation' and r.block_number <= $1
          and exists (select 1 from chain_launches l
                       where l.instance = r.instance and l.template = 'virtuals')`,
      [head.toString()],
    );
    expect(trades.length).toBeGreaterThanOrEqual(9);
    expect(Number(row?.count)).toBe(trades.length);
  });

  it('takes an answer over the 10 MB limit for a refused range too', async () => {
    await test.ctx.sql('delete from chain_cursors');
    refused = 0;
    oversized = true;
    try {
      const activities = createChainActivities({
        orm: test.ctx.deps.orm,
        config: test.ctx.config,
        logger: createLogger('silent', 'test'),
      });
      const head = Number(await localChain(anvilUrl).reader.getBlockNumber());
      const pass = await activities.syncChain({
        chainId: 31337,
        logRange: 8,
        maxRanges: 100_000,
        budgetMs: 120_000,
      });
      expect(refused).toBeGreaterThan(0);
      expect(pass.logRange).toBeLessThanOrEqual(MAX_RANGE);
      expect(pass.nextBlock).toBeGreaterThan(head);
    } finally {
      oversized = false;
    }
  });

  it('fails the pass on any other error, leaving the cursor where it was', async () => {
    const [before] = await test.ctx.sql<{ next_block: string }>(
      'select next_block from chain_cursors',
    );
    broken = true;
    try {
      const activities = createChainActivities({
        orm: test.ctx.deps.orm,
        config: test.ctx.config,
        logger: createLogger('silent', 'test'),
      });
      await expect(
        activities.syncChain({ chainId: 31337, logRange: 2, maxRanges: 10, budgetMs: 10_000 }),
      ).rejects.toThrow();
    } finally {
      broken = false;
    }
    const [after] = await test.ctx.sql<{ next_block: string }>(
      'select next_block from chain_cursors',
    );
    expect(after).toEqual(before);
  });
});
