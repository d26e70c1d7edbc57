import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  parseAbi,
  parseEther,
  parseEventLogs,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { App } from '../../api/app';
import {
  dpnmFactoryAbi,
  launchedEventAbi,
  refOf,
  virtualsFactoryAbi,
} from '../../shared/chain/launchpad';
import { deployReferenceContracts, referenceAddresses } from '../../scripts/chain-deployment';
import { newAccount, signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { referenceFactories, referencePaymentTokens } from '../helpers/reference';
import { readTestServices } from '../helpers/services';
import { compileFixture } from '../helpers/solidity';

/** Tokens and chains: POST/GET /tokens, GET /tokens/:slug, GET /chains (docs/spec/contract.md §7). */

type Reply = Awaited<ReturnType<App['inject']>>;

interface TokenBody {
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
interface TokenPage {
  items: TokenBody[];
  nextCursor: string | null;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const LOCAL = 31337;
/** A second configured chain (never contacted) that only has a dpnm factory. */
const TESTNET = 97;
const TESTNET_DPNM = getAddress('0x00000000000000000000000000000000000d9a97');
const TESTNET_USDT = getAddress('0x00000000000000000000000000000000005d7a97');
const DPNM_PARAMS = {
  initialPrice: '0.5',
  dailyLimitFloor: '10',
  incomeLimitMultiplier: 2.5,
  treeActivationCost: '25',
};
const VIRTUALS_PARAMS = { graduationThreshold: '42000', initialBuy: '100.25' };

const rpc = http(readTestServices().anvilUrl);
const chain = createPublicClient({ chain: foundry, transport: rpc });
const wallet = createWalletClient({ chain: foundry, transport: rpc });
const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport: rpc });

let ctx: TestContext;
let app: App;
let other: App;
let alice: SignedIn;
let bob: SignedIn;
/** The fixture factory on anvil, configured for both templates on chain 31337. */
let factory: Address;
/** ABI of the instances the fixture factory creates. */
let launchedTokenAbi: Abi;
/** One of anvil's unlocked accounts: anvil signs and picks the nonce (no races with other files). */
let creator: Address;

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

function create(session: SignedIn | null, payload: Record<string, unknown>, api = app) {
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

function expectError(response: Reply, status: number, code: string, message?: RegExp) {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ error: { code, message: expect.any(String) } });
  if (message)
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
}

async function rowsWithTicker(ticker: string) {
  return ctx.sql<{ id: string; chain_id: number }>(
    'select id, chain_id from tokens where ticker = $1',
    [ticker],
  );
}

async function get(url: string): Promise<Reply> {
  return app.inject({ method: 'GET', url });
}

beforeAll(async () => {
  [, , , creator] = (await wallet.getAddresses()) as [Address, Address, Address, Address];
  const { abi, bytecode } = compileFixture('LaunchFactory.sol', 'LaunchFactory');
  const hash = await wallet.deployContract({ account: creator, abi, bytecode });
  factory = getAddress((await chain.waitForTransactionReceipt({ hash })).contractAddress!);
  launchedTokenAbi = compileFixture('LaunchFactory.sol', 'LaunchedToken').abi;

  ctx = await createTestContext({
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
  });
  app = await ctx.newApi();
  other = await ctx.newApi();
  await Promise.all([app.ready(), other.ready()]);
  alice = await signIn(app);
  bob = await signIn(app);
}, 120_000);
afterAll(async () => ctx?.close());

