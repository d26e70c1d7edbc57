import { parseEther, type Address } from 'viem';
import { createLogger } from '../../shared/logger';
import { createChainActivities } from '../../workers/activities/chain';
import { abiOf, eventually, localChain, startTestChain } from '../helpers/chain';
import { UNLIMITED_RATES, useTestApp, type TestContext } from '../helpers/context';
import { launchpad, startIndexer } from '../helpers/launchpad';
import { startWorkerProcess } from '../helpers/worker-process';

/**
 * Crash safety of the indexer (docs/spec/contract.md §10): the worker process is killed with SIGKILL in
 * the middle of a backfill of many small ranges; once a new worker resumes, the index equals a
 * clean re-index of the same chain into another database, row for row, with no gap and no
 * duplicate.
 */

const TRADES = 240;

let testChain: Awaited<ReturnType<typeof startTestChain>>;
let stopIndexer: () => Promise<void>;

beforeAll(async () => {
  testChain = await startTestChain();
});
const env = () => ({
  ...UNLIMITED_RATES,
  CHAIN_RPC_URLS: `31337=${testChain.url}`,
  // Two blocks per range: the backfill is a long row of small transactions to die in.
  CHAIN_LOG_RANGE: '2',
  CHAIN_POLL_INTERVAL_MS: '100',
});
const test = useTestApp({ env, beforeClose: () => stopIndexer?.() });
/** The clean re-index's own database. */
const clean = useTestApp({ env, apis: 0 });
afterAll(async () => testChain?.stop());

async function cursor(of: TestContext): Promise<number> {
  const [row] = await of.sql<{ next_block: string }>(
    'select next_block from chain_cursors where chain_id = 31337',
  );
  return row ? Number(row.next_block) : 0;
}

/** Every chain-derived table in a stable order; the token link is the API's, not the chain's. */
async function index(of: TestContext) {
  const tables = {
    chain_launches:
      'select instance, template, factory, ref, creator, block_number, log_index, block_hash from chain_launches order by 1',
    token_transfers: 'select * from token_transfers order by block_number, log_index',
    token_trades: 'select * from token_trades order by block_number, log_index',
    chain_events: 'select * from chain_events order by block_number, log_index',
    token_holders: 'select * from token_holders order by instance, address',
    token_holder_totals: 'select * from token_holder_totals order by instance',
  };
  const rows: Record<string, unknown[]> = {};
  for (const [name, query] of Object.entries(tables)) rows[name] = await of.sql(query);
  return rows;
}

jest.setTimeout(180_000);

describe('a worker killed mid-backfill', () => {
  it('resumes from the committed cursor: the index equals a clean re-index, row for row', async () => {
    const chain = localChain(testChain.url);
    const factory = test.ctx.config.launchFactories[31337]!.virtuals!;
    const payment = await chain.read<Address>(factory, 'VirtualsFactory', 'paymentToken');
    const pad = launchpad(test.app, chain, factory, payment);
    const creator = await chain.funded();
    const token = await pad.createVirtuals(creator, 'CRASH', '1000000');
    await chain.sendCalldata(creator, factory, token.pendingLaunchTx);
    const [launch] = await chain.reader.getContractEvents({
      address: factory,
      abi: abiOf('VirtualsFactory'),
      eventName: 'Launched',
      fromBlock: 0n,
    });
    const instance = (launch as unknown as { args: { instance: Address } }).args.instance;
    const traders = [
      await pad.trader(parseEther('100000')),
      await pad.trader(parseEther('100000')),
    ];
    for (let i = 0; i < TRADES; i++) {
      await pad.buy(traders[i % 2]!, instance, parseEther(String(1 + (i % 7))));
    }
    const head = Number(await chain.reader.getBlockNumber());

    const worker = await startWorkerProcess(test.ctx.config);
    stopIndexer = await startIndexer(test.ctx);
    const middle = head / 2;
    await eventually(
      async () => ((await cursor(test.ctx)) > middle ? true : undefined),
      60_000,
      'the backfill to pass the middle',
    );
    await worker.crash();
    const stoppedAt = await cursor(test.ctx);
    expect(stoppedAt).toBeLessThan(head);

    const resumed = await startWorkerProcess(test.ctx.config);
    try {
      await eventually(
        async () => ((await cursor(test.ctx)) > head ? true : undefined),
        60_000,
        'the resumed backfill to reach the head',
      );
    } finally {
      await resumed.stop();
    }

    // The clean re-index: the same passes, run to the head in this process.
    const activities = createChainActivities({
      orm: clean.ctx.deps.orm,
      config: clean.ctx.config,
      logger: createLogger('silent', 'test'),
    });
    let logRange = clean.ctx.config.chainSync.logRange;
    for (;;) {
      const pass = await activities.syncChain({
        chainId: 31337,
        logRange,
        maxRanges: 1000,
        budgetMs: 60_000,
      });
      logRange = pass.logRange;
      if (pass.caughtUp && pass.nextBlock > head) break;
    }

    const crashed = await index(test.ctx);
    const reindexed = await index(clean.ctx);
    expect(crashed.token_trades).toHaveLength(TRADES);
    expect(crashed).toEqual(reindexed);
    const [{ count }] = (await test.ctx.sql<{ count: string }>(
      'select count(*) from token_trades where instance = $1',
      [instance.toLowerCase()],
    )) as [{ count: string }];
    expect(Number(count)).toBe(TRADES);
  });
});
