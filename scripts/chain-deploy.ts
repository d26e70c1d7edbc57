import { privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../shared/config';
import { ANVIL_ACCOUNT_0_KEY, deployReferenceContracts } from './chain-deployment';

/**
 * `npm run chain:deploy`: puts the reference contracts on every chain of CHAIN_RPC_URLS at
 * their deterministic addresses (idempotent). The gas is paid by CHAIN_DEPLOYER_KEY, or on
 * the local chain 31337 by anvil's well-known development account #0.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  for (const [chainId, url] of Object.entries(config.chainRpcUrls)) {
    const key =
      process.env.CHAIN_DEPLOYER_KEY ?? (chainId === '31337' ? ANVIL_ACCOUNT_0_KEY : undefined);
    if (!key) {
      console.log(`chain ${chainId}: skipped (set CHAIN_DEPLOYER_KEY to deploy there)`);
      continue;
    }
    const deployed = await deployReferenceContracts(url, privateKeyToAccount(key as `0x${string}`));
    for (const { name, address, created } of deployed) {
      console.log(`chain ${chainId}: ${name} ${address} ${created ? 'created' : 'already there'}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