describe('POST /tokens without an instance', () => {
  it('creates a pending virtuals token whose pendingLaunchTx is the factory’s launch call', async () => {
    const ticker = freshTicker('V');
    const response = await create(alice, {
      ...virtualsBody({ ticker: ` ${ticker.toLowerCase()} ` }),
      name: '  Moon Agent  ',
      brief: 'An agent that goes to the moon.',
      imageUrl: 'https://cdn.example.com/moon.png',
    });
    expect(response.statusCode).toBe(201);
    const token = response.json<TokenBody>();
    expect(token).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: expect.stringMatching(/^moon-agent(-[0-9a-f]{6})?$/),
      name: 'Moon Agent',
      ticker,
      template: 'virtuals',
      instance: null,
      chainId: LOCAL,
      imageUrl: 'https://cdn.example.com/moon.png',
      brief: 'An agent that goes to the moon.',
      params: VIRTUALS_PARAMS,
      state: 'pending',
      createdAt: expect.stringMatching(ISO),
      pendingLaunchTx: expect.stringMatching(/^0x[0-9a-f]+$/),
      // Where the wallet sends it, in the same answer.
      launchFactory: getAddress(ctx.config.launchFactories[LOCAL]!.virtuals!),
    });
    const call = decodeFunctionData({ abi: virtualsFactoryAbi, data: token.pendingLaunchTx! });
    expect(call.functionName).toBe('launch');
    expect(call.args).toEqual([
      refOf(token.id),
      'Moon Agent',
      ticker,
      42_000n * 10n ** 18n,
      100_250_000_000_000_000_000n,
    ]);

    const [row] = await ctx.sql(
      'select owner_id, state, pending_launch_tx from tokens where id = $1',
      [token.id],
    );
    expect(row).toEqual({
      owner_id: alice.userId,
      state: 'pending',
      pending_launch_tx: token.pendingLaunchTx,
    });
  });

  it('encodes dpnm params as 18-decimal amounts and the multiplier in basis points', async () => {
    const token = await created(
      alice,
      dpnmBody({ params: { ...DPNM_PARAMS, initialPrice: '0.0125' } }),
    );
    expect(token.state).toBe('pending');
    const call = decodeFunctionData({ abi: dpnmFactoryAbi, data: token.pendingLaunchTx! });
    expect(call.args).toEqual([
      refOf(token.id),
      'Tree Token',
      token.ticker,
      12_500_000_000_000_000n,
      10n * 10n ** 18n,
      25_000,
      25n * 10n ** 18n,
    ]);
  });

  it('stores params normalised: shortest decimals, initialBuy defaulting to "0"', async () => {
    const token = await created(
      alice,
      virtualsBody({ params: { graduationThreshold: '0500.50' } }),
    );
    expect(token.params).toEqual({ graduationThreshold: '500.5', initialBuy: '0' });
    const detail = (await get(`/tokens/${token.slug}`)).json<TokenBody>();
    expect(detail.params).toEqual({ graduationThreshold: '500.5', initialBuy: '0' });
  });

  it.each(['virtuals', 'dpnm'] as const)(
    'gives %s calldata that launches on anvil, with Launched carrying the token’s ref',
    async (template) => {
      const body = template === 'virtuals' ? virtualsBody() : dpnmBody();
      const token = await created(alice, body);
      const detail = (await get(`/tokens/${token.slug}`)).json<{ launchFactory: Address }>();
      expect(detail.launchFactory).toBe(factory);

      const hash = await wallet.sendTransaction({
        account: creator,
        to: detail.launchFactory,
        data: token.pendingLaunchTx!,
      });
      const receipt = await chain.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const [launched, ...more] = parseEventLogs({
        abi: launchedEventAbi,
        logs: receipt.logs,
        eventName: 'Launched',
      });
      expect(more).toHaveLength(0);
      expect(launched!.args.ref).toBe(refOf(token.id));
      expect(launched!.args.creator).toBe(creator);

      // The instance the factory created holds what the metadata says.
      const instance = { address: launched!.args.instance, abi: launchedTokenAbi };
      expect(await chain.readContract({ ...instance, functionName: 'name' })).toBe(token.name);
      expect(await chain.readContract({ ...instance, functionName: 'symbol' })).toBe(token.ticker);
      const expected =
        template === 'virtuals'
          ? [42_000n * 10n ** 18n, 100_250_000_000_000_000_000n]
          : [5n * 10n ** 17n, 10n * 10n ** 18n, 25_000n, 25n * 10n ** 18n];
      for (const [index, value] of expected.entries()) {
        expect(
          await chain.readContract({
            ...instance,
            functionName: 'settings',
            args: [BigInt(index)],
          }),
        ).toBe(value);
      }
    },
  );

  it('derives the slug from the name and suffixes it when taken', async () => {
    const first = await created(alice, dpnmBody({ name: 'Café Ünïcode Token!' }));
    const second = await created(bob, dpnmBody({ name: 'cafe unicode token' }));
    expect(first.slug).toBe('cafe-unicode-token');
    expect(second.slug).toMatch(/^cafe-unicode-token-[0-9a-f]{6}$/);
    const emoji = await created(alice, dpnmBody({ name: '🚀🚀' }));
    expect(emoji.slug).toMatch(/^token(-[0-9a-f]{6})?$/);
  });

  it('is idempotent with an Idempotency-Key', async () => {
    const body = dpnmBody();
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/tokens',
        headers: { cookie: alice.cookie, 'idempotency-key': `tok-${body.ticker}` },
        payload: body,
      });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<TokenBody>().id).toBe(first.json<TokenBody>().id);
    expect(await rowsWithTicker(body.ticker)).toHaveLength(1);
  });
});

