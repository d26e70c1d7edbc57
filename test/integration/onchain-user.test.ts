import { formatEther, parseEther, zeroAddress, type Address, type PrivateKeyAccount } from 'viem';
import { buildApp } from '../../api/app';
import { createKey, signIn, signInWithoutWallet, type SignedIn } from '../helpers/auth';
import { abiOf, eventually } from '../helpers/chain';
import { expectError } from '../helpers/errors';
import { useOwnChain } from '../helpers/launchpad';

/**
 * GET /me/flow-onchain and /me/tree (docs/chain.md "User state") against the protocol's own
 * views: three wallets activate in a referral chain (creator ← a ← b ← c) and trade on a dpnm
 * token; every field of both answers equals what the contracts say at the reported block,
 * through a daily window rolling over and GWT accruing and being claimed. On a chain of its
 * own: it moves the clock.
 */

const world = useOwnChain({}, 'dpnm');
const MAX_UINT = 2n ** 256n - 1n;
const DAY = 86_400;

interface UserState {
  blockNumber: number;
  tree: { subtreeByLevel: number[] };
  [field: string]: unknown;
}
interface FlowOnchain {
  address: Address | null;
  chains: UserState[];
}
interface TreeMember {
  address: Address;
  active: boolean;
  subtreeSize: number;
  directs?: (TreeMember | null)[];
}
interface Tree {
  chainId: number;
  address: Address;
  upline: Address | null;
  subtreeByLevel: number[];
  lifetimeEarnedByLevel: string[];
  directs: (TreeMember | null)[];
  blockNumber: number;
}

let usdt: Address;
let instance: Address;
let protocol: Address;
let tree: Address;
let gwt: Address;
let slug: string;
let creator: PrivateKeyAccount;
const sessions = new Map<Address, SignedIn>();

async function get(path: string, who: PrivateKeyAccount) {
  return world.app.inject({
    method: 'GET',
    url: path,
    headers: { cookie: sessions.get(who.address)!.cookie },
  });
}

/** The caller's answer once the index has reached the chain's head. */
async function atHead<T extends { blockNumber: number }>(
  path: string,
  who: PrivateKeyAccount,
  pick: (body: never) => T | undefined,
): Promise<T> {
  const head = await world.chain.reader.getBlockNumber();
  return eventually(
    async () => {
      const response = await get(path, who);
      if (response.statusCode !== 200) throw new Error(`${path}: ${response.body}`);
      const found = pick(response.json<never>());
      return found && found.blockNumber >= Number(head) ? found : undefined;
    },
    15_000,
    `${path} to reach block ${head}`,
  );
}

const stateOf = (who: PrivateKeyAccount) =>
  atHead<UserState>('/me/flow-onchain', who, (body: FlowOnchain) => body.chains[0]);

const treeOf = (who: PrivateKeyAccount, depth = 10) =>
  atHead<Tree>(`/me/tree?depth=${depth}`, who, (body: Tree) => body);

/** The contracts' answer at `at` for `who`, in the wire's shape (null for the zero address). */
async function contractState(who: Address, at: bigint) {
  const view = <T>(name: string, args: unknown[] = [], address = protocol, abi = 'DpnmProtocol') =>
    world.chain.read<T>(address, abi, name, args, at);
  const wei = async (promise: Promise<bigint>) => formatEther(await promise);
  const { timestamp } = await world.chain.reader.getBlock({ blockNumber: at });
  const activeUntil = await view<bigint>('activeUntil', [who]);
  const parent = await view<Address>('parentOf', [who], tree, 'PhenomenalTree');
  const slots = await view<Address[]>('childrenOf', [who], tree, 'PhenomenalTree');
  const byLevel = await subtreeByLevel(who, at);
  return {
    chainId: 31337,
    chainName: 'Local development chain',
    tokenSlug: slug,
    instance,
    flowProtocol: protocol,
    flowBalance: await wei(view('balanceOf', [who], instance, 'DpnmToken')),
    usdtBalance: await wei(view('balanceOf', [who], usdt, 'TestToken')),
    gwtBalance: await wei(view('balanceOf', [who], gwt, 'DpnmToken')),
    currentPrice: await wei(view('price')),
    dailyLimitTotal: await wei(view('dailyLimit')),
    dailyLimitRemaining: await wei(view('dailyLimitRemaining', [who])),
    incomeLimitRemaining: await wei(view('incomeLimit', [who])),
    lifetimeIncome: await wei(view('lifetimeIncome', [who])),
    treeActiveUntil: Number(activeUntil),
    treeActiveDaysLeft:
      activeUntil > timestamp ? Math.ceil(Number(activeUntil - timestamp) / DAY) : 0,
    claimableGWT: await wei(view('claimableGwt', [who])),
    tree: {
      upline: parent === zeroAddress ? null : parent,
      directSlots: slots.map((slot) => (slot === zeroAddress ? null : slot)),
      subtreeSize: byLevel.reduce((sum, count) => sum + count, 0),
      subtreeByLevel: byLevel,
    },
    blockNumber: Number(at),
  };
}

