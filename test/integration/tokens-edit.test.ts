import { randomBytes } from 'node:crypto';
import { getAddress, parseEventLogs, type Abi, type Address } from 'viem';
import { launchedEventAbi, refOf } from '../../shared/chain/launchpad';
import { signIn, type SignedIn } from '../helpers/auth';
import { useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  chain,
  deployLaunchFactory,
  tokenFixtures,
  tokensEnv,
  wallet,
  type TokenBody,
} from '../helpers/tokens-fixtures';

/**
 * PATCH /tokens/:slug and GET /tokens/:slug/metadata.json (docs/spec/contract.md §14): what a
 * creator may change before and after the launch, and the metadata JSON wallets read.
 */

let alice: SignedIn;
let bob: SignedIn;
let factory: Address;
let launchedTokenAbi: Abi;
let creator: Address;

beforeAll(async () => {
  ({ factory, launchedTokenAbi, creator } = await deployLaunchFactory());
}, 120_000);
const test = useTestApp({ env: () => tokensEnv(factory) });
const { freshTicker, dpnmBody, virtualsBody, created, get } = tokenFixtures(test);
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

interface Detail extends TokenBody {
  description: string | null;
  links: { website: string | null; twitter: string | null; telegram: string | null };
}

const patch = (session: SignedIn | null, slug: string, payload: unknown) =>
  test.app.inject({
    method: 'PATCH',
    url: `/tokens/${slug}`,
    headers: session ? { cookie: session.cookie } : {},
    payload: payload as Record<string, unknown>,
  });

/** A media row as POST /media leaves it (the upload itself is tested in media.test.ts). */
async function uploadedImage(): Promise<{ id: string; url: string }> {
  const id = randomBytes(32).toString('hex');
  await test.ctx.sql(
    `insert into media (id, mime_type, width, height, bytes, created_by, created_at)
     values ($1, 'image/webp', 128, 128, 1000, $2, now())`,
    [id, alice.userId],
  );
  return { id, url: `${test.ctx.config.publicBaseUrl}/media/${id}` };
}

const rowOf = async (slug: string) =>
  (
    await test.ctx.sql(
      `select name, ticker, image_url, description, link_website, link_twitter, link_telegram,
              pending_launch_tx from tokens where slug = $1`,
      [slug],
    )
  )[0];

const updatedEvents = async (slug: string) =>
  test.ctx.sql<{ payload: Record<string, unknown> }>(
    `select payload from market_events
      where kind = 'token' and payload->>'slug' = $1 and payload->>'reason' = 'updated'`,
    [slug],
  );

