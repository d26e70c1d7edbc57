import type { MikroORM } from '@mikro-orm/postgresql';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import { createPublicClient, http, type PublicClient } from 'viem';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { announceMarketEvents } from '../../shared/market/events';
import type { ChainSyncPassResult } from '../../shared/temporal/workflows';
import { syncPass, type SyncPassInput } from '../chain/sync';

/** How long one JSON-RPC call may take: a wide eth_getLogs on a busy provider is slow. */
const RPC_TIMEOUT_MS = 30_000;

/**
 * Chain indexer activities (docs/chain.md "Indexer"). `temporal` signals the subscription
 * lifecycle when a `usdt_bep20` transfer confirms a payment (the worker always passes it).
 */
export function createChainActivities(deps: {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  temporal?: Client;
  /** Where the market outbox's new events are announced (absent: API processes poll). */
  redis?: Redis;
}) {
  const { redis } = deps;
  const announce = redis
    ? () => announceMarketEvents(redis, deps.config.redisKeyPrefix, deps.logger)
    : undefined;
  const clients = new Map<number, PublicClient>();
  const client = (chainId: number): PublicClient => {
    const url = deps.config.chainRpcUrls[chainId];
    if (url === undefined) throw new Error(`chain ${chainId} is not configured (CHAIN_RPC_URLS)`);
    let found = clients.get(chainId);
    if (!found) {
      // Temporal retries a failed pass; the transport does not retry on its own. Header reads
      // of one pass go out as one JSON-RPC batch.
      found = createPublicClient({
        // viem caches eth_blockNumber for 4 s by default: a pass must see the head as it is.
        cacheTime: 0,
        transport: http(url, { timeout: RPC_TIMEOUT_MS, retryCount: 0, batch: true }),
      });
      clients.set(chainId, found);
    }
    return found;
  };
  return {
    /** One indexer pass; see `syncPass`. Returns figures only. */
    async syncChain(input: SyncPassInput): Promise<ChainSyncPassResult> {
      const heartbeat = () => {
        try {
          Context.current().heartbeat();
        } catch {
          // Called outside an activity (a direct pass): nobody to beat for.
        }
      };
      return syncPass({ ...deps, client, heartbeat, announceMarketEvents: announce }, input);
    },
  };
}

export type ChainActivities = ReturnType<typeof createChainActivities>;
