import { parseEther, zeroAddress, type Address, type Hex, type PrivateKeyAccount } from 'viem';
import type { App } from '../../api/app';
import { chainSyncInput, ensureChainSync } from '../../api/maintenance';
import { workflowIds } from '../../shared/temporal';
import { UNLIMITED_RATES, createTestContext, type TestContext } from './context';
import { signIn } from './auth';
import { eventually, localChain, startTestChain, type LocalChain } from './chain';

/**
 * The launchpad as a wallet and an API client see it, for tests on a real chain: tokens created
 * through the API and launched from their `pendingLaunchTx`, virtuals trades, and waiting for
 * the index to reach a block.
 */

const MAX_UINT = 2n ** 256n - 1n;

/** A dpnm launch's parameters as `POST /tokens` takes them (USDT amounts in whole units). */
const DPNM_PARAMS = {
  initialPrice: '1',
  dailyLimitFloor: '1000',
  incomeLimitMultiplier: 2,
  treeActivationCost: '10',
};

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  blockNumber: number | null;
}

export interface TradeItem {
  id: string;
  kind: string;
  trader: Address | null;
  amountToken: string;
  amountPayment: string;
  price: string;
  txHash: Hex;
  blockNumber: number;
  logIndex: number;
}

export interface HolderItem {
  address: Address;
  balance: string;
  share: number;
}

/** Starts this context's indexer of chain 31337; returns a stopper for `afterAll`. */
export async function startIndexer(ctx: TestContext): Promise<() => Promise<void>> {
  const input = chainSyncInput(ctx.config, 31337);
  await ensureChainSync(ctx.deps.temporal, ctx.config.temporal.taskQueue, input);
  return async () => {
    const id = workflowIds.chainSync(31337, ctx.config.temporal.taskQueue);
    await ctx.deps.temporal.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  };
}

export function launchpad(app: App, chain: LocalChain, factory: Address, payment: Address) {
  async function get<T>(url: string): Promise<T> {
    const response = await app.inject({ method: 'GET', url });
    if (response.statusCode !== 200) {
      throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    }
    return response.json<T>();
  }

  /** A token created through the API by `creator` (signed in) on chain 31337, not launched. */
  async function createToken(
    creator: PrivateKeyAccount,
    body: { template: 'virtuals' | 'dpnm'; name: string; ticker: string; params: object },
  ) {
    const session = await signIn(app, creator);
    const response = await app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { cookie: session.cookie },
      payload: { ...body, chainId: 31337 },
    });
    if (response.statusCode !== 201) throw new Error(`POST /tokens: ${response.body}`);
    return response.json<{ id: string; slug: string; state: string; pendingLaunchTx: Hex }>();
  }

  /** Sends the launch and waits until the API shows the token live; returns its instance. */
  async function launchAndWait(creator: PrivateKeyAccount, slug: string, pendingLaunchTx: Hex) {
    await chain.sendCalldata(creator, factory, pendingLaunchTx);
    const live = await eventually(
      async () => {
        const detail = await get<{ state: string; instance: Address | null }>(`/tokens/${slug}`);
        return detail.state === 'live' ? detail : undefined;
      },
      10_000,
      'the token to go live',
    );
    return live.instance!;
  }

  return {
    get,
    /** A funded account holding `amount` payment tokens, the factory approved for all. */
    async trader(amount: bigint): Promise<PrivateKeyAccount> {
      const account = await chain.funded();
      await chain.send(account, payment, 'TestToken', 'mint', [account.address, amount]);
      await chain.send(account, payment, 'TestToken', 'approve', [factory, MAX_UINT]);
      return account;
    },
    async buy(account: PrivateKeyAccount, token: Address, amount: bigint) {
      return chain.send(account, factory, 'VirtualsFactory', 'buy', [
        token,
        amount,
        0n,
        await chain.deadline(),
      ]);
    },
    async sell(account: PrivateKeyAccount, token: Address, amount: bigint) {
      await chain.send(account, token, 'VirtualsToken', 'approve', [factory, amount]);
      return chain.send(account, factory, 'VirtualsFactory', 'sell', [
        token,
        amount,
        0n,
        await chain.deadline(),
      ]);
    },
    /**
     * A virtuals token created through the API by `creator` (signed in), not yet launched.
     * An `initialBuy` needs a creator holding payment tokens with the factory approved
     * (`trader`).
     */
    async createVirtuals(
      creator: PrivateKeyAccount,
      ticker: string,
      threshold: string,
      initialBuy = '0',
    ) {
      return createToken(creator, {
        template: 'virtuals',
        name: `Indexed ${ticker}`,
        ticker,
        params: { graduationThreshold: threshold, initialBuy },
      });
    },
    launchAndWait,
    /**
     * A dpnm token created through the API by `creator` (signed in) and launched: the token,
     * its instance and the launch's protocol, tree and GWT. `params` override the defaults.
     */
    async launchDpnm(
      creator: PrivateKeyAccount,
      ticker: string,
      params: Partial<typeof DPNM_PARAMS> = {},
    ) {
      const token = await createToken(creator, {
        template: 'dpnm',
        name: `Pool ${ticker}`,
        ticker,
        params: { ...DPNM_PARAMS, ...params },
      });
      const instance = await launchAndWait(creator, token.slug, token.pendingLaunchTx);
      const protocol = await chain.read<Address>(factory, 'DpnmFactory', 'protocolOf', [instance]);
      const [tree, gwt] = await Promise.all([
        chain.read<Address>(protocol, 'DpnmProtocol', 'tree'),
        chain.read<Address>(protocol, 'DpnmProtocol', 'gwt'),
      ]);
      return { id: token.id, slug: token.slug, instance, protocol, tree, gwt };
    },
    /**
     * A funded account with 10,000 USDT (`payment` of a dpnm world), the protocol approved for
     * all, activated in its tree under `referrer` (null: under the root, the creator).
     */
    async dpnmMember(protocol: Address, referrer: PrivateKeyAccount | null) {
      const account = await chain.funded();
      await chain.send(account, payment, 'TestToken', 'mint', [
        account.address,
        parseEther('10000'),
      ]);
      await chain.send(account, payment, 'TestToken', 'approve', [protocol, MAX_UINT]);
      await chain.send(account, protocol, 'DpnmProtocol', 'activate', [
        referrer?.address ?? zeroAddress,
      ]);
      return account;
    },
    /** Waits until the index has reached `block`; returns the token's trades then. */
    async tradesAt(slug: string, block: bigint): Promise<Page<TradeItem>> {
      return eventually(
        async () => {
          const page = await get<Page<TradeItem>>(`/tokens/${slug}/trades?limit=100`);
          return page.blockNumber !== null && page.blockNumber >= Number(block) ? page : undefined;
        },
        15_000,
        `the index to reach block ${block}`,
      );
    },
  };
}