describe('PATCH /tokens/:slug while pending', () => {
  it('renames, re-tickers and re-images a pending token; its new calldata launches the new name', async () => {
    const token = await created(alice, virtualsBody({ name: 'Draft Name' }));
    const image = await uploadedImage();
    const ticker = freshTicker('N');
    const response = await patch(alice, token.slug, {
      name: 'Final Name',
      ticker: ticker.toLowerCase(),
      imageMediaId: image.id,
    });
    expect(response.statusCode).toBe(200);
    const detail = response.json<Detail>();
    expect(detail).toMatchObject({
      slug: token.slug,
      name: 'Final Name',
      ticker,
      imageUrl: image.url,
      state: 'pending',
      launchFactory: factory,
    });
    expect(detail.pendingLaunchTx).not.toBe(token.pendingLaunchTx);
    expect(await get(`/tokens/${token.slug}`).then((r) => r.json<Detail>())).toEqual(detail);
    // The board hears of it: one firehose `token` event, with the new name.
    expect(await updatedEvents(token.slug)).toEqual([
      { payload: expect.objectContaining({ name: 'Final Name', ticker, reason: 'updated' }) },
    ]);

    // The wallet signs what the metadata now says.
    const hash = await wallet.sendTransaction({
      account: creator,
      to: factory,
      data: detail.pendingLaunchTx!,
    });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    const [launched] = parseEventLogs({ abi: launchedEventAbi, logs: receipt.logs });
    expect(launched!.args.ref).toBe(refOf(token.id));
    const instance = { address: getAddress(launched!.args.instance), abi: launchedTokenAbi };
    expect(await chain.readContract({ ...instance, functionName: 'name' })).toBe('Final Name');
    expect(await chain.readContract({ ...instance, functionName: 'symbol' })).toBe(ticker);
  });

  it('sets, replaces and removes the description and each link independently', async () => {
    const token = await created(alice, dpnmBody());
    const first = await patch(alice, token.slug, {
      description: '  Funds research.  ',
      links: { website: 'https://tree.example.com', twitter: 'https://x.com/tree' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json<Detail>()).toMatchObject({
      description: 'Funds research.',
      links: { website: 'https://tree.example.com', twitter: 'https://x.com/tree', telegram: null },
    });
    const second = await patch(alice, token.slug, {
      links: { twitter: null, telegram: 'https://t.me/tree' },
    });
    expect(second.json<Detail>()).toMatchObject({
      description: 'Funds research.',
      links: { website: 'https://tree.example.com', twitter: null, telegram: 'https://t.me/tree' },
    });
    const third = await patch(alice, token.slug, { description: null });
    expect(third.json<Detail>().description).toBeNull();
    // Neither name nor image changed: nothing for the board.
    expect(await updatedEvents(token.slug)).toEqual([]);
  });
});

describe('PATCH /tokens/:slug after the launch', () => {
  let live: TokenBody;
  beforeAll(async () => {
    // Created with an instance: live at once, like a launch the indexer linked.
    live = await created(
      alice,
      dpnmBody({ instance: getAddress(`0x${randomBytes(20).toString('hex')}`) }),
    );
    expect(live.state).toBe('live');
  });

  it.each([
    ['name', { name: 'Renamed' }],
    ['ticker', { ticker: 'ZZZZ' }],
    ['image', { imageUrl: 'https://cdn.example.com/new.png' }],
  ])('refuses a new %s with 409 token_launched and changes nothing', async (field, body) => {
    const before = await rowOf(live.slug);
    expectError(
      await patch(alice, live.slug, { ...body, description: 'Also this.' }),
      409,
      'token_launched',
      `${field}: ${live.slug} is launched (state live); only description and links can change`,
    );
    expect(await rowOf(live.slug)).toEqual(before);
  });

  it('takes the description and links, and the unchanged name and ticker of a whole form', async () => {
    const response = await patch(alice, live.slug, {
      name: live.name,
      ticker: live.ticker.toLowerCase(),
      imageUrl: null,
      description: 'Still editable.',
      links: { website: 'https://live.example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<Detail>()).toMatchObject({
      name: live.name,
      description: 'Still editable.',
      links: { website: 'https://live.example.com', twitter: null, telegram: null },
    });
  });
});

describe('PATCH /tokens/:slug refusals', () => {
  let token: TokenBody;
  beforeAll(async () => {
    token = await created(alice, dpnmBody());
  });

  it('is the creator’s only: 403 for another user, 401 anonymous, 404 for no token', async () => {
    expectError(
      await patch(bob, token.slug, { description: 'Mine now' }),
      403,
      'not_owner',
      `Token ${token.slug} belongs to another user`,
    );
    expectError(await patch(null, token.slug, { description: 'x' }), 401, 'unauthenticated');
    expectError(
      await patch(alice, 'no-such-token', { description: 'x' }),
      404,
      'token_not_found',
      'token: "no-such-token" does not exist',
    );
    expect((await rowOf(token.slug))!.description).toBeNull();
  });

  it('refuses a ticker another token on the chain has, and a malformed one', async () => {
    const other = await created(bob, dpnmBody());
    const before = await rowOf(token.slug);
    expectError(
      await patch(alice, token.slug, { ticker: other.ticker, description: 'x' }),
      409,
      'ticker_taken',
      `ticker: ${other.ticker} is already used on chain 31337`,
    );
    expectError(
      await patch(alice, token.slug, { ticker: 'A-B' }),
      400,
      'invalid_ticker',
      'ticker: must be 3 to 6 characters, A-Z and 0-9 only',
    );
    expect(await rowOf(token.slug)).toEqual(before);
  });

  it.each([
    [{}, 'body: send at least one of name, ticker, imageUrl, imageMediaId, description, links'],
    [
      { links: { twitter: 'https://evil.example.com/x' } },
      /^links\.twitter: must be an https URL on x\.com/,
    ],
    [
      { links: { telegram: 'http://t.me/tree' } },
      /^links\.telegram: must be an https URL on t\.me/,
    ],
    [{ links: { website: 'javascript:alert(1)' } }, 'links.website: must be an https URL'],
    [{ links: { discord: 'https://discord.gg/x' } }, 'links.discord: is not a known field'],
    [{ description: '' }, 'description: must be 1 to 2000 characters'],
    [{ description: 'x'.repeat(2001) }, 'description: must be 1 to 2000 characters'],
    [
      { imageUrl: 'https://cdn.example.com/a.png', imageMediaId: 'a'.repeat(64) },
      'imageMediaId: send imageUrl or imageMediaId, not both',
    ],
  ])('refuses %j with 400 invalid_request', async (body, message) => {
    const before = await rowOf(token.slug);
    expectError(await patch(alice, token.slug, body), 400, 'invalid_request', message);
    expect(await rowOf(token.slug)).toEqual(before);
  });
});

describe('GET /tokens/:slug/metadata.json', () => {
  it('serves the Metaplex and OpenSea fields, the uploaded image typed WebP', async () => {
    const image = await uploadedImage();
    const token = await created(
      alice,
      virtualsBody({ name: 'Meta Token', imageMediaId: image.id, brief: 'The brief.' }),
    );
    const bare = await get(`/tokens/${token.slug}/metadata.json`);
    expect(bare.statusCode).toBe(200);
    expect(bare.headers['cache-control']).toBe('public, max-age=60');
    expect(bare.json()).toEqual({
      name: 'Meta Token',
      symbol: token.ticker,
      // No description yet: the brief stands in.
      description: 'The brief.',
      image: image.url,
      external_url: `${test.ctx.config.publicBaseUrl}/tokens/${token.slug}`,
      properties: { files: [{ uri: image.url, type: 'image/webp' }], category: 'image' },
      links: { website: null, twitter: null, telegram: null },
    });

    await patch(alice, token.slug, {
      description: 'The description.',
      imageUrl: 'https://cdn.example.com/logo.JPG',
      links: { website: 'https://meta.example.com', telegram: 'https://t.me/meta' },
    });
    expect((await get(`/tokens/${token.slug}/metadata.json`)).json()).toEqual({
      name: 'Meta Token',
      symbol: token.ticker,
      description: 'The description.',
      image: 'https://cdn.example.com/logo.JPG',
      external_url: 'https://meta.example.com',
      properties: {
        files: [{ uri: 'https://cdn.example.com/logo.JPG', type: 'image/jpeg' }],
        category: 'image',
      },
      links: { website: 'https://meta.example.com', twitter: null, telegram: 'https://t.me/meta' },
    });
  });

  it('has empty image and files without an image, and 404 for no token', async () => {
    const token = await created(alice, dpnmBody());
    expect((await get(`/tokens/${token.slug}/metadata.json`)).json()).toMatchObject({
      description: '',
      image: '',
      properties: { files: [], category: 'image' },
    });
    expectError(
      await get('/tokens/no-such-token/metadata.json'),
      404,
      'token_not_found',
      'token: "no-such-token" does not exist',
    );
  });
});
