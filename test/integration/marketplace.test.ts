import { randomUUID } from 'node:crypto';
import type { App } from '../../api/app';
import { signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';

/**
 * Agents and the marketplace (spec "Agent (marketplace)", "Marketplace", docs/spec/contract.md §6, §8):
 * owner routes, publishing and monetization rules, visibility after unpublish, the listing's
 * sorts, stats and keyset pagination, tool prices, ratings.
 */

const ENDPOINT = 'http://127.0.0.1:9/agent';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let ctx: TestContext;
let app: App;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let dave: SignedIn;

beforeAll(async () => {
  ctx = await createTestContext(UNLIMITED_RATES);
  app = await ctx.newApi();
  await app.ready();
  [alice, bob, carol, dave] = await Promise.all([
    signIn(app),
    signIn(app),
    signIn(app),
    signIn(app),
  ]);
});
afterAll(async () => ctx.close());
// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

type Reply = Awaited<ReturnType<App['inject']>>;
type Method = 'GET' | 'POST' | 'PATCH';

interface OwnedAgent {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  tags: string[];
  imageUrl: string | null;
  endpointUrl: string;
  isPublished: boolean;
  publishedAt: string | null;
  unpublishedAt: string | null;
  listedUntil: string | null;
  monetization: string | null;
  perCallPriceFlow: number | null;
  subscriptionFlowPerMonth: number | null;
  freemiumDailyCalls: number | null;
  tokenSlug: string | null;
  toolPrices: { tool: string; perCallFlow: number }[];
  createdAt: string;
  updatedAt: string;
  endpointSecret?: string;
}

interface ListItem {
  slug: string;
  name: string;
  imageUrl: string | null;
  tags: string[];
  monetization: string | null;
  perCallPriceFlow: number | null;
  stats: { callsLast30d: number; p50LatencyMs: number; rating: number; ratingCount: number };
  tokenSlug: string | null;
}

interface Detail extends ListItem {
  description: string | null;
  isPublished: boolean;
  publishedAt: string | null;
  monetizationConfig: {
    model: string | null;
    perCallPriceFlow: number | null;
    subscriptionFlowPerMonth: number | null;
    freemiumDailyCalls: number | null;
  };
  toolPrices: { tool: string; perCallFlow: number }[];
  linkedToken: {
    slug: string;
    name: string;
    ticker: string;
    chainId: number;
    instance: string | null;
    imageUrl: string | null;
  } | null;
}

interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
}

function call(method: Method, url: string, who?: SignedIn, payload?: unknown): Promise<Reply> {
  return app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

function expectError(response: Reply, status: number, code: string, message?: string | RegExp) {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({
    error: {
      code,
      message:
        message === undefined
          ? expect.any(String)
          : typeof message === 'string'
            ? message
            : expect.stringMatching(message),
    },
  });
}

let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${++counter} ${randomUUID().slice(0, 6)}`;

async function createAgent(owner: SignedIn, body: Record<string, unknown> = {}) {
  const response = await call('POST', '/agents', owner, {
    name: uniqueName('Agent'),
    description: 'Answers questions',
    endpointUrl: ENDPOINT,
    ...body,
  });
  if (response.statusCode !== 201)
    throw new Error(`create: ${response.statusCode} ${response.body}`);
  return response.json<OwnedAgent>();
}

const PER_CALL = { monetization: 'per_call', perCallPriceFlow: 0.5, tags: ['nlp'] };

async function publish(owner: SignedIn, slug: string, body: Record<string, unknown> = PER_CALL) {
  const response = await call('POST', `/agents/${slug}/publish`, owner, body);
  if (response.statusCode !== 200)
    throw new Error(`publish: ${response.statusCode} ${response.body}`);
  return response.json<{ id: string; slug: string; isPublished: boolean; publishedAt: string }>();
}

async function publishedAgent(owner: SignedIn, body: Record<string, unknown> = {}) {
  const agent = await createAgent(owner, body);
  await publish(owner, agent.slug);
  return agent;
}

async function listing(query = ''): Promise<Page<ListItem>> {
  const response = await call('GET', `/marketplace/agents?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json<Page<ListItem>>();
}

/** Every slug of a listing, walking all pages. */
async function allListed(query: string): Promise<string[]> {
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<ListItem> = await listing(
      `${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    slugs.push(...page.items.map((item) => item.slug));
    cursor = page.nextCursor;
  } while (cursor);
  return slugs;
}

async function insertCall(
  agentId: string,
  caller: SignedIn,
  status = 'succeeded',
  latencyMs = 100,
  ageDays = 0,
) {
  await ctx.sql(
    `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
     values ($1, $2, $3, $4, $5, now() - make_interval(days => $6))`,
    [randomUUID(), agentId, caller.userId, status, latencyMs, ageDays],
  );
}

const instanceOf = (ticker: string) => `0x${Buffer.from(ticker).toString('hex').padEnd(40, '0')}`;

async function insertToken(owner: SignedIn, slug: string, ticker: string) {
  await ctx.sql(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, image_url,
                         params, state, created_at)
     values ($1, $2, $3, $4, $5, 'dpnm', 31337, $6, null, '{}', 'live', now())`,
    [randomUUID(), owner.userId, slug, `Token ${slug}`, ticker, instanceOf(ticker)],
  );
}

const TODAY = `(now() at time zone 'utc')::date`;

async function insertDaily(agentId: string, daysAgo: number, calls: number, earnings = 0) {
  await ctx.sql(
    `insert into agent_daily_stats (agent_id, day, calls, earnings)
     values ($1, ${TODAY} - $2::int, $3, $4)`,
    [agentId, daysAgo, calls, earnings],
  );
}

