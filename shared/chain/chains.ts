/** Display names of the chains the service knows by id; any other configured chain is `Chain <id>`. */
const CHAIN_NAMES: Record<number, string> = {
  56: 'BNB Smart Chain',
  97: 'BNB Smart Chain Testnet',
  8453: 'Base',
  31337: 'Local development chain',
};

/**
 * anvil's chain id: the local development chain, where the reference contracts and their
 * mintable test payment tokens live (docs/chain.md).
 */
export const LOCAL_CHAIN_ID = 31337;

export function chainName(chainId: number): string {
  return CHAIN_NAMES[chainId] ?? `Chain ${chainId}`;
}
