/**
 * Launch a token on the local chain the way a wallet does: sign in with Ethereum, create the
 * token through the API, send its `pendingLaunchTx` from the wallet, trade it on the bonding
 * curve until it graduates, and read it back from the API at the block the figures reflect;
 * then a dpnm token: launch, join its tree, buy. Only public HTTP endpoints and the chain.
 *
 * docs/launch-walkthrough.md explains each step; its code blocks are excerpts of this file
 * (test/integration/launch-walkthrough.test.ts runs it and checks that they still are).
 *
 *   npm run dev                          # another terminal: API, worker, anvil, contracts
 *   npx tsx examples/launch-local.ts
 *
 * Environment: API_URL (default http://localhost:<PORT>, 3000), RPC_URL (default
 * http://127.0.0.1:<DEV_ANVIL_PORT>, 8545), SIWE_DOMAIN (default: API_URL's host; must equal the service's).
 */
import { randomInt, randomUUID } from 'node:crypto';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  formatEther,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { createSiweMessage } from 'viem/siwe';
import virtualsFactoryJson from '../contracts/abi/VirtualsFactory.json';
import virtualsTokenJson from '../contracts/abi/VirtualsToken.json';
import testTokenJson from '../contracts/abi/TestToken.json';
import dpnmProtocolJson from '../contracts/abi/DpnmProtocol.json';

// JSON imports type `"type": "function"` as a plain string: tell viem they are ABIs.
const virtualsFactoryAbi = virtualsFactoryJson as Abi;
const virtualsTokenAbi = virtualsTokenJson as Abi;
const testTokenAbi = testTokenJson as Abi;
const dpnmProtocolAbi = dpnmProtocolJson as Abi;

// ---- What the API answers (GET /openapi.json has the full schemas) ----

export interface ChainItem {
  chainId: number;
  name: string;
  factories: { virtuals: Address | null; dpnm: Address | null };
  paymentTokens: {
    role: 'virtualsPayment' | 'usdt';
    template: 'virtuals' | 'dpnm';
    address: Address;
    symbol: string;
    decimals: number;
  }[];
  faucet: { kind: 'mint'; how: string; mintFunction: string; setBalanceRpcMethod: string } | null;
}

export type TokenState = 'pending' | 'live' | 'graduating' | 'sentient' | 'failed';

export interface Token {
  id: string;
  slug: string;
  name: string;
  ticker: string;
  template: 'virtuals' | 'dpnm';
  instance: Address | null;
  chainId: number;
  params: Record<string, unknown>;
  state: TokenState;
  createdAt: string;
  /** Present while the token has no instance. */
  pendingLaunchTx?: Hex;
}

export interface TokenDetail extends Token {
  launchFactory: Address | null;
  holdersCount: number | null;
  blockNumber: number | null;
  // virtuals
  progressToGraduation?: number | null;
  lockedPaymentToken?: string | null;
  graduationThreshold?: string | null;
  lastTradePrice?: string | null;
  // dpnm
  flowProtocol?: Address | null;
  phenomenalTree?: Address | null;
  gwt?: Address | null;
  currentPrice?: string | null;
  poolUsdt?: string | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  /** The last indexed block: the figures are the chain's at this block. */
  blockNumber: number | null;
}

export interface Holder {
  address: Address;
  balance: string;
  share: number;
}

export interface Trade {
  id: string;
  kind: 'buy' | 'sell' | 'graduation';
  trader: Address | null;
  amountToken: string;
  amountPayment: string;
  price: string;
  txHash: Hex;
  blockNumber: number;
  logIndex: number;
  timestamp: string;
}

export interface CurveOnchain {
  template: 'virtuals';
  instance: Address | null;
  pair: Address | null;
  reserveToken: string | null;
  reservePayment: string | null;
  lockedPaymentToken: string | null;
  graduationThreshold: string | null;
  progressToGraduation: number | null;
  graduated: boolean | null;
  lastTradePrice: string | null;
  totalSupply: string | null;
  blockNumber: number | null;
}