describe('POST /agents', () => {
  it('creates a draft in the owner view, with the signing secret shown this once', async () => {
    const response = await call('POST', '/agents', alice, {
      name: '  Research Pal  ',
      description: 'Finds papers',
      tags: [' NLP ', 'research', 'nlp', 'a-1'],
      imageUrl: 'https://img.example.com/pal.png',
      endpointUrl: ENDPOINT,
    });
    expect(response.statusCode).toBe(201);
    const agent = response.json<OwnedAgent>();
    expect(agent).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: 'research-pal',
      name: 'Research Pal',
      description: 'Finds papers',
      tags: ['nlp', 'research', 'a-1'],
      imageUrl: 'https://img.example.com/pal.png',
      endpointUrl: ENDPOINT,
      isPublished: false,
      publishedAt: null,
      unpublishedAt: null,
      listedUntil: null,
      monetization: null,
      perCallPriceFlow: null,
      subscriptionFlowPerMonth: null,
      freemiumDailyCalls: null,
      premium: false,
      tokenSlug: null,
      toolPrices: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      endpointSecret: expect.stringMatching(SECRET),
    });
    const [row] = await ctx.sql<{ endpoint_secret: string }>(
      'select endpoint_secret from agents where id = $1',
      [agent.id],
    );
    expect(row?.endpoint_secret).toBe(agent.endpointSecret);
  });

  it('derives a fresh slug when the name’s slug is taken, and refuses a taken explicit slug', async () => {
    const first = await createAgent(alice, { name: 'Same Name' });
    const second = await createAgent(bob, { name: 'Same Name' });
    expect(first.slug).toBe('same-name');
    expect(second.slug).toMatch(/^same-name-[0-9a-f]{6}$/);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => createAgent(alice, { name: 'Same Name' })),
    );
    expect(new Set(concurrent.map((agent) => agent.slug)).size).toBe(5);

    const explicit = await createAgent(alice, { slug: 'my-own-slug' });
    expect(explicit.slug).toBe('my-own-slug');
    expectError(
      await call('POST', '/agents', bob, { name: 'x', endpointUrl: ENDPOINT, slug: 'my-own-slug' }),
      409,
      'slug_taken',
      'slug: my-own-slug is already taken',
    );
  });

  it('falls back to "agent" for a name with no usable characters', async () => {
    const agent = await createAgent(carol, { name: '🤖🤖' });
    expect(agent.slug).toMatch(/^agent(-[0-9a-f]{6})?$/);
  });

  it('refuses endpoint URLs that reach private addresses or are not https', async () => {
    expectError(
      await call('POST', '/agents', alice, { name: 'x', endpointUrl: 'https://10.0.0.1/x' }),
      400,
      'invalid_url',
      'endpointUrl: host is not a public address',
    );
    expectError(
      await call('POST', '/agents', alice, { name: 'x', endpointUrl: 'ftp://example.com/x' }),
      400,
      'invalid_url',
      /^endpointUrl: /,
    );
  });

  it.each([
    [{ name: '', endpointUrl: ENDPOINT }, /^name: must be 1 to 64 characters/],
    [{ name: 'x'.repeat(65), endpointUrl: ENDPOINT }, /^name: must be 1 to 64 characters/],
    [{ name: 'x' }, /^endpointUrl: is required/],
    [{ name: 'x', endpointUrl: ENDPOINT, extra: 1 }, /^extra: is not a known field/],
    [{ name: 'x', endpointUrl: ENDPOINT, tags: ['bad tag'] }, /^tags\.0: must be 1 to 32/],
    [{ name: 'x', endpointUrl: ENDPOINT, tags: ['t'.repeat(33)] }, /^tags\.0: /],
    [
      { name: 'x', endpointUrl: ENDPOINT, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      /^tags: must list at most 10 tags/,
    ],
    [{ name: 'x', endpointUrl: ENDPOINT, imageUrl: 'http://a.example/x.png' }, /^imageUrl: /],
    [{ name: 'x', endpointUrl: ENDPOINT, description: '' }, /^description: /],
    [{ name: 'x', endpointUrl: ENDPOINT, description: 'd'.repeat(2001) }, /^description: /],
    [{ name: 'x', endpointUrl: ENDPOINT, slug: 'Not A Slug' }, /^slug: /],
    [{ name: 'x', endpointUrl: ENDPOINT, slug: 'a'.repeat(65) }, /^slug: /],
  ])('refuses an invalid body %j with a message naming the field', async (body, message) => {
    expectError(await call('POST', '/agents', alice, body), 400, 'invalid_request', message);
  });

  it('needs a signed-in user', async () => {
    expectError(
      await call('POST', '/agents', undefined, { name: 'x', endpointUrl: ENDPOINT }),
      401,
      'unauthenticated',
    );
  });
});

