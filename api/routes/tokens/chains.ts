import { getAddress, type Address } from 'viem';
import { chainName, LOCAL_CHAIN_ID } from '../../../shared/chain/chains';
import { AMOUNT_DECIMALS } from '../../../shared/chain/launchpad';
import {
  loadConfig,
  PAYMENT_TOKEN_ROLES,
  type Config,
  type PaymentTokenRole,
} from '../../../shared/config';
import type { TokenTemplate } from '../../../shared/db/entities/token';
import type { Actor } from '../../access/actor';
import type { TokenDeps } from './service';

/**
 * `GET /chains`: every configured chain with each template's launch factory, so a wallet
 * knows where to launch, its payment tokens and, on the local chain, how to get some.
 */

// Declared, not inferred from chainsSchema: the schema's OpenAPI example is built here.
export interface PaymentToken {
  role: PaymentTokenRole;
  template: TokenTemplate;
  address: Address;
  symbol: string;
  decimals: number;
}

export interface ChainItem {
  chainId: number;
  name: string;
  factories: Record<TokenTemplate, Address | null>;
  paymentTokens: PaymentToken[];
  faucet: Faucet | null;
}

export interface Faucet {
  kind: 'mint';
  how: string;
  mintFunction: string;
  setBalanceRpcMethod: string;
}

/**
 * What each payment token pays for, and its symbol: the real token's, or on the local chain the
 * reference test token's (`npm run chain:deploy`, docs/chain.md "Deployment").
 */
const PAYMENT_TOKENS: Record<
  PaymentTokenRole,
  { template: TokenTemplate; symbol: string; localSymbol: string }
> = {
  virtualsPayment: { template: 'virtuals', symbol: 'VIRTUAL', localSymbol: 'tVIRTUAL' },
  usdt: { template: 'dpnm', symbol: 'USDT', localSymbol: 'USDT' },
};

/**
 * The local chain's payment tokens are the reference `TestToken`, whose `mint` anyone may call
 * (contracts/src/ERC20.sol), and anvil hands out ETH: a wallet can fund itself.
 */
export const LOCAL_FAUCET: Faucet = {
  kind: 'mint',
  how:
    'Test tokens: any account may call mint(to, amount) on each of paymentTokens (amount in ' +
    'base units, 18 decimals). For gas, anvil’s ten development accounts start with ' +
    '10000 ETH, and the JSON-RPC call anvil_setBalance(address, wei) gives any address ETH.',
  mintFunction: 'function mint(address to, uint256 amount)',
  setBalanceRpcMethod: 'anvil_setBalance',
};

/** The chain's configured payment tokens (CHAIN_PAYMENT_TOKENS), in role order. */
function paymentTokensOf(
  config: Pick<Config, 'chainPaymentTokens'>,
  chainId: number,
): PaymentToken[] {
  const configured = config.chainPaymentTokens[chainId] ?? {};
  return PAYMENT_TOKEN_ROLES.flatMap((role) => {
    const address = configured[role];
    if (!address) return [];
    const { template, symbol, localSymbol } = PAYMENT_TOKENS[role];
    return [
      {
        role,
        template,
        address: getAddress(address),
        symbol: chainId === LOCAL_CHAIN_ID ? localSymbol : symbol,
        decimals: AMOUNT_DECIMALS,
      },
    ];
  });
}

/** The template's launch factory on the chain, checksummed; null when none is configured. */
export function factoryOf(
  config: Pick<Config, 'launchFactories'>,
  chainId: number,
  template: TokenTemplate,
): Address | null {
  const factory = config.launchFactories[chainId]?.[template];
  // Configuration accepts any case; clients get the EIP-55 form.
  return factory ? getAddress(factory) : null;
}

function chainItem(
  config: Pick<Config, 'launchFactories' | 'chainPaymentTokens'>,
  chainId: number,
): ChainItem {
  const paymentTokens = paymentTokensOf(config, chainId);
  return {
    chainId,
    name: chainName(chainId),
    factories: {
      virtuals: factoryOf(config, chainId, 'virtuals'),
      dpnm: factoryOf(config, chainId, 'dpnm'),
    },
    paymentTokens,
    // The faucet is the test tokens' mint: no payment tokens configured, nothing to mint.
    faucet: chainId === LOCAL_CHAIN_ID && paymentTokens.length > 0 ? LOCAL_FAUCET : null,
  };
}

/** Anyone may list the chains: the actor (null when anonymous) changes nothing. */
export function listChains(
  deps: Pick<TokenDeps, 'config'>,
  _actor: Actor | null,
): { items: ChainItem[] } {
  const { config } = deps;
  const items = Object.keys(config.chainRpcUrls)
    .map(Number)
    .sort((a, b) => a - b)
    .map((chainId) => chainItem(config, chainId));
  return { items };
}

/**
 * GET /chains' OpenAPI example: the local chain as `npm run dev` configures it, i.e. the
 * defaults of shared/config.ts, which are the reference deployment (docs/chain.md "Deployment").
 */
export const LOCAL_CHAIN_EXAMPLE = chainItem(loadConfig({}), LOCAL_CHAIN_ID);
