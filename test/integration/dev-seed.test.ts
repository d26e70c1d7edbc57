import { splitEarnings } from '../../shared/domain/pricing';
import { demoAgentRoutes } from '../../scripts/demo-agent';
import { DEMO_USERS, seedDemo, type SeededDemo } from '../../scripts/seed';
import sharp from 'sharp';
import { createObjectStore, mediaUrl } from '../../api/routes/media/service';
import type { ObjectStore } from '../../shared/media/store';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { objectStoreEnv } from '../helpers/services';

/**
 * `npm run seed` (scripts/seed.ts) against a database, then the developer's first paid call:
 * the faucet, then an invocation of a seeded agent whose endpoint is the demo agent the dev
 * server serves (scripts/demo-agent.ts, registered here on a listening API as dev.ts does).
 */

const MICRO = 1_000_000n;
let seeded: SeededDemo;
let again: SeededDemo;

const COUNTED = [
  'users',
  'api_keys',
  'tokens',
  'agents',
  'agent_tool_prices',
  'projects',
  'project_runs',
  'project_events',
  'media',
];

async function counts(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of COUNTED) {
    const [row] = await test.ctx.sql<{ n: number }>(`select count(*)::int as n from ${table}`);
    result[table] = row!.n;
  }
  return result;
}

async function balanceOf(userId: number): Promise<bigint> {
  const [row] = await test.ctx.sql<{ balance: string }>(
    'select balance from flow_accounts where user_id = $1',
    [userId],
  );
  return BigInt(row?.balance ?? 0);
}

let afterFirst: Record<string, number>;

const test = useTestApp({
  // The demo pictures go where the API serves media from: the run's S3-compatible server.
  env: { ...UNLIMITED_RATES, ...objectStoreEnv() },
  // The demo agent on the listening API, as dev.ts serves it.
  setup: (app, ctx) => app.register(demoAgentRoutes, { apiKeyPepper: ctx.config.apiKeyPepper }),
  listen: true,
});
let store: ObjectStore;
beforeAll(async () => {
  store = createObjectStore(test.ctx.config.media);
  const options = {
    databaseUrl: test.ctx.config.databaseUrl!,
    apiKeyPepper: test.ctx.config.apiKeyPepper,
    agentBaseUrl: test.url,
    media: { store, urlOf: (id: string) => mediaUrl(test.ctx.config, id) },
  };
  seeded = await seedDemo(options);
  afterFirst = await counts();
  again = await seedDemo(options);
});
afterAll(() => store.close());

describe('npm run seed', () => {
  it('creates the demo users, keys, tokens, agents with tool prices and a finished build', () => {
    expect(seeded.inserted).toEqual({
      users: 2,
      api_keys: 2,
      tokens: 3,
      agents: 2,
      agent_tool_prices: 3,
      projects: 1,
      project_runs: 1,
      project_events: 7,
      media: 5,
    });
    expect(seeded.users.map((user) => user.address)).toEqual(DEMO_USERS.map((u) => u.address));
  });

  it('is idempotent: a second run adds nothing and hands out the same keys', async () => {
    expect(Object.values(again.inserted).every((n) => n === 0)).toBe(true);
    expect(await counts()).toEqual(afterFirst);
    expect(again.users).toEqual(seeded.users);
  });

  it('lists the agents in the marketplace and shows the finished build', async () => {
    const listing = await test.app.inject({ method: 'GET', url: '/marketplace/agents?tags=demo' });
    expect(listing.statusCode).toBe(200);
    const slugs = listing.json<{ items: { slug: string }[] }>().items.map((agent) => agent.slug);
    expect(slugs.sort()).toEqual(['demo-echo', 'demo-oracle']);

    const project = await test.app.inject({ method: 'GET', url: `/projects/${seeded.project}` });
    expect(project.statusCode).toBe(200);
    expect(project.json()).toMatchObject({ status: 'completed', tokenSlug: 'demo-dpnm' });
    const events = await test.ctx.sql<{ type: string; seq: string }>(
      `select e.type, e.seq from project_events e join projects p on p.id = e.project_id
        where p.slug = $1 order by e.seq`,
      [seeded.project],
    );
    expect(events.map((event) => event.type)).toEqual([
      'plan',
      'message',
      'tool_call',
      'tool_result',
      'commit',
      'message',
      'done',
    ]);
  });
});

