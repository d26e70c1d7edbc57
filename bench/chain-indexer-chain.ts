import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createPublicClient,
  decodeEventLog,
  encodeFunctionData,
  http,
  parseAbi,
  parseEther,
  toHex,
  type Address,
  type Hex,
  type Log,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { findAnvil } from '../scripts/anvil';
import { ANVIL_ACCOUNT_0_KEY, deployReferenceContracts } from '../scripts/chain-deployment';
import { refOf } from '../shared/chain/launchpad';
import { spawnWatched } from './chain-indexer-worker';
import { freePort } from './hot-reads-processes';

/**
 * The chain of bench/chain-indexer.ts: a private anvil with the reference contracts
 * (scripts/chain-deployment.ts), two virtuals tokens launched through the factory with the
 * ids of token rows the bench creates as their refs, and a history written quickly:
 *
 * - `big`: `traders` accounts buy it round-robin (`bigBuys` buys), and the first of them, the
 *   distributor, also sends small amounts to `recipients` fresh addresses: `traders +
 *   recipients` holders;
 * - `small`: the same traders buy it `smallBuys` times: `traders` holders.
 *
 * First each trader gets payment tokens and approves the factory, and the distributor buys
 * once, large. Then the buys of both tokens, interleaved evenly, `txsPerBlock` to a block, spread
 * over about `blocks` blocks (empty blocks between them); the distribution comes last, 200
 * transfers to a block. Automine is off while they are sent: each block's transactions go out
 * as JSON-RPC batches of `eth_sendTransaction` from impersonated accounts (nothing is signed,
 * which is what makes 30,000 transactions take seconds, not minutes; the logs are the same as
 * from signed transactions), each with an explicit nonce and gas limit, then one `anvil_mine`
 * mines them and the empty blocks after them. The graduation threshold (10^12 payment tokens)
 * is far above all buys together, so neither curve graduates. Then every watched log is
 * counted with eth_getLogs; a count short of what was sent (a reverted transaction) fails the
 * bench.
 *
 * anvil runs with `--hardfork cancun --prune-history`: anvil 1.7 rebuilds the whole state trie
 * on every block it mines (foundry-rs/foundry#15715), and from Prague on that state grows by a
 * slot per block (the EIP-2935 block-hash contract), so mining slows down with every block
 * (8 ms per block at 10,000 blocks, against 0.03 ms on Cancun); historical states are copies of
 * the state. For the same reason the 10,000 balances of the distribution are written last. The
 * reference contracts use no opcode newer than Cancun's.
 */

export interface ChainShape {
  traders: number;
  bigBuys: number;
  smallBuys: number;
  recipients: number;
  /** Transactions per block that has any (blocks between them stay empty). */
  txsPerBlock: number;
  /** About how many blocks the history spans. */
  blocks: number;
}

export interface BenchToken {
  key: 'big' | 'small';
  tokenId: string;
  instance: Address;
  /** Addresses with a positive balance outside the curve, as sent. */
  holders: number;
  buys: number;
  transfers: number;
}

export interface LogCounts {
  /** Launched + CurveCreated + Trade (the factory). */
  factory: number;
  /** Transfer logs of each token (mint, buys, distribution). */
  transfers: Record<BenchToken['key'], number>;
  trades: number;
  launches: number;
  /** Every log the indexer reads. */
  total: number;
}

export interface BenchChain {
  url: string;
  factory: Address;
  tokens: BenchToken[];
  /** Head block after the history was mined. */
  head: number;
  counts: LogCounts;
  /** Blocks holding at least one watched log. */
  blocksWithLogs: number;
  /** Whether anvil's logs carry `blockTimestamp` (else the indexer reads each block's header). */
  logsCarryTimestamps: boolean;
  generationMs: number;
  stop(): Promise<void>;
}

const FACTORY_ABI = parseAbi([
  'function launch(bytes16 ref, string name, string symbol, uint256 graduationThreshold, uint256 initialBuy) returns (address instance)',
  'function buy(address token, uint256 amountIn, uint256 amountOutMin, uint256 deadline) returns (uint256 amountOut)',
  'event Launched(bytes16 indexed ref, address indexed instance, address indexed creator)',
]);
const ERC20_ABI = parseAbi([
  'function mint(address to, uint256 value)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
]);
const MAX_UINT = 2n ** 256n - 1n;
const THRESHOLD = parseEther('1000000000000');
const DEADLINE = 2n ** 63n;
const GAS = { buy: 200_000n, transfer: 100_000n, setup: 100_000n };
/** anvil's default request body limit is 2 MB; a block's batch stays far below it. */
const SEND_BATCH = 400;
const DISTRIBUTION_PER_BLOCK = 200;
const COUNT_RANGE = 1_000;

