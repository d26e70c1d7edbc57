import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  getAddress,
  http,
  keccak256,
  parseEther,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { compileContracts, type CompiledContract } from '../../scripts/contracts';
import { launchCalldata, refOf } from '../../shared/chain/launchpad';
import { startTestChain } from '../helpers/chain';

/**
 * The `dpnm` reference contracts on a real EVM (anvil): launch (also from the service's own
 * calldata), buy and sell at the pool price, the daily and income limits, the tree's
 * breadth-first placement, the 10-level fee walk (USDT to active uplines, GWT to lapsed ones,
 * the rest to the pool), activation expiry and extension, GWT claims and redemptions; every
 * revert reason and every event with its arguments. Expected amounts follow the formulas of
 * docs/chain.md "dpnm".
 *
 * These tests move the chain's clock by weeks, which would expire the short deadlines of other
 * test files sharing the run's anvil, so they run on an anvil of their own (startTestChain).
 */

const E = (whole: string) => parseEther(whole);
const DAY = 86_400n;
const PERIOD = 30n * DAY;
const EIP170_MAX_RUNTIME = 24_576;
const EIP3860_MAX_INITCODE = 49_152;
const UNLIMITED = 2n ** 256n - 1n;
const PARAMS = {
  initialPrice: E('1'),
  dailyLimitFloor: E('1000'),
  incomeLimitMultiplierBps: 20_000,
  treeActivationCost: E('10'),
};
type Params = typeof PARAMS;

// The documented formulas (docs/chain.md "dpnm"), rounding down as the contract does.
const feeOf = (amount: bigint) => (amount * 1000n) / 10_000n;
const tokensFor = (usdtIn: bigint, price: bigint) => ((usdtIn - feeOf(usdtIn)) * E('1')) / price;
const grossFor = (tokensIn: bigint, price: bigint) => (tokensIn * price) / E('1');
const priceOf = (pool: bigint, supply: bigint) => (pool * E('1')) / supply;

let ownChain: Awaited<ReturnType<typeof startTestChain>> | undefined;
let chain: ReturnType<typeof createPublicClient>;
let anvil: ReturnType<typeof createTestClient>;
let rpcUrl: string;
let compiled: Record<string, CompiledContract>;
let usdt: Address;
let factory: Address;

interface Event {
  address: Address;
  eventName: string;
  args: Record<string, unknown>;
}

interface Launch {
  creator: PrivateKeyAccount;
  protocol: Address;
  token: Address;
  gwt: Address;
  tree: Address;
  timestamp: bigint;
  events: Event[];
}

function walletOf(account: PrivateKeyAccount) {
  return createWalletClient({ account, chain: foundry, transport: http(rpcUrl) });
}

async function funded(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvil.setBalance({ address: account.address, value: E('100') });
  return account;
}

async function deploy(account: PrivateKeyAccount, name: string, args: unknown[]): Promise<Address> {
  const { abi, bytecode } = compiled[name]!;
  const hash = await walletOf(account).deployContract({ abi, bytecode, args });
  return (await chain.waitForTransactionReceipt({ hash })).contractAddress!;
}

/** The receipt's logs, decoded by whichever of the reference ABIs knows them. */
function decodeLogs(
  logs: readonly { address: Address; data: Hex; topics: [Hex, ...Hex[]] | [] }[],
) {
  const abis = ['DpnmProtocol', 'DpnmFactory', 'DpnmToken'].map((name) => compiled[name]!.abi);
  return logs.flatMap((log): Event[] => {
    for (const abi of abis) {
      try {
        const { eventName, args } = decodeEventLog({ abi, data: log.data, topics: log.topics });
        return [{ address: getAddress(log.address), eventName: eventName!, args: args as never }];
      } catch {
        // another ABI's event
      }
    }
    return [];
  });
}

/**
 * Sends a call with a fixed gas limit (no estimate, which runs against the previous block's
 * time and may take another branch) and returns its events and the block time it ran at.
 */
async function send(
  account: PrivateKeyAccount,
  address: Address,
  name: string,
  functionName: string,
  args: unknown[],
  expected: 'success' | 'reverted' = 'success',
): Promise<{ events: Event[]; timestamp: bigint }> {
  const hash = await walletOf(account).writeContract({
    address,
    abi: compiled[name]!.abi,
    functionName,
    args,
    gas: 5_000_000n,
  });
  const receipt = await chain.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe(expected);
  const { timestamp } = await chain.getBlock({ blockNumber: receipt.blockNumber });
  return { events: decodeLogs(receipt.logs), timestamp };
}

/** The revert reason of a call that must fail. */
async function revertOf(
  account: PrivateKeyAccount | Address,
  address: Address,
  name: string,
  functionName: string,
  args: unknown[] = [],
): Promise<string | undefined> {
  const { abi } = compiled[name]!;
  const error = await chain.simulateContract({ account, address, abi, functionName, args }).then(
    () => null,
    (e: Error) => e,
  );
  expect(error).not.toBeNull();
  return /reverted with the following reason:\s*(.+)/.exec(error!.message)?.[1]?.trim();
}

function read<T>(
  address: Address,
  name: string,
  functionName: string,
  args: unknown[] = [],
): Promise<T> {
  return chain.readContract({
    address,
    abi: compiled[name]!.abi,
    functionName,
    args,
  }) as Promise<T>;
}

async function now(): Promise<bigint> {
  return (await chain.getBlock()).timestamp;
}

async function deadline(): Promise<bigint> {
  return (await now()) + 3600n;
}

async function warp(seconds: bigint): Promise<void> {
  await anvil.increaseTime({ seconds: Number(seconds) });
  await anvil.mine({ blocks: 1 });
}

/** The next transaction's block time, exactly. */
async function atTime(timestamp: bigint): Promise<void> {
  await anvil.setNextBlockTimestamp({ timestamp });
}

async function launch(overrides: Partial<Params> = {}): Promise<Launch> {
  const params = { ...PARAMS, ...overrides };
  const creator = await funded();
  const { events, timestamp } = await send(creator, factory, 'DpnmFactory', 'launch', [
    refOf(crypto.randomUUID()),
    'Phenomenal',
    'PNM',
    params.initialPrice,
    params.dailyLimitFloor,
    params.incomeLimitMultiplierBps,
    params.treeActivationCost,
  ]);
  const launched = events.find((event) => event.eventName === 'DpnmLaunched')!.args as {
    instance: Address;
    protocol: Address;
    tree: Address;
    gwt: Address;
  };
  const l = { creator, ...launched, token: launched.instance, timestamp, events };
  await fund(l, creator);
  return l;
}