describe('the demo pictures', () => {
  it('gives every demo token and agent its own picture, served as an upload', async () => {
    const urls = new Set<string>();
    for (const url of [
      ...seeded.tokens.map((slug) => `/tokens/${slug}`),
      ...seeded.agents.map((slug) => `/marketplace/agents/${slug}`),
    ]) {
      const { imageUrl } = (await test.app.inject({ method: 'GET', url })).json<{
        imageUrl: string;
      }>();
      expect(imageUrl).toMatch(new RegExp(`^${test.ctx.config.publicBaseUrl}/media/[0-9a-f]{64}$`));
      urls.add(imageUrl);
      const served = await test.app.inject({ method: 'GET', url: new URL(imageUrl).pathname });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.rawPayload).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: 'webp',
        width: 512,
        height: 512,
      });
    }
    expect(urls.size).toBe(seeded.tokens.length + seeded.agents.length);
  });
});

describe('seed → faucet → a paid invocation', () => {
  it('charges the demo caller and pays the demo agent’s owner', async () => {
    const [alice, bob] = seeded.users as [SeededDemo['users'][0], SeededDemo['users'][0]];
    const faucet = await test.app.inject({
      method: 'POST',
      url: '/dev/faucet',
      headers: { 'x-api-key': alice.apiKey },
    });
    expect(faucet.statusCode).toBe(201);
    expect(await balanceOf(alice.id)).toBe(1000n * MICRO);
    const ownerBefore = await balanceOf(bob.id);

    const call = await test.app.inject({
      method: 'POST',
      url: '/agents/demo-echo/invoke',
      headers: { 'x-api-key': alice.apiKey, 'idempotency-key': 'first-demo-call' },
      payload: { input: { text: 'hello' }, tools: ['web_search'] },
    });
    expect(call.statusCode).toBe(200);
    const body = call.json<{ costFlow: number; toolsUsed: string[]; output: { echo: unknown } }>();
    // 1 FLOW per call plus web_search at 0.25.
    expect(body).toMatchObject({ costFlow: 1.25, toolsUsed: ['web_search'] });
    expect(body.output.echo).toEqual({ text: 'hello' });
    const cost = 1_250_000n;
    expect(await balanceOf(alice.id)).toBe(1000n * MICRO - cost);
    // demo-echo carries bob's token: the owner's share of the split.
    expect((await balanceOf(bob.id)) - ownerBefore).toBe(splitEarnings(cost, true).owner);

    const free = await test.app.inject({
      method: 'POST',
      url: '/agents/demo-oracle/invoke',
      headers: { 'x-api-key': alice.apiKey },
      payload: { input: 'will it build?', tools: [] },
    });
    expect(free.statusCode).toBe(200);
    expect(free.json()).toMatchObject({ costFlow: 0, model: 'demo-oracle-1' });
  });

  it('fails the call, and charges nothing, when the endpoint secret does not match', async () => {
    const [alice] = seeded.users as [SeededDemo['users'][0]];
    await test.ctx.sql(
      `update agents set endpoint_secret = 'whsec_bm90LXRoZS1zZWNyZXQ=' where slug = 'demo-echo'`,
    );
    const before = await balanceOf(alice.id);
    const call = await test.app.inject({
      method: 'POST',
      url: '/agents/demo-echo/invoke',
      headers: { 'x-api-key': alice.apiKey },
      payload: { input: 'x', tools: [] },
    });
    expect(call.statusCode).toBe(502);
    expect(call.json().error.code).toBe('agent_failed');
    expect(await balanceOf(alice.id)).toBe(before);
  });
});