/** Members per level below `who`, walked through the tree's `childrenOf` at `at`. */
async function subtreeByLevel(who: Address, at: bigint): Promise<number[]> {
  const counts: number[] = [];
  let level: Address[] = [who];
  for (let depth = 0; depth < 10; depth++) {
    const children = await Promise.all(
      level.map((member) =>
        world.chain.read<Address[]>(tree, 'PhenomenalTree', 'childrenOf', [member], at),
      ),
    );
    level = children.flat().filter((child) => child !== zeroAddress);
    counts.push(level.length);
  }
  return counts;
}

async function expectContractState(who: PrivateKeyAccount): Promise<UserState> {
  const state = await stateOf(who);
  expect(state).toEqual(await contractState(who.address, BigInt(state.blockNumber)));
  return state;
}

async function member(referrer: PrivateKeyAccount | null): Promise<PrivateKeyAccount> {
  const account = await world.pad.dpnmMember(protocol, referrer);
  sessions.set(account.address, await signIn(world.app, account));
  return account;
}

const buy = async (account: PrivateKeyAccount, usdtIn: string) =>
  world.chain.send(account, protocol, 'DpnmProtocol', 'buy', [
    parseEther(usdtIn),
    0n,
    await world.chain.deadline(),
  ]);

beforeAll(async () => {
  usdt = await world.chain.read<Address>(world.factory, 'DpnmFactory', 'usdt');
  creator = await world.chain.funded();
  sessions.set(creator.address, await signIn(world.app, creator));
  const launched = await world.pad.launchDpnm(creator, 'FLOW');
  ({ slug, instance, protocol, tree, gwt } = launched);
}, 60_000);

