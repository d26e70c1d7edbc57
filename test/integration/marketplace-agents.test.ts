import { signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  ENDPOINT,
  ISO,
  SECRET,
  PER_CALL,
  type OwnedAgent,
  type Page,
  type Method,
  marketplaceFixtures,
} from '../helpers/marketplace-fixtures';

/**
 * Agents before the marketplace (spec "Agent (marketplace)", docs/spec/contract.md §6): drafts,
 * the owner's list and updates, and the routes only the owner may call.
 */

let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { call, createAgent, publishedAgent } = marketplaceFixtures(test);
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([signIn(test.app), signIn(test.app), signIn(test.app)]);
});
// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

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
    const [row] = await test.ctx.sql<{ endpoint_secret: string }>(
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
    const owner = await signIn(test.app);
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
      const before = await test.ctx.sql('select * from agents where id = $1', [agent.id]);
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
      expect(await test.ctx.sql('select * from agents where id = $1', [agent.id])).toEqual(before);
      expect(
        await test.ctx.sql('select * from agent_tool_prices where agent_id = $1', [agent.id]),
      ).toEqual([]);
      expect((await call(route.method, route.path(agent.slug), alice, route.body)).statusCode).toBe(
        200,
      );
    },
  );
});