describe('POST /tokens with an instance', () => {
  it('stores metadata only: live, checksummed instance, no pendingLaunchTx', async () => {
    const address = newAccount().address;
    const token = await created(alice, dpnmBody({ instance: address.toLowerCase() }));
    expect(token.state).toBe('live');
    expect(token.instance).toBe(address);
    expect(token).not.toHaveProperty('pendingLaunchTx');
    const detail = (await get(`/tokens/${token.slug}`)).json<Record<string, unknown>>();
    expect(detail).not.toHaveProperty('pendingLaunchTx');
    expect(detail.launchFactory).toBeNull();
    const [row] = await ctx.sql('select pending_launch_tx from tokens where id = $1', [token.id]);
    expect(row).toEqual({ pending_launch_tx: null });
  });

  it('refuses an instance already linked on that chain (409 instance_taken), in any case', async () => {
    const address = newAccount().address;
    await created(alice, dpnmBody({ instance: address }));
    const ticker = freshTicker();
    const again = await create(bob, dpnmBody({ ticker, instance: address.toLowerCase() }));
    expectError(again, 409, 'instance_taken', /^instance: .*already linked.*31337/);
    expect(await rowsWithTicker(ticker)).toHaveLength(0);
    // The same address on another chain is another instance.
    expect((await create(bob, dpnmBody({ instance: address, chainId: TESTNET }))).statusCode).toBe(
      201,
    );
  });

  it.each([
    ['not an address', 'nope'],
    ['too short', '0x1234'],
    ['a bad EIP-55 checksum', '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01'],
    ['the zero address', '0x0000000000000000000000000000000000000000'],
    ['a number', 42],
  ])('refuses %s as instance (400 invalid_request)', async (_label, instance) => {
    const body = dpnmBody({ instance });
    expectError(
      await create(alice, body),
      400,
      'invalid_request',
      /^instance: must be a .*0x address/,
    );
    expect(await rowsWithTicker(body.ticker)).toHaveLength(0);
  });
});

