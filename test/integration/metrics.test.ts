import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App } from '../../api/app';
import { reserveSpend } from '../../api/access/spend-guard';
import { parseFlow } from '../../shared/domain/flow';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, awaitFreshUtcMinute, freshDayHookTimeout } from '../helpers/clock';
import {
  createTestContext,
  UNLIMITED_RATES,
  useTestApp,
  type TestContext,
} from '../helpers/context';
import { expectError } from '../helpers/errors';
import { Exposition } from '../helpers/prometheus';
import { insertProject } from '../helpers/project-fixtures';
import { eventually, SseClient } from '../helpers/sse-client';

/**
 * GET /metrics of the API (docs/metrics.md), scraped and read with a real Prometheus text
 * parser: each series moves with the traffic that should move it, and nothing else. The
 * worker's series (webhook outcomes, indexer lag, Temporal's own) are in metrics-worker.test.ts.
 */

/** A charged endpoint that exists only in this test file (the spend guard's 402). */
const chargeProbe: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/__probe/charge',
    {
      config: { auth: 'user' },
      schema: {
        body: z.strictObject({ flow: z.number().positive() }),
        response: { 200: z.object({ ok: z.boolean() }) },
      },
    },
    async (request) => {
      const key = request.actor?.apiKey;
      if (key) await reserveSpend(request.em, key.id, parseFlow(request.body.flow)!);
      return { ok: true };
    },
  );
};

const test = useTestApp([chargeProbe], UNLIMITED_RATES);
let alice: SignedIn;

beforeAll(async () => {
  alice = await signIn(test.app);
});

async function scrape(app: App = test.app, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return Exposition.parse(response.body);
}

const requests = (metrics: Exposition, method: string, route: string, status: number) =>
  metrics.sum('svc_http_requests_total', { method, route, status: String(status) });

describe('HTTP requests', () => {
  it('counts responses by method, route pattern and status, with their durations', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      expect((await test.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
    const unknown = await test.app.inject({ method: 'GET', url: '/no/such/route-4a7c' });
    expectError(unknown, 404, 'not_found');
    expectError(await test.app.inject({ method: 'GET', url: '/me' }), 401, 'unauthenticated');
    const token = await test.app.inject({ method: 'GET', url: '/tokens/missing-token-9f31' });
    expect(token.statusCode).toBe(404);
    const after = await scrape();

    expect(requests(after, 'GET', '/healthz', 200) - requests(before, 'GET', '/healthz', 200)).toBe(
      3,
    );
    expect(
      requests(after, 'GET', 'unmatched', 404) - requests(before, 'GET', 'unmatched', 404),
    ).toBe(1);
    expect(requests(after, 'GET', '/me', 401) - requests(before, 'GET', '/me', 401)).toBe(1);
    const slugRoute = (m: Exposition) => requests(m, 'GET', '/tokens/:slug', 404);
    expect(slugRoute(after) - slugRoute(before)).toBe(1);

    const family = after.family('svc_http_requests_total');
    expect(family.type).toBe('COUNTER');
    expect(family.help).toMatch(/route pattern/);
    // Route patterns only: no URL a caller typed becomes a label value.
    const values = family.samples.flatMap((sample) => Object.values(sample.labels));
    expect(values.filter((value) => /4a7c|9f31/.test(value))).toEqual([]);

    const durations = (m: Exposition) =>
      m.samples('svc_http_request_duration_seconds', { method: 'GET', route: '/healthz' });
    expect(after.family('svc_http_request_duration_seconds').type).toBe('HISTOGRAM');
    const [histogram] = durations(after);
    expect(histogram!.value - (durations(before)[0]?.value ?? 0)).toBe(3);
    expect(histogram!.buckets!['+Inf']).toBe(histogram!.value);
    expect(histogram!.sum).toBeGreaterThan(0);
  });

  it('is not rate limited, reads no credential and is not in the OpenAPI document', async () => {
    const limited = await createTestContext({ RATE_LIMIT_ANONYMOUS_RPM: '1' });
    try {
      const app = await limited.newApi();
      await app.ready();
      for (let i = 0; i < 3; i++) {
        // A credential that would be a 401 anywhere it is read.
        const response = await app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { 'x-api-key': 'svc_live_not-a-key' },
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
      const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<string, unknown>;
      }>();
      expect(Object.keys(document.paths)).not.toContain('/metrics');
    } finally {
      await limited.close();
    }
  });
});

describe('refusals', () => {
  it('counts 429 rate_limited by the kind of caller whose bucket was full', async () => {
    const key = await createKey(test.app, alice, { name: 'two a minute', rate_limit_rpm: 2 });
    await awaitFreshUtcMinute(10_000);
    const before = await scrape();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await test.app.inject({
        method: 'GET',
        url: '/me',
        headers: { 'x-api-key': key.key },
      });
      statuses.push(response.statusCode);
    }
    const after = await scrape();
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBe(3);
    const counted = (m: Exposition) =>
      m.sum('svc_rate_limit_refusals_total', { principal: 'api_key' });
    expect(counted(after) - counted(before)).toBe(refused);
    expect(after.sum('svc_rate_limit_refusals_total', { principal: 'anonymous' })).toBe(
      before.sum('svc_rate_limit_refusals_total', { principal: 'anonymous' }),
    );
    expect(requests(after, 'GET', '/me', 429) - requests(before, 'GET', '/me', 429)).toBe(refused);
  });

  it(
    'counts 402 spend_limit_reached from the spend guard',
    async () => {
      await awaitFreshUtcDay();
      const key = await createKey(test.app, alice, {
        name: 'capped',
        rate_limit_rpm: 100_000,
        spend_limit_flow: '1',
        spend_period: 'day',
      });
      const before = await scrape();
      const charge = (flow: number) =>
        test.app.inject({
          method: 'POST',
          url: '/__probe/charge',
          headers: { 'x-api-key': key.key },
          payload: { flow },
        });
      expect((await charge(0.5)).statusCode).toBe(200);
      expectError(await charge(5), 402, 'spend_limit_reached');
      expectError(await charge(0.75), 402, 'spend_limit_reached');
      const after = await scrape();
      const counted = (m: Exposition) =>
        m.sum('svc_spend_refusals_total', { code: 'spend_limit_reached' });
      expect(counted(after) - counted(before)).toBe(2);
      expect(after.sum('svc_spend_refusals_total', { code: 'insufficient_flow' })).toBe(
        before.sum('svc_spend_refusals_total', { code: 'insufficient_flow' }),
      );
    },
    freshDayHookTimeout(),
  );
});