describe('GET /me/agents and PATCH /agents/:slug', () => {
  it('lists only the caller’s agents, newest first, paged, never with the secret', async () => {
    const owner = await signIn(app);
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createAgent(owner));
    await createAgent(bob);

    const first = await call('GET', '/me/agents?limit=2', owner);
    expect(first.statusCode).toBe(200);
    const page1 = first.json<Page<OwnedAgent>>();
    expect(page1.items.map((agent) => agent.slug)).toEqual([created[2]?.slug, created[1]?.slug]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (
      await call('GET', `/me/agents?limit=2&cursor=${page1.nextCursor ?? ''}`, owner)
    ).json<Page<OwnedAgent>>();
    expect(page2).toEqual({
      items: [expect.objectContaining({ slug: created[0]?.slug })],
      nextCursor: null,
    });

    const { endpointSecret, ...ownerView } = created[2] as OwnedAgent;
    expect(page1.items[0]).toEqual(ownerView);
    for (const agent of created)
      expect(first.body + JSON.stringify(page2)).not.toContain(agent.endpointSecret);
    expect(endpointSecret).toMatch(SECRET);

    // Another user's cursor is foreign to this listing.
    expectError(
      await call('GET', `/me/agents?limit=2&cursor=${page1.nextCursor ?? ''}`, bob),
      400,
      'invalid_cursor',
    );
  });

  it('updates any field for the owner and returns the owner view without the secret', async () => {
    const agent = await createAgent(alice, { description: undefined });
    const response = await call('PATCH', `/agents/${agent.slug}`, alice, {
      name: 'Renamed',
      description: 'Now described',
      tags: ['Code', 'code', 'tools'],
      imageUrl: null,
      endpointUrl: 'http://localhost:8/other',
    });
    expect(response.statusCode).toBe(200);
    const updated = response.json<OwnedAgent>();
    expect(updated).toEqual({
      ...agent,
      endpointSecret: undefined,
      name: 'Renamed',
      description: 'Now described',
      tags: ['code', 'tools'],
      imageUrl: null,
      endpointUrl: 'http://localhost:8/other',
      updatedAt: expect.stringMatching(ISO),
    });
    expect(response.body).not.toContain(agent.endpointSecret);
    expect(response.body).not.toContain('endpointSecret');
    expect(updated.slug).toBe(agent.slug);
  });

  it('refuses bad PATCH input', async () => {
    const agent = await createAgent(alice);
    const url = `/agents/${agent.slug}`;
    expectError(
      await call('PATCH', url, alice, { slug: 'new' }),
      400,
      'invalid_request',
      'slug: is not a known field',
    );
    expectError(await call('PATCH', url, alice, { name: '' }), 400, 'invalid_request', /^name: /);
    expectError(
      await call('PATCH', url, alice, { endpointUrl: 'https://10.0.0.1/x' }),
      400,
      'invalid_url',
      'endpointUrl: host is not a public address',
    );
  });
});

describe('owner routes', () => {
  const ownerRoutes: { method: Method; path: (slug: string) => string; body: unknown }[] = [
    { method: 'PATCH', path: (slug) => `/agents/${slug}`, body: { name: 'Mine now' } },
    { method: 'POST', path: (slug) => `/agents/${slug}/publish`, body: PER_CALL },
    { method: 'POST', path: (slug) => `/agents/${slug}/unpublish`, body: undefined },
    {
      method: 'POST',
      path: (slug) => `/agents/${slug}/tool-prices`,
      body: { tools: [{ tool: 'shell', perCallFlow: 1 }] },
    },
  ];

  it.each(ownerRoutes.map((route) => [`${route.method} ${route.path(':slug')}`, route] as const))(
    '%s: unknown slug is 404 agent_not_found, another user’s agent 403 not_owner',
    async (_label, route) => {
      const agent = await publishedAgent(alice);
      const before = await ctx.sql('select * from agents where id = $1', [agent.id]);
      expectError(
        await call(route.method, route.path('no-such-agent'), bob, route.body),
        404,
        'agent_not_found',
        'Agent no-such-agent does not exist',
      );
      expectError(
        await call(route.method, route.path(agent.slug), bob, route.body),
        403,
        'not_owner',
        `Agent ${agent.slug} belongs to another user`,
      );
      expect(await ctx.sql('select * from agents where id = $1', [agent.id])).toEqual(before);
      expect(
        await ctx.sql('select * from agent_tool_prices where agent_id = $1', [agent.id]),
      ).toEqual([]);
      expect((await call(route.method, route.path(agent.slug), alice, route.body)).statusCode).toBe(
        200,
      );
    },
  );
});