describe('POST /tokens refusals', () => {
  it('needs a signed-in user (401 unauthenticated)', async () => {
    const body = dpnmBody();
    expectError(await create(null, body), 401, 'unauthenticated');
    expect(await rowsWithTicker(body.ticker)).toHaveLength(0);
  });

  it('ticker_taken: the same ticker twice on one chain, in any case; another chain is fine', async () => {
    const ticker = freshTicker('K');
    await created(alice, dpnmBody({ ticker }));
    expectError(
      await create(bob, virtualsBody({ ticker: ticker.toLowerCase() })),
      409,
      'ticker_taken',
      new RegExp(`^ticker: ${ticker} is already used on chain ${LOCAL}$`),
    );
    const elsewhere = await created(bob, dpnmBody({ ticker, chainId: TESTNET }));
    expect(elsewhere.chainId).toBe(TESTNET);
    expect((await rowsWithTicker(ticker)).map((row) => row.chain_id).sort((a, b) => a - b)).toEqual(
      [TESTNET, LOCAL],
    );
  });

  it('normalises tickers to upper case and accepts 3 to 6 of A-Z, 0-9', async () => {
    const three = await created(alice, dpnmBody({ ticker: 'q1z' }));
    expect(three.ticker).toBe('Q1Z');
    const six = await created(alice, dpnmBody({ ticker: ' zz9zz9 ' }));
    expect(six.ticker).toBe('ZZ9ZZ9');
  });

  it.each(['AB', 'ABCDEFG', 'AB-C', 'ÄBC', 'AB C', '', 'ßab', 'ıab'])(
    'invalid_ticker: %j',
    async (ticker) => {
      expectError(await create(alice, dpnmBody({ ticker })), 400, 'invalid_ticker', /^ticker: /);
    },
  );

  it('template_unknown: a name that is no template, or a template without a factory on the chain', async () => {
    expectError(
      await create(alice, dpnmBody({ template: 'pumpfun' })),
      400,
      'template_unknown',
      /^template: "pumpfun" is not a template/,
    );
    const body = virtualsBody({ chainId: TESTNET });
    expectError(
      await create(alice, body),
      400,
      'template_unknown',
      /^template: virtuals has no launch factory on chain 97$/,
    );
    expect(await rowsWithTicker(body.ticker)).toHaveLength(0);
  });

  it('chain_unsupported: a chain that is not configured', async () => {
    expectError(
      await create(alice, dpnmBody({ chainId: 1 })),
      400,
      'chain_unsupported',
      /^chainId: 1 is not configured/,
    );
  });

  it.each([
    [
      'a missing field',
      { initialPrice: '1', dailyLimitFloor: '1', incomeLimitMultiplier: 2 },
      'params.treeActivationCost: is required',
    ],
    [
      'a wrong type',
      { ...DPNM_PARAMS, incomeLimitMultiplier: '2' },
      'params.incomeLimitMultiplier: must be a number',
    ],
    [
      'a number for a decimal string',
      { ...DPNM_PARAMS, initialPrice: 0.5 },
      'params.initialPrice: must be a decimal string with at most 18 decimals',
    ],
    ['an unknown field', { ...DPNM_PARAMS, bonus: '1' }, 'params.bonus: is not a known field'],
    [
      'too many decimals',
      { ...DPNM_PARAMS, initialPrice: '0.1234567890123456789' },
      'params.initialPrice: must be a decimal string with at most 18 decimals',
    ],
    [
      'a zero price',
      { ...DPNM_PARAMS, initialPrice: '0' },
      'params.initialPrice: must be greater than 0',
    ],
    [
      'a multiplier above 100',
      { ...DPNM_PARAMS, incomeLimitMultiplier: 101 },
      'params.incomeLimitMultiplier: must be at most 100',
    ],
    [
      'another template’s params',
      VIRTUALS_PARAMS,
      'params.graduationThreshold, params.initialBuy: is not a known field',
    ],
  ])('params_invalid: %s', async (_label, params, message) => {
    const body = dpnmBody({ params });
    const response = await create(alice, body);
    expectError(response, 400, 'params_invalid');
    expect(response.json<{ error: { message: string } }>().error.message).toContain(message);
    expect(await rowsWithTicker(body.ticker)).toHaveLength(0);
  });

  it.each([
    ['an unknown field (no mass assignment)', { state: 'live' }, /^state: is not a known field$/],
    ['params missing', { params: undefined }, /^params: is required$/],
    ['params not an object', { params: 'x' }, /^params: /],
    ['an http imageUrl', { imageUrl: 'http://cdn.example.com/a.png' }, /^imageUrl: /],
    ['a long brief', { brief: 'x'.repeat(2001) }, /^brief: must be at most 2000 characters$/],
    ['an empty name', { name: '   ' }, /^name: must be 1 to 64 characters$/],
    ['a fractional chainId', { chainId: 1.5 }, /^chainId: must be an integer$/],
  ])('invalid_request: %s', async (_label, overrides, message) => {
    expectError(await create(alice, dpnmBody(overrides)), 400, 'invalid_request', message);
  });

  it('lets exactly one of concurrent creates of a ticker win, across API instances', async () => {
    const ticker = freshTicker('R');
    const users = [alice, bob, alice, bob, alice, bob, alice, bob];
    const responses = await Promise.all(
      users.map((user, index) =>
        create(user, dpnmBody({ ticker, name: `Race ${index}` }), index % 2 === 0 ? app : other),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expectError(response, 409, 'ticker_taken');
    }
    expect(await rowsWithTicker(ticker)).toHaveLength(1);
  });
});

describe('GET /tokens/:slug', () => {
  it('returns the detail with the holder reward pool in FLOW, anonymously', async () => {
    const token = await created(alice, dpnmBody({ name: 'Reward Pool Token' }));
    await ctx.sql('update tokens set holder_reward_pool = 1500000 where id = $1', [token.id]);
    const response = await get(`/tokens/${token.slug}`);
    expect(response.statusCode).toBe(200);
    // Not launched: the dpnm chain fields are there, null (docs/chain.md "Reads").
    expect(response.json()).toEqual({
      ...token,
      holderRewardPoolFlow: 1.5,
      lastHolderRewardDistribution: null,
      launchFactory: factory,
      flowProtocol: null,
      phenomenalTree: null,
      gwt: null,
      currentPrice: null,
      poolUsdt: null,
      totalSupply: null,
      holdersCount: null,
      treeActivePositions: null,
      blockNumber: null,
    });
  });

  it.each(['no-such-token', 'Not_A_Slug', 'double--hyphen', '-leading', '%20'])(
    'is 404 token_not_found for %j',
    async (slug) => {
      expectError(await get(`/tokens/${slug}`), 404, 'token_not_found');
    },
  );
});

/** Every page of a listing, following nextCursor; `between` runs before each next page. */
async function walk(query: string, between?: () => Promise<void>) {
  const seen: TokenBody[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const response = await get(`/tokens?${query}${after}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<TokenPage>();
    seen.push(...page.items);
    cursor = page.nextCursor;
    pages += 1;
    if (cursor && between) await between();
  } while (cursor);
  return { seen, ids: seen.map((token) => token.id), pages };
}

/** The ids the database itself returns for a filter and order. */
async function idsFromDb(where: string, order: string, params: unknown[] = []) {
  const rows = await ctx.sql<{ id: string }>(
    `select id from tokens ${where} order by ${order}`,
    params,
  );
  return rows.map((row) => row.id);
}

const NEWEST_FIRST = 'created_at desc, id desc';

describe('GET /tokens', () => {
  let failed: TokenBody;
  let graduating: TokenBody;
  let onTestnet: TokenBody;

  beforeAll(async () => {
    failed = await created(alice, dpnmBody({ name: 'Failed Launch' }));
    graduating = await created(bob, virtualsBody({ name: 'Graduating Curve' }));
    onTestnet = await created(bob, dpnmBody({ chainId: TESTNET, instance: newAccount().address }));
    await ctx.sql(`update tokens set state = 'failed' where id = $1`, [failed.id]);
    await ctx.sql(`update tokens set state = 'graduating' where id = $1`, [graduating.id]);
  });

  it('lists anonymously, newest first by default, in the Token shape', async () => {
    const response = await get('/tokens?limit=100');
    expect(response.statusCode).toBe(200);
    const page = response.json<TokenPage>();
    const mine = page.items.find((token) => token.id === onTestnet.id);
    // The list item is the created token without the create-only launchFactory.
    const { launchFactory, ...listed } = onTestnet as TokenBody & { launchFactory: unknown };
    expect(launchFactory).toBeNull();
    expect(mine).toEqual(listed);
    const { ids } = await walk('limit=100');
    expect(ids).toEqual(await idsFromDb('', NEWEST_FIRST));
  });

  it('filters by state', async () => {
    expect((await walk('state=failed')).ids).toEqual([failed.id]);
    expect((await walk('state=graduating')).ids).toEqual([graduating.id]);
    const pending = await walk('state=pending&limit=100');
    expect(pending.seen.every((token) => token.state === 'pending')).toBe(true);
    expect(pending.ids).toEqual(await idsFromDb(`where state = 'pending'`, NEWEST_FIRST));
    expect(pending.ids).not.toContain(failed.id);
  });

  it('filters by template and by chain, alone and combined', async () => {
    const virtuals = await walk('template=virtuals&limit=100');
    expect(virtuals.ids).toContain(graduating.id);
    expect(virtuals.ids).toEqual(await idsFromDb(`where template = 'virtuals'`, NEWEST_FIRST));

    const testnet = await walk(`chainId=${TESTNET}`);
    expect(testnet.ids).toContain(onTestnet.id);
    expect(testnet.seen.every((token) => token.chainId === TESTNET)).toBe(true);
    expect(testnet.ids).toEqual(await idsFromDb(`where chain_id = ${TESTNET}`, NEWEST_FIRST));

    const combined = await walk(`template=dpnm&state=live&chainId=${TESTNET}&limit=2`);
    expect(combined.ids).toEqual(
      await idsFromDb(
        `where template = 'dpnm' and state = 'live' and chain_id = ${TESTNET}`,
        NEWEST_FIRST,
      ),
    );
    expect((await walk('chainId=5')).ids).toEqual([]);
  });

  it('sorts by new, old and name, with the id breaking ties', async () => {
    const zebra = await created(alice, dpnmBody({ name: 'Zz Sort Zebra' }));
    const aardvark = await created(alice, dpnmBody({ name: 'Aa Sort Aardvark' }));
    const byNew = await walk('sort=new&limit=7');
    const byOld = await walk('sort=old&limit=7');
    const byName = await walk('sort=name&limit=7');
    expect(byNew.ids).toEqual(await idsFromDb('', NEWEST_FIRST));
    expect(byOld.ids).toEqual(await idsFromDb('', 'created_at asc, id asc'));
    expect(byOld.ids).toEqual([...byNew.ids].reverse());
    expect(byName.ids).toEqual(await idsFromDb('', 'name asc, id asc'));
    expect(byName.ids.indexOf(aardvark.id)).toBeLessThan(byName.ids.indexOf(zebra.id));
    expect(byNew.ids.indexOf(aardvark.id)).toBeLessThan(byNew.ids.indexOf(zebra.id));
  });

  it.each([
    ['sort=hot', /^sort: /],
    ['state=launched', /^state: /],
    ['template=pumpfun', /^template: /],
    ['chainId=abc', /^chainId: /],
    // Empty is not chain 0, and no chain id is zero or negative.
    ['chainId=', /^chainId: must be a positive integer$/],
    ['chainId=0', /^chainId: /],
    ['chainId=-9007199254740991', /^chainId: /],
    ['limit=0', /^limit: /],
  ])('refuses %s (400 invalid_request)', async (query, message) => {
    expectError(await get(`/tokens?${query}`), 400, 'invalid_request', message);
  });

  it('refuses a tampered cursor, or one from another filter or sort (400 invalid_cursor)', async () => {
    const first = (await get('/tokens?limit=1&sort=old')).json<TokenPage>();
    const cursor = first.nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    expect((await get(`/tokens?limit=1&sort=old&cursor=${cursor}`)).statusCode).toBe(200);

    const [payload, mac] = cursor.split('.') as [string, string];
    const flipped = `${payload.slice(0, 5)}${payload[5] === 'A' ? 'B' : 'A'}${payload.slice(6)}`;
    for (const url of [
      `/tokens?limit=1&sort=old&cursor=${flipped}.${mac}`,
      `/tokens?limit=1&sort=old&cursor=garbage`,
      `/tokens?limit=1&sort=new&cursor=${cursor}`,
      `/tokens?limit=1&sort=old&template=dpnm&cursor=${cursor}`,
    ]) {
      expectError(await get(url), 400, 'invalid_cursor');
    }
  });
});

describe('GET /tokens paging over 250 tokens while others are inserted', () => {
  const originals: string[] = [];
  let batch = 0;

  beforeAll(async () => {
    // Three tokens share each timestamp, so the id tie-breaker matters on every page.
    const rows = await ctx.sql<{ id: string }>(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
       select gen_random_uuid(), $1, 'walk-' || i, 'Walk ' || i, 'W' || lpad(i::text, 3, '0'),
              (case when i % 2 = 0 then 'dpnm' else 'virtuals' end), 31337, '{}'::jsonb, 'live',
              timestamptz '2026-01-01T00:00:00Z' + (i / 3) * interval '1 second'
       from generate_series(1, 250) as i
       returning id`,
      [alice.userId],
    );
    originals.push(...rows.map((row) => row.id));
  });

  /** Five tokens dated among the originals and one dated now, as other clients would add. */
  async function insertMore() {
    batch += 1;
    await ctx.sql(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
       select gen_random_uuid(), $1, 'more-' || $2::int || '-' || i, 'More', 'X' || lpad(($2::int * 10 + i)::text, 5, '0'),
              'dpnm', 31337, '{}'::jsonb, 'live',
              (case when i = 6 then now()
                    else timestamptz '2026-01-01T00:00:00Z' + random() * interval '84 seconds' end)
       from generate_series(1, 6) as i`,
      [alice.userId, batch],
    );
  }

  it.each([
    ['new', 1],
    ['old', -1],
  ] as const)('sort=%s: no repeats, no gaps, order kept', async (sort, direction) => {
    const { seen, ids, pages } = await walk(`sort=${sort}&limit=20`, insertMore);
    expect(pages).toBeGreaterThan(12);
    expect(new Set(ids).size).toBe(ids.length);
    const position = new Map(ids.map((id, index) => [id, index]));
    expect(originals.filter((id) => !position.has(id))).toEqual([]);
    // Every neighbouring pair is ordered by (createdAt, id) in the sort's direction.
    for (let index = 1; index < seen.length; index += 1) {
      const [before, after] = [seen[index - 1]!, seen[index]!];
      const key = (token: TokenBody) => `${token.createdAt}|${token.id}`;
      // Plain code-unit comparison: ISO times and lowercase UUIDs sort like the database.
      expect(direction * (key(before) > key(after) ? 1 : -1)).toBe(1);
    }
  });
});

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
