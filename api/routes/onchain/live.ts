import { parseAbi, type Address } from 'viem';
import type { ChainClients } from '../../../shared/chain/clients';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';

/**
 * The two figures of a user's state that the index does not decide (docs/chain.md "User
 * state"): the USDT balance (USDT is a chain-wide stablecoin, not ours to index) and what the
 * daily window still allows (the protocol is the authority on its window). Both are contract
 * views at the block the rest of the answer reflects, so the whole entry describes one block.
 */

const protocolViews = parseAbi([
  'function usdt() view returns (address)',
  'function dailyLimitRemaining(address trader) view returns (uint256)',
]);
const erc20Views = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

export interface LiveUserViews {
  usdtBalance: bigint;
  dailyLimitRemaining: bigint;
}

export class LiveUserReads {
  /** A protocol's USDT never changes (an immutable): read once per protocol. */
  private readonly usdtOf = new Map<string, Promise<Address>>();

  constructor(
    private readonly chains: ChainClients,
    private readonly logger: Logger,
  ) {}

  async read(
    chainId: number,
    protocol: Address,
    user: Address,
    blockNumber: bigint,
  ): Promise<LiveUserViews> {
    const client = this.chains.client(chainId);
    if (!client) throw new Error(`chain ${chainId} has no RPC URL`);
    try {
      const key = `${chainId}:${protocol}`;
      let usdt = this.usdtOf.get(key);
      if (!usdt) {
        usdt = client.readContract({ address: protocol, abi: protocolViews, functionName: 'usdt' });
        this.usdtOf.set(key, usdt);
        usdt.catch(() => this.usdtOf.delete(key));
      }
      const [usdtBalance, dailyLimitRemaining] = await Promise.all([
        usdt.then((address) =>
          client.readContract({
            address,
            abi: erc20Views,
            functionName: 'balanceOf',
            args: [user],
            blockNumber,
          }),
        ),
        client.readContract({
          address: protocol,
          abi: protocolViews,
          functionName: 'dailyLimitRemaining',
          args: [user],
          blockNumber,
        }),
      ]);
      return { usdtBalance, dailyLimitRemaining };
    } catch (error) {
      // The reason goes to the log without the error's message, which names the RPC URL (and
      // with it, often, a provider key).
      const { name, details } = error as { name?: string; details?: string };
      this.logger.warn(
        { chainId, blockNumber: String(blockNumber), name, details },
        'live user reads failed',
      );
      throw new AppError(
        'service_unavailable',
        `chain ${chainId}: its RPC did not answer the balance reads; retry shortly`,
        { 'retry-after': '5' },
      );
    }
  }
}