/** Gives `account` USDT and approves the launch's protocol for it. */
async function fund(
  l: Pick<Launch, 'protocol'>,
  account: PrivateKeyAccount,
  amount = E('1000000'),
) {
  await send(account, usdt, 'TestToken', 'mint', [account.address, amount]);
  await send(account, usdt, 'TestToken', 'approve', [l.protocol, UNLIMITED]);
}

async function trader(l: Launch): Promise<PrivateKeyAccount> {
  const account = await funded();
  await fund(l, account);
  return account;
}

/** A new member activated under `referrer` (zero: the creator). */
async function member(l: Launch, referrer: Address = zeroAddress): Promise<PrivateKeyAccount> {
  const account = await trader(l);
  await send(account, l.protocol, 'DpnmProtocol', 'activate', [referrer]);
  return account;
}

function buy(l: Launch, account: PrivateKeyAccount, usdtIn: bigint, amountOutMin = 0n) {
  return deadline().then((until) =>
    send(account, l.protocol, 'DpnmProtocol', 'buy', [usdtIn, amountOutMin, until]),
  );
}

function sell(l: Launch, account: PrivateKeyAccount, tokensIn: bigint, amountOutMin = 0n) {
  return deadline().then((until) =>
    send(account, l.protocol, 'DpnmProtocol', 'sell', [tokensIn, amountOutMin, until]),
  );
}

const protocolRead = <T>(l: Launch, functionName: string, args: unknown[] = []) =>
  read<T>(l.protocol, 'DpnmProtocol', functionName, args);

/** `contract.Event` for each event, naming the launch's contracts. */
function names(l: Launch, events: Event[]): string[] {
  const labels: Record<string, string> = {
    [getAddress(usdt)]: 'USDT',
    [l.token]: 'token',
    [l.gwt]: 'GWT',
    [l.protocol]: 'protocol',
    [getAddress(factory)]: 'factory',
  };
  return events.map((event) => `${labels[event.address] ?? event.address}.${event.eventName}`);
}

/** The pool is exactly the protocol's USDT: every payout left it, everything else stayed. */
async function expectPoolBacked(l: Launch): Promise<bigint> {
  const pool = await protocolRead<bigint>(l, 'poolUsdt');
  expect(await read<bigint>(usdt, 'TestToken', 'balanceOf', [l.protocol])).toBe(pool);
  return pool;
}

async function poolUpdatedNow(l: Launch) {
  const [poolUsdt, totalSupply, price, lifetimeFeesUsdt] = await Promise.all([
    protocolRead<bigint>(l, 'poolUsdt'),
    read<bigint>(l.token, 'DpnmToken', 'totalSupply'),
    protocolRead<bigint>(l, 'price'),
    protocolRead<bigint>(l, 'lifetimeFeesUsdt'),
  ]);
  return { poolUsdt, totalSupply, price, lifetimeFeesUsdt };
}

const usdtOf = (who: PrivateKeyAccount) =>
  read<bigint>(usdt, 'TestToken', 'balanceOf', [who.address]);

beforeAll(async () => {
  ownChain = await startTestChain();
  rpcUrl = ownChain.url;
  // Anvil mines at once: a receipt is there on the first poll or the next, 50 ms later.
  chain = createPublicClient({ chain: foundry, transport: http(rpcUrl), pollingInterval: 50 });
  anvil = createTestClient({ chain: foundry, mode: 'anvil', transport: http(rpcUrl) });
  compiled = compileContracts();
  const deployer = await funded();
  usdt = await deploy(deployer, 'TestToken', ['Test USDT', 'USDT']);
  factory = await deploy(deployer, 'DpnmFactory', [usdt]);
}, 60_000);

afterAll(async () => ownChain?.stop());

