import { decodeFunctionData, getAddress, parseEventLogs, type Abi, type Address } from 'viem';
import {
  dpnmFactoryAbi,
  launchedEventAbi,
  refOf,
  virtualsFactoryAbi,
} from '../../shared/chain/launchpad';
import { newAccount, signIn, type SignedIn } from '../helpers/auth';
import { useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  ISO,
  DPNM_PARAMS,
  LOCAL,
  TESTNET,
  VIRTUALS_PARAMS,
  chain,
  wallet,
  type TokenBody,
  deployLaunchFactory,
  tokenFixtures,
  tokensEnv,
} from '../helpers/tokens-fixtures';

/**
 * POST /tokens that succeed: pending launches with their calldata, linked instances
 * (docs/spec/contract.md §7).
 */

let alice: SignedIn;
let bob: SignedIn;
/** The fixture factory on anvil, configured for both templates on chain 31337. */
let factory: Address;
/** ABI of the instances the fixture factory creates. */
let launchedTokenAbi: Abi;
/** One of anvil's unlocked accounts: anvil signs and picks the nonce (no races with other files). */
let creator: Address;

beforeAll(async () => {
  ({ factory, launchedTokenAbi, creator } = await deployLaunchFactory());
}, 120_000);
const test = useTestApp({ env: () => tokensEnv(factory) });
const { freshTicker, dpnmBody, virtualsBody, create, created, rowsWithTicker, get } =
  tokenFixtures(test);
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

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
      launchFactory: getAddress(test.ctx.config.launchFactories[LOCAL]!.virtuals!),
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

    const [row] = await test.ctx.sql(
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
      test.app.inject({
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
    const [row] = await test.ctx.sql('select pending_launch_tx from tokens where id = $1', [
      token.id,
    ]);
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
