import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LightMyRequestResponse } from 'fastify';
// Declares the analytics statements (the app imports them too; said here, not assumed).
import '../../api/routes/analytics/queries';
import { declaredStatements } from '../../shared/db/sql';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { createKey, signIn, type CreatedKey, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { grantTier } from '../helpers/tiers';
import { fundFlow } from '../helpers/flow';

/**
 * GET /me/analytics (docs/spec/contract.md §11): basic for plus, advanced for pro and max, nothing
 * without a tier. Traffic is real where it can be (invocations of agents on a loopback
 * endpoint, requests made with API keys), and history is written straight into the rows the
 * read models are kept from (agent_daily_stats, api_key_usage, agent_calls), at known days.
 */

const test = useTestApp({ env: UNLIMITED_RATES });

const DAY_MS = 86_400_000;
const todayStart = () => Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** The UTC day `n` days ago, YYYY-MM-DD. */
const dayAgo = (n: number) => new Date(todayStart() - n * DAY_MS).toISOString().slice(0, 10);
/** An instant on the UTC day `n` days ago, `hour` hours past midnight. */
const at = (n: number, hour: number) => new Date(todayStart() - n * DAY_MS + hour * 3_600_000);

interface Analytics {
  level: string;
  tier: string;
  days: number;
  from: string;
  to: string;
  totals: Record<string, number>;
  daily: ({ day: string } & Record<string, number>)[];
  agents: { slug: string; totals: Record<string, number>; daily: unknown[]; latency?: unknown }[];
  apiKeys: { id: string; totals: Record<string, number>; daily: unknown[]; latency?: unknown }[];
  byModel?: unknown[];
  byEndpoint?: unknown[];
  latencyWindow?: unknown;
}

let agentServer: AgentServer;
let alice: SignedIn;
let carol: SignedIn;
let key: CreatedKey;
let agentA: string;
let agentB: string;
let agentC: string;

beforeAll(async () => {
  // Every expectation is tied to today's UTC date.
  await awaitFreshUtcDay(120_000);
  agentServer = await startAgentServer();
  [alice, carol] = await Promise.all([signIn(test.app), signIn(test.app)]);
  const bob = await signIn(test.app);
  agentA = await publishAgent(alice, 2);
  agentB = await publishAgent(alice, 1);
  agentC = await publishAgent(carol, 1.5);

  // Today, for real: bob calls A twice (and once more in vain), alice calls C with her key,
  // then uses the key for a request that fails and one that succeeds.
  await fundFlow(test.ctx, bob.userId, 10);
  await fundFlow(test.ctx, alice.userId, 10);
  for (const input of [{}, {}, { status: 500 }])
    await invoke(agentA, { cookie: bob.cookie }, input);
  key = await createKey(test.app, alice, { name: 'main' });
  expect((await invoke(agentC, { key: key.key }, { model: 'gpt-k' })).statusCode).toBe(200);
  expect((await call(`/me/api-keys/${randomUUID()}/usage`, { key: key.key })).statusCode).toBe(404);
  expect((await call('/me', { key: key.key })).statusCode).toBe(200);

  // History of A: two days inside 30 days, one just outside, one inside 365.
  const idA = await agentId(agentA);
  for (const [daysAgo, calls, earnings] of [
    [5, 3, 3_000_000],
    [29, 1, 500_000],
    [30, 100, 99_000_000],
    [200, 7, 7_000_000],
  ] as const) {
    await test.ctx.sql(
      'insert into agent_daily_stats (agent_id, day, calls, earnings) values ($1, $2, $3, $4)',
      [idA, dayAgo(daysAgo), calls, earnings],
    );
  }
  // History of the key: two requests (one failed) 2 days ago, one 40 days ago.
  for (const [when, method, status, flow, model] of [
    [at(2, 12), 'GET', 200, 250_000, 'gpt-x'],
    [at(2, 13), 'GET', 500, 0, null],
    [at(40, 8), 'POST', 200, 1_000_000, 'gpt-x'],
  ] as const) {
    await insertUsage(key.id, { when, method, route: '/reports', status, flow, model });
  }
});
afterAll(async () => agentServer?.close());
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

function call(
  url: string,
  who: { cookie?: string; key?: string } | null,
  method: 'GET' | 'POST' = 'GET',
  payload?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (who?.key) headers['x-api-key'] = who.key;
  else if (who?.cookie) headers.cookie = who.cookie;
  return test.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

const invoke = (slug: string, who: { cookie?: string; key?: string }, input: object) =>
  call(`/agents/${slug}/invoke`, who, 'POST', { input });

async function publishAgent(owner: SignedIn, price: number): Promise<string> {
  const path = `/agent/${randomUUID()}`;
  const created = await call('/agents', owner, 'POST', {
    name: `Agent ${path.slice(-6)}`,
    description: 'Counts things',
    endpointUrl: agentServer.url(path),
  });
  const { slug, endpointSecret } = created.json<{ slug: string; endpointSecret: string }>();
  agentServer.setSecret(path, endpointSecret);
  const published = await call(`/agents/${slug}/publish`, owner, 'POST', {
    monetization: 'per_call',
    perCallPriceFlow: price,
    tags: ['analytics'],
  });
  expect(published.statusCode).toBe(200);
  return slug;
}

async function agentId(slug: string): Promise<string> {
  const [row] = await test.ctx.sql<{ id: string }>('select id from agents where slug = $1', [slug]);
  return row!.id;
}

interface UsageRow {
  when: Date;
  method: string;
  route: string;
  status: number;
  flow: number;
  model: string | null;
  latencyMs?: number;
}

/** A request made with a key, as the usage recorder writes it (its triggers fill the hours). */
async function insertUsage(apiKeyId: string, row: UsageRow): Promise<void> {
  await test.ctx.sql(
    `insert into api_key_usage (id, api_key_id, method, route, status, latency_ms, flow_cost, model,
                                input_tokens, output_tokens, created_at)
     values (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, 0, 0, $8)`,
    [
      apiKeyId,
      row.method,
      row.route,
      row.status,
      row.latencyMs ?? 5,
      row.flow,
      row.model,
      row.when,
    ],
  );
}

async function insertCalls(
  agent: string,
  callerId: number,
  latencies: number[],
  when: Date,
  status = 'succeeded',
) {
  await test.ctx.sql(
    `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, cost, created_at)
     select gen_random_uuid(), $1, $2, $3, l, 0, $5 from unnest($4::int[]) as l`,
    [await agentId(agent), callerId, status, latencies, when],
  );
}

async function analytics(who: { cookie?: string; key?: string } | null, query = '') {
  return call(`/me/analytics${query}`, who);
}

/** The dense series: zeros everywhere except `days` (days ago → figures). */
function denseDaily(length: number, days: Record<number, Record<string, number>>) {
  return Array.from({ length }, (_, i) => ({
    day: dayAgo(length - 1 - i),
    calls: 0,
    flowEarned: 0,
    requests: 0,
    errors: 0,
    flowSpent: 0,
    ...days[length - 1 - i],
  }));
}

describe('who may read analytics', () => {
  it('needs a user: anonymous 401, a bad API key 401', async () => {
    expectError(await analytics(null), 401, 'unauthenticated');
    expectError(await analytics({ key: `svc_live_${'0'.repeat(64)}` }), 401, 'invalid_api_key');
  });

  it('refuses callers without a tier (none, canceled) with 403 feature_not_in_tier', async () => {
    const user = await signIn(test.app);
    const refusal = /^analytics: GET \/me\/analytics needs the plus tier or higher/;
    expectError(await analytics(user), 403, 'feature_not_in_tier', refusal);
    await grantTier(test.ctx, user.userId, 'max', 'canceled');
    expectError(await analytics(user), 403, 'feature_not_in_tier', refusal);
    await grantTier(test.ctx, user.userId, 'plus', 'grace');
    expect((await analytics(user)).json<Analytics>()).toMatchObject({ level: 'basic' });
  });

  it('validates days: an integer from 1 to 365', async () => {
    await grantTier(test.ctx, alice.userId, 'pro');
    for (const days of ['0', '366', 'abc', '1.5', '-3']) {
      expectError(
        await analytics(alice, `?days=${days}`),
        400,
        'invalid_request',
        'days: must be an integer from 1 to 365',
      );
    }
  });

  it('answers an API key like a session, and shows only the caller’s own agents and keys', async () => {
    await grantTier(test.ctx, alice.userId, 'plus');
    await grantTier(test.ctx, carol.userId, 'plus');
    const viaKey = await analytics({ key: key.key });
    expect(viaKey.statusCode).toBe(200);
    const mine = viaKey.json<Analytics>();
    expect(mine.agents.map((a) => a.slug).sort()).toEqual([agentA, agentB].sort());
    const theirs = (await analytics(carol)).json<Analytics>();
    expect(theirs.agents.map((a) => a.slug)).toEqual([agentC]);
    expect(theirs.agents[0]!.totals).toEqual({ calls: 1, flowEarned: 1.5 });
    expect(theirs.apiKeys).toEqual([]);
    expect(theirs.totals).toEqual({
      calls: 1,
      flowEarned: 1.5,
      requests: 0,
      errors: 0,
      flowSpent: 0,
    });
  });
});

describe('basic analytics (plus)', () => {
  beforeAll(() => grantTier(test.ctx, alice.userId, 'plus'));

  it('covers the last 30 UTC days: daily calls and earnings per agent, usage per key', async () => {
    const response = await analytics({ cookie: alice.cookie });
    expect(response.statusCode).toBe(200);
    const body = response.json<Analytics>();
    // The key's requests of today: the invocation of C, the 404, GET /me and this file's
    // earlier analytics read made with the key.
    const keyToday = { requests: 4, errors: 1, flowSpent: 1.5 };
    expect(body).toEqual({
      level: 'basic',
      tier: 'plus',
      days: 30,
      from: dayAgo(29),
      to: dayAgo(0),
      totals: { calls: 6, flowEarned: 7.5, requests: 6, errors: 2, flowSpent: 1.75 },
      daily: denseDaily(30, {
        29: { calls: 1, flowEarned: 0.5 },
        5: { calls: 3, flowEarned: 3 },
        2: { requests: 2, errors: 1, flowSpent: 0.25 },
        0: { calls: 2, flowEarned: 4, ...keyToday },
      }),
      agents: [
        {
          slug: agentB,
          name: expect.any(String),
          premium: false,
          isPublished: true,
          totals: { calls: 0, flowEarned: 0 },
          daily: [],
        },
        {
          slug: agentA,
          name: expect.any(String),
          premium: false,
          isPublished: true,
          totals: { calls: 6, flowEarned: 7.5 },
          daily: [
            { day: dayAgo(29), calls: 1, flowEarned: 0.5 },
            { day: dayAgo(5), calls: 3, flowEarned: 3 },
            { day: dayAgo(0), calls: 2, flowEarned: 4 },
          ],
        },
      ],
      apiKeys: [
        {
          id: key.id,
          prefix: key.prefix,
          name: 'main',
          revoked: false,
          totals: { requests: 6, errors: 2, flowSpent: 1.75 },
          daily: [
            { day: dayAgo(2), requests: 2, errors: 1, flowSpent: 0.25 },
            { day: dayAgo(0), ...keyToday },
          ],
        },
      ],
    });
  });

  it('narrows to ?days=7, and refuses more than 30 days with 403 naming the tier needed', async () => {
    const body = (await analytics(alice, '?days=7')).json<Analytics>();
    expect(body).toMatchObject({ days: 7, from: dayAgo(6), to: dayAgo(0) });
    expect(body.daily).toHaveLength(7);
    expect(body.agents.find((a) => a.slug === agentA)!.totals).toEqual({ calls: 5, flowEarned: 7 });
    expect(body.totals).toMatchObject({ calls: 5, flowEarned: 7, errors: 2, flowSpent: 1.75 });
    expectError(
      await analytics(alice, '?days=31'),
      403,
      'feature_not_in_tier',
      'days: more than 30 days of analytics need the pro tier or higher (your tier: plus)',
    );
  });

  it('answers with two statements on the read pool and none through MikroORM', async () => {
    await analytics(alice); // warms the credential caches
    // Every statement MikroORM sends goes through its connection's execute.
    const orm = jest.spyOn(test.ctx.deps.orm.em.getConnection(), 'execute');
    const spies = [jest.spyOn(test.ctx.deps.db, 'rows'), jest.spyOn(test.ctx.deps.db, 'row')];
    try {
      expect((await analytics(alice)).statusCode).toBe(200);
      const reads = spies.flatMap(({ mock }) =>
        mock.calls.map(([statement], i) => ({
          name: statement.name,
          order: mock.invocationCallOrder[i]!,
        })),
      );
      expect(reads.sort((a, b) => a.order - b.order).map(({ name }) => name)).toEqual([
        'analytics.tier',
        'analytics.basic',
      ]);
      expect(orm).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
      orm.mockRestore();
    }
  });
});

describe('advanced analytics (pro, max)', () => {
  it('adds a year of history, breakdowns by model and endpoint, and latency', async () => {
    await grantTier(test.ctx, alice.userId, 'pro', 'grace');
    const response = await analytics(alice, '?days=365');
    expect(response.statusCode).toBe(200);
    const body = response.json<Analytics>();
    expect(body).toMatchObject({ level: 'advanced', tier: 'pro', days: 365, from: dayAgo(364) });
    expect(body.daily).toHaveLength(365);
    expect(body.daily[364 - 200]).toMatchObject({ day: dayAgo(200), calls: 7, flowEarned: 7 });
    const a = body.agents.find((agent) => agent.slug === agentA)!;
    expect(a.totals).toEqual({ calls: 113, flowEarned: 113.5 });
    expect(a.latency).toEqual({ p50Ms: expect.any(Number), p95Ms: expect.any(Number), samples: 2 });
    expect(body.agents.find((agent) => agent.slug === agentB)!.latency).toEqual({
      p50Ms: null,
      p95Ms: null,
      samples: 0,
    });
    const [k] = body.apiKeys;
    expect(k!.totals).toMatchObject({ errors: 2, flowSpent: 2.75 });
    expect(k!.daily[0]).toEqual({ day: dayAgo(40), requests: 1, errors: 0, flowSpent: 1 });
    expect(body.byModel).toEqual([
      { model: 'gpt-x', requests: 2, flowSpent: 1.25, inputTokens: 0, outputTokens: 0 },
      { model: 'gpt-k', requests: 1, flowSpent: 1.5, inputTokens: 11, outputTokens: 7 },
    ]);
    expect(body.byEndpoint).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/reports', requests: 2, errors: 1, flowSpent: 0.25 },
        { method: 'POST', route: '/reports', requests: 1, errors: 0, flowSpent: 1 },
        { method: 'POST', route: '/agents/:slug/invoke', requests: 1, errors: 0, flowSpent: 1.5 },
        { method: 'GET', route: '/me/api-keys/:id/usage', requests: 1, errors: 1, flowSpent: 0 },
      ]),
    );
    expect(body.latencyWindow).toEqual({ from: dayAgo(29), days: 30, maxSamples: 20_000 });
  });

  it('takes percentiles of succeeded calls and of key requests within the latency window', async () => {
    const dave = await signIn(test.app);
    await grantTier(test.ctx, dave.userId, 'max');
    const agent = await publishAgent(dave, 1);
    const daveKey = await createKey(test.app, dave, { name: 'timed' });
    const now = new Date(Date.now() - 60_000);
    await insertCalls(agent, alice.userId, [100, 200, 300, 400, 1000], now);
    await insertCalls(agent, alice.userId, [9999], now, 'failed');
    await insertCalls(agent, alice.userId, [5000], at(30, 12)); // before the latency window
    for (const latencyMs of [10, 20, 30, 50]) {
      await insertUsage(daveKey.id, {
        when: now,
        method: 'GET',
        route: '/x',
        status: 200,
        flow: 0,
        model: null,
        latencyMs,
      });
    }
    await insertUsage(daveKey.id, {
      when: at(30, 1),
      method: 'GET',
      route: '/x',
      status: 200,
      flow: 0,
      model: null,
      latencyMs: 7000,
    });

    const body = (await analytics(dave, '?days=90')).json<Analytics>();
    expect(body.agents[0]!.latency).toEqual({ p50Ms: 300, p95Ms: 880, samples: 5 });
    expect(body.apiKeys[0]!.latency).toEqual({ p50Ms: 25, p95Ms: 47, samples: 4 });
    // The day 30 days ago is in the 90-day window's sums, but not in its latency window.
    expect(body.apiKeys[0]!.totals.requests).toBe(5);
    const short = (await analytics(dave, '?days=7')).json<Analytics>();
    expect(short.latencyWindow).toEqual({ from: dayAgo(6), days: 7, maxSamples: 20_000 });
  });

  it('caps the percentile samples at the newest 20,000 of each agent and key', async () => {
    const erin = await signIn(test.app);
    await grantTier(test.ctx, erin.userId, 'pro');
    const agent = await publishAgent(erin, 1);
    const erinKey = await createKey(test.app, erin, { name: 'busy' });
    // 2,000 slow calls yesterday, then 20,000 fast ones today: the slow ones fall outside
    // the sample, so even p95 is fast (taken over all 22,000 it would be slow).
    const id = await agentId(agent);
    for (const [count, latency, when] of [
      [2_000, 100_000, at(1, 6)],
      [20_000, 1, new Date(Date.now() - 60_000)],
    ] as const) {
      await test.ctx.sql(
        `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, cost, created_at)
         select gen_random_uuid(), $1, $2, 'succeeded', $3, 0, $4::timestamptz - make_interval(secs => i / 1000.0)
           from generate_series(1, $5::int) as i`,
        [id, alice.userId, latency, when, count],
      );
      await test.ctx.sql(
        `insert into api_key_usage (id, api_key_id, method, route, status, latency_ms, flow_cost,
                                    input_tokens, output_tokens, created_at)
         select gen_random_uuid(), $1, 'GET', '/busy', 200, $2, 0, 0, 0,
                $3::timestamptz - make_interval(secs => i / 1000.0)
           from generate_series(1, $4::int) as i`,
        [erinKey.id, latency, when, count],
      );
    }
    const body = (await analytics(erin)).json<Analytics>();
    expect(body.agents[0]!.latency).toEqual({ p50Ms: 1, p95Ms: 1, samples: 20_000 });
    expect(body.apiKeys[0]!.latency).toEqual({ p50Ms: 1, p95Ms: 1, samples: 20_000 });
    expect(body.apiKeys[0]!.totals.requests).toBe(22_000);
  });

  // On the 22,000 calls and requests the previous test wrote, so an index is worth reading.
  it('reads raw rows only along their indexes, under the read pool’s generic plan', async () => {
    await test.ctx.sql('analyze');
    await test.ctx.sql('set plan_cache_mode = force_generic_plan');
    const text = declaredStatements().get('analytics.advanced')!;
    await test.ctx.sql(`prepare analytics_advanced as ${text}`);
    try {
      const rows = await test.ctx.sql<{ 'QUERY PLAN': string }>(
        `explain execute analytics_advanced(null, null, null, null)`,
      );
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('agent_calls_agent_id_created_at_index');
      expect(plan).toContain('api_key_usage_api_key_id_created_at_id_index');
      expect(plan).not.toMatch(/Seq Scan on (agent_calls|api_key_usage) /);
    } finally {
      await test.ctx.sql('deallocate analytics_advanced');
      await test.ctx.sql('reset plan_cache_mode');
    }
  });

  it('lists a key revoked during the window, marked revoked', async () => {
    const frank = await signIn(test.app);
    await grantTier(test.ctx, frank.userId, 'max');
    const old = await createKey(test.app, frank, { name: 'old' });
    expect((await call('/me', { key: old.key })).statusCode).toBe(200);
    const revoked = await test.app.inject({
      method: 'DELETE',
      url: `/me/api-keys/${old.id}`,
      headers: { cookie: frank.cookie },
    });
    expect(revoked.statusCode).toBe(204);
    const body = (await analytics(frank)).json<Analytics>();
    expect(body.apiKeys).toEqual([
      expect.objectContaining({
        id: old.id,
        revoked: true,
        totals: { requests: 1, errors: 0, flowSpent: 0 },
      }),
    ]);
  });
});

describe('documentation', () => {
  it('documents GET /me/analytics with its query, response and error envelope', async () => {
    const document = (await call('/openapi.json', null)).json();
    const operation = document.paths['/me/analytics'].get;
    expect(operation.description).toMatch(/feature_not_in_tier/);
    expect(operation.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'days', in: 'query', description: expect.any(String) }),
      ]),
    );
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '4XX', '5XX']));
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
  });
});