describe('DpnmFactory', () => {
  it("launches from the service's launchCalldata sent as a raw transaction", async () => {
    const creator = await funded();
    const tokenId = crypto.randomUUID();
    const data = launchCalldata('dpnm', tokenId, 'Phenomenal', 'PNM', {
      initialPrice: '0.5',
      dailyLimitFloor: '250',
      incomeLimitMultiplier: 2.5,
      treeActivationCost: '10',
    });
    // What `launch` returns is the instance the events name.
    const { data: returned } = await chain.call({ account: creator, to: factory, data });
    const hash = await walletOf(creator).sendTransaction({ to: factory, data });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const { timestamp } = await chain.getBlock({ blockNumber: receipt.blockNumber });
    const events = decodeLogs(receipt.logs);
    const launched = events.find((event) => event.eventName === 'DpnmLaunched')!;
    const { instance, protocol, tree, gwt } = launched.args as Record<string, Address>;
    expect(returned).toBe(encodeAbiParameters([{ type: 'address' }], [instance!]));
    const l: Launch = {
      creator,
      protocol: protocol!,
      token: instance!,
      gwt: gwt!,
      tree: tree!,
      timestamp,
      events,
    };

    expect(names(l, events)).toEqual([
      'protocol.Activated',
      'factory.Launched',
      'factory.DpnmLaunched',
    ]);
    expect(events[0]!.args).toEqual({
      user: creator.address,
      referrer: zeroAddress,
      parent: zeroAddress,
      slot: 0,
      activeUntil: timestamp + PERIOD,
    });
    expect(events[1]!.args).toEqual({
      ref: refOf(tokenId),
      instance,
      creator: creator.address,
    });
    expect(events[2]!.args).toEqual({
      instance,
      protocol,
      tree,
      gwt,
      initialPrice: E('0.5'),
      dailyLimitFloor: E('250'),
      incomeLimitMultiplierBps: 25_000,
      treeActivationCost: E('10'),
    });
    // Four distinct contracts, as the getters say.
    expect(new Set([instance, protocol, tree, gwt]).size).toBe(4);
    expect(await read<Address>(factory, 'DpnmFactory', 'protocolOf', [instance])).toBe(protocol);
    expect(await read<Address>(factory, 'DpnmFactory', 'protocolOf', [protocol])).toBe(zeroAddress);
    expect(await read<Address>(factory, 'DpnmFactory', 'usdt')).toBe(getAddress(usdt));
    const getters = {
      token: instance,
      gwt,
      tree,
      usdt: getAddress(usdt),
      creator: creator.address,
      initialPrice: E('0.5'),
      dailyLimitFloor: E('250'),
      incomeLimitMultiplierBps: 25_000,
      treeActivationCost: E('10'),
      FEE_BPS: 1000n,
      LEVELS: 10,
      ACTIVATION_PERIOD: PERIOD,
      DAY,
      poolUsdt: 0n,
      lifetimeFeesUsdt: 0n,
      lifetimeGwtMinted: 0n,
      price: E('0.5'),
      dailyLimit: E('250'),
    };
    for (const [name, value] of Object.entries(getters)) {
      expect({ name, value: await protocolRead(l, name) }).toEqual({ name, value });
    }
    expect(await protocolRead(l, 'activeUntil', [creator.address])).toBe(timestamp + PERIOD);
    expect(await protocolRead(l, 'dailyLimitRemaining', [creator.address])).toBe(E('250'));

    const token = async (address: Address, name: string) =>
      read<unknown>(address, 'DpnmToken', name);
    expect(await token(instance!, 'name')).toBe('Phenomenal');
    expect(await token(instance!, 'symbol')).toBe('PNM');
    expect(await token(instance!, 'decimals')).toBe(18);
    expect(await token(instance!, 'totalSupply')).toBe(0n);
    expect(await token(instance!, 'ref')).toBe(refOf(tokenId));
    expect(await token(instance!, 'protocol')).toBe(protocol);
    expect(await token(gwt!, 'name')).toBe('Phenomenal GWT');
    expect(await token(gwt!, 'symbol')).toBe('GWT');
    expect(await token(gwt!, 'protocol')).toBe(protocol);

    expect(await read(tree!, 'PhenomenalTree', 'root')).toBe(creator.address);
    expect(await read(tree!, 'PhenomenalTree', 'protocol')).toBe(protocol);
    expect(await read(tree!, 'PhenomenalTree', 'WIDTH')).toBe(3);
    expect(await read(tree!, 'PhenomenalTree', 'isPlaced', [creator.address])).toBe(true);
    expect(await read(tree!, 'PhenomenalTree', 'parentOf', [creator.address])).toBe(zeroAddress);
  });

  it('refuses a zero initial price, income multiplier or activation cost; a zero floor is fine', async () => {
    const creator = await funded();
    const args = (params: Params) => [
      refOf(crypto.randomUUID()),
      'X',
      'XXX',
      params.initialPrice,
      params.dailyLimitFloor,
      params.incomeLimitMultiplierBps,
      params.treeActivationCost,
    ];
    const refused = (overrides: Partial<Params>) =>
      revertOf(creator, factory, 'DpnmFactory', 'launch', args({ ...PARAMS, ...overrides }));
    expect(await refused({ initialPrice: 0n })).toBe('initialPrice');
    expect(await refused({ incomeLimitMultiplierBps: 0 })).toBe('incomeLimitMultiplierBps');
    expect(await refused({ treeActivationCost: 0n })).toBe('treeActivationCost');
    await send(creator, factory, 'DpnmFactory', 'launch', args({ ...PARAMS, dailyLimitFloor: 0n }));
  });

  it('deploys runtimes within EIP-170 (and the factory initcode within EIP-3860)', async () => {
    const l = await launch();
    const sizes: Record<string, number> = {};
    for (const [name, address] of Object.entries({
      DpnmFactory: factory,
      DpnmProtocol: l.protocol,
      DpnmToken: l.token,
      GWT: l.gwt,
      PhenomenalTree: l.tree,
      TestToken: usdt,
    })) {
      const code = await chain.getCode({ address });
      sizes[name] = (code!.length - 2) / 2;
    }
    for (const [name, size] of Object.entries(sizes)) {
      expect({ name, size, fits: size > 0 && size <= EIP170_MAX_RUNTIME }).toEqual({
        name,
        size,
        fits: true,
      });
    }
    expect((compiled.DpnmFactory!.bytecode.length - 2) / 2).toBeLessThanOrEqual(
      EIP3860_MAX_INITCODE,
    );
  });
});

describe('DpnmToken and PhenomenalTree', () => {
  it('take writes from their protocol only', async () => {
    const l = await launch();
    const stranger = await funded();
    for (const address of [l.token, l.gwt]) {
      expect(await revertOf(stranger, address, 'DpnmToken', 'mint', [stranger.address, 1n])).toBe(
        'protocol',
      );
      expect(await revertOf(l.creator, address, 'DpnmToken', 'burn', [l.creator.address, 0n])).toBe(
        'protocol',
      );
    }
    expect(
      await revertOf(l.creator, l.tree, 'PhenomenalTree', 'place', [
        stranger.address,
        l.creator.address,
      ]),
    ).toBe('protocol');
  });
});

