import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import dpnmFactoryJson from '../contracts/abi/DpnmFactory.json';
import dpnmProtocolJson from '../contracts/abi/DpnmProtocol.json';
import testTokenJson from '../contracts/abi/TestToken.json';
import virtualsFactoryJson from '../contracts/abi/VirtualsFactory.json';
import { launchedEventAbi, refOf } from '../shared/chain/launchpad';

/**
 * The live market of `npm run seed`: launches the demo tokens on the local chain and trades
 * them from anvil's development accounts over `hours` of block time that end now, so the
 * board, the candles and the streams show real data from the first minute.
 *
 * Block time: the trades get the timestamps of their schedule (`evm_setNextBlockTimestamp`).
 * When the chain's head is younger than the schedule's start (a chain `npm run dev` started
 * today), the chain's clock is set back to the start first (`evm_setTime`; anvil allows it):
 * blocks mined before the seed then keep their later times, which only a development chain
 * may do. At the end the clock is set to the wall clock again, so later blocks carry real time.
 *
 * Idempotent per token: a token whose launch (its `Launched` event, by the token's ref) is on
 * the chain is neither launched nor traded again, so a second run sends nothing. A run
 * stopped midway leaves its tokens launched with the trades sent so far.
 *
 * The schedule is a fixed pseudo-random walk (the same on every chain): buys outweigh sells;
 * the rally token stops short of its graduation threshold, so the board has one about to
 * graduate.
 */

/** anvil's default mnemonic: its accounts and their keys are public development accounts. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
/** The traders: anvil accounts 1 to 9 (account 0 deploys the contracts). */
const TRADER_INDEXES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** Mean time between two trades of one token (an exponential gap, in seconds). */
const MEAN_GAP_S = 240;

const testTokenAbi = testTokenJson as Abi;
const virtualsFactoryAbi = virtualsFactoryJson as Abi;
const dpnmFactoryAbi = dpnmFactoryJson as Abi;
const dpnmProtocolAbi = dpnmProtocolJson as Abi;

/**
 * How a token trades: `steady` wanders with a slight buying bias; `rally` is bought hard until
 * 90 % of its graduation threshold is locked; `pool` (dpnm) buys within the daily limit.
 */
export type MarketStyle = 'steady' | 'rally' | 'pool';

export interface MarketToken {
  /** The token's id: its launch's `ref`, by which the indexer links it. */
  id: string;
  slug: string;
  template: 'virtuals' | 'dpnm';
  /** The anvil account (1 to 9) that launches it: the token's owner. */
  owner: number;
  /** The token's `pendingLaunchTx`, sent to `factory`. */
  launchTx: Hex;
  factory: Address;
  style: MarketStyle;
  /** virtuals: the payment tokens locked at graduation (whole units), for `rally`. */
  graduationThreshold?: string;
}

export interface MarketSeedOptions {
  rpcUrl: string;
  tokens: readonly MarketToken[];
  /** Hours of block time the trades span, ending now (default 6). */
  hours?: number;
  log?: (line: string) => void;
}

export interface SeededMarket {
  /** Slugs of the tokens this run launched (none on a second run). */
  launched: string[];
  trades: number;
  /** Unix seconds of the schedule's start and of its last trade. */
  from: number;
  to: number;
  /** The last block this run mined (null when it sent nothing). */
  lastBlock: number | null;
  /** True when the chain's clock was set back to the schedule's start. */
  rewound: boolean;
}

/** A small deterministic generator (mulberry32), so every seed trades the same walk. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Launched extends MarketToken {
  instance: Address;
  /** Where trades go: the virtuals factory, or the dpnm token's protocol. */
  market: Address;
  payment: Address;
}

interface Planned {
  at: number;
  token: Launched;
  trader: number;
  buy: boolean;
  /** In [0, 1): picks the amount within the style's range. */
  size: number;
}

/** Whole units to 18-decimal base units, rounded down to a thousandth. */
const units = (amount: number) => parseEther((Math.floor(amount * 1000) / 1000).toFixed(3));