describe('POST /agents/:slug/publish', () => {
  it('publishes: the response, the marketplace URL, the listing and the stored model', async () => {
    const agent = await createAgent(alice, { tags: ['old'] });
    const response = await call('POST', `/agents/${agent.slug}/publish`, alice, {
      monetization: 'hybrid',
      perCallPriceFlow: 0.25,
      subscriptionFlowPerMonth: 12.5,
      tags: ['Chat', 'chat', 'support'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: agent.id,
      slug: agent.slug,
      isPublished: true,
      publishedAt: expect.stringMatching(ISO),
      marketplaceUrl: `${ctx.config.publicBaseUrl}/marketplace/agents/${agent.slug}`,
    });
    const listed = await allListed('sort=new&tag=support');
    expect(listed).toContain(agent.slug);
    const detail = (await call('GET', `/marketplace/agents/${agent.slug}`)).json<Detail>();
    expect(detail).toEqual({
      slug: agent.slug,
      name: agent.name,
      imageUrl: null,
      tags: ['chat', 'support'],
      monetization: 'hybrid',
      perCallPriceFlow: 0.25,
      premium: false,
      stats: { callsLast30d: 0, p50LatencyMs: 0, rating: 0, ratingCount: 0 },
      tokenSlug: null,
      description: 'Answers questions',
      isPublished: true,
      publishedAt: response.json<{ publishedAt: string }>().publishedAt,
      monetizationConfig: {
        model: 'hybrid',
        perCallPriceFlow: 0.25,
        subscriptionFlowPerMonth: 12.5,
        freemiumDailyCalls: null,
      },
      toolPrices: [],
      linkedToken: null,
    });
  });

  it('accepts freemium with and without a price beyond the free quota, and subscription', async () => {
    const owner = await signIn(app);
    const free = await createAgent(owner);
    await publish(owner, free.slug, {
      monetization: 'freemium',
      freemiumDailyCalls: 10,
      tags: ['x'],
    });
    const paid = await createAgent(owner);
    await publish(owner, paid.slug, {
      monetization: 'freemium',
      freemiumDailyCalls: 10_000,
      perCallPriceFlow: 0.000001,
      tags: ['x'],
    });
    const sub = await createAgent(owner);
    await publish(owner, sub.slug, {
      monetization: 'subscription',
      subscriptionFlowPerMonth: 0,
      tags: ['x'],
    });
    const views = (await call('GET', '/me/agents?limit=100', owner)).json<Page<OwnedAgent>>().items;
    const bySlug = new Map(views.map((view) => [view.slug, view]));
    expect(bySlug.get(free.slug)).toMatchObject({
      monetization: 'freemium',
      freemiumDailyCalls: 10,
      perCallPriceFlow: null,
    });
    expect(bySlug.get(paid.slug)).toMatchObject({
      freemiumDailyCalls: 10_000,
      perCallPriceFlow: 0.000001,
    });
    expect(bySlug.get(sub.slug)).toMatchObject({
      monetization: 'subscription',
      subscriptionFlowPerMonth: 0,
      perCallPriceFlow: null,
    });
  });

  it.each([
    [{}, 'monetization: is required'],
    [
      { monetization: 'pay_what_you_want' },
      'monetization: must be one of per_call, subscription, hybrid, freemium',
    ],
    [{ monetization: 7 }, 'monetization: must be one of per_call, subscription, hybrid, freemium'],
    [{ monetization: 'per_call' }, 'perCallPriceFlow: is required for the per_call model'],
    [
      { monetization: 'subscription' },
      'subscriptionFlowPerMonth: is required for the subscription model',
    ],
    [
      { monetization: 'hybrid', subscriptionFlowPerMonth: 5 },
      'perCallPriceFlow: is required for the hybrid model',
    ],
    [
      { monetization: 'hybrid', perCallPriceFlow: 1 },
      'subscriptionFlowPerMonth: is required for the hybrid model',
    ],
    [{ monetization: 'freemium' }, 'freemiumDailyCalls: is required for the freemium model'],
    [
      { monetization: 'per_call', perCallPriceFlow: 1, subscriptionFlowPerMonth: 5 },
      'subscriptionFlowPerMonth: is not used by the per_call model',
    ],
    [
      { monetization: 'per_call', perCallPriceFlow: 1, freemiumDailyCalls: 5 },
      'freemiumDailyCalls: is not used by the per_call model',
    ],
    [
      { monetization: 'subscription', subscriptionFlowPerMonth: 5, perCallPriceFlow: 1 },
      'perCallPriceFlow: is not used by the subscription model',
    ],
    [
      { monetization: 'freemium', freemiumDailyCalls: 5, subscriptionFlowPerMonth: 1 },
      'subscriptionFlowPerMonth: is not used by the freemium model',
    ],
    [
      {
        monetization: 'hybrid',
        perCallPriceFlow: 1,
        subscriptionFlowPerMonth: 5,
        freemiumDailyCalls: 3,
      },
      'freemiumDailyCalls: is not used by the hybrid model',
    ],
    [
      { monetization: 'per_call', perCallPriceFlow: -1 },
      /^perCallPriceFlow: must be a number of FLOW/,
    ],
    [
      { monetization: 'per_call', perCallPriceFlow: '1' },
      /^perCallPriceFlow: must be a number of FLOW/,
    ],
    [
      { monetization: 'per_call', perCallPriceFlow: 1e13 },
      /^perCallPriceFlow: must be a number of FLOW/,
    ],
    [
      { monetization: 'subscription', subscriptionFlowPerMonth: -0.5 },
      /^subscriptionFlowPerMonth: must be a number of FLOW/,
    ],
    [
      { monetization: 'freemium', freemiumDailyCalls: 0 },
      'freemiumDailyCalls: must be an integer from 1 to 10000',
    ],
    [
      { monetization: 'freemium', freemiumDailyCalls: 10_001 },
      'freemiumDailyCalls: must be an integer from 1 to 10000',
    ],
    [
      { monetization: 'freemium', freemiumDailyCalls: 1.5 },
      'freemiumDailyCalls: must be an integer from 1 to 10000',
    ],
  ])('%j is 400 invalid_monetization naming the field', async (fields, message) => {
    const agent = await createAgent(alice);
    expectError(
      await call('POST', `/agents/${agent.slug}/publish`, alice, { ...fields, tags: ['x'] }),
      400,
      'invalid_monetization',
      message,
    );
    const [row] = await ctx.sql<{ is_published: boolean }>(
      'select is_published from agents where id = $1',
      [agent.id],
    );
    expect(row?.is_published).toBe(false);
  });

  it('needs a description, at least one valid tag, and a strict body', async () => {
    const agent = await createAgent(alice, { description: undefined });
    expectError(
      await call('POST', `/agents/${agent.slug}/publish`, alice, PER_CALL),
      400,
      'invalid_request',
      'description: required before publishing (set it with PATCH /agents/:slug)',
    );
    await call('PATCH', `/agents/${agent.slug}`, alice, { description: 'Now it has one' });
    const url = `/agents/${agent.slug}/publish`;
    expectError(
      await call('POST', url, alice, { ...PER_CALL, tags: undefined }),
      400,
      'invalid_request',
      /^tags: is required/,
    );
    expectError(
      await call('POST', url, alice, { ...PER_CALL, tags: [] }),
      400,
      'invalid_request',
      /^tags: must list at least one tag/,
    );
    expectError(
      await call('POST', url, alice, { ...PER_CALL, tags: ['no spaces'] }),
      400,
      'invalid_request',
      /^tags\.0: /,
    );
    expectError(
      await call('POST', url, alice, { ...PER_CALL, price: 1 }),
      400,
      'invalid_request',
      'price: is not a known field',
    );
    expect((await call('POST', url, alice, PER_CALL)).statusCode).toBe(200);
  });

  it('links only an existing token of the caller; null unlinks', async () => {
    await insertToken(alice, 'alice-coin', 'ALC');
    await insertToken(bob, 'bob-coin', 'BOB');
    const agent = await createAgent(alice);
    const url = `/agents/${agent.slug}/publish`;
    expectError(
      await call('POST', url, alice, { ...PER_CALL, tokenSlug: 'no-such-coin' }),
      404,
      'token_not_found',
      'tokenSlug: token no-such-coin does not exist',
    );
    expectError(
      await call('POST', url, alice, { ...PER_CALL, tokenSlug: 'bob-coin' }),
      403,
      'token_no_match',
      'tokenSlug: token bob-coin is not owned by the caller',
    );
    await publish(alice, agent.slug, { ...PER_CALL, tokenSlug: 'alice-coin' });
    const detail = (await call('GET', `/marketplace/agents/${agent.slug}`)).json<Detail>();
    expect(detail.tokenSlug).toBe('alice-coin');
    expect(detail.linkedToken).toEqual({
      slug: 'alice-coin',
      name: 'Token alice-coin',
      ticker: 'ALC',
      chainId: 31337,
      instance: instanceOf('ALC'),
      imageUrl: null,
    });
    const item = (await listing('sort=new&limit=100')).items.find((i) => i.slug === agent.slug);
    expect(item?.tokenSlug).toBe('alice-coin');
    // Omitting tokenSlug keeps the link; null removes it.
    await publish(alice, agent.slug, PER_CALL);
    expect((await call('GET', `/marketplace/agents/${agent.slug}`)).json<Detail>().tokenSlug).toBe(
      'alice-coin',
    );
    await publish(alice, agent.slug, { ...PER_CALL, tokenSlug: null });
    expect(
      (await call('GET', `/marketplace/agents/${agent.slug}`)).json<Detail>().linkedToken,
    ).toBeNull();
  });

  it('keeps publishedAt when republished, and takes a new one after an unpublish', async () => {
    const agent = await createAgent(alice);
    const first = await publish(alice, agent.slug);
    const again = await publish(alice, agent.slug, {
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tags: ['y'],
    });
    expect(again.publishedAt).toBe(first.publishedAt);
    await call('POST', `/agents/${agent.slug}/unpublish`, alice);
    const third = await publish(alice, agent.slug);
    expect(Date.parse(third.publishedAt)).toBeGreaterThan(Date.parse(first.publishedAt));
    const [row] = await ctx.sql<{ unpublished_at: Date | null; listed_until: Date | null }>(
      'select unpublished_at, listed_until from agents where id = $1',
      [agent.id],
    );
    expect(row).toEqual({ unpublished_at: null, listed_until: null });
  });
});

describe('unpublish and visibility', () => {
  it('hides at once from the listing and from new callers; existing callers and the owner keep it', async () => {
    const agent = await publishedAgent(alice, { tags: ['vis'] });
    await insertCall(agent.id, bob, 'succeeded');
    await insertCall(agent.id, dave, 'failed');
    await ctx.sql(
      `insert into agent_subscriptions (id, agent_id, subscriber_id, period_start, period_end, created_at, updated_at)
       values ($1, $2, $3, now(), now() + interval '30 days', now(), now())`,
      [randomUUID(), agent.id, carol.userId],
    );
    const stranger = await signIn(app);
    expect(await allListed('sort=new')).toContain(agent.slug);

    const response = await call('POST', `/agents/${agent.slug}/unpublish`, alice);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ unpublishedAt: string; listedUntil: string }>();
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(body).toEqual({
      id: agent.id,
      slug: agent.slug,
      isPublished: false,
      unpublishedAt: expect.stringMatching(ISO),
      listedUntil: nextMonth.toISOString(),
    });

    for (const sort of ['new', 'trending', 'top_earning', 'top_rated']) {
      expect(await allListed(`sort=${sort}`)).not.toContain(agent.slug);
    }
    expect(await allListed('sort=new&tag=vis')).toEqual([]);
    const detailUrl = `/marketplace/agents/${agent.slug}`;
    const notFound = `Agent ${agent.slug} does not exist`;
    expectError(await call('GET', detailUrl), 404, 'agent_not_found', notFound);
    expectError(await call('GET', detailUrl, stranger), 404, 'agent_not_found', notFound);
    expectError(await call('GET', detailUrl, dave), 404, 'agent_not_found', notFound); // only a failed call
    for (const who of [alice, bob, carol]) {
      const detail = await call('GET', detailUrl, who);
      expect(detail.statusCode).toBe(200);
      expect(detail.json<Detail>()).toMatchObject({ slug: agent.slug, isPublished: false });
    }

    // Idempotent: a second unpublish keeps the first timestamps.
    const again = await call('POST', `/agents/${agent.slug}/unpublish`, alice);
    expect(again.json()).toEqual(body);

    // Past listedUntil, existing callers lose it too, except a subscriber within the period
    // already paid; the owner never does.
    await ctx.sql(`update agents set listed_until = now() - interval '1 second' where id = $1`, [
      agent.id,
    ]);
    expectError(await call('GET', detailUrl, bob), 404, 'agent_not_found');
    expect((await call('GET', detailUrl, carol)).statusCode).toBe(200);
    expect((await call('GET', detailUrl, alice)).statusCode).toBe(200);
    await ctx.sql(
      `update agent_subscriptions set period_end = now() - interval '1 second' where agent_id = $1`,
      [agent.id],
    );
    expectError(await call('GET', detailUrl, carol), 404, 'agent_not_found');
  });

  it('shows a never-published draft to its owner only; unpublishing it changes nothing', async () => {
    const draft = await createAgent(alice);
    const url = `/marketplace/agents/${draft.slug}`;
    expectError(await call('GET', url), 404, 'agent_not_found');
    expectError(await call('GET', url, bob), 404, 'agent_not_found');
    const own = await call('GET', url, alice);
    expect(own.statusCode).toBe(200);
    expect(own.json<Detail>()).toMatchObject({
      isPublished: false,
      publishedAt: null,
      monetization: null,
      monetizationConfig: {
        model: null,
        perCallPriceFlow: null,
        subscriptionFlowPerMonth: null,
        freemiumDailyCalls: null,
      },
    });
    expect(own.body).not.toContain(draft.endpointSecret);
    expect(own.body).not.toContain(ENDPOINT);
    const unpublished = await call('POST', `/agents/${draft.slug}/unpublish`, alice);
    expect(unpublished.json()).toEqual({
      id: draft.id,
      slug: draft.slug,
      isPublished: false,
      unpublishedAt: null,
      listedUntil: null,
    });
  });

  it('answers 404 for unknown or malformed slugs', async () => {
    expectError(await call('GET', '/marketplace/agents/nope-not-here'), 404, 'agent_not_found');
    expectError(await call('GET', '/marketplace/agents/NOT%20A%20SLUG'), 404, 'agent_not_found');
  });
});