describe('DpnmProtocol trading', () => {
  it('buys at the pool price: the fee goes to the pool when the trader has no upline', async () => {
    const l = await launch();
    const alice = await trader(l);
    const usdtIn = E('100');
    const past = (await now()) - 1n;
    const refuse = async (args: unknown[], who = alice) =>
      revertOf(who, l.protocol, 'DpnmProtocol', 'buy', args);
    expect(await refuse([usdtIn, 0n, past])).toBe('deadline');
    expect(await refuse([0n, 0n, await deadline()])).toBe('amount');
    expect(await refuse([usdtIn, E('90') + 1n, await deadline()])).toBe('slippage');
    expect(await refuse([PARAMS.dailyLimitFloor + 1n, 0n, await deadline()])).toBe('daily limit');
    const unapproved = await funded();
    await send(unapproved, usdt, 'TestToken', 'mint', [unapproved.address, usdtIn]);
    expect(await refuse([usdtIn, 0n, await deadline()], unapproved)).toBe('allowance');
    const { result } = await chain.simulateContract({
      account: alice,
      address: l.protocol,
      abi: compiled.DpnmProtocol!.abi,
      functionName: 'buy',
      args: [usdtIn, 0n, await deadline()],
    });
    expect(result).toBe(E('90'));

    // 100 in: 10 fee, 90 net at 1 USDT a token, and with no upline the fee stays in the pool.
    const before = await usdtOf(alice);
    const { events, timestamp } = await buy(l, alice, usdtIn, E('90'));
    expect(names(l, events)).toEqual([
      'USDT.Transfer',
      'token.Transfer',
      'protocol.Bought',
      'protocol.PoolUpdated',
    ]);
    expect(events[0]!.args).toEqual({ from: alice.address, to: l.protocol, value: usdtIn });
    expect(events[1]!.args).toEqual({ from: zeroAddress, to: alice.address, value: E('90') });
    expect(events[2]!.args).toEqual({
      trader: alice.address,
      usdtIn,
      tokensOut: E('90'),
      feeUsdt: E('10'),
      price: E('1'),
      dailyWindowStart: timestamp,
      dailyDeposited: usdtIn,
      incomeLimit: E('200'),
    });
    const priceAfter = priceOf(E('100'), E('90'));
    expect(priceAfter).toBe(1111111111111111111n);
    expect(events[3]!.args).toEqual({
      poolUsdt: E('100'),
      totalSupply: E('90'),
      price: priceAfter,
      lifetimeFeesUsdt: E('10'),
    });
    expect(events[3]!.args).toEqual(await poolUpdatedNow(l));
    expect(await expectPoolBacked(l)).toBe(E('100'));
    expect(before - (await usdtOf(alice))).toBe(usdtIn);
    expect(await read(l.token, 'DpnmToken', 'balanceOf', [alice.address])).toBe(E('90'));
    expect(await protocolRead(l, 'incomeLimit', [alice.address])).toBe(E('200'));
    expect(await protocolRead(l, 'dailyDeposited', [alice.address])).toBe(usdtIn);
    expect(await protocolRead(l, 'dailyWindowStart', [alice.address])).toBe(timestamp);

    // The next buy executes at the new price, rounded down.
    const second = await buy(l, alice, E('50'));
    const bought = second.events.find((event) => event.eventName === 'Bought')!;
    expect(bought.args).toMatchObject({
      tokensOut: tokensFor(E('50'), priceAfter),
      price: priceAfter,
      dailyWindowStart: timestamp,
      dailyDeposited: E('150'),
      incomeLimit: E('300'),
    });
    expect(tokensFor(E('50'), priceAfter)).toBe(40500000000000000004n);
    await expectPoolBacked(l);
  });

  it('sells at the pool price less the fee, within the income limit', async () => {
    const l = await launch();
    const alice = await trader(l);
    await buy(l, alice, E('100'));
    const price = 1111111111111111111n;
    const tokensIn = E('45');
    const gross = grossFor(tokensIn, price);
    const fee = feeOf(gross);
    const usdtOut = gross - fee;
    expect([gross, fee, usdtOut]).toEqual([
      49999999999999999995n,
      4999999999999999999n,
      44999999999999999996n,
    ]);
    const refuse = async (args: unknown[]) =>
      revertOf(alice, l.protocol, 'DpnmProtocol', 'sell', args);
    expect(await refuse([tokensIn, 0n, (await now()) - 1n])).toBe('deadline');
    expect(await refuse([0n, 0n, await deadline()])).toBe('amount');
    expect(await refuse([tokensIn, usdtOut + 1n, await deadline()])).toBe('slippage');
    // More than she holds, yet within her income limit: the token refuses the burn.
    expect(await refuse([E('90') + 1n, 0n, await deadline()])).toBe('balance');

    const before = await usdtOf(alice);
    const { events } = await sell(l, alice, tokensIn, usdtOut);
    expect(names(l, events)).toEqual([
      'token.Transfer',
      'USDT.Transfer',
      'protocol.Sold',
      'protocol.PoolUpdated',
    ]);
    expect(events[0]!.args).toEqual({ from: alice.address, to: zeroAddress, value: tokensIn });
    expect(events[1]!.args).toEqual({ from: l.protocol, to: alice.address, value: usdtOut });
    expect(events[2]!.args).toEqual({
      trader: alice.address,
      tokensIn,
      usdtOut,
      feeUsdt: fee,
      price,
      incomeLimit: E('200') - usdtOut,
      lifetimeIncome: usdtOut,
    });
    // The gross leaves the pool; with no upline the whole fee comes back to it.
    const pool = E('100') - gross + fee;
    expect(events[3]!.args).toEqual({
      poolUsdt: pool,
      totalSupply: E('45'),
      price: priceOf(pool, E('45')),
      lifetimeFeesUsdt: E('10') + fee,
    });
    expect(events[3]!.args).toEqual(await poolUpdatedNow(l));
    expect((await usdtOf(alice)) - before).toBe(usdtOut);
    expect(await expectPoolBacked(l)).toBe(pool);
    expect(await protocolRead(l, 'lifetimeIncome', [alice.address])).toBe(usdtOut);
    expect(await protocolRead(l, 'incomeLimit', [alice.address])).toBe(E('200') - usdtOut);

    // Selling the whole supply empties the pool but for the fee; the price starts over.
    const rest = await sell(l, alice, E('45'));
    const updated = rest.events.at(-1)!.args as { totalSupply: bigint; price: bigint };
    expect(updated.totalSupply).toBe(0n);
    expect(updated.price).toBe(PARAMS.initialPrice);
    await expectPoolBacked(l);
  });

  it('caps buys per trader per 24 h window at max(floor, 1 % of the pool)', async () => {
    const l = await launch({ dailyLimitFloor: E('100') });
    const alice = await trader(l);
    const bob = await trader(l);
    const first = await buy(l, alice, E('60'));
    const start = first.timestamp;
    expect(first.events.find((e) => e.eventName === 'Bought')!.args).toMatchObject({
      dailyWindowStart: start,
      dailyDeposited: E('60'),
    });
    // The pool (100 USDT after the buy) is far below 100 × the floor: the floor rules.
    expect(await protocolRead(l, 'dailyLimit')).toBe(E('100'));
    expect(await protocolRead(l, 'dailyLimitRemaining', [alice.address])).toBe(E('40'));
    const refused = async (amount: bigint, who = alice) =>
      revertOf(who, l.protocol, 'DpnmProtocol', 'buy', [amount, 0n, await deadline()]);
    expect(await refused(E('40') + 1n)).toBe('daily limit');
    const filled = await buy(l, alice, E('40'));
    expect(filled.events.find((e) => e.eventName === 'Bought')!.args).toMatchObject({
      dailyWindowStart: start,
      dailyDeposited: E('100'),
    });
    expect(await protocolRead(l, 'dailyLimitRemaining', [alice.address])).toBe(0n);
    expect(await refused(1n)).toBe('daily limit');
    // Each trader has a window of their own.
    expect(await protocolRead(l, 'dailyLimitRemaining', [bob.address])).toBe(E('100'));

    await warp(DAY - 3600n);
    expect(await refused(1n)).toBe('daily limit');
    // One second short of 24 h the window still holds; at 24 h a new one opens.
    await atTime(start + DAY - 1n);
    await send(alice, l.protocol, 'DpnmProtocol', 'buy', [1n, 0n, start + DAY + 3600n], 'reverted');
    await atTime(start + DAY);
    const next = await buy(l, alice, E('70'));
    expect(next.timestamp).toBe(start + DAY);
    expect(next.events.find((e) => e.eventName === 'Bought')!.args).toMatchObject({
      dailyWindowStart: start + DAY,
      dailyDeposited: E('70'),
    });
    expect(await protocolRead(l, 'dailyLimitRemaining', [alice.address])).toBe(E('30'));
    // Once the window has passed, the view shows the whole limit again.
    await warp(DAY);
    expect(await protocolRead(l, 'dailyLimitRemaining', [alice.address])).toBe(E('100'));
  });

  it('raises the daily limit above the floor as the pool grows; a zero floor needs a pool', async () => {
    const l = await launch({ dailyLimitFloor: E('10'), treeActivationCost: E('500') });
    for (let i = 0; i < 3; i++) await member(l);
    // Three activations put 1500 USDT in the pool: 1 % of it is 15, above the floor of 10.
    expect(await protocolRead(l, 'poolUsdt')).toBe(E('1500'));
    expect(await protocolRead(l, 'dailyLimit')).toBe(E('15'));
    const alice = await trader(l);
    expect(await protocolRead(l, 'dailyLimitRemaining', [alice.address])).toBe(E('15'));
    expect(
      await revertOf(alice, l.protocol, 'DpnmProtocol', 'buy', [
        E('15') + 1n,
        0n,
        await deadline(),
      ]),
    ).toBe('daily limit');
    await buy(l, alice, E('15'));
    // 1515 in the pool now (no upline: the fee stayed), so the limit is 15.15.
    expect(await protocolRead(l, 'dailyLimit')).toBe(E('15.15'));
    expect(await protocolRead(l, 'dailyLimitRemaining', [alice.address])).toBe(E('0.15'));

    const dry = await launch({ dailyLimitFloor: 0n });
    const bob = await trader(dry);
    expect(await protocolRead(dry, 'dailyLimit')).toBe(0n);
    expect(
      await revertOf(bob, dry.protocol, 'DpnmProtocol', 'buy', [1n, 0n, await deadline()]),
    ).toBe('daily limit');
  });

  it('refuses sells beyond the income limit until GWT buys more of it', async () => {
    // An income limit of half of what is bought.
    const l = await launch({ incomeLimitMultiplierBps: 5000 });
    const root = l.creator;
    await buy(l, root, E('100'));
    expect(await protocolRead(l, 'incomeLimit', [root.address])).toBe(E('50'));
    const price = 1111111111111111111n;
    const refused = async (tokensIn: bigint) =>
      revertOf(root, l.protocol, 'DpnmProtocol', 'sell', [tokensIn, 0n, await deadline()]);
    // All 90 tokens would pay out about 90 USDT, past the 50 of headroom.
    expect(grossFor(E('90'), price) - feeOf(grossFor(E('90'), price))).toBeGreaterThan(E('50'));
    expect(await refused(E('90'))).toBe('income limit');
    await sell(l, root, E('45'));
    const left = E('50') - (grossFor(E('45'), price) - feeOf(grossFor(E('45'), price)));
    expect(await protocolRead(l, 'incomeLimit', [root.address])).toBe(left);
    const price2 = await protocolRead<bigint>(l, 'price');
    const out10 = grossFor(E('10'), price2) - feeOf(grossFor(E('10'), price2));
    expect(out10).toBeGreaterThan(left);
    expect(await refused(E('10'))).toBe('income limit');

    // The root's activation lapses; a downline's buy accrues GWT to it instead of USDT.
    expect(await revertOf(root, l.protocol, 'DpnmProtocol', 'claimGWT')).toBe('nothing to claim');
    await warp(PERIOD);
    const bob = await member(l);
    const { events } = await buy(l, bob, E('1000'));
    const accrued = events.filter((e) => e.eventName === 'GwtAccrued');
    expect(accrued.map((e) => e.args)).toEqual([
      { upline: root.address, from: bob.address, level: 1, amount: E('10'), claimable: E('10') },
    ]);
    expect(await protocolRead(l, 'claimableGwt', [root.address])).toBe(E('10'));

    const claimed = await send(root, l.protocol, 'DpnmProtocol', 'claimGWT', []);
    expect(names(l, claimed.events)).toEqual(['GWT.Transfer', 'protocol.GwtClaimed']);
    expect(claimed.events[0]!.args).toEqual({
      from: zeroAddress,
      to: root.address,
      value: E('10'),
    });
    expect(claimed.events[1]!.args).toEqual({ user: root.address, amount: E('10') });
    expect(await read(l.gwt, 'DpnmToken', 'balanceOf', [root.address])).toBe(E('10'));
    expect(await protocolRead(l, 'claimableGwt', [root.address])).toBe(0n);
    expect(await protocolRead(l, 'lifetimeGwtMinted')).toBe(E('10'));
    expect(await revertOf(root, l.protocol, 'DpnmProtocol', 'claimGWT')).toBe('nothing to claim');

    const redeem = (amount: bigint) =>
      revertOf(root, l.protocol, 'DpnmProtocol', 'buyIncomeLimitWithGWT', [amount]);
    expect(await redeem(0n)).toBe('amount');
    expect(await redeem(E('10') + 1n)).toBe('balance');
    // Just enough GWT that the sell refused above pays out exactly the income limit.
    const price3 = await protocolRead<bigint>(l, 'price');
    const outOf = (tokensIn: bigint) =>
      grossFor(tokensIn, price3) - feeOf(grossFor(tokensIn, price3));
    const out = outOf(E('10'));
    const gwtIn = out - left;
    expect(gwtIn > 0n && gwtIn < E('10')).toBe(true);
    const bought = await send(root, l.protocol, 'DpnmProtocol', 'buyIncomeLimitWithGWT', [gwtIn]);
    expect(names(l, bought.events)).toEqual(['GWT.Transfer', 'protocol.IncomeLimitBought']);
    expect(bought.events[0]!.args).toEqual({ from: root.address, to: zeroAddress, value: gwtIn });
    expect(bought.events[1]!.args).toEqual({
      user: root.address,
      gwtAmount: gwtIn,
      incomeLimit: out,
    });
    expect(await read(l.gwt, 'DpnmToken', 'totalSupply')).toBe(E('10') - gwtIn);
    expect(await read(l.gwt, 'DpnmToken', 'balanceOf', [root.address])).toBe(E('10') - gwtIn);
    // A few wei more of tokens would pay out past the limit; exactly the limit is fine.
    expect(outOf(E('10') + 10n)).toBeGreaterThan(out);
    expect(await refused(E('10') + 10n)).toBe('income limit');
    const sold = await sell(l, root, E('10'));
    expect(sold.events.find((e) => e.eventName === 'Sold')!.args).toMatchObject({
      usdtOut: out,
      incomeLimit: 0n,
    });
    expect(await refused(1n)).toBe('income limit');
    await expectPoolBacked(l);
  });
});