export async function seedMarket(options: MarketSeedOptions): Promise<SeededMarket> {
  const log = options.log ?? (() => undefined);
  const hours = options.hours ?? 6;
  const transport = http(options.rpcUrl);
  const chain = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
  const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport });
  const wallets = new Map(
    TRADER_INDEXES.map((index) => [
      index,
      createWalletClient({
        account: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }),
        chain: foundry,
        transport,
      }),
    ]),
  );
  const walletOf = (index: number) => {
    const wallet = wallets.get(index);
    if (!wallet) throw new Error(`seed-market: no anvil account ${index}`);
    return wallet;
  };

  const toLaunch: MarketToken[] = [];
  for (const token of options.tokens) {
    const launches = await chain.getLogs({
      address: token.factory,
      event: launchedEventAbi[0],
      args: { ref: refOf(token.id) },
      fromBlock: 0n,
    });
    if (launches.length === 0) toLaunch.push(token);
  }
  const now = Math.floor(Date.now() / 1000);
  const start = now - Math.round(hours * 3600);
  if (toLaunch.length === 0) {
    return { launched: [], trades: 0, from: start, to: start, lastBlock: null, rewound: false };
  }

  // The clock: every transaction below is mined at a time of the schedule, strictly rising.
  const head = await chain.getBlock();
  const rewound = Number(head.timestamp) >= start;
  if (rewound) await anvilCall(options.rpcUrl, 'evm_setTime', [start]);
  let last = rewound ? start - 1 : Number(head.timestamp);
  let lastBlock: number | null = null;
  const send = async (
    at: number,
    from: number,
    call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
  ): Promise<TransactionReceipt> => {
    last = Math.max(at, last + 1);
    await anvil.setNextBlockTimestamp({ timestamp: BigInt(last) });
    const hash = await walletOf(from).writeContract({ ...call, chain: foundry });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`seed-market: ${call.functionName} reverted`);
    lastBlock = Number(receipt.blockNumber);
    return receipt;
  };
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
    chain.readContract({ address, abi, functionName, args }) as Promise<T>;

  // Launch, then fund and approve every trader.
  const launched: Launched[] = [];
  for (const token of toLaunch) {
    const wallet = walletOf(token.owner);
    last = Math.max(start, last + 1);
    await anvil.setNextBlockTimestamp({ timestamp: BigInt(last) });
    const hash = await wallet.sendTransaction({ to: token.factory, data: token.launchTx });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi: launchedEventAbi, logs: receipt.logs });
    if (receipt.status !== 'success' || !event) {
      throw new Error(`seed-market: the launch of ${token.slug} failed (${hash})`);
    }
    lastBlock = Number(receipt.blockNumber);
    const instance = event.args.instance;
    const market =
      token.template === 'virtuals'
        ? token.factory
        : await read<Address>(token.factory, dpnmFactoryAbi, 'protocolOf', [instance]);
    const payment =
      token.template === 'virtuals'
        ? await read<Address>(token.factory, virtualsFactoryAbi, 'paymentToken')
        : await read<Address>(token.factory, dpnmFactoryAbi, 'usdt');
    launched.push({ ...token, instance, market, payment });
    log(`  launched ${token.slug} at ${instance} (block ${receipt.blockNumber})`);
  }
  for (const trader of TRADER_INDEXES) {
    const address = walletOf(trader).account.address;
    for (const payment of new Set(launched.map((token) => token.payment))) {
      await send(start, trader, {
        address: payment,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [address, parseEther('100000')],
      });
    }
    for (const token of launched) {
      await send(start, trader, {
        address: token.payment,
        abi: testTokenAbi,
        functionName: 'approve',
        args: [token.market, maxUint256],
      });
      // Sells: the virtuals factory takes the tokens back by transferFrom.
      if (token.template === 'virtuals') {
        await send(start, trader, {
          address: token.instance,
          abi: testTokenAbi,
          functionName: 'approve',
          args: [token.market, maxUint256],
        });
      }
    }
  }

  // The schedule: per token, trades at exponential gaps from a few minutes after the start
  // to a minute before now, then all of them in time order.
  const next = random(31337);
  const plan: Planned[] = [];
  for (const token of launched) {
    let at = start + 300;
    for (;;) {
      at += Math.max(1, Math.round(-Math.log(1 - next()) * MEAN_GAP_S));
      if (at > now - 60) break;
      const buyBias = token.style === 'rally' ? 0.75 : 0.6;
      plan.push({
        at,
        token,
        trader: TRADER_INDEXES[Math.floor(next() * TRADER_INDEXES.length)]!,
        buy: next() < buyBias,
        size: next(),
      });
    }
  }
  plan.sort((a, b) => a.at - b.at);

  let trades = 0;
  let lastTrade = start;
  for (const trade of plan) {
    const call = await tradeCall(trade, walletOf(trade.trader).account.address, read);
    if (!call) continue;
    await send(trade.at, trade.trader, call);
    trades += 1;
    lastTrade = last;
  }
  // Later blocks carry the wall clock's time again.
  const wall = Math.floor(Date.now() / 1000);
  if (wall > last) await anvilCall(options.rpcUrl, 'evm_setTime', [wall]);
  log(
    `  ${trades} trades from ${new Date(start * 1000).toISOString()} to ${new Date(lastTrade * 1000).toISOString()}`,
  );
  return {
    launched: launched.map((token) => token.slug),
    trades,
    from: start,
    to: lastTrade,
    lastBlock,
    rewound,
  };
}