describe('project streams', () => {
  it('shows an open stream while it is open and none once it closed', async () => {
    const project = await insertProject(test.ctx, { ownerId: alice.userId });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = test.app.server.address() as { port: number };
    const open = async () => (await scrape()).value('svc_sse_open_streams');
    expect(await open()).toBe(0);

    const client = await SseClient.connect(
      `http://127.0.0.1:${port}/projects/${project.slug}/stream`,
    );
    try {
      expect(client.status).toBe(200);
      expect(await open()).toBe(1);
    } finally {
      client.close();
    }
    await eventually(async () => (await open()) === 0);
  });
});

describe('webhook outbox lag', () => {
  it('is the age of the oldest undispatched event, and 0 once none waits', async () => {
    const lag = async () => (await scrape()).value('svc_webhook_outbox_lag_seconds');
    await test.ctx.sql(
      `insert into outbox_events (id, user_id, event, data, dedupe_key, created_at)
       values (gen_random_uuid(), $1, 'agent.published', '{}', $2, now() - interval '120 seconds')`,
      [alice.userId, `metrics-test:${alice.userId}`],
    );
    const waiting = await lag();
    expect(waiting).toBeGreaterThanOrEqual(120);
    expect(waiting).toBeLessThan(180);

    await test.ctx.sql(
      'update outbox_events set dispatched_at = now() where dispatched_at is null',
    );
    expect(await lag()).toBe(0);
  });

  it('is read through the partial index of waiting events', async () => {
    // Many dispatched events and one waiting: the index holds only the waiting one.
    await test.ctx.sql(
      `insert into outbox_events (id, user_id, event, data, dedupe_key, created_at, dispatched_at)
       select gen_random_uuid(), $1, 'agent.published', '{}', 'metrics-plan:' || n, now(), now()
         from generate_series(1, 5000) as n`,
      [alice.userId],
    );
    await test.ctx.sql(
      `insert into outbox_events (id, user_id, event, data, dedupe_key, created_at)
       values (gen_random_uuid(), $1, 'agent.published', '{}', 'metrics-plan:waiting', now())`,
      [alice.userId],
    );
    await test.ctx.sql('analyze outbox_events');
    const plan = await test.ctx.sql<{ 'QUERY PLAN': string }>(
      `explain select coalesce(extract(epoch from now() - min(created_at)), 0)::float8
         from outbox_events where dispatched_at is null`,
    );
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(
      'outbox_events_pending_index',
    );
  });
});

describe('chain index age', () => {
  it("is the age of each chain's last indexed block", async () => {
    await test.ctx.sql(
      `insert into chain_cursors (chain_id, next_block, head_time, updated_at)
       values (97, 1000, now() - interval '300 seconds', now())`,
    );
    const age = (await scrape()).value('svc_chain_indexed_block_age_seconds', { chain_id: '97' });
    expect(age).toBeGreaterThanOrEqual(300);
    expect(age).toBeLessThan(360);
  });
});

describe('in production', () => {
  const TOKEN = 'metrics-token-for-the-production-test-7c1e';
  const production = {
    ...UNLIMITED_RATES,
    NODE_ENV: 'production',
    JWT_SECRET: 'production-jwt-secret-for-the-metrics-test-0123',
    API_KEY_PEPPER: 'production-pepper-for-the-metrics-test-456789',
  };
  let guarded: TestContext;
  let app: App;

  beforeAll(async () => {
    guarded = await createTestContext({ ...production, METRICS_TOKEN: TOKEN });
    app = await guarded.newApi();
    await app.ready();
  });
  afterAll(async () => guarded?.close());

  it('answers only the bearer of METRICS_TOKEN', async () => {
    const get = (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/metrics', headers });
    expectError(await get({}), 401, 'unauthenticated');
    expectError(await get({ authorization: `Bearer ${TOKEN}x` }), 401, 'unauthenticated');
    expectError(
      await get({ authorization: `Bearer ${TOKEN.slice(0, -1)}` }),
      401,
      'unauthenticated',
    );
    expectError(await get({ authorization: TOKEN }), 401, 'unauthenticated');

    const metrics = await scrape(app, { authorization: `Bearer ${TOKEN}` });
    expect(metrics.sum('svc_http_requests_total', { route: '/metrics', status: '401' })).toBe(4);
    // Node's own figures are collected outside tests.
    expect(metrics.family('process_resident_memory_bytes').type).toBe('GAUGE');
    expect(JSON.stringify(guarded.logs)).not.toContain(TOKEN);
    expect(guarded.logs.length).toBeGreaterThan(0);
  });

  it('does not exist without METRICS_TOKEN', async () => {
    const open = await createTestContext(production);
    try {
      const unguarded = await open.newApi();
      await unguarded.ready();
      const response = await unguarded.inject({ method: 'GET', url: '/metrics' });
      expectError(response, 404, 'not_found');
    } finally {
      await open.close();
    }
  });
});