describe('POST /agents/:slug/tool-prices and GET /marketplace/tools', () => {
  it('lists the 8 platform tools', async () => {
    const response = await call('GET', '/marketplace/tools');
    expect(response.statusCode).toBe(200);
    const items = response.json<{ items: { tool: string; description: string }[] }>().items;
    expect(items.map((item) => item.tool).sort()).toEqual([
      'browser',
      'code_interpreter',
      'file_search',
      'git',
      'image_generation',
      'shell',
      'web_fetch',
      'web_search',
    ]);
    for (const item of items) expect(item.description.length).toBeGreaterThan(0);
  });

  it('replaces the whole list, sorted by tool, visible to the owner and in the detail', async () => {
    const owner = await signIn(app);
    const agent = await publishedAgent(owner);
    const url = `/agents/${agent.slug}/tool-prices`;
    const first = await call('POST', url, owner, {
      tools: [
        { tool: 'web_search', perCallFlow: 0.1 },
        { tool: 'browser', perCallFlow: 2 },
      ],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      slug: agent.slug,
      toolPrices: [
        { tool: 'browser', perCallFlow: 2 },
        { tool: 'web_search', perCallFlow: 0.1 },
      ],
    });
    const second = await call('POST', url, owner, {
      tools: [{ tool: 'shell', perCallFlow: 0.0000015 }],
    });
    expect(second.json()).toEqual({
      slug: agent.slug,
      toolPrices: [{ tool: 'shell', perCallFlow: 0.000001 }],
    });
    const detail = (await call('GET', `/marketplace/agents/${agent.slug}`)).json<Detail>();
    expect(detail.toolPrices).toEqual([{ tool: 'shell', perCallFlow: 0.000001 }]);
    const mine = (await call('GET', '/me/agents', owner)).json<Page<OwnedAgent>>();
    expect(mine.items.find((a) => a.slug === agent.slug)?.toolPrices).toEqual([
      { tool: 'shell', perCallFlow: 0.000001 },
    ]);

    const all8 = [
      'browser',
      'code_interpreter',
      'file_search',
      'git',
      'image_generation',
      'shell',
      'web_fetch',
      'web_search',
    ];
    const full = await call('POST', url, owner, {
      tools: all8.map((tool) => ({ tool, perCallFlow: 1 })),
    });
    expect(full.json<{ toolPrices: unknown[] }>().toolPrices).toHaveLength(8);
    const cleared = await call('POST', url, owner, { tools: [] });
    expect(cleared.json()).toEqual({ slug: agent.slug, toolPrices: [] });
  });

  it('refuses unknown tools, duplicates, more than 8 entries and bad prices, changing nothing', async () => {
    const agent = await publishedAgent(alice);
    const url = `/agents/${agent.slug}/tool-prices`;
    await call('POST', url, alice, { tools: [{ tool: 'git', perCallFlow: 1 }] });
    expectError(
      await call('POST', url, alice, {
        tools: [
          { tool: 'git', perCallFlow: 1 },
          { tool: 'teleport', perCallFlow: 1 },
        ],
      }),
      400,
      'tool_unknown',
      'tools: teleport is not a platform tool (GET /marketplace/tools)',
    );
    expectError(
      await call('POST', url, alice, {
        tools: [
          { tool: 'git', perCallFlow: 1 },
          { tool: 'git', perCallFlow: 2 },
        ],
      }),
      400,
      'invalid_request',
      'tools.1.tool: git is listed twice',
    );
    expectError(
      await call('POST', url, alice, {
        tools: Array.from({ length: 9 }, () => ({ tool: 'git', perCallFlow: 1 })),
      }),
      400,
      'invalid_request',
      /^tools: must list at most 8 tools/,
    );
    expectError(
      await call('POST', url, alice, { tools: [{ tool: 'git', perCallFlow: -1 }] }),
      400,
      'invalid_request',
      /^tools\.0\.perCallFlow: /,
    );
    expectError(
      await call('POST', url, alice, { tools: [{ tool: 'git', perCallFlow: 1, extra: true }] }),
      400,
      'invalid_request',
      'tools.0.extra: is not a known field',
    );
    expectError(await call('POST', url, alice, {}), 400, 'invalid_request', /^tools: is required/);
    const rows = await ctx.sql(
      'select tool, price::text from agent_tool_prices where agent_id = $1',
      [agent.id],
    );
    expect(rows).toEqual([{ tool: 'git', price: '1000000' }]);
  });
});

