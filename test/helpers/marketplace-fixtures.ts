import { randomUUID } from 'node:crypto';
import type { App } from '../../api/app';
import type { SignedIn } from './auth';
import type { TestApp } from './context';

/**
 * Agents and the marketplace as the split marketplace-*.test.ts files drive them: the wire
 * shapes, and agents, tokens, calls and daily stats made through the API or in the database of
 * `test` (the file's world from `useTestApp`).
 */

export const ENDPOINT = 'http://127.0.0.1:9/agent';
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
export const PER_CALL = { monetization: 'per_call', perCallPriceFlow: 0.5, tags: ['nlp'] };
export const TODAY = `(now() at time zone 'utc')::date`;

export type Reply = Awaited<ReturnType<App['inject']>>;
export type Method = 'GET' | 'POST' | 'PATCH';

export interface OwnedAgent {
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

export interface ListItem {
  slug: string;
  name: string;
  imageUrl: string | null;
  tags: string[];
  monetization: string | null;
  perCallPriceFlow: number | null;
  stats: { callsLast30d: number; p50LatencyMs: number; rating: number; ratingCount: number };
  tokenSlug: string | null;
}

export interface Detail extends ListItem {
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

export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
}

export const instanceOf = (ticker: string) =>
  `0x${Buffer.from(ticker).toString('hex').padEnd(40, '0')}`;

/** The helpers of one test file, bound to its world. */
export function marketplaceFixtures(test: TestApp) {
  function call(method: Method, url: string, who?: SignedIn, payload?: unknown): Promise<Reply> {
    return test.app.inject({
      method,
      url,
      headers: who ? { cookie: who.cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
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
    await test.ctx.sql(
      `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
       values ($1, $2, $3, $4, $5, now() - make_interval(days => $6))`,
      [randomUUID(), agentId, caller.userId, status, latencyMs, ageDays],
    );
  }

  async function insertToken(owner: SignedIn, slug: string, ticker: string) {
    await test.ctx.sql(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance, image_url,
                           params, state, created_at)
       values ($1, $2, $3, $4, $5, 'dpnm', 31337, $6, null, '{}', 'live', now())`,
      [randomUUID(), owner.userId, slug, `Token ${slug}`, ticker, instanceOf(ticker)],
    );
  }

  async function insertDaily(agentId: string, daysAgo: number, calls: number, earnings = 0) {
    await test.ctx.sql(
      `insert into agent_daily_stats (agent_id, day, calls, earnings)
       values ($1, ${TODAY} - $2::int, $3, $4)`,
      [agentId, daysAgo, calls, earnings],
    );
  }

  return {
    call,
    uniqueName,
    createAgent,
    publish,
    publishedAgent,
    listing,
    allListed,
    insertCall,
    insertToken,
    insertDaily,
  };
}