export interface PoolOnchain {
  template: 'dpnm';
  instance: Address | null;
  flowProtocol: Address | null;
  phenomenalTree: Address | null;
  gwt: Address | null;
  currentPrice: string | null;
  poolUsdt: string | null;
  totalSupply: string | null;
  totalActivePositions: number | null;
  totalTreePositions: number | null;
  lifetimeFeesUsdt: string | null;
  lifetimeGwtMinted: string | null;
  blockNumber: number | null;
}

/** Every 4xx and 5xx answer is `{"error": {"code", "message"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = `ApiError ${status} ${code}`;
  }
}

/** A small JSON client: the session JWT, once signed in, goes as `Authorization: Bearer`. */
function apiClient(apiUrl: string) {
  const base = apiUrl.replace(/\/+$/, '');
  const client = {
    session: null as string | null,
    async request(method: string, path: string, body?: unknown, headers = {}) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(client.session ? { authorization: `Bearer ${client.session}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const json: unknown = text ? JSON.parse(text) : null;
      if (!response.ok) {
        const { error } = (json ?? {}) as { error?: { code: string; message: string } };
        throw new ApiError(response.status, error?.code ?? 'unknown', error?.message ?? text);
      }
      return { json, headers: response.headers };
    },
    async get<T>(path: string): Promise<T> {
      return (await client.request('GET', path)).json as T;
    },
    async post<T>(path: string, body?: unknown, headers = {}): Promise<T> {
      return (await client.request('POST', path, body, headers)).json as T;
    },
  };
  return client;
}

/** The error a request answered with (it must fail). */
async function errorOf(request: Promise<unknown>): Promise<ApiError> {
  const outcome = await request.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ApiError))
    throw new Error(`expected an API error, got ${String(outcome)}`);
  return outcome;
}

/** Polls `probe` until it answers something other than undefined. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface WalkthroughOptions {
  /** Where the API answers, e.g. http://localhost:3000. */
  apiUrl: string;
  /** The local chain's JSON-RPC, e.g. http://127.0.0.1:8545. */
  rpcUrl: string;
  /** The service's SIWE_DOMAIN; by default the host of `apiUrl` (localhost:3000 in dev). */
  siweDomain?: string;
  log?: (line: string) => void;
}

/** A refused request of the walk-through: what was asked and the error envelope's fields. */
export interface Mistake {
  what: string;
  status: number;
  code: string;
  message: string;
}

export interface WalkthroughResult {
  creator: Address;
  chain: ChainItem;
  mistakes: Mistake[];
  virtuals: {
    created: Token;
    factory: Address;
    payment: Address;
    instance: Address;
    live: TokenDetail;
    /** From the launch's receipt to the API showing the token live. */
    liveAfterMs: number;
    receipts: { launch: TransactionReceipt; buy: TransactionReceipt; sell: TransactionReceipt };
    /** After the buy and the sell, read once the index had reached the sell's block. */
    holders: Page<Holder>;
    trades: Page<Trade>;
    onchain: CurveOnchain;
    graduation: TransactionReceipt;
    sentient: TokenDetail;
    /** After the graduation. */
    finalTrades: Page<Trade>;
    finalOnchain: CurveOnchain;
    /** Why the curve refuses a buy after graduating. */
    refusedBuyReason: string | undefined;
  };
  dpnm: {
    created: Token;
    factory: Address;
    usdt: Address;
    live: TokenDetail;
    protocol: Address;
    member: Address;
    receipts: { launch: TransactionReceipt; activate: TransactionReceipt; buy: TransactionReceipt };
    onchain: PoolOnchain;
    trades: Page<Trade>;
  };
}

type Wallet = WalletClient<Transport, Chain, Account>;

/** A random ticker (unique per chain), so the walk-through can run again on the same chain. */
function randomTicker(prefix: string): string {
  return (
    prefix +
    randomInt(36 ** 4)
      .toString(36)
      .toUpperCase()
      .padStart(4, '0')
  );
}

export async function runWalkthrough(options: WalkthroughOptions): Promise<WalkthroughResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  let stepNumber = 0;
  const step = (title: string) => log(`\n${(stepNumber += 1)}. ${title}`);
  const api = apiClient(options.apiUrl);
  const mistakes: Mistake[] = [];
  const mistake = async (what: string, request: Promise<unknown>) => {
    const { status, code, message } = await errorOf(request);
    mistakes.push({ what, status, code, message });
    log(`   ${what}: ${status} ${code} (${message})`);
  };

  step('A fresh wallet on the local chain');
  // #region clients
  const account = privateKeyToAccount(generatePrivateKey());
  const transport = http(options.rpcUrl);
  // anvil mines each transaction at once: poll receipts often, not every 4 s.
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 250 });
  const wallet = createWalletClient({ account, chain: foundry, transport });
  const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport });
  // #endregion clients
  log(`   address ${account.address}`);

  // #region send
  /** Simulates a contract call (a revert throws with its reason), sends it, waits for it. */
  async function send(
    from: Wallet,
    call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
  ): Promise<TransactionReceipt> {
    const { request } = await publicClient.simulateContract({ account: from.account, ...call });
    const hash = await from.writeContract(request);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${call.functionName} reverted: ${hash}`);
    return receipt;
  }
  // #endregion send

  step('GET /chains: factories, payment tokens, faucet');
  // #region chains
  const { items: chains } = await api.get<{ items: ChainItem[] }>('/chains');
  const local = chains.find((chain) => chain.chainId === foundry.id);
  if (!local?.factories.virtuals || !local.faucet) {
    throw new Error('chain 31337 has no virtuals factory or faucet: is this `npm run dev`?');
  }
  const virtualsFactory = local.factories.virtuals;
  const payment = local.paymentTokens.find((token) => token.role === 'virtualsPayment')!;
  // #endregion chains
  log(
    `   ${local.name}: virtuals factory ${virtualsFactory}, dpnm factory ${local.factories.dpnm}`,
  );
  log(
    `   payment tokens: ${local.paymentTokens.map((t) => `${t.symbol} ${t.address}`).join(', ')}`,
  );
  log(`   faucet: ${local.faucet.how}`);

  step('Test ETH and test tokens');
  // #region fund
  // ETH for gas: anvil_setBalance (the faucet's setBalanceRpcMethod).
  await anvil.setBalance({ address: account.address, value: parseEther('10') });
  // Payment tokens: the reference TestToken lets anyone mint (the faucet's mintFunction).
  await send(wallet, {
    address: payment.address,
    abi: testTokenAbi,
    functionName: 'mint',
    args: [account.address, parseEther('10000')],
  });
  // #endregion fund
  const minted = (await publicClient.readContract({
    address: payment.address,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [account.address],
  })) as bigint;
  log(`   10 ETH and ${formatEther(minted)} ${payment.symbol}`);

  step('Sign in with Ethereum (SIWE)');
  const siweDomain = options.siweDomain ?? new URL(options.apiUrl).host;
  const siweUri = `${new URL(options.apiUrl).protocol}//${siweDomain}`;
  // #region siwe
  const { nonce } = await api.post<{ nonce: string }>('/auth/nonce');
  const message = createSiweMessage({
    domain: siweDomain, // the service's SIWE_DOMAIN
    uri: siweUri, // on that same host
    address: account.address,
    version: '1',
    chainId: foundry.id, // a chain of GET /chains
    nonce,
    issuedAt: new Date(),
    statement: 'Sign in to launch a token',
  });
  const signature = await wallet.signMessage({ message });
  const verified = await api.request('POST', '/auth/verify', { message, signature });
  // The session JWT comes as the svc_session cookie; outside a browser, send it as Bearer.
  api.session =
    verified.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0]!)
      .find((pair) => pair.startsWith('svc_session='))
      ?.slice('svc_session='.length) ?? null;
  const me = await api.get<{ id: number; address: string }>('/me');
  // #endregion siwe
  log(`   signed in as user ${me.id} (${me.address})`);
  const elsewhere = createSiweMessage({
    domain: 'example.com',
    uri: 'https://example.com',
    address: account.address,
    version: '1',
    chainId: foundry.id,
    nonce: (await api.post<{ nonce: string }>('/auth/nonce')).nonce,
    issuedAt: new Date(),
  });
  await mistake(
    'POST /auth/verify, message for example.com',
    api.post('/auth/verify', {
      message: elsewhere,
      signature: await wallet.signMessage({ message: elsewhere }),
    }),
  );

  step('POST /tokens: a virtuals token, and its launch calldata');
  const name = 'Walkthrough Curve';
  const ticker = randomTicker('WV');
  await mistake(
    'POST /tokens with graduationThreshold "0"',
    api.post('/tokens', {
      template: 'virtuals',
      name,
      ticker,
      chainId: foundry.id,
      params: { graduationThreshold: '0' },
    }),
  );
  // #region create
  const created = await api.post<Token>(
    '/tokens',
    {
      template: 'virtuals',
      name,
      ticker,
      chainId: foundry.id,
      // Payment tokens, decimal strings: graduates once 1000 are locked; the creator buys
      // for 10 in the launch transaction itself.
      params: { graduationThreshold: '1000', initialBuy: '10' },
    },
    // Optional: a retry with the same key answers the same token instead of a second one.
    { 'idempotency-key': randomUUID() },
  );
  const { launchFactory } = await api.get<TokenDetail>(`/tokens/${created.slug}`);
  // #endregion create
  log(`   ${created.slug} (${created.ticker}) is ${created.state}, launch at ${launchFactory}`);
  if (!created.pendingLaunchTx || launchFactory !== virtualsFactory) {
    throw new Error('the new token has no pendingLaunchTx for the virtuals factory');
  }

  step('Send pendingLaunchTx to the launch factory from the wallet');
  // #region launch
  // initialBuy is paid by the creator in the launch: approve the factory first (here for
  // every later buy too).
  await send(wallet, {
    address: payment.address,
    abi: testTokenAbi,
    functionName: 'approve',
    args: [virtualsFactory, maxUint256],
  });
  const launchHash = await wallet.sendTransaction({
    to: launchFactory,
    data: created.pendingLaunchTx,
  });
  const launchReceipt = await publicClient.waitForTransactionReceipt({ hash: launchHash });
  // #endregion launch
  log(`   launched in block ${launchReceipt.blockNumber} (${launchHash})`);

  step('GET /tokens/:slug until the indexer has linked the launch');
  const sentAt = Date.now();
  // #region live
  const live = await waitFor('the token to go live', async () => {
    const token = await api.get<TokenDetail>(`/tokens/${created.slug}`);
    if (token.state === 'failed') throw new Error('the launch was never seen on chain');
    return token.state === 'live' && token.instance ? token : undefined;
  });
  const instance = live.instance!;
  // #endregion live
  const liveAfterMs = Date.now() - sentAt;
  log(`   live after ${liveAfterMs} ms: instance ${instance}, index at block ${live.blockNumber}`);
  log(
    `   locked ${live.lockedPaymentToken} of ${live.graduationThreshold}, ${live.holdersCount} holder(s)`,
  );

  step('Buy on the curve: quoteBuy, 1 % slippage, a deadline');
  // #region buy
  const amountIn = parseEther('100');
  const quotedOut = (await publicClient.readContract({
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'quoteBuy',
    args: [instance, amountIn],
  })) as bigint;
  const amountOutMin = (quotedOut * 99n) / 100n;
  // The deadline is checked against the block's time: take it from the chain.
  const deadline = (await publicClient.getBlock()).timestamp + 600n;
  const buyReceipt = await send(wallet, {
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'buy',
    args: [instance, amountIn, amountOutMin, deadline],
  });
  // #endregion buy
  log(
    `   ${formatEther(amountIn)} ${payment.symbol} for about ${formatEther(quotedOut)} ${ticker}`,
  );

  step('Sell a quarter of the balance: approve the token, quoteSell, sell');
  // #region sell
  const held = (await publicClient.readContract({
    address: instance,
    abi: virtualsTokenAbi,
    functionName: 'balanceOf',
    args: [account.address],
  })) as bigint;
  const tokensIn = held / 4n;
  const quotedPayment = (await publicClient.readContract({
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'quoteSell',
    args: [instance, tokensIn],
  })) as bigint;
  await send(wallet, {
    address: instance,
    abi: virtualsTokenAbi,
    functionName: 'approve',
    args: [virtualsFactory, tokensIn],
  });
  const sellReceipt = await send(wallet, {
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'sell',
    args: [instance, tokensIn, (quotedPayment * 99n) / 100n, deadline],
  });
  // #endregion sell
  log(`   ${formatEther(tokensIn)} ${ticker} for ${formatEther(quotedPayment)} ${payment.symbol}`);

  step('Holders, trades and the curve from the API, checked against the chain');
  // #region reads
  // Every chain read answers with blockNumber, the last block the index has read: wait
  // until it has passed the sell, then read the contract at that same block to compare.
  const slug = created.slug;
  const trades = await waitFor('the index to reach the sell', async () => {
    const page = await api.get<Page<Trade>>(`/tokens/${slug}/trades?limit=100`);
    return (page.blockNumber ?? -1) >= Number(sellReceipt.blockNumber) ? page : undefined;
  });
  const holders = await api.get<Page<Holder>>(`/tokens/${slug}/holders`);
  const onchain = await api.get<CurveOnchain>(`/tokens/${slug}/onchain`);
  // #endregion reads
  // #region compare
  for (const holder of holders.items) {
    const balance = (await publicClient.readContract({
      address: instance,
      abi: virtualsTokenAbi,
      functionName: 'balanceOf',
      args: [holder.address],
      blockNumber: BigInt(holders.blockNumber!),
    })) as bigint;
    if (parseEther(holder.balance) !== balance) throw new Error(`${holder.address}: differs`);
  }
  const [reserveToken, lockedPayment] = (await publicClient.readContract({
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'curves',
    args: [instance],
    blockNumber: BigInt(onchain.blockNumber!),
  })) as readonly [bigint, bigint, bigint, bigint, boolean, Address];
  if (
    parseEther(onchain.reserveToken!) !== reserveToken ||
    parseEther(onchain.lockedPaymentToken!) !== lockedPayment
  ) {
    throw new Error('the curve differs from the contract at the same block');
  }
  // #endregion compare
  for (const trade of [...trades.items].reverse()) {
    log(`   ${trade.kind} ${trade.amountToken} for ${trade.amountPayment} by ${trade.trader}`);
  }
  for (const holder of holders.items) {
    log(`   holder ${holder.address}: ${holder.balance} (${(holder.share * 100).toFixed(2)} %)`);
  }
  log(
    `   curve at block ${onchain.blockNumber}: ${onchain.lockedPaymentToken} locked of ` +
      `${onchain.graduationThreshold}, ${onchain.reserveToken} tokens left: as on chain`,
  );

  step('Graduate: buy the rest of the threshold');
  // #region graduate
  const [, locked, , threshold] = (await publicClient.readContract({
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'curves',
    args: [instance],
  })) as readonly [bigint, bigint, bigint, bigint, boolean, Address];
  const rest = threshold - locked;
  const restOut = (await publicClient.readContract({
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'quoteBuy',
    args: [instance, rest],
  })) as bigint;
  const graduation = await send(wallet, {
    address: virtualsFactory,
    abi: virtualsFactoryAbi,
    functionName: 'buy',
    args: [
      instance,
      rest,
      (restOut * 99n) / 100n,
      (await publicClient.getBlock()).timestamp + 600n,
    ],
  });
  const [graduated] = parseEventLogs({
    abi: virtualsFactoryAbi,
    eventName: 'Graduated',
    logs: graduation.logs,
  });
  // #endregion graduate
  // #region sentient
  const sentient = await waitFor('the token to be sentient', async () => {
    const token = await api.get<TokenDetail>(`/tokens/${slug}`);
    return token.state === 'sentient' ? token : undefined;
  });
  // #endregion sentient
  // #region refused
  // The curve trades no more: a buy now reverts with "graduated".
  const refused = await publicClient
    .simulateContract({
      account,
      address: virtualsFactory,
      abi: virtualsFactoryAbi,
      functionName: 'buy',
      args: [instance, parseEther('1'), 0n, (await publicClient.getBlock()).timestamp + 600n],
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  const revert =
    refused instanceof BaseError
      ? refused.walk((cause) => cause instanceof ContractFunctionRevertedError)
      : null;
  const refusedBuyReason =
    revert instanceof ContractFunctionRevertedError ? revert.reason : undefined;
  // #endregion refused
  log(`   Graduated in block ${graduated?.blockNumber}; state ${sentient.state}`);
  log(`   a further buy reverts: ${refusedBuyReason}`);
  const finalTrades = await waitFor('the index to reach the graduation', async () => {
    const page = await api.get<Page<Trade>>(`/tokens/${slug}/trades?limit=100`);
    return (page.blockNumber ?? -1) >= Number(graduation.blockNumber) ? page : undefined;
  });
  const finalOnchain = await api.get<CurveOnchain>(`/tokens/${slug}/onchain`);
  log(`   trades, newest first: ${finalTrades.items.map((trade) => trade.kind).join(', ')}`);

  step('Mistakes and their error envelopes');
  await mistake('GET /tokens/no-such-token', api.get('/tokens/no-such-token'));
  await mistake('GET /tokens/no-such-token/holders', api.get('/tokens/no-such-token/holders'));
  await mistake(
    'POST /tokens with an unknown params field',
    api.post('/tokens', {
      template: 'virtuals',
      name,
      ticker: randomTicker('WX'),
      chainId: foundry.id,
      params: { graduationThreshold: '1000', initialBuys: '10' },
    }),
  );
  await mistake(
    `POST /tokens with the ticker ${ticker} again`,
    api.post('/tokens', {
      template: 'virtuals',
      name,
      ticker,
      chainId: foundry.id,
      params: { graduationThreshold: '1000' },
    }),
  );
  await mistake(
    'POST /tokens on chain 1',
    api.post('/tokens', {
      template: 'virtuals',
      name,
      ticker: randomTicker('WX'),
      chainId: 1,
      params: { graduationThreshold: '1000' },
    }),
  );
  const session = api.session;
  api.session = null;
  await mistake(
    'POST /tokens without a session',
    api.post('/tokens', {
      template: 'virtuals',
      name,
      ticker: randomTicker('WX'),
      chainId: foundry.id,
      params: { graduationThreshold: '1000' },
    }),
  );
  api.session = session;

  step('dpnm: launch a pool token');
  const dpnmFactory = local.factories.dpnm;
  const usdt = local.paymentTokens.find((token) => token.role === 'usdt');
  if (!dpnmFactory || !usdt) throw new Error('chain 31337 has no dpnm factory or USDT');
  // #region dpnm-launch
  const pool = await api.post<Token>('/tokens', {
    template: 'dpnm',
    name: 'Walkthrough Pool',
    ticker: randomTicker('WD'),
    chainId: foundry.id,
    params: {
      initialPrice: '1', // USDT per token while the supply is 0
      dailyLimitFloor: '500', // USDT a trader may buy for per 24 h, at least
      incomeLimitMultiplier: 3,
      treeActivationCost: '10', // USDT to join the tree
    },
  });
  const poolLaunch = await publicClient.waitForTransactionReceipt({
    hash: await wallet.sendTransaction({ to: dpnmFactory, data: pool.pendingLaunchTx! }),
  });
  const poolLive = await waitFor('the dpnm token to go live', async () => {
    const token = await api.get<TokenDetail>(`/tokens/${pool.slug}`);
    return token.state === 'live' && token.flowProtocol ? token : undefined;
  });
  const protocol = poolLive.flowProtocol!; // the DpnmProtocol: trades, tree, fees
  // #endregion dpnm-launch
  log(`   ${pool.slug} live: instance ${poolLive.instance}, protocol ${protocol}`);

  step('dpnm: a second wallet joins the tree under the creator and buys');
  // #region dpnm-join
  const member = createWalletClient({
    account: privateKeyToAccount(generatePrivateKey()),
    chain: foundry,
    transport,
  });
  await anvil.setBalance({ address: member.account.address, value: parseEther('10') });
  await send(member, {
    address: usdt.address,
    abi: testTokenAbi,
    functionName: 'mint',
    args: [member.account.address, parseEther('1000')],
  });
  // Activation and buys both pay USDT to the protocol.
  await send(member, {
    address: usdt.address,
    abi: testTokenAbi,
    functionName: 'approve',
    args: [protocol, maxUint256],
  });
  const activation = await send(member, {
    address: protocol,
    abi: dpnmProtocolAbi,
    functionName: 'activate',
    args: [account.address], // the referrer; the zero address means the creator
  });
  // #endregion dpnm-join
  // #region dpnm-buy
  // No quote function: tokensOut = (usdtIn − 10 % fee) × 1e18 / price(), price before the buy.
  const usdtIn = parseEther('100');
  const price = (await publicClient.readContract({
    address: protocol,
    abi: dpnmProtocolAbi,
    functionName: 'price',
  })) as bigint;
  const expectedOut = ((usdtIn - usdtIn / 10n) * 10n ** 18n) / price;
  const poolBuy = await send(member, {
    address: protocol,
    abi: dpnmProtocolAbi,
    functionName: 'buy',
    args: [usdtIn, (expectedOut * 99n) / 100n, (await publicClient.getBlock()).timestamp + 600n],
  });
  const poolOnchain = await waitFor('the index to reach the dpnm buy', async () => {
    const view = await api.get<PoolOnchain>(`/tokens/${pool.slug}/onchain`);
    return (view.blockNumber ?? -1) >= Number(poolBuy.blockNumber) ? view : undefined;
  });
  const poolUsdt = (await publicClient.readContract({
    address: protocol,
    abi: dpnmProtocolAbi,
    functionName: 'poolUsdt',
    blockNumber: BigInt(poolOnchain.blockNumber!),
  })) as bigint;
  if (parseEther(poolOnchain.poolUsdt!) !== poolUsdt) throw new Error('the pool differs');
  // #endregion dpnm-buy
  const poolTrades = await api.get<Page<Trade>>(`/tokens/${pool.slug}/trades`);
  log(`   ${member.account.address} joined and bought for ${formatEther(usdtIn)} USDT`);
  log(
    `   pool ${poolOnchain.poolUsdt} USDT (as on chain), price ${poolOnchain.currentPrice}, ` +
      `${poolOnchain.totalTreePositions} tree positions, fees ${poolOnchain.lifetimeFeesUsdt}`,
  );

  log(`\nDone: ${options.apiUrl}/tokens/${slug} and ${options.apiUrl}/tokens/${pool.slug}`);
  return {
    creator: account.address,
    chain: local,
    mistakes,
    virtuals: {
      created,
      factory: virtualsFactory,
      payment: payment.address,
      instance,
      live,
      liveAfterMs,
      receipts: { launch: launchReceipt, buy: buyReceipt, sell: sellReceipt },
      holders,
      trades,
      onchain,
      graduation,
      sentient,
      finalTrades,
      finalOnchain,
      refusedBuyReason,
    },
    dpnm: {
      created: pool,
      factory: dpnmFactory,
      usdt: usdt.address,
      live: poolLive,
      protocol,
      member: member.account.address,
      receipts: { launch: poolLaunch, activate: activation, buy: poolBuy },
      onchain: poolOnchain,
      trades: poolTrades,
    },
  };
}

if (require.main === module) {
  runWalkthrough({
    apiUrl: process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 3000}`,
    rpcUrl: process.env.RPC_URL ?? `http://127.0.0.1:${process.env.DEV_ANVIL_PORT ?? 8545}`,
    siweDomain: process.env.SIWE_DOMAIN,
  }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