describe('POST /agents/:slug/rating', () => {
  it('lets only callers with a succeeded call rate, not the owner; rating again replaces', async () => {
    const agent = await publishedAgent(alice);
    const url = `/agents/${agent.slug}/rating`;
    expectError(
      await call('POST', url, bob, { rating: 5 }),
      403,
      'rating_not_allowed',
      `rating: only callers with a succeeded call of ${agent.slug} may rate it`,
    );
    await insertCall(agent.id, bob, 'failed');
    expectError(await call('POST', url, bob, { rating: 5 }), 403, 'rating_not_allowed');
    await insertCall(agent.id, alice, 'succeeded');
    expectError(
      await call('POST', url, alice, { rating: 5 }),
      403,
      'rating_not_allowed',
      'rating: owners cannot rate their own agent',
    );

    await insertCall(agent.id, bob, 'succeeded');
    const rated = await call('POST', url, bob, { rating: 5 });
    expect(rated.statusCode).toBe(200);
    expect(rated.json()).toEqual({ slug: agent.slug, rating: 5, averageRating: 5, ratingCount: 1 });
    await insertCall(agent.id, carol, 'succeeded');
    expect((await call('POST', url, carol, { rating: 2 })).json()).toEqual({
      slug: agent.slug,
      rating: 2,
      averageRating: 3.5,
      ratingCount: 2,
    });
    expect((await call('POST', url, bob, { rating: 3 })).json()).toEqual({
      slug: agent.slug,
      rating: 3,
      averageRating: 2.5,
      ratingCount: 2,
    });
    const detail = (await call('GET', `/marketplace/agents/${agent.slug}`)).json<Detail>();
    expect(detail.stats).toMatchObject({ rating: 2.5, ratingCount: 2 });
  });

  it('validates the rating and the agent’s visibility', async () => {
    const agent = await publishedAgent(alice);
    await insertCall(agent.id, bob, 'succeeded');
    const url = `/agents/${agent.slug}/rating`;
    for (const rating of [0, 6, 4.5, '5']) {
      expectError(
        await call('POST', url, bob, { rating }),
        400,
        'invalid_request',
        'rating: must be an integer from 1 to 5',
      );
    }
    expectError(await call('POST', url, bob, { rating: 5, comment: 'x' }), 400, 'invalid_request');
    expectError(
      await call('POST', '/agents/no-such-agent/rating', bob, { rating: 5 }),
      404,
      'agent_not_found',
    );
    expectError(await call('POST', url, undefined, { rating: 5 }), 401, 'unauthenticated');
    const draft = await createAgent(alice);
    await insertCall(draft.id, bob, 'succeeded');
    expectError(
      await call('POST', `/agents/${draft.slug}/rating`, bob, { rating: 5 }),
      404,
      'agent_not_found',
    );
  });
});

