import { type Address } from 'viem';
import { signIn, type SignedIn } from '../helpers/auth';
import { useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  DPNM_PARAMS,
  LOCAL,
  TESTNET,
  VIRTUALS_PARAMS,
  deployLaunchFactory,
  tokenFixtures,
  tokensEnv,
} from '../helpers/tokens-fixtures';

/**
 * POST /tokens refusals: authentication, tickers, templates, chains, params and concurrent
 * creates (docs/spec/contract.md §7).
 */

let alice: SignedIn;
let bob: SignedIn;
/** The fixture factory on anvil, configured for both templates on chain 31337. */
let factory: Address;

beforeAll(async () => {
  ({ factory } = await deployLaunchFactory());
}, 120_000);
const test = useTestApp({ env: () => tokensEnv(factory), apis: 2 });
const { freshTicker, dpnmBody, virtualsBody, create, created, rowsWithTicker } =
  tokenFixtures(test);
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
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
        create(
          user,
          dpnmBody({ ticker, name: `Race ${index}` }),
          index % 2 === 0 ? test.app : test.other,
        ),
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
