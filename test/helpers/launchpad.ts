import type { Address, Hex, PrivateKeyAccount } from 'viem';
import type { App } from '../../api/app';
import { chainSyncInput, ensureChainSync } from '../../api/maintenance';
import { workflowIds } from '../../shared/temporal';
import type { TestContext } from './context';
import { signIn } from './auth';
import { eventually, type LocalChain } from './chain';

/**
 * The launchpad as a wallet and an API client see it, for tests on a real chain: tokens created
 * through the API and launched from their `pendingLaunchTx`, virtuals trades, and waiting for
 * the index to reach a block.
 */

const MAX_UINT = 2n ** 256n - 1n;

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
    /** A virtuals token created through the API by `creator` (signed in), not yet launched. */
    async createVirtuals(creator: PrivateKeyAccount, ticker: string, threshold: string) {
      const session = await signIn(app, creator);
      const response = await app.inject({
        method: 'POST',
        url: '/tokens',
        headers: { cookie: session.cookie },
        payload: {
          template: 'virtuals',
          name: `Indexed ${ticker}`,
          ticker,
          chainId: 31337,
          params: { graduationThreshold: threshold, initialBuy: '0' },
        },
      });
      if (response.statusCode !== 201) throw new Error(`POST /tokens: ${response.body}`);
      return response.json<{ slug: string; state: string; pendingLaunchTx: Hex }>();
    },
    /** Sends the launch and waits until the API shows the token live; returns its instance. */
    async launchAndWait(creator: PrivateKeyAccount, slug: string, pendingLaunchTx: Hex) {
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