describe('GET /marketplace/agents: sorts, filter and stats', () => {
  /** Agents tagged `sortcheck` with fixed publish times, oldest first: a, b, c, d, x, e. */
  const seeded = new Map<string, string>();

  // The rows below are placed on days counted back from today: this whole block runs within
  // one UTC day.
  beforeAll(async () => {
    await awaitFreshUtcDay(180_000);
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    for (const [index, key] of ['a', 'b', 'c', 'd', 'x', 'e'].entries()) {
      const agent = await createAgent(alice, { slug: `sort-${key}` });
      await publish(alice, agent.slug, { ...PER_CALL, tags: ['sortcheck'] });
      await ctx.sql('update agents set published_at = $2 where id = $1', [
        agent.id,
        new Date(base + index * 60_000),
      ]);
      seeded.set(key, agent.id);
    }
    const id = (key: string) => seeded.get(key) ?? '';
    // trending: calls on the last 7 UTC days, today included.
    await insertDaily(id('a'), 0, 10);
    await insertDaily(id('b'), 6, 5);
    await insertDaily(id('b'), 1, 3);
    await insertDaily(id('c'), 7, 100, 9_000_000); // a day too old for trending
    await insertDaily(id('d'), 2, 8, 2_000_000);
    // top_earning: FLOW billed on the last 30 UTC days.
    await insertDaily(id('a'), 3, 0, 1_000_000);
    await insertDaily(id('b'), 29, 0, 5_000_000);
    await insertDaily(id('e'), 30, 0, 50_000_000); // a day too old
    // top_rated: b 5.0 (1 rating), x 4.5 (4), a 4.5 (2), c 4.5 (2), d 3.0 (3), e unrated.
    const rate = async (key: string, raters: SignedIn[], ratings: number[]) => {
      for (const [i, rater] of raters.entries()) {
        await ctx.sql(
          `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at)
           values ($1, $2, $3, now(), now())`,
          [id(key), rater.userId, ratings[i]],
        );
      }
    };
    await rate('b', [bob], [5]);
    await rate('x', [bob, carol, dave, alice], [5, 4, 5, 4]);
    await rate('a', [bob, carol], [5, 4]);
    await rate('c', [bob, carol], [4, 5]);
    await rate('d', [bob, carol, dave], [3, 3, 3]);
    // Not tagged: must never show up under the tag filter.
    await publishedAgent(bob, { slug: 'sort-untagged' });
  }, freshDayHookTimeout(180_000));

  const sorted = async (sort: string) =>
    (await allListed(`tag=sortcheck&sort=${sort}`)).map((slug) => slug.slice(5));

  it('new: newest published first', async () => {
    expect(await sorted('new')).toEqual(['e', 'x', 'd', 'c', 'b', 'a']);
  });

  it('trending (the default): calls on the last 7 UTC days, ties newest first', async () => {
    // a 10; d 8 and b 8 (d newer); c, e, x 0 (newest first).
    expect(await sorted('trending')).toEqual(['a', 'd', 'b', 'e', 'x', 'c']);
    expect((await allListed('tag=sortcheck')).map((slug) => slug.slice(5))).toEqual(
      await sorted('trending'),
    );
  });

  it('top_earning: FLOW billed on the last 30 UTC days, ties newest first', async () => {
    // c 9 (day 7 counts within 30), b 5, d 2, a 1; e (day 30 too old) and x 0, newest first.
    expect(await sorted('top_earning')).toEqual(['c', 'b', 'd', 'a', 'e', 'x']);
  });

  it('top_rated: average, ties by number of ratings then id, unrated last', async () => {
    const [aId, cId] = [seeded.get('a') ?? '', seeded.get('c') ?? ''];
    const tied = aId > cId ? ['a', 'c'] : ['c', 'a'];
    expect(await sorted('top_rated')).toEqual(['b', 'x', ...tied, 'd', 'e']);
  });

  it('pages every sort with small pages the same as one big page', async () => {
    for (const sort of ['new', 'trending', 'top_earning', 'top_rated']) {
      const slugs: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Page<ListItem> = await listing(
          `tag=sortcheck&sort=${sort}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.items.length).toBeLessThanOrEqual(1);
        slugs.push(...page.items.map((item) => item.slug.slice(5)));
        cursor = page.nextCursor;
      } while (cursor);
      expect(slugs).toEqual(await sorted(sort));
    }
  });

  it('refuses cursors of another sort or tag, tampered cursors and bad queries', async () => {
    const page = await listing('tag=sortcheck&sort=new&limit=2');
    const cursor = encodeURIComponent(page.nextCursor ?? '');
    expectError(
      await call('GET', `/marketplace/agents?tag=sortcheck&sort=trending&cursor=${cursor}`),
      400,
      'invalid_cursor',
    );
    expectError(
      await call('GET', `/marketplace/agents?tag=other&sort=new&cursor=${cursor}`),
      400,
      'invalid_cursor',
    );
    expectError(
      await call('GET', `/marketplace/agents?tag=sortcheck&sort=new&cursor=x${cursor}`),
      400,
      'invalid_cursor',
    );
    expectError(
      await call('GET', '/marketplace/agents?sort=cheapest'),
      400,
      'invalid_request',
      /^sort: /,
    );
    expectError(
      await call('GET', '/marketplace/agents?tag=no%20spaces'),
      400,
      'invalid_request',
      /^tag: /,
    );
    expectError(
      await call('GET', '/marketplace/agents?limit=0'),
      400,
      'invalid_request',
      /^limit: /,
    );
    // A tag is matched as stored: trimmed and lowercased.
    expect((await allListed('tag=SORTCHECK&sort=new')).length).toBe(6);
  });

  it('computes stats: calls on the last 30 days, median latency of succeeded calls, rating', async () => {
    const agent = await publishedAgent(alice, { slug: 'stats-agent' });
    await insertDaily(agent.id, 0, 3);
    await insertDaily(agent.id, 29, 4);
    await insertDaily(agent.id, 30, 100); // too old
    for (const latency of [100, 300, 200, 1000])
      await insertCall(agent.id, bob, 'succeeded', latency);
    await insertCall(agent.id, bob, 'failed', 5000);
    await insertCall(agent.id, bob, 'succeeded', 9999, 31); // too old
    for (const [rater, rating] of [
      [bob, 5],
      [carol, 4],
      [dave, 4],
    ] as const) {
      await ctx.sql(
        `insert into agent_ratings (agent_id, rater_id, rating, created_at, updated_at) values ($1, $2, $3, now(), now())`,
        [agent.id, rater.userId, rating],
      );
    }
    const expected = { callsLast30d: 7, p50LatencyMs: 250, rating: 4.33, ratingCount: 3 };
    const item = (await listing('sort=new&limit=100')).items.find((i) => i.slug === 'stats-agent');
    expect(item).toEqual({
      slug: 'stats-agent',
      name: agent.name,
      imageUrl: null,
      tags: ['nlp'],
      monetization: 'per_call',
      perCallPriceFlow: 0.5,
      premium: false,
      stats: expected,
      tokenSlug: null,
    });
    expect((await call('GET', '/marketplace/agents/stats-agent')).json<Detail>().stats).toEqual(
      expected,
    );
    // An odd count has a true middle; halves round up.
    await insertCall(agent.id, carol, 'succeeded', 201);
    expect(
      (await call('GET', '/marketplace/agents/stats-agent')).json<Detail>().stats.p50LatencyMs,
    ).toBe(201);
  });
});

describe('GET /marketplace/agents: pagination under inserts', () => {
  const WALK_SIZE = 250;

  beforeAll(async () => {
    // Pairs share a publish time so the id tie-breaker matters; trending has many ties too.
    await ctx.sql(
      `insert into agents (id, owner_id, slug, name, description, tags, endpoint_url, endpoint_secret,
                           monetization, per_call_price, is_published, published_at, created_at, updated_at)
       select gen_random_uuid(), $1, 'walk-' || i, 'Walk ' || i, 'd', '{walk}', $2, 'whsec_x',
              'per_call', 1000, true, now() - make_interval(mins => 10 + i / 2), now(), now()
         from generate_series(1, $3::int) as i`,
      [alice.userId, ENDPOINT, WALK_SIZE],
    );
    await ctx.sql(
      `insert into agent_daily_stats (agent_id, day, calls, earnings)
       select id, ${TODAY}, (hashtext(slug) & 15), 0 from agents where slug like 'walk-%'`,
    );
  });

  async function walk(sort: string) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page<ListItem> = await listing(
        `tag=walk&sort=${sort}&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(20);
      seen.push(...page.items.map((item) => item.slug));
      cursor = page.nextCursor;
      pages++;
      // Newly published agents between pages, with trending metrics across the whole range.
      for (let i = 0; i < 3; i++) {
        const agent = await createAgent(bob, { slug: `walk-new-${sort}-${pages}-${i}` });
        await publish(bob, agent.slug, { ...PER_CALL, tags: ['walk'] });
        await insertDaily(agent.id, 0, (pages * 3 + i) % 16);
      }
    } while (cursor);
    return seen;
  }

  it.each(['new', 'trending'])(
    '%s: every original agent exactly once, no duplicates',
    async (sort) => {
      const seen = await walk(sort);
      const originals = seen.filter((slug) => /^walk-\d+$/.test(slug));
      expect(originals).toHaveLength(WALK_SIZE);
      expect(new Set(originals).size).toBe(WALK_SIZE);
      expect(new Set(seen).size).toBe(seen.length);
    },
  );
});
