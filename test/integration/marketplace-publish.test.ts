import { randomUUID } from 'node:crypto';
import { signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  ENDPOINT,
  ISO,
  PER_CALL,
  instanceOf,
  type OwnedAgent,
  type Detail,
  type Page,
  marketplaceFixtures,
} from '../helpers/marketplace-fixtures';

/**
 * Publishing (spec "Agent (marketplace)", "Marketplace", docs/spec/contract.md §6, §8):
 * monetization rules, linked tokens and publish times, and visibility after an unpublish.
 */

let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let dave: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { call, createAgent, publish, publishedAgent, listing, allListed, insertCall, insertToken } =
  marketplaceFixtures(test);
beforeAll(async () => {
  [alice, bob, carol, dave] = await Promise.all([
    signIn(test.app),
    signIn(test.app),
    signIn(test.app),
    signIn(test.app),
  ]);
});
// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

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
      marketplaceUrl: `${test.ctx.config.publicBaseUrl}/marketplace/agents/${agent.slug}`,
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
    const owner = await signIn(test.app);
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
    const [row] = await test.ctx.sql<{ is_published: boolean }>(
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
      'tokenSlug: token "no-such-coin" does not exist',
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
    const [row] = await test.ctx.sql<{ unpublished_at: Date | null; listed_until: Date | null }>(
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
    await test.ctx.sql(
      `insert into agent_subscriptions (id, agent_id, subscriber_id, period_start, period_end, created_at, updated_at)
       values ($1, $2, $3, now(), now() + interval '30 days', now(), now())`,
      [randomUUID(), agent.id, carol.userId],
    );
    const stranger = await signIn(test.app);
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
    await test.ctx.sql(
      `update agents set listed_until = now() - interval '1 second' where id = $1`,
      [agent.id],
    );
    expectError(await call('GET', detailUrl, bob), 404, 'agent_not_found');
    expect((await call('GET', detailUrl, carol)).statusCode).toBe(200);
    expect((await call('GET', detailUrl, alice)).statusCode).toBe(200);
    await test.ctx.sql(
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
