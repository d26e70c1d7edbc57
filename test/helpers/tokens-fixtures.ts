import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { foundry } from 'viem/chains';
import type { App } from '../../api/app';
import type { SignedIn } from './auth';
import { UNLIMITED_RATES, type TestApp } from './context';
import { readTestServices } from './services';
import { compileFixture } from './solidity';

/**
 * Tokens and chains as the split tokens-*.test.ts files drive them: the wire shapes, the
 * chains configured (the local anvil and a testnet never contacted), a launch factory
 * deployed for each file, and token bodies and requests bound to the file's world.
 */

export type Reply = Awaited<ReturnType<App['inject']>>;

export interface TokenBody {
  id: string;
  slug: string;
  name: string;
  ticker: string;
  template: 'virtuals' | 'dpnm';
  instance: string | null;
  chainId: number;
  imageUrl: string | null;
  brief: string | null;
  params: Record<string, unknown>;
  state: string;
  createdAt: string;
  pendingLaunchTx?: Hex;
}
export interface TokenPage {
  items: TokenBody[];
  nextCursor: string | null;
}

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const LOCAL = 31337;
/** A second configured chain (never contacted) that only has a dpnm factory. */
export const TESTNET = 97;
export const TESTNET_DPNM = getAddress('0x00000000000000000000000000000000000d9a97');
export const TESTNET_USDT = getAddress('0x00000000000000000000000000000000005d7a97');
export const DPNM_PARAMS = {
  initialPrice: '0.5',
  dailyLimitFloor: '10',
  incomeLimitMultiplier: 2.5,
  treeActivationCost: '25',
};
export const VIRTUALS_PARAMS = { graduationThreshold: '42000', initialBuy: '100.25' };

const rpc = http(readTestServices().anvilUrl);
export const chain = createPublicClient({ chain: foundry, transport: rpc });
export const wallet = createWalletClient({ chain: foundry, transport: rpc });
export const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport: rpc });

/**
 * The fixture factory deployed on anvil from one of its unlocked accounts (anvil signs and
 * picks the nonce: no races with other files), and the ABI of the instances it creates.
 */
export async function deployLaunchFactory(): Promise<{
  creator: Address;
  factory: Address;
  launchedTokenAbi: Abi;
}> {
  const [, , , creator] = (await wallet.getAddresses()) as [Address, Address, Address, Address];
  const { abi, bytecode } = compileFixture('LaunchFactory.sol', 'LaunchFactory');
  const hash = await wallet.deployContract({ account: creator, abi, bytecode });
  const factory = getAddress((await chain.waitForTransactionReceipt({ hash })).contractAddress!);
  return {
    creator,
    factory,
    launchedTokenAbi: compileFixture('LaunchFactory.sol', 'LaunchedToken').abi,
  };
}

/** Both chains, `factory` for both templates on the local one, a dpnm factory on the testnet. */
export function tokensEnv(factory: Address): Record<string, string> {
  return {
    ...UNLIMITED_RATES,
    CHAIN_RPC_URLS: `${LOCAL}=${readTestServices().anvilUrl},${TESTNET}=http://127.0.0.1:1`,
    // Lower case on purpose: the API hands out the checksummed form.
    LAUNCH_FACTORIES: [
      `${LOCAL}:virtuals=${factory.toLowerCase()}`,
      `${LOCAL}:dpnm=${factory}`,
      `${TESTNET}:dpnm=${TESTNET_DPNM}`,
    ].join(','),
    // Replaces the local chain's default payment tokens: chain 31337 has none here.
    CHAIN_PAYMENT_TOKENS: `${TESTNET}:usdt=${TESTNET_USDT.toLowerCase()}`,
  };
}

/** The helpers of one test file, bound to its world. */
export function tokenFixtures(test: TestApp) {
  let tickers = 0;
  /** A ticker no other test of this file uses. */
  const freshTicker = (prefix = 'T') =>
    `${prefix}${(tickers++).toString(36).toUpperCase().padStart(3, '0')}`;

  const dpnmBody = (overrides: Record<string, unknown> = {}) => ({
    template: 'dpnm',
    name: 'Tree Token',
    ticker: freshTicker(),
    chainId: LOCAL,
    params: DPNM_PARAMS,
    ...overrides,
  });
  const virtualsBody = (overrides: Record<string, unknown> = {}) => ({
    template: 'virtuals',
    name: 'Moon Agent',
    ticker: freshTicker(),
    chainId: LOCAL,
    params: VIRTUALS_PARAMS,
    ...overrides,
  });

  function create(session: SignedIn | null, payload: Record<string, unknown>, api = test.app) {
    return api.inject({
      method: 'POST',
      url: '/tokens',
      headers: session ? { cookie: session.cookie } : {},
      payload,
    });
  }

  async function created(session: SignedIn, payload: Record<string, unknown>) {
    const response = await create(session, payload);
    expect(response.statusCode).toBe(201);
    return response.json<TokenBody>();
  }

  async function rowsWithTicker(ticker: string) {
    return test.ctx.sql<{ id: string; chain_id: number }>(
      'select id, chain_id from tokens where ticker = $1',
      [ticker],
    );
  }

  async function get(url: string): Promise<Reply> {
    return test.app.inject({ method: 'GET', url });
  }

  return { freshTicker, dpnmBody, virtualsBody, create, created, rowsWithTicker, get };
}
