import { type Address } from 'viem';
import { newAccount, signIn, type SignedIn } from '../helpers/auth';
import { useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  TESTNET,
  type TokenBody,
  type TokenPage,
  deployLaunchFactory,
  tokenFixtures,
  tokensEnv,
} from '../helpers/tokens-fixtures';

/**
 * GET /tokens/:slug and GET /tokens: the detail, filters, sorts, cursors and paging under
 * inserts (docs/spec/contract.md §7).
 */

let alice: SignedIn;
let bob: SignedIn;
/** The fixture factory on anvil, configured for both templates on chain 31337. */
let factory: Address;

beforeAll(async () => {
  ({ factory } = await deployLaunchFactory());
}, 120_000);
const test = useTestApp({ env: () => tokensEnv(factory) });
const { dpnmBody, virtualsBody, created, get } = tokenFixtures(test);
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

describe('GET /tokens/:slug', () => {
  it('returns the detail with the holder reward pool in FLOW, anonymously', async () => {
    const token = await created(alice, dpnmBody({ name: 'Reward Pool Token' }));
    await test.ctx.sql('update tokens set holder_reward_pool = 1500000 where id = $1', [token.id]);
    const response = await get(`/tokens/${token.slug}`);
    expect(response.statusCode).toBe(200);
    // Not launched: the dpnm chain fields are there, null (docs/chain.md "Reads").
    expect(response.json()).toEqual({
      ...token,
      description: null,
      links: { website: null, twitter: null, telegram: null },
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
  const rows = await test.ctx.sql<{ id: string }>(
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
    await test.ctx.sql(`update tokens set state = 'failed' where id = $1`, [failed.id]);
    await test.ctx.sql(`update tokens set state = 'graduating' where id = $1`, [graduating.id]);
  });

  it('lists anonymously, newest first by default, in the Token shape', async () => {
    const response = await get('/tokens?limit=100');
    expect(response.statusCode).toBe(200);
    const page = response.json<TokenPage>();
    const mine = page.items.find((token) => token.id === onTestnet.id);
    // The list item is the created token without the create-only launchFactory, with its
    // board figures: none, since no launch of it is indexed.
    const { launchFactory, ...listed } = onTestnet as TokenBody & { launchFactory: unknown };
    expect(launchFactory).toBeNull();
    expect(mine).toEqual({ ...listed, market: null });
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
    const rows = await test.ctx.sql<{ id: string }>(
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
    await test.ctx.sql(
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