describe('GET /me/flow-onchain and /me/tree', () => {
  let a: PrivateKeyAccount;
  let b: PrivateKeyAccount;
  let c: PrivateKeyAccount;

  it('answer what the contracts say for a referral chain that trades', async () => {
    a = await member(null);
    b = await member(a);
    c = await member(b);
    await buy(c, '100');
    await buy(b, '50');
    await buy(a, '20');
    const held = await world.chain.read<bigint>(instance, 'DpnmToken', 'balanceOf', [a.address]);
    await world.chain.send(a, protocol, 'DpnmProtocol', 'sell', [
      held / 2n,
      0n,
      await world.chain.deadline(),
    ]);

    for (const who of [creator, a, b, c]) await expectContractState(who);
    const cState = await stateOf(c);
    // c used 100 of its 1,000 window; a sold, so it has income; b earned fees from c.
    expect(cState.dailyLimitRemaining).toBe('900');
    expect((await stateOf(a)).lifetimeIncome).not.toBe('0');

    const aTree = await treeOf(a);
    const at = BigInt(aTree.blockNumber);
    const bNode = (
      await world.chain.read<Address[]>(tree, 'PhenomenalTree', 'childrenOf', [a.address], at)
    )[0]!;
    expect(bNode).toBe(b.address);
    expect(aTree).toEqual({
      chainId: 31337,
      address: a.address,
      upline: creator.address,
      subtreeByLevel: await subtreeByLevel(a.address, at),
      lifetimeEarnedByLevel: await earnedByLevel(a.address, at),
      directs: [
        {
          address: b.address,
          active: true,
          subtreeSize: 1,
          directs: [
            {
              address: c.address,
              active: true,
              subtreeSize: 0,
              directs: [null, null, null],
            },
            null,
            null,
          ],
        },
        null,
        null,
      ],
      blockNumber: Number(at),
    });
    // a earned from b's buy (level 1) and c's buy (level 2).
    expect(aTree.lifetimeEarnedByLevel.slice(0, 2).every((amount) => amount !== '0')).toBe(true);

    // Depth 1 stops at the directs: no nested slots.
    const shallow = await treeOf(a, 1);
    expect(shallow.directs[0]).toEqual({ address: b.address, active: true, subtreeSize: 1 });
    // The creator (the root) has no upline.
    expect((await treeOf(creator, 2)).upline).toBeNull();
  });

  it('roll the daily window over with the chain’s clock', async () => {
    await buy(c, '200');
    expect((await expectContractState(c)).dailyLimitRemaining).toBe('700');
    await world.chain.anvil.increaseTime({ seconds: DAY });
    await world.chain.anvil.mine({ blocks: 1 });
    const rolled = await expectContractState(c);
    expect(rolled.dailyLimitRemaining).toBe(rolled.dailyLimitTotal);
  });

  it('show GWT accrued from descendants’ fees while lapsed, then claimed', async () => {
    // A month on everyone lapses; a and the creator extend, so c's fee pays them and b,
    // lapsed, accrues its share as claimable GWT.
    await world.chain.anvil.increaseTime({ seconds: 31 * DAY });
    await world.chain.send(a, protocol, 'DpnmProtocol', 'extendTree', []);
    await world.chain.send(creator, usdt, 'TestToken', 'mint', [
      creator.address,
      parseEther('100'),
    ]);
    await world.chain.send(creator, usdt, 'TestToken', 'approve', [protocol, MAX_UINT]);
    await world.chain.send(creator, protocol, 'DpnmProtocol', 'extendTree', []);
    await buy(c, '30');
    const lapsed = await expectContractState(b);
    expect(lapsed.claimableGWT).not.toBe('0');
    expect(lapsed.treeActiveDaysLeft).toBe(0);
    expect((await treeOf(a)).directs[0]).toMatchObject({ address: b.address, active: false });

    await world.chain.send(b, protocol, 'DpnmProtocol', 'claimGWT', []);
    const claimed = await expectContractState(b);
    expect(claimed.claimableGWT).toBe('0');
    expect(claimed.gwtBalance).toBe(lapsed.claimableGWT);

    // Redeeming GWT raises the income limit.
    await world.chain.send(b, protocol, 'DpnmProtocol', 'buyIncomeLimitWithGWT', [
      parseEther(claimed.gwtBalance as string),
    ]);
    const redeemed = await expectContractState(b);
    expect(redeemed.gwtBalance).toBe('0');
    expect(Number(redeemed.incomeLimitRemaining)).toBeGreaterThan(
      Number(claimed.incomeLimitRemaining),
    );
    for (const who of [creator, a, c]) await expectContractState(who);
  });

  it('answer nothing on chain for a wallet with no activity, or an account with no wallet', async () => {
    const idle = await world.chain.funded();
    sessions.set(idle.address, await signIn(world.app, idle));
    const none = await get('/me/flow-onchain', idle);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ address: idle.address, chains: [] });
    expectError(await get('/me/tree', idle), 403, 'address_not_activated');

    const walletless = await signInWithoutWallet(world.app, world.ctx);
    const headers = { cookie: walletless.cookie };
    const me = await world.app.inject({ method: 'GET', url: '/me', headers });
    expect(me.json()).toMatchObject({ id: walletless.userId, address: null });
    const empty = await world.app.inject({ method: 'GET', url: '/me/flow-onchain', headers });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ address: null, chains: [] });
    expectError(
      await world.app.inject({ method: 'GET', url: '/me/tree', headers }),
      403,
      'address_not_activated',
    );
  });

  it('refuse bad input with the error envelope', async () => {
    for (const url of ['/me/flow-onchain', '/me/tree']) {
      expectError(await world.app.inject({ method: 'GET', url }), 401, 'unauthenticated');
    }
    expectError(await get('/me/tree?chainId=999', a), 400, 'chain_unsupported');
    for (const query of ['depth=0', 'depth=11', 'depth=x', 'depth=2.5', 'chainId=x', 'chainId=0']) {
      expectError(await get(`/me/tree?${query}`, a), 400, 'invalid_request');
    }
    expect((await get('/me/tree?chainId=31337&depth=10', a)).statusCode).toBe(200);
  });

  it('is 503 with Retry-After, not a mix of blocks, when the chain’s RPC does not answer', async () => {
    // Another API process of the same deployment whose RPC URL leads nowhere.
    const offline = buildApp({
      ...world.ctx.deps,
      config: { ...world.ctx.config, chainRpcUrls: { 31337: 'http://127.0.0.1:9' } },
    });
    try {
      const response = await offline.inject({
        method: 'GET',
        url: '/me/flow-onchain',
        headers: { cookie: sessions.get(a.address)!.cookie },
      });
      expectError(response, 503, 'service_unavailable', /chain 31337/);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).not.toContain('127.0.0.1:9');
    } finally {
      await offline.close();
    }
  });

  it('answer an API key of the wallet’s account like its session', async () => {
    const key = await createKey(world.app, sessions.get(a.address)!);
    const headers = { 'x-api-key': key.key };
    const byKey = await world.app.inject({ method: 'GET', url: '/me/flow-onchain', headers });
    const bySession = await get('/me/flow-onchain', a);
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json()).toEqual(bySession.json());
    const tree = await world.app.inject({ method: 'GET', url: '/me/tree?depth=2', headers });
    expect(tree.json()).toEqual((await get('/me/tree?depth=2', a)).json());
  });
});

/** USDT paid to `who` per level, summed from the protocol's `UplinePaid` logs up to `at`. */
async function earnedByLevel(who: Address, at: bigint): Promise<string[]> {
  const logs = await world.chain.reader.getContractEvents({
    address: protocol,
    abi: abiOf('DpnmProtocol'),
    eventName: 'UplinePaid',
    args: { upline: who },
    fromBlock: 0n,
    toBlock: at,
  });
  const sums = Array<bigint>(10).fill(0n);
  for (const log of logs) {
    const { level, amountUsdt } = log.args as { level: number; amountUsdt: bigint };
    sums[level - 1]! += amountUsdt;
  }
  return sums.map((sum) => formatEther(sum));
}
