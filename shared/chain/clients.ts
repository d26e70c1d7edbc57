import { createPublicClient, http, type PublicClient } from 'viem';

/**
 * One viem public client per configured chain (`CHAIN_RPC_URLS`), created on first use and
 * kept for the life of the process. The service only reads chains; it never signs.
 */
export class ChainClients {
  private readonly clients = new Map<number, PublicClient>();

  constructor(private readonly rpcUrls: Record<number, string>) {}

  /** Chain ids this deployment is configured for. */
  get chainIds(): number[] {
    return Object.keys(this.rpcUrls).map(Number);
  }

  isConfigured(chainId: number): boolean {
    return this.rpcUrls[chainId] !== undefined;
  }

  client(chainId: number): PublicClient | null {
    const url = this.rpcUrls[chainId];
    if (url === undefined) return null;
    let client = this.clients.get(chainId);
    if (!client) {
      // Batched: the reads of one answer (several eth_calls) share one HTTP round trip.
      client = createPublicClient({
        transport: http(url, { timeout: 5000, retryCount: 1, batch: true }),
      });
      this.clients.set(chainId, client);
    }
    return client;
  }
}