type Read = <T>(address: Address, abi: Abi, functionName: string, args?: unknown[]) => Promise<T>;

/**
 * The call a planned trade makes, sized from the chain's state (so it cannot revert), or
 * null when there is nothing to do (a sell without tokens, a buy past the rally's cap or the
 * daily limit). Deadlines are the trade's own time plus ten minutes; no slippage bound, as
 * nothing else trades between the read and the send.
 */
async function tradeCall(trade: Planned, trader: Address, read: Read) {
  const { token, size } = trade;
  const deadline = BigInt(trade.at + 600);
  if (!trade.buy) {
    const held = await read<bigint>(token.instance, testTokenAbi, 'balanceOf', [trader]);
    // Sell 10 to 40 % of what the trader holds.
    const amount = (held * BigInt(10 + Math.floor(size * 30))) / 100n;
    if (amount === 0n) return null;
    return token.template === 'virtuals'
      ? {
          address: token.market,
          abi: virtualsFactoryAbi,
          functionName: 'sell',
          args: [token.instance, amount, 0n, deadline],
        }
      : {
          address: token.market,
          abi: dpnmProtocolAbi,
          functionName: 'sell',
          args: [amount, 0n, deadline],
        };
  }
  if (token.template === 'dpnm') {
    // 1 to 6 USDT, within what the trader may still buy for today.
    const remaining = await read<bigint>(token.market, dpnmProtocolAbi, 'dailyLimitRemaining', [
      trader,
    ]);
    const amount = units(1 + size * 5);
    if (amount > remaining) return null;
    return {
      address: token.market,
      abi: dpnmProtocolAbi,
      functionName: 'buy',
      args: [amount, 0n, deadline],
    };
  }
  // virtuals: 20 to 400 payment tokens, log-uniform; a rally stops at 90 % of its threshold.
  let amount = units(20 * Math.pow(20, size));
  if (token.style === 'rally') {
    const curve = await read<readonly [bigint, bigint, bigint, bigint]>(
      token.market,
      virtualsFactoryAbi,
      'curves',
      [token.instance],
    );
    const cap = (parseEther(token.graduationThreshold ?? '0') * 9n) / 10n - curve[1];
    if (amount > cap) amount = cap;
    if (amount < parseEther('1')) return null;
  }
  return {
    address: token.market,
    abi: virtualsFactoryAbi,
    functionName: 'buy',
    args: [token.instance, amount, 0n, deadline],
  };
}

/** An anvil method viem has no action for (`evm_setTime`). */
async function anvilCall(rpcUrl: string, method: string, params: unknown[]): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`seed-market: ${method}: ${body.error.message}`);
}