export interface OwnChainWorld {
  ctx: TestContext;
  app: App;
  chain: LocalChain;
  pad: ReturnType<typeof launchpad>;
  /** The launch factory of the chosen template. */
  factory: Address;
}

/**
 * A test file's world on a chain of its own (docs/chain.md): anvil with the reference
 * contracts, a context whose chain 31337 is that anvil, an app, a worker and the indexer, all
 * opened before the file's tests and closed after them. For tests that rewrite the chain's
 * history or move its clock, which would disturb the shared chain.
 */
export function useOwnChain(
  env: Record<string, string> = {},
  template: 'virtuals' | 'dpnm' = 'virtuals',
): OwnChainWorld {
  const world = {} as OwnChainWorld;
  let testChain: Awaited<ReturnType<typeof startTestChain>> | undefined;
  let stopIndexer: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    testChain = await startTestChain();
    world.ctx = await createTestContext({
      ...UNLIMITED_RATES,
      CHAIN_RPC_URLS: `31337=${testChain.url}`,
      CHAIN_POLL_INTERVAL_MS: '100',
      ...env,
    });
    world.app = await world.ctx.newApi();
    await world.app.ready();
    await world.ctx.startWorker();
    stopIndexer = await startIndexer(world.ctx);
    world.chain = localChain(testChain.url);
    world.factory = world.ctx.config.launchFactories[31337]![template]!;
    const payment =
      template === 'virtuals'
        ? await world.chain.read<Address>(world.factory, 'VirtualsFactory', 'paymentToken')
        : await world.chain.read<Address>(world.factory, 'DpnmFactory', 'usdt');
    world.pad = launchpad(world.app, world.chain, world.factory, payment);
  }, 60_000);
  afterAll(async () => {
    await stopIndexer?.();
    await world.ctx?.close();
    await testChain?.stop();
  });
  return world;
}