interface Tx {
  from: Address;
  to: Address;
  data: Hex;
  gas: bigint;
}

class Rpc {
  private id = 0;
  constructor(readonly url: string) {}

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.batch<T>([[method, params]]);
    return result!;
  }

  /** One HTTP request carrying every call; fails on the first error. */
  async batch<T>(calls: [string, unknown[]][]): Promise<T[]> {
    const body = calls.map(([method, params]) => ({
      jsonrpc: '2.0',
      id: ++this.id,
      method,
      params,
    }));
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`anvil: HTTP ${response.status} ${await response.text()}`);
    const replies = (await response.json()) as {
      id: number;
      result?: T;
      error?: { message: string };
    }[];
    const byId = new Map(replies.map((reply) => [reply.id, reply]));
    return body.map(({ id, method }) => {
      const reply = byId.get(id);
      if (!reply || reply.error) {
        throw new Error(`anvil ${method}: ${reply?.error?.message ?? 'no reply'}`);
      }
      return reply.result as T;
    });
  }
}

const randomAddress = (): Address => `0x${randomBytes(20).toString('hex')}`;

async function startAnvil(): Promise<{ url: string; child: ChildProcess }> {
  const binary = findAnvil();
  if (!binary) throw new Error('anvil is not installed: run npm install, or set ANVIL_PATH');
  const port = await freePort();
  const child = spawnWatched(
    binary,
    [
      ...['--port', String(port), '--host', '127.0.0.1', '--silent'],
      ...['--hardfork', 'cancun', '--prune-history'],
    ],
    { output: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const rpc = new Rpc(url);
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode})`);
    const ok = await rpc.call('eth_chainId').then(
      () => true,
      () => false,
    );
    if (ok) return { url, child };
    if (Date.now() > deadline) throw new Error(`anvil did not answer at ${url} within 15 s`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

function stopAnvil(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    child.stdin?.destroy();
    return Promise.resolve();
  }
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.stdin?.end();
    child.kill('SIGTERM');
  });
}

/** Sends `txs` (automine off) as batches with explicit nonces; returns nothing until sent. */
async function sendAll(rpc: Rpc, txs: Tx[], nonces: Map<Address, number>): Promise<void> {
  for (let i = 0; i < txs.length; i += SEND_BATCH) {
    await rpc.batch(
      txs.slice(i, i + SEND_BATCH).map((tx) => {
        const nonce = nonces.get(tx.from) ?? 0;
        nonces.set(tx.from, nonce + 1);
        return [
          'eth_sendTransaction',
          [{ from: tx.from, to: tx.to, data: tx.data, gas: toHex(tx.gas), nonce: toHex(nonce) }],
        ];
      }),
    );
  }
}

/** Interleaves lists evenly: each next item comes from the list least far along. */
function interleave<T>(lists: T[][]): T[] {
  const at = lists.map(() => 0);
  const out: T[] = [];
  const total = lists.reduce((sum, list) => sum + list.length, 0);
  while (out.length < total) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      if (at[i]! >= lists[i]!.length) continue;
      if (best < 0 || at[i]! / lists[i]!.length < at[best]! / lists[best]!.length) best = i;
    }
    out.push(lists[best]![at[best]!++]!);
  }
  return out;
}

export async function createBenchChain(
  shape: ChainShape,
  progress: (line: string) => void,
): Promise<BenchChain> {
  const started = Date.now();
  const { url, child } = await startAnvil();
  try {
    const rpc = new Rpc(url);
    const deployer = privateKeyToAccount(ANVIL_ACCOUNT_0_KEY).address;
    const deployed = await deployReferenceContracts(url, privateKeyToAccount(ANVIL_ACCOUNT_0_KEY));
    const addressOf = (name: string) => deployed.find((d) => d.name === name)!.address;
    const factory = addressOf('virtuals-factory');
    const payment = addressOf('virtual-payment');
    const reader = createPublicClient({ transport: http(url), cacheTime: 0 });

    // Launches, mined one by one (automine is still on).
    const launched: { key: BenchToken['key']; tokenId: string; instance: Address }[] = [];
    for (const key of ['big', 'small'] as const) {
      const tokenId = randomUUID();
      const hash = await rpc.call<Hex>('eth_sendTransaction', [
        {
          from: deployer,
          to: factory,
          gas: toHex(3_000_000n),
          data: encodeFunctionData({
            abi: FACTORY_ABI,
            functionName: 'launch',
            args: [refOf(tokenId), `Bench ${key}`, key.toUpperCase(), THRESHOLD, 0n],
          }),
        },
      ]);
      const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== 'success') throw new Error(`launch of ${key} reverted`);
      const log = receipt.logs.find(
        (entry) => entry.address.toLowerCase() === factory.toLowerCase(),
      );
      const event = decodeEventLog({ abi: FACTORY_ABI, data: log!.data, topics: log!.topics });
      if (event.eventName !== 'Launched') throw new Error('no Launched log');
      launched.push({ key, tokenId, instance: event.args.instance });
    }
    const [big, small] = launched as [(typeof launched)[0], (typeof launched)[0]];

    await rpc.batch([
      ['evm_setAutomine', [false]],
      ['anvil_autoImpersonateAccount', [true]],
    ]);
    const traders = Array.from({ length: shape.traders }, randomAddress);
    const distributor = traders[0]!;
    const nonces = new Map<Address, number>();
    nonces.set(deployer, await reader.getTransactionCount({ address: deployer }));
    await rpc.batch(
      traders.map((trader) => ['anvil_setBalance', [trader, toHex(parseEther('1000'))]]),
    );
    const call = (from: Address, to: Address, gas: bigint, data: Hex): Tx => ({
      from,
      to,
      gas,
      data,
    });
    const erc20 = (functionName: 'mint' | 'approve' | 'transfer', args: [Address, bigint]) =>
      encodeFunctionData({ abi: ERC20_ABI, functionName, args });
    const buyData = (token: Address, amount: bigint) =>
      encodeFunctionData({
        abi: FACTORY_ABI,
        functionName: 'buy',
        args: [token, amount, 0n, DEADLINE],
      });

    // Setup block: payment tokens and approvals; then the distributor's one large buy.
    await sendAll(
      rpc,
      [
        ...traders.map((t) =>
          call(deployer, payment, GAS.setup, erc20('mint', [t, parseEther('1000000')])),
        ),
        ...traders.map((t) => call(t, payment, GAS.setup, erc20('approve', [factory, MAX_UINT]))),
      ],
      nonces,
    );
    await rpc.call('evm_mine');
    await sendAll(
      rpc,
      [call(distributor, factory, GAS.buy, buyData(big.instance, parseEther('100000')))],
      nonces,
    );
    await rpc.call('evm_mine');

    // The history: buys round-robin over the traders (amounts 0.1 to 10 payment tokens),
    // small-token buys and the distributor's transfers interleaved evenly among them.
    const amount = (i: number) => parseEther('0.1') * BigInt(1 + ((i * 7919) % 100));
    const bigBuys = Array.from({ length: shape.bigBuys }, (_, i) =>
      call(traders[i % traders.length]!, factory, GAS.buy, buyData(big.instance, amount(i))),
    );
    const smallBuys = Array.from({ length: shape.smallBuys }, (_, i) =>
      call(traders[i % traders.length]!, factory, GAS.buy, buyData(small.instance, amount(i + 1))),
    );
    const transfers = Array.from({ length: shape.recipients }, (_, i) =>
      call(
        distributor,
        big.instance,
        GAS.transfer,
        erc20('transfer', [randomAddress(), 10n ** 12n * BigInt(1 + ((i * 131) % 1000))]),
      ),
    );
    const history = interleave([bigBuys, smallBuys]);
    const busyBlocks = Math.ceil(history.length / shape.txsPerBlock);
    const mined = Math.max(1, Math.floor(shape.blocks / busyBlocks));
    let lastReport = Date.now();
    const report = (done: number) => {
      if (Date.now() - lastReport < 10_000) return;
      lastReport = Date.now();
      progress(`  chain: ${done} of ${history.length + transfers.length} transactions mined`);
    };
    for (let i = 0; i < history.length; i += shape.txsPerBlock) {
      await sendAll(rpc, history.slice(i, i + shape.txsPerBlock), nonces);
      await rpc.call('anvil_mine', [toHex(mined)]);
      report(i);
    }
    // The distribution last, in full blocks: anvil's cost per block grows with the state (it
    // rebuilds the trie), and 10,000 new balances would slow every block after them.
    for (let i = 0; i < transfers.length; i += DISTRIBUTION_PER_BLOCK) {
      await sendAll(rpc, transfers.slice(i, i + DISTRIBUTION_PER_BLOCK), nonces);
      await rpc.call('evm_mine');
      report(history.length + i);
    }
    // Anything a nonce gap held back would still be pending: there must be none.
    const pending = await rpc.call<{ pending: Record<string, unknown> }>('txpool_content');
    if (Object.keys(pending.pending).length > 0) throw new Error('transactions left pending');
    await rpc.call('evm_setAutomine', [true]);

    const head = Number(await reader.getBlockNumber());
    // In ranges: viem refuses a response above 10 MB, which the whole history's logs exceed.
    const factoryLogs: Log[] = [];
    const tokenLogs: Log[] = [];
    for (let from = 0; from <= head; from += COUNT_RANGE) {
      const span = {
        fromBlock: BigInt(from),
        toBlock: BigInt(Math.min(head, from + COUNT_RANGE - 1)),
      };
      factoryLogs.push(...(await reader.getLogs({ address: factory, ...span })));
      tokenLogs.push(
        ...(await reader.getLogs({ address: [big.instance, small.instance], ...span })),
      );
    }
    const transferCount = (instance: Address) =>
      tokenLogs.filter((log) => log.address.toLowerCase() === instance.toLowerCase()).length;
    const counts: LogCounts = {
      factory: factoryLogs.length,
      transfers: { big: transferCount(big.instance), small: transferCount(small.instance) },
      launches: 2,
      trades: factoryLogs.length - 4,
      total: factoryLogs.length + tokenLogs.length,
    };
    // Per token: its mint, one Transfer per buy, the distribution; the factory: Launched and
    // CurveCreated per token, one Trade per buy.
    const expectedTrades = shape.bigBuys + shape.smallBuys + 1;
    const expected = {
      big: 1 + shape.bigBuys + 1 + shape.recipients,
      small: 1 + shape.smallBuys,
    };
    if (
      counts.trades !== expectedTrades ||
      counts.transfers.big !== expected.big ||
      counts.transfers.small !== expected.small
    ) {
      throw new Error(
        `chain history incomplete (a transaction reverted?): ${counts.trades} trades of ` +
          `${expectedTrades}, transfers ${counts.transfers.big}/${expected.big} (big) and ` +
          `${counts.transfers.small}/${expected.small} (small)`,
      );
    }
    const blocksWithLogs = new Set([...factoryLogs, ...tokenLogs].map((log) => log.blockNumber))
      .size;
    const logsCarryTimestamps =
      typeof (factoryLogs[0] as { blockTimestamp?: unknown } | undefined)?.blockTimestamp ===
      'bigint';
    const tokens: BenchToken[] = [
      {
        ...big,
        holders: shape.traders + shape.recipients,
        buys: shape.bigBuys + 1,
        transfers: shape.recipients,
      },
      { ...small, holders: shape.traders, buys: shape.smallBuys, transfers: 0 },
    ];
    return {
      url,
      factory,
      tokens,
      head,
      counts,
      blocksWithLogs,
      logsCarryTimestamps,
      generationMs: Date.now() - started,
      stop: () => stopAnvil(child),
    };
  } catch (error) {
    await stopAnvil(child);
    throw error;
  }
}

/** What the chain says a token's holders hold: its supply outside the curve. */
export async function heldOnChain(url: string, factory: Address, instance: Address) {
  const reader = createPublicClient({ transport: http(url), cacheTime: 0 });
  const [supply, curve] = await Promise.all([
    reader.readContract({ address: instance, abi: ERC20_ABI, functionName: 'totalSupply' }),
    reader.readContract({
      address: instance,
      abi: ERC20_ABI,
      functionName: 'balanceOf',
      args: [factory],
    }),
  ]);
  return supply - curve;
}
