import { signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  type OwnedAgent,
  type Detail,
  type Page,
  marketplaceFixtures,
} from '../helpers/marketplace-fixtures';

/**
 * Tool prices and ratings of marketplace agents (spec "Agent (marketplace)", "Marketplace",
 * docs/spec/contract.md §6, §8).
 */

let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { call, createAgent, publishedAgent, insertCall } = marketplaceFixtures(test);
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([signIn(test.app), signIn(test.app), signIn(test.app)]);
});
// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

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
    const owner = await signIn(test.app);
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
    const rows = await test.ctx.sql(
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
