import { signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  ENDPOINT,
  TODAY,
  type ListItem,
  type Detail,
  type Page,
  PER_CALL,
  marketplaceFixtures,
} from '../helpers/marketplace-fixtures';

/**
 * The marketplace listing (spec "Marketplace", docs/spec/contract.md §8): its sorts, tag filter,
 * stats and keyset pagination, also while agents are inserted.
 */

let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let dave: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
const { call, createAgent, publish, publishedAgent, listing, allListed, insertCall, insertDaily } =
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
      await test.ctx.sql('update agents set published_at = $2 where id = $1', [
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
        await test.ctx.sql(
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
      await test.ctx.sql(
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
    await test.ctx.sql(
      `insert into agents (id, owner_id, slug, name, description, tags, endpoint_url, endpoint_secret,
                           monetization, per_call_price, is_published, published_at, created_at, updated_at)
       select gen_random_uuid(), $1, 'walk-' || i, 'Walk ' || i, 'd', '{walk}', $2, 'whsec_x',
              'per_call', 1000, true, now() - make_interval(mins => 10 + i / 2), now(), now()
         from generate_series(1, $3::int) as i`,
      [alice.userId, ENDPOINT, WALK_SIZE],
    );
    await test.ctx.sql(
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
