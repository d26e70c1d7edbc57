import { erc20Abi, parseAbi, parseEther, toHex, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { deployReferenceContracts, referenceAddresses } from '../../scripts/chain-deployment';
import { createTestContext, useTestApp } from '../helpers/context';
import { referenceFactories, referencePaymentTokens } from '../helpers/reference';
import { readTestServices } from '../helpers/services';
import {
  LOCAL,
  TESTNET,
  TESTNET_DPNM,
  TESTNET_USDT,
  chain,
  wallet,
  anvil,
  deployLaunchFactory,
  tokenFixtures,
  tokensEnv,
} from '../helpers/tokens-fixtures';

/**
 * GET /chains (docs/spec/contract.md §7): the configured chains, their factories, payment tokens
 * and faucets.
 */

/** The fixture factory on anvil, configured for both templates on chain 31337. */
let factory: Address;

beforeAll(async () => {
  ({ factory } = await deployLaunchFactory());
}, 120_000);
const test = useTestApp({ env: () => tokensEnv(factory) });
const { get } = tokenFixtures(test);

describe('GET /chains', () => {
  interface ChainItem {
    chainId: number;
    factories: Record<'virtuals' | 'dpnm', string | null>;
    paymentTokens: { role: string; address: Address; symbol: string; decimals: number }[];
    faucet: { kind: 'mint'; mintFunction: string; setBalanceRpcMethod: string } | null;
  }

  it('lists every configured chain by id, with each template’s factory (checksummed) or null', async () => {
    const response = await get('/chains');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          chainId: TESTNET,
          name: 'BNB Smart Chain Testnet',
          factories: { virtuals: null, dpnm: TESTNET_DPNM },
          paymentTokens: [
            { role: 'usdt', template: 'dpnm', address: TESTNET_USDT, symbol: 'USDT', decimals: 18 },
          ],
          // Not the local chain: its tokens are real ones, nobody mints them.
          faucet: null,
        },
        {
          chainId: LOCAL,
          name: 'Local development chain',
          factories: { virtuals: factory, dpnm: factory },
          // CHAIN_PAYMENT_TOKENS names none here, and with no test tokens there is no faucet.
          paymentTokens: [],
          faucet: null,
        },
      ],
    });
  });

  it('has the reference deployment on the local chain by default outside production, and its faucet works', async () => {
    // Settings of this test alone: its own world, opened and closed here rather than by useTestApp.
    const defaults = await createTestContext();
    try {
      const api = await defaults.newApi();
      const response = await api.inject({ method: 'GET', url: '/chains' });
      const reference = referenceAddresses();
      const tokens = referencePaymentTokens(reference);
      const [local] = response.json<{ items: ChainItem[] }>().items;
      expect(response.json<{ items: ChainItem[] }>().items).toHaveLength(1);
      expect(local).toEqual({
        chainId: LOCAL,
        name: 'Local development chain',
        // Where `npm run chain:deploy` puts each factory of the plan (docs/chain.md).
        factories: expect.objectContaining(referenceFactories(reference)),
        paymentTokens: [
          {
            role: 'virtualsPayment',
            template: 'virtuals',
            address: tokens.virtualsPayment,
            symbol: 'tVIRTUAL',
            decimals: 18,
          },
          { role: 'usdt', template: 'dpnm', address: tokens.usdt, symbol: 'USDT', decimals: 18 },
        ],
        faucet: {
          kind: 'mint',
          how: expect.stringMatching(/mint\(to, amount\).*anvil_setBalance/),
          mintFunction: 'function mint(address to, uint256 amount)',
          setBalanceRpcMethod: 'anvil_setBalance',
        },
      });
      // The OpenAPI example is this very item.
      const document = (await api.inject({ method: 'GET', url: '/openapi.json' })).json<{
        components: { schemas: Record<string, { examples?: unknown[] }> };
      }>();
      expect(document.components.schemas.ChainList?.examples).toEqual([{ items: [local] }]);

      // A wallet developer follows the faucet on the deployed contracts: ETH for gas through
      // the RPC method, then a mint from a fresh account, of tokens whose symbol and decimals
      // are the listed ones.
      const payer = privateKeyToAccount(generatePrivateKey());
      await anvil.setBalance({ address: payer.address, value: parseEther('10') });
      await deployReferenceContracts(readTestServices().anvilUrl, payer);
      const faucet = local!.faucet!;
      const holder = privateKeyToAccount(generatePrivateKey());
      await anvil.request({
        method: faucet.setBalanceRpcMethod as 'anvil_setBalance',
        params: [holder.address, toHex(parseEther('1'))],
      });
      const mintAbi = parseAbi([faucet.mintFunction]);
      for (const token of local!.paymentTokens) {
        const read = (functionName: 'symbol' | 'decimals') =>
          chain.readContract({ address: token.address, abi: erc20Abi, functionName });
        expect(await read('symbol')).toBe(token.symbol);
        expect(await read('decimals')).toBe(token.decimals);
        const amount = 1234n * 10n ** BigInt(token.decimals);
        const hash = await wallet.writeContract({
          account: holder,
          address: token.address,
          abi: mintAbi,
          functionName: 'mint',
          args: [holder.address, amount],
        });
        expect((await chain.waitForTransactionReceipt({ hash })).status).toBe('success');
        const balance = await chain.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [holder.address],
        });
        expect(balance).toBe(amount);
      }
    } finally {
      await defaults.close();
    }
  });

  it('lists no factories, payment tokens or faucet in production without the settings', async () => {
    // Settings of this test alone: its own world, opened and closed here rather than by useTestApp.
    const production = await createTestContext({
      NODE_ENV: 'production',
      JWT_SECRET: 'p'.repeat(40),
      API_KEY_PEPPER: 'q'.repeat(40),
    });
    try {
      const api = await production.newApi();
      const response = await api.inject({ method: 'GET', url: '/chains' });
      expect(response.json()).toEqual({
        items: [
          {
            chainId: LOCAL,
            name: 'Local development chain',
            factories: { virtuals: null, dpnm: null },
            paymentTokens: [],
            faucet: null,
          },
        ],
      });
    } finally {
      await production.close();
    }
  });
});