describe('DpnmProtocol tree', () => {
  it('activates under the referrer: Transfer, Activated, PoolUpdated', async () => {
    const l = await launch();
    const alice = await trader(l);
    const before = await usdtOf(alice);
    const { events, timestamp } = await send(alice, l.protocol, 'DpnmProtocol', 'activate', [
      zeroAddress,
    ]);
    expect(names(l, events)).toEqual([
      'USDT.Transfer',
      'protocol.Activated',
      'protocol.PoolUpdated',
    ]);
    expect(events[0]!.args).toEqual({ from: alice.address, to: l.protocol, value: E('10') });
    // Zero names the creator, and the event says so.
    expect(events[1]!.args).toEqual({
      user: alice.address,
      referrer: l.creator.address,
      parent: l.creator.address,
      slot: 0,
      activeUntil: timestamp + PERIOD,
    });
    expect(events[2]!.args).toEqual({
      poolUsdt: E('10'),
      totalSupply: 0n,
      price: PARAMS.initialPrice,
      lifetimeFeesUsdt: 0n,
    });
    expect(before - (await usdtOf(alice))).toBe(E('10'));
    expect(await protocolRead(l, 'activeUntil', [alice.address])).toBe(timestamp + PERIOD);
    expect(await read(l.tree, 'PhenomenalTree', 'isPlaced', [alice.address])).toBe(true);
    await expectPoolBacked(l);

    const refuse = (who: PrivateKeyAccount, referrer: Address) =>
      revertOf(who, l.protocol, 'DpnmProtocol', 'activate', [referrer]);
    expect(await refuse(alice, zeroAddress)).toBe('activated');
    expect(await refuse(l.creator, alice.address)).toBe('activated');
    const bob = await trader(l);
    const stranger = await funded();
    expect(await refuse(bob, stranger.address)).toBe('referrer');
    expect(await refuse(bob, bob.address)).toBe('referrer');
    expect(await refuse(stranger, alice.address)).toBe('allowance');
  });

  it('places breadth-first under the referrer, left to right, spilling over', async () => {
    const l = await launch();
    const root = l.creator.address;
    const place = async (referrer: Address = zeroAddress) => {
      const account = await trader(l);
      const { events } = await send(account, l.protocol, 'DpnmProtocol', 'activate', [referrer]);
      const activated = events.find((e) => e.eventName === 'Activated')!.args as {
        parent: Address;
        slot: number;
        referrer: Address;
      };
      return { address: account.address, ...activated };
    };
    const tree = <T>(functionName: string, who: Address) =>
      read<T>(l.tree, 'PhenomenalTree', functionName, [who]);

    const [a, b, c] = [await place(), await place(), await place()];
    expect([a, b, c].map(({ parent, slot }) => [parent, slot])).toEqual([
      [root, 0],
      [root, 1],
      [root, 2],
    ]);
    expect(await tree('childrenOf', root)).toEqual([a.address, b.address, c.address]);
    expect(await tree('fullLevelsOf', root)).toBe(1);
    // b refers x directly: x takes b's first slot.
    const x = await place(b.address);
    expect([x.parent, x.slot, x.referrer]).toEqual([b.address, 0, b.address]);
    // The root is full: the 4th referral of the root goes to the first child with room (a),
    // then a fills up, then b's remaining two slots, then c's.
    const spilled = [];
    for (let i = 0; i < 8; i++) spilled.push(await place(root));
    expect(spilled.map(({ parent, slot }) => [parent, slot])).toEqual([
      [a.address, 0],
      [a.address, 1],
      [a.address, 2],
      [b.address, 1],
      [b.address, 2],
      [c.address, 0],
      [c.address, 1],
      [c.address, 2],
    ]);
    expect(await tree('childrenOf', b.address)).toEqual([
      x.address,
      spilled[3]!.address,
      spilled[4]!.address,
    ]);
    expect(await tree('childrenOf', c.address)).toEqual(spilled.slice(5).map((s) => s.address));
    expect(await tree('fullLevelsOf', root)).toBe(2);
    expect(await tree('fullLevelsOf', a.address)).toBe(1);
    // Two levels full: the next goes under the leftmost grandchild, a's first child.
    const d = spilled[0]!.address;
    expect(await read(l.tree, 'PhenomenalTree', 'vacancyUnder', [root])).toEqual([d, 0]);
    const m = await place(root);
    expect([m.parent, m.slot]).toEqual([d, 0]);
    // a's own referral searches a's subtree only, and lands beside m.
    const n = await place(a.address);
    expect([n.parent, n.slot, n.referrer]).toEqual([d, 1, a.address]);
    // x (under b) has room itself.
    const o = await place(x.address);
    expect([o.parent, o.slot]).toEqual([x.address, 0]);
    expect(await tree('parentOf', m.address)).toBe(d);
    expect(await tree('childrenOf', d)).toEqual([m.address, n.address, zeroAddress]);
    expect(await tree('childrenOf', m.address)).toEqual([zeroAddress, zeroAddress, zeroAddress]);
    expect(await tree('isPlaced', (await funded()).address)).toBe(false);
    expect(await tree('uplinesOf', m.address)).toEqual([
      d,
      a.address,
      root,
      ...Array(7).fill(zeroAddress),
    ]);
    expect(await read(l.tree, 'PhenomenalTree', 'vacancyUnder', [root])).toEqual([d, 2]);
    await expectPoolBacked(l);
    expect(await protocolRead(l, 'poolUsdt')).toBe(E('10') * 15n);
  });

  it('counts complete levels up 10 ancestors, then refuses the root more members (tree full)', async () => {
    const l = await launch();
    const root = l.creator.address;
    const tree = <T>(functionName: string, who: Address) =>
      read<T>(l.tree, 'PhenomenalTree', functionName, [who]);
    // A line root → p1 → … → p9, one member under the other.
    const line: Address[] = [root];
    for (let i = 1; i <= 9; i++) line.push((await member(l, line.at(-1))).address);
    // Ten complete levels take 3^10 members. Instead root…p8 each get two stand-in children
    // in slots 1 and 2, written into the tree's storage with 9 complete levels below them:
    // the line alone then decides the counts. Storage: `nodes` is slot 0; a Node is
    // {parent, childCount (byte 20), fullLevels (byte 21), placed (byte 22)}, then children.
    const nodeSlot = (who: Address) =>
      BigInt(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who, 0n])));
    const slotHex = (slot: bigint) => toHex(slot, { size: 32 });
    const put = (slot: bigint, value: bigint) =>
      anvil.setStorageAt({ address: l.tree, index: slotHex(slot), value: slotHex(value) });
    for (const node of line.slice(0, 9)) {
      const base = nodeSlot(node);
      const word = BigInt((await chain.getStorageAt({ address: l.tree, slot: slotHex(base) }))!);
      await put(base, (word & ~(0xffn << 160n)) | (3n << 160n));
      for (const child of [1n, 2n]) {
        const standIn = privateKeyToAccount(generatePrivateKey()).address;
        await put(base + 1n + child, BigInt(standIn));
        await put(nodeSlot(standIn), (1n << 176n) | (9n << 168n) | BigInt(node));
      }
    }
    expect(await tree('childrenOf', line[4]!)).toHaveLength(3);
    expect(await tree('fullLevelsOf', root)).toBe(0);
    // p9's third child completes a level under p9, which completes one more at each ancestor.
    const p9 = line[9]!;
    const leaves = [await member(l, p9), await member(l, p9)];
    expect(await tree('fullLevelsOf', p9)).toBe(0);
    expect(await tree('fullLevelsOf', root)).toBe(0);
    leaves.push(await member(l, p9));
    const counts = await Promise.all(line.map((node) => tree<number>('fullLevelsOf', node)));
    expect(counts).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);

    const bob = await trader(l);
    expect(await revertOf(bob, l.protocol, 'DpnmProtocol', 'activate', [zeroAddress])).toBe(
      'tree full',
    );
    expect(await revertOf(bob, l.protocol, 'DpnmProtocol', 'activate', [root])).toBe('tree full');
    expect(await revertOf(bob, l.tree, 'PhenomenalTree', 'vacancyUnder', [root])).toBe('tree full');
    // p1 has room 10 levels down: down the line to the first of p9's children.
    expect(await read(l.tree, 'PhenomenalTree', 'vacancyUnder', [line[1]!])).toEqual([
      leaves[0]!.address,
      0,
    ]);
    const placed = await send(bob, l.protocol, 'DpnmProtocol', 'activate', [line[1]!]);
    expect(placed.events.find((e) => e.eventName === 'Activated')!.args).toMatchObject({
      user: bob.address,
      referrer: line[1],
      parent: leaves[0]!.address,
      slot: 0,
    });
    // Its 10 uplines end at p1: the referrer is always among those the fee pays.
    expect(await tree('uplinesOf', bob.address)).toEqual([
      leaves[0]!.address,
      ...line.slice(1).reverse(),
    ]);
  });

  it('extends an activation from its expiry, or from now once lapsed', async () => {
    const l = await launch();
    const alice = await member(l);
    const stranger = await trader(l);
    expect(await revertOf(stranger, l.protocol, 'DpnmProtocol', 'extendTree')).toBe(
      'not activated',
    );
    const until = await protocolRead<bigint>(l, 'activeUntil', [alice.address]);
    const pool = await protocolRead<bigint>(l, 'poolUsdt');
    const { events } = await send(alice, l.protocol, 'DpnmProtocol', 'extendTree', []);
    expect(names(l, events)).toEqual([
      'USDT.Transfer',
      'protocol.TreeExtended',
      'protocol.PoolUpdated',
    ]);
    expect(events[0]!.args).toEqual({ from: alice.address, to: l.protocol, value: E('10') });
    expect(events[1]!.args).toEqual({ user: alice.address, activeUntil: until + PERIOD });
    expect(events[2]!.args).toEqual({
      poolUsdt: pool + E('10'),
      totalSupply: 0n,
      price: PARAMS.initialPrice,
      lifetimeFeesUsdt: 0n,
    });
    // The root extends like anyone.
    const rootUntil = await protocolRead<bigint>(l, 'activeUntil', [l.creator.address]);
    const rooted = await send(l.creator, l.protocol, 'DpnmProtocol', 'extendTree', []);
    expect(rooted.events[1]!.args).toEqual({
      user: l.creator.address,
      activeUntil: rootUntil + PERIOD,
    });

    await warp(3n * PERIOD);
    const lapsed = await send(alice, l.protocol, 'DpnmProtocol', 'extendTree', []);
    expect(lapsed.events[1]!.args).toEqual({
      user: alice.address,
      activeUntil: lapsed.timestamp + PERIOD,
    });
    expect(await protocolRead(l, 'activeUntil', [alice.address])).toBe(lapsed.timestamp + PERIOD);
    expect(await expectPoolBacked(l)).toBe(pool + E('30'));
  });
});

describe('DpnmProtocol fee walk', () => {
  it('pays 1 % a level to 10 uplines: USDT while active, GWT while lapsed', async () => {
    const l = await launch();
    // A line root → u1 → … → u11 → trader; u1…u5 lapse before the trade, u6…u11 do not.
    const uplines: PrivateKeyAccount[] = [];
    const chainUnder = async (count: number) => {
      for (let i = 0; i < count; i++) {
        uplines.push(await member(l, uplines.at(-1)?.address ?? zeroAddress));
      }
    };
    await chainUnder(5);
    await warp(20n * DAY);
    await chainUnder(6);
    const trader = await member(l, uplines.at(-1)!.address);
    await warp(15n * DAY);
    // u3 lapsed too, and pays to be active again.
    const u = (n: number) => uplines[n - 1]!;
    await send(u(3), l.protocol, 'DpnmProtocol', 'extendTree', []);
    const usdtBefore = await Promise.all(uplines.map(usdtOf));

    // 1000 in: fee 100, 10 for each level. Level 1 is u11, level 10 is u2.
    const { events } = await buy(l, trader, E('1000'));
    const share = E('10');
    const expected: { level: number; who: PrivateKeyAccount; paid: boolean }[] = [];
    for (let level = 1; level <= 10; level++) {
      const n = 12 - level;
      expected.push({ level, who: u(n), paid: n >= 6 || n === 3 });
    }
    expect(names(l, events)).toEqual([
      'USDT.Transfer',
      'token.Transfer',
      ...expected.flatMap(({ paid }) =>
        paid ? ['USDT.Transfer', 'protocol.UplinePaid'] : ['protocol.GwtAccrued'],
      ),
      'protocol.Bought',
      'protocol.PoolUpdated',
    ]);
    const walk = events.filter((e) => e.eventName === 'UplinePaid' || e.eventName === 'GwtAccrued');
    expect(walk.map((e) => e.args)).toEqual(
      expected.map(({ level, who, paid }) =>
        paid
          ? {
              upline: who.address,
              from: trader.address,
              level,
              amountUsdt: share,
              lifetimeIncome: share,
            }
          : { upline: who.address, from: trader.address, level, amount: share, claimable: share },
      ),
    );
    const payouts = events.filter((e) => e.eventName === 'Transfer' && e.args.from === l.protocol);
    expect(payouts.map((e) => e.args.to)).toEqual(
      expected.filter((x) => x.paid).map((x) => x.who.address),
    );
    // u1 and the root are 11 and 12 levels up: nothing.
    const named = JSON.stringify(
      events.map((e) => e.args),
      (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
    );
    expect(named).not.toContain(u(1).address);
    expect(named).not.toContain(l.creator.address);
    const usdtAfter = await Promise.all(uplines.map(usdtOf));
    expect(usdtAfter.map((after, i) => after - usdtBefore[i]!)).toEqual(
      uplines.map((_, i) => (i + 1 >= 6 || i + 1 === 3 ? share : 0n)),
    );
    for (const { who, paid } of expected) {
      expect(await protocolRead(l, 'claimableGwt', [who.address])).toBe(paid ? 0n : share);
      expect(await protocolRead(l, 'lifetimeIncome', [who.address])).toBe(paid ? share : 0n);
    }
    // 13 activations and u3's extension, the 900 net, and the three lapsed shares.
    const pool = E('10') * 13n + E('900') + 3n * share;
    expect(events.at(-1)!.args).toEqual({
      poolUsdt: pool,
      totalSupply: E('900'),
      price: priceOf(pool, E('900')),
      lifetimeFeesUsdt: E('100'),
    });
    expect(await expectPoolBacked(l)).toBe(pool);

    // A sell walks the same uplines; the amounts add up.
    const price = priceOf(pool, E('900'));
    const gross = grossFor(E('100'), price);
    const fee = feeOf(gross);
    const sold = await sell(l, trader, E('100'));
    const walk2 = sold.events.filter(
      (e) => e.eventName === 'UplinePaid' || e.eventName === 'GwtAccrued',
    );
    expect(walk2.map((e) => e.args)).toEqual(
      expected.map(({ level, who, paid }) =>
        paid
          ? {
              upline: who.address,
              from: trader.address,
              level,
              amountUsdt: fee / 10n,
              lifetimeIncome: share + fee / 10n,
            }
          : {
              upline: who.address,
              from: trader.address,
              level,
              amount: fee / 10n,
              claimable: share + fee / 10n,
            },
      ),
    );
    expect(sold.events.at(-1)!.args).toMatchObject({
      poolUsdt: pool - gross + fee - 7n * (fee / 10n),
      lifetimeFeesUsdt: E('100') + fee,
    });
    await expectPoolBacked(l);
  });

  it('sends missing levels and the rounding dust to the pool; a tiny fee is all dust', async () => {
    const l = await launch();
    const a = await member(l);
    const b = await member(l, a.address);
    const trader = await member(l, b.address);
    // 100 USDT and 55 wei: the fee is 10 USDT and 5 wei, 1 USDT a level and 5 wei of dust.
    const usdtIn = E('100') + 55n;
    const fee = feeOf(usdtIn);
    expect(fee).toBe(E('10') + 5n);
    const { events } = await buy(l, trader, usdtIn);
    const paid = events.filter((e) => e.eventName === 'UplinePaid').map((e) => e.args);
    expect(paid).toEqual(
      [b, a, l.creator].map((who, i) => ({
        upline: who.address,
        from: trader.address,
        level: i + 1,
        amountUsdt: E('1'),
        lifetimeIncome: E('1'),
      })),
    );
    expect(events.some((e) => e.eventName === 'GwtAccrued')).toBe(false);
    // Levels 4 to 10 have no upline: 7 shares, and the dust.
    const pool = E('30') + (usdtIn - fee) + E('7') + 5n;
    expect(events.at(-1)!.args).toMatchObject({ poolUsdt: pool, lifetimeFeesUsdt: fee });
    expect(await expectPoolBacked(l)).toBe(pool);

    // 99 wei: a 9 wei fee has no share to pay; it all stays in the pool, and nobody is named.
    const price = await protocolRead<bigint>(l, 'price');
    const tiny = await buy(l, trader, 99n);
    expect(names(l, tiny.events)).toEqual([
      'USDT.Transfer',
      'token.Transfer',
      'protocol.Bought',
      'protocol.PoolUpdated',
    ]);
    expect(tiny.events[2]!.args).toMatchObject({ feeUsdt: 9n, tokensOut: (90n * E('1')) / price });
    expect(tiny.events[3]!.args).toMatchObject({
      poolUsdt: pool + 99n,
      lifetimeFeesUsdt: fee + 9n,
    });
    await expectPoolBacked(l);
  });

  it('pays an upline until the second its activation ends, then accrues GWT', async () => {
    const l = await launch();
    const a = await member(l);
    const trader = await member(l, a.address);
    const until = await protocolRead<bigint>(l, 'activeUntil', [a.address]);
    const levelOne = (events: Event[]) =>
      events.find(
        (e) => (e.eventName === 'UplinePaid' || e.eventName === 'GwtAccrued') && e.args.level === 1,
      )!;
    // Deadlines past the warped block times.
    const buyAt = async (timestamp: bigint) => {
      await atTime(timestamp);
      return send(trader, l.protocol, 'DpnmProtocol', 'buy', [E('100'), 0n, timestamp + 3600n]);
    };
    const before = await buyAt(until - 1n);
    expect(levelOne(before.events)).toMatchObject({
      eventName: 'UplinePaid',
      args: { upline: a.address, amountUsdt: E('1'), lifetimeIncome: E('1') },
    });
    const at = await buyAt(until);
    expect(levelOne(at.events)).toMatchObject({
      eventName: 'GwtAccrued',
      args: { upline: a.address, amount: E('1'), claimable: E('1') },
    });
    await expectPoolBacked(l);
  });
});
