import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../api/app';
import { addMonthUtc } from '../../shared/domain/pricing';
import { Agent } from '../../shared/db/entities';
import { holdFlow } from '../../shared/flow/ledger';
import { settleCall } from '../../api/routes/marketplace/charges';
import { invokeAgent } from '../../api/routes/marketplace/invoke';
import { createOutboundClient } from '../../shared/net/outbound-client';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentInstruction, type AgentServer } from '../helpers/agent-server';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { fundFlow, microFlow } from '../helpers/flow';

/**
 * Paid invocation (docs/spec/contract.md §6) end to end: a real agent endpoint on loopback, real
 * PostgreSQL balances and ledger, two API instances for the concurrency cases.
 */

interface Envelope {
  error: { code: string; message: string };
}

interface CallResult {
  callId: string;
  output: { echo: string | null; callId: string };
  model: string | null;
  toolsUsed: string[];
  usage: { inputTokens: number; outputTokens: number };
  costFlow: number;
}

interface AgentSpec {
  monetization: 'per_call' | 'subscription' | 'hybrid' | 'freemium';
  perCallPriceFlow?: number;
  subscriptionFlowPerMonth?: number;
  freemiumDailyCalls?: number;
  tools?: { tool: string; perCallFlow: number }[];
  tokenSlug?: string;
}

let ctx: TestContext;
let app: App;
let second: App;
let agentServer: AgentServer;
let owner: SignedIn;

beforeAll(async () => {
  ctx = await createTestContext({ ...UNLIMITED_RATES, AGENT_CALL_TIMEOUT_MS: '1500' });
  app = await ctx.newApi();
  second = await ctx.newApi();
  await Promise.all([app.ready(), second.ready()]);
  agentServer = await startAgentServer();
  owner = await signIn(app);
});

afterAll(async () => {
  await agentServer?.close();
  await ctx?.close();
});
// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

async function balanceOf(userId: number): Promise<{ balance: bigint; held: bigint }> {
  const [row] = await ctx.sql<{ balance: string; held: string }>(
    'select balance, held from flow_accounts where user_id = $1',
    [userId],
  );
  return { balance: BigInt(row?.balance ?? 0), held: BigInt(row?.held ?? 0) };
}

async function ledgerOf(userId: number) {
  return ctx.sql<{ delta: string; reason: string; ref_type: string; ref_id: string }>(
    'select delta, reason, ref_type, ref_id from ledger_entries where user_id = $1 order by created_at, id',
    [userId],
  );
}

async function linkToken(ownerId: number): Promise<{ id: string; slug: string }> {
  const id = randomUUID();
  const slug = `tok-${id.slice(0, 8)}`;
  await ctx.sql(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
     values ($1, $2, $3, $4, $5, 'dpnm', 31337, '{}', 'live', now())`,
    [
      id,
      ownerId,
      slug,
      `Token ${slug}`,
      `T${id
        .slice(0, 5)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '0')}`,
    ],
  );
  return { id, slug };
}

/** Creates, prices and publishes an agent of `owner`; returns its slug and endpoint path. */
async function publishAgent(spec: AgentSpec, by: SignedIn = owner) {
  const path = `/agent/${randomUUID()}`;
  const created = await app.inject({
    method: 'POST',
    url: '/agents',
    headers: { cookie: by.cookie },
    payload: {
      name: `Agent ${path.slice(-6)}`,
      description: 'Answers questions',
      tags: ['test'],
      endpointUrl: agentServer.url(path),
    },
  });
  expect(created.statusCode).toBe(201);
  const { slug, endpointSecret } = created.json<{ slug: string; endpointSecret: string }>();
  agentServer.setSecret(path, endpointSecret);
  if (spec.tools) {
    const priced = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/tool-prices`,
      headers: { cookie: by.cookie },
      payload: { tools: spec.tools },
    });
    expect(priced.statusCode).toBe(200);
  }
  const publish: Record<string, unknown> = { ...spec };
  delete publish.tools;
  const published = await app.inject({
    method: 'POST',
    url: `/agents/${slug}/publish`,
    headers: { cookie: by.cookie },
    payload: { tags: ['test'], ...publish },
  });
  expect(published.statusCode).toBe(200);
  return { slug, path };
}

function invoke(
  slug: string,
  caller: { cookie?: string; key?: string },
  input: AgentInstruction,
  tools?: string[],
  via: App = app,
): Promise<LightMyRequestResponse> {
  return via.inject({
    method: 'POST',
    url: `/agents/${slug}/invoke`,
    headers: caller.key ? { 'x-api-key': caller.key } : { cookie: caller.cookie ?? '' },
    payload: tools ? { input, tools } : { input },
  });
}

function hitsOf(path: string): number {
  return agentServer.calls.filter((call) => call.path === path).length;
}

describe('per_call', () => {
  it('charges the price plus the tools used, splits 95/5 with the token pool, and signs the call', async () => {
    const token = await linkToken(owner.userId);
    const { slug, path } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tools: [
        { tool: 'web_search', perCallFlow: 0.5 },
        { tool: 'code_interpreter', perCallFlow: 0.25 },
      ],
      tokenSlug: token.slug,
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 10);
    const ownerBefore = await balanceOf(owner.userId);

    const response = await invoke(slug, caller, { text: 'hi', toolsUsed: ['web_search'] });
    expect(response.statusCode).toBe(200);
    const result = response.json<CallResult>();
    expect(result).toMatchObject({
      output: { echo: 'hi' },
      model: 'test-model-1',
      toolsUsed: ['web_search'],
      usage: { inputTokens: 11, outputTokens: 7 },
      costFlow: 2.5,
    });

    const call = agentServer.calls.find((received) => received.path === path)!;
    expect(call.signatureValid).toBe(true);
    expect(call.body).toEqual({
      callId: result.callId,
      input: { text: 'hi', toolsUsed: ['web_search'] },
      tools: expect.arrayContaining(['web_search', 'code_interpreter', 'git']) as unknown,
    });
    expect(call.headers['webhook-id']).toBe(result.callId);

    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(7.5));
    expect((await balanceOf(owner.userId)).balance - ownerBefore.balance).toBe(microFlow(2.375));
    const [pool] = await ctx.sql<{ holder_reward_pool: string }>(
      'select holder_reward_pool from tokens where id = $1',
      [token.id],
    );
    expect(BigInt(pool!.holder_reward_pool)).toBe(microFlow(0.125));

    // The ledger shows the whole movement: −2.5 caller, +2.375 owner, +0.125 holders.
    const rows = await ctx.sql<{ user_id: number | null; token_id: string | null; delta: string }>(
      `select user_id, token_id, delta from ledger_entries
       where ref_type = 'agent_call' and ref_id = $1 order by delta`,
      [result.callId],
    );
    expect(rows.map((row) => BigInt(row.delta))).toEqual([
      -microFlow(2.5),
      microFlow(0.125),
      microFlow(2.375),
    ]);
    expect(rows.reduce((sum, row) => sum + BigInt(row.delta), 0n)).toBe(0n);
    expect(rows[0]!.user_id).toBe(caller.userId);
    expect(rows[1]!.token_id).toBe(token.id);
    expect(rows[2]!.user_id).toBe(owner.userId);
  });

  it('stacks every tool used on the base price; without a token the owner gets everything', async () => {
    const { slug } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tools: [
        { tool: 'web_search', perCallFlow: 0.5 },
        { tool: 'browser', perCallFlow: 0.3 },
      ],
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 5);
    const ownerBefore = (await balanceOf(owner.userId)).balance;
    const response = await invoke(slug, caller, { toolsUsed: ['web_search', 'browser', 'git'] });
    expect(response.json<CallResult>().costFlow).toBe(1.8);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(3.2));
    expect((await balanceOf(owner.userId)).balance - ownerBefore).toBe(microFlow(1.8));
  });

  it('refuses with 402 insufficient_flow before calling the agent', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 2 });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 1);
    const response = await invoke(slug, caller, {});
    expect(response.statusCode).toBe(402);
    expect(response.json<Envelope>()).toEqual({
      error: { code: 'insufficient_flow', message: expect.any(String) as unknown },
    });
    expect(hitsOf(path)).toBe(0);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(1), held: 0n });
  });

  it('holds the most a call can cost: all permitted tool prices must be covered', async () => {
    const { slug, path } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tools: [{ tool: 'shell', perCallFlow: 5 }],
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 2);
    expect((await invoke(slug, caller, {})).statusCode).toBe(402);
    expect(hitsOf(path)).toBe(0);
    // Not permitting the expensive tool makes the call affordable.
    const narrowed = await invoke(slug, caller, {}, ['web_search']);
    expect(narrowed.statusCode).toBe(200);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(1));
  });

  it('charges nothing when the agent fails, times out, answers badly or uses an unpermitted tool', async () => {
    const { slug, path } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tools: [{ tool: 'web_search', perCallFlow: 1 }],
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 5);
    const cases: [AgentInstruction, string[] | undefined, number, string][] = [
      [{ status: 500 }, undefined, 502, 'agent_failed'],
      [{ raw: 'not json' }, undefined, 502, 'agent_failed'],
      [{ raw: '{"model":"m"}' }, undefined, 502, 'agent_failed'],
      // Text PostgreSQL cannot store: refused before any write, not a 500 after the charge.
      [{ raw: '{"output":"ok","model":"m\\u0000x"}' }, undefined, 502, 'agent_failed'],
      [{ raw: '{"output":{"text":"\\ud800"}}' }, undefined, 502, 'agent_failed'],
      [{ toolsUsed: ['web_search'] }, ['browser'], 502, 'agent_failed'],
      [{ delayMs: 3000 }, undefined, 504, 'agent_timeout'],
    ];
    for (const [input, tools, status, code] of cases) {
      const response = await invoke(slug, caller, input, tools);
      expect({
        input,
        status: response.statusCode,
        code: response.json<Envelope>().error.code,
      }).toEqual({
        input,
        status,
        code,
      });
    }
    expect(hitsOf(path)).toBe(cases.length);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(5), held: 0n });
    expect((await ledgerOf(caller.userId)).filter((row) => row.reason === 'call')).toEqual([]);
    const [failed] = await ctx.sql<{ count: string }>(
      `select count(*) from agent_calls a join agents g on g.id = a.agent_id
       where g.slug = $1 and a.status = 'failed'`,
      [slug],
    );
    expect(Number(failed!.count)).toBe(cases.length);
  });

  it('20 concurrent calls on a balance for 10 across two instances: exactly 10 succeed', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 10);
    const ownerBefore = (await balanceOf(owner.userId)).balance;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        invoke(slug, caller, {}, undefined, i % 2 ? second : app),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(10);
    for (const response of responses.filter((r) => r.statusCode === 402)) {
      expect(response.json<Envelope>().error.code).toBe('insufficient_flow');
    }
    expect(hitsOf(path)).toBe(10);
    expect(await balanceOf(caller.userId)).toEqual({ balance: 0n, held: 0n });
    const ledger = await ledgerOf(caller.userId);
    expect(ledger.reduce((sum, row) => sum + BigInt(row.delta), 0n)).toBe(0n);
    expect(ledger.filter((row) => row.reason === 'call')).toHaveLength(10);
    expect((await balanceOf(owner.userId)).balance - ownerBefore).toBe(microFlow(10));
  });

  it('a retried invoke with the same Idempotency-Key is answered from the record: one call, one charge', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 5);
    const send = (via: App) =>
      via.inject({
        method: 'POST',
        url: `/agents/${slug}/invoke`,
        headers: { cookie: caller.cookie, 'idempotency-key': `invoke-${slug}` },
        payload: { input: { text: 'once' } },
      });
    const first = await send(app);
    const replay = await send(second);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json<CallResult>().callId).toBe(first.json<CallResult>().callId);
    expect(hitsOf(path)).toBe(1);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(4));
  });

  it('an API key capped below the cost gets 402 spend_limit_reached and the agent is not called', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 2 });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 10);
    const key = await createKey(app, caller, { name: 'capped', spend_limit_flow: '1.5' });
    const response = await invoke(slug, { key: key.key }, {});
    expect(response.statusCode).toBe(402);
    expect(response.json<Envelope>().error.code).toBe('spend_limit_reached');
    expect(hitsOf(path)).toBe(0);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(10));
  });

  it('a key call counts toward its cap, sends X-FLOW-Cost and lands in usage by_model', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 0.75 });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 10);
    const key = await createKey(app, caller, { name: 'metered', spend_limit_flow: '5' });
    const response = await invoke(slug, { key: key.key }, { model: 'gpt-test' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-flow-cost']).toBe('0.75');
    expect(response.headers['x-flow-period-used']).toBe('0.75');
    const usage = await app.inject({
      method: 'GET',
      url: `/me/api-keys/${key.id}/usage`,
      headers: { cookie: caller.cookie },
    });
    expect(usage.json<{ by_model: unknown[] }>().by_model).toEqual([
      { model: 'gpt-test', requests: 1, flow_spent: 0.75, input_tokens: 11, output_tokens: 7 },
    ]);
  });
});

describe('subscription and hybrid', () => {
  it('subscription: refused without one, paid monthly, calls then cost only their tools', async () => {
    const token = await linkToken(owner.userId);
    const { slug, path } = await publishAgent({
      monetization: 'subscription',
      subscriptionFlowPerMonth: 20,
      tools: [{ tool: 'web_fetch', perCallFlow: 0.1 }],
      tokenSlug: token.slug,
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 30);

    const refused = await invoke(slug, caller, {});
    expect(refused.statusCode).toBe(402);
    expect(refused.json<Envelope>().error.code).toBe('subscription_required');
    expect(hitsOf(path)).toBe(0);

    const ownerBefore = (await balanceOf(owner.userId)).balance;
    const subscribed = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: caller.cookie },
    });
    expect(subscribed.statusCode).toBe(200);
    const first = subscribed.json<{ periodStart: string; periodEnd: string; costFlow: number }>();
    expect(first.costFlow).toBe(20);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(10));
    expect((await balanceOf(owner.userId)).balance - ownerBefore).toBe(microFlow(19));

    const free = await invoke(slug, caller, {});
    expect(free.json<CallResult>().costFlow).toBe(0);
    const withTool = await invoke(slug, caller, { toolsUsed: ['web_fetch'] });
    expect(withTool.json<CallResult>().costFlow).toBe(0.1);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(9.9));

    // Short of a second month: 402, and the period is untouched.
    const short = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: caller.cookie },
    });
    expect(short.statusCode).toBe(402);
    expect(short.json<Envelope>().error.code).toBe('insufficient_flow');

    await fundFlow(ctx, caller.userId, 20);
    const renewed = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: caller.cookie },
    });
    const second = renewed.json<{ periodStart: string; periodEnd: string }>();
    expect(second.periodStart).toBe(first.periodStart);
    const end = new Date(first.periodEnd);
    const expected = new Date(end);
    expected.setUTCMonth(end.getUTCMonth() + 1);
    if (expected.getUTCDate() !== end.getUTCDate()) expected.setUTCDate(0);
    expect(second.periodEnd).toBe(expected.toISOString());
  });

  it('hybrid: per-call price without a subscription, base price covered with one', async () => {
    const { slug } = await publishAgent({
      monetization: 'hybrid',
      perCallPriceFlow: 1,
      subscriptionFlowPerMonth: 5,
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 10);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(1);
    await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: caller.cookie },
    });
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(0);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(4));
  });

  it('first subscribes at once each pay for their own month', async () => {
    const { slug } = await publishAgent({
      monetization: 'subscription',
      subscriptionFlowPerMonth: 4,
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 16);
    const responses = await Promise.all(
      [app, second, app, second].map((via) =>
        via.inject({
          method: 'POST',
          url: `/agents/${slug}/subscribe`,
          headers: { cookie: caller.cookie },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    const periods = responses.map((response) =>
      response.json<{ periodStart: string; periodEnd: string }>(),
    );
    // One period start, four distinct ends: four months paid, four months granted.
    expect(new Set(periods.map((period) => period.periodStart)).size).toBe(1);
    expect(new Set(periods.map((period) => period.periodEnd)).size).toBe(4);
    let end = new Date(periods[0]!.periodStart);
    for (let month = 0; month < 4; month++) end = addMonthUtc(end);
    const [row] = await ctx.sql<{ period_end: Date }>(
      `select period_end from agent_subscriptions
       where agent_id = (select id from agents where slug = $1) and subscriber_id = $2`,
      [slug, caller.userId],
    );
    expect(row!.period_end.toISOString()).toBe(end.toISOString());
    expect((await balanceOf(caller.userId)).balance).toBe(0n);
  });

  it('per_call agents offer no subscription', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(app);
    const response = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: caller.cookie },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json<Envelope>().error.code).toBe('subscription_not_offered');
  });
});

describe('freemium', () => {
  it('gives the daily free calls, then charges the per-call price; failed calls use no quota', async () => {
    const { slug } = await publishAgent({
      monetization: 'freemium',
      freemiumDailyCalls: 2,
      perCallPriceFlow: 1,
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 5);
    expect((await invoke(slug, caller, { status: 500 })).statusCode).toBe(502);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(0);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(0);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(1);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(4));
    // Another caller has their own quota.
    const other = await signIn(app);
    expect((await invoke(slug, other, {})).json<CallResult>().costFlow).toBe(0);
  });

  it('without a price beyond the quota: 429 free_quota_exhausted with Retry-After; concurrent calls never exceed the quota', async () => {
    const { slug, path } = await publishAgent({ monetization: 'freemium', freemiumDailyCalls: 3 });
    const caller = await signIn(app);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        invoke(slug, caller, {}, undefined, i % 2 ? second : app),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(3);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json<Envelope>().error.code).toBe('free_quota_exhausted');
    const retryAfter = Number(refused[0]!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(hitsOf(path)).toBe(3);
  });
});

describe('settlement', () => {
  it('a settlement that fails part-way leaves no ledger row, no balance change and the hold in place', async () => {
    const token = await linkToken(owner.userId);
    const { slug } = await publishAgent({
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tokenSlug: token.slug,
    });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 5);
    const em = ctx.deps.orm.em.fork();
    const agent = await em.findOneOrFail(Agent, { slug });
    const holdId = await holdFlow(
      em,
      caller.userId,
      microFlow(2),
      new Date(),
      new Date(Date.now() + 60_000),
    );
    const callId = randomUUID();
    // A call id that already exists makes the last insert of the settlement fail.
    await ctx.sql(
      `insert into agent_calls (id, agent_id, caller_id, status, latency_ms, created_at)
       values ($1, $2, $3, 'failed', 1, now())`,
      [callId, agent.id, caller.userId],
    );
    const ownerBefore = await balanceOf(owner.userId);
    await expect(
      settleCall(em, {
        callId,
        agent,
        callerId: caller.userId,
        apiKeyId: null,
        holdId,
        lowBalanceThreshold: 0n,
        base: microFlow(2),
        tools: [],
        cost: microFlow(2),
        latencyMs: 5,
        model: null,
        inputTokens: 0,
        outputTokens: 0,
        now: new Date(),
      }),
    ).rejects.toThrow();
    expect(await ctx.sql('select 1 from ledger_entries where ref_id = $1', [callId])).toEqual([]);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(5), held: microFlow(2) });
    expect(await balanceOf(owner.userId)).toEqual(ownerBefore);
    const [pool] = await ctx.sql<{ holder_reward_pool: string }>(
      'select holder_reward_pool from tokens where id = $1',
      [token.id],
    );
    expect(pool!.holder_reward_pool).toBe('0');
    expect(await ctx.sql('select 1 from flow_holds where id = $1', [holdId])).toHaveLength(1);
  });
});

describe('after the charge commits', () => {
  it('a failing spend-counter update is reported, not thrown: the call succeeds and is charged once', async () => {
    const { slug, path } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(app);
    await fundFlow(ctx, caller.userId, 3);
    const outbound = createOutboundClient({
      allowedHosts: ['127.0.0.1'],
      timeoutMs: 1500,
      maxResponseBytes: 1024 * 1024,
    });
    const lateErrors: unknown[] = [];
    try {
      const result = await invokeAgent(
        ctx.deps.orm.em.fork(),
        {
          outbound,
          timeoutMs: 1500,
          lowBalanceThreshold: 0n,
          onLateError: (error) => lateErrors.push(error),
        },
        {
          userId: caller.userId,
          apiKeyId: null,
          reserveSpend: async () => {},
          settleSpend: async () => {
            throw new Error('spend store unavailable');
          },
        },
        slug,
        { input: { text: 'late' } },
      );
      expect(result.costFlow).toBe(1);
    } finally {
      await outbound.close();
    }
    expect(lateErrors).toHaveLength(1);
    expect(hitsOf(path)).toBe(1);
    expect(await balanceOf(caller.userId)).toEqual({ balance: microFlow(2), held: 0n });
  });
});

describe('access', () => {
  it('rejects unknown tools, unknown agents and drafts', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 0 });
    const caller = await signIn(app);
    const unknownTool = await invoke(slug, caller, {}, ['teleport']);
    expect(unknownTool.statusCode).toBe(400);
    expect(unknownTool.json<Envelope>().error.code).toBe('tool_unknown');

    const missing = await invoke('no-such-agent', caller, {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json<Envelope>().error.code).toBe('agent_not_found');

    const draft = await app.inject({
      method: 'POST',
      url: '/agents',
      headers: { cookie: owner.cookie },
      payload: { name: 'Draft', description: 'd', endpointUrl: agentServer.url('/draft') },
    });
    const draftSlug = draft.json<{ slug: string }>().slug;
    const byOwner = await invoke(draftSlug, owner, {});
    expect(byOwner.statusCode).toBe(409);
    expect(byOwner.json<Envelope>().error.code).toBe('agent_not_published');
    expect((await invoke(draftSlug, caller, {})).statusCode).toBe(404);

    const anonymous = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/invoke`,
      payload: { input: {} },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('after unpublish: new callers get 404, existing callers keep calling', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 0.5 });
    const existing = await signIn(app);
    await fundFlow(ctx, existing.userId, 5);
    expect((await invoke(slug, existing, {})).statusCode).toBe(200);
    const before = await app.inject({
      method: 'GET',
      url: `/search?q=${encodeURIComponent(`Agent ${slug.slice(-6)}`)}&type=agent`,
    });
    expect(before.json<{ items: { slug: string }[] }>().items.map((item) => item.slug)).toContain(
      slug,
    );
    const unpublished = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/unpublish`,
      headers: { cookie: owner.cookie },
    });
    expect(unpublished.statusCode).toBe(200);

    const newcomer = await signIn(app);
    await fundFlow(ctx, newcomer.userId, 5);
    const refused = await invoke(slug, newcomer, {});
    expect(refused.statusCode).toBe(404);
    expect(refused.json<Envelope>().error.code).toBe('agent_not_found');
    expect((await invoke(slug, existing, {})).statusCode).toBe(200);

    // Gone from the listing and from search at once, for everyone.
    const name = encodeURIComponent(`Agent ${slug.slice(-6)}`);
    const listing = await app.inject({
      method: 'GET',
      url: '/marketplace/agents?sort=new&limit=100',
    });
    expect(
      listing.json<{ items: { slug: string }[] }>().items.map((item) => item.slug),
    ).not.toContain(slug);
    const search = await app.inject({ method: 'GET', url: `/search?q=${name}&type=agent` });
    expect(search.statusCode).toBe(200);
    expect(
      search.json<{ items: { slug: string }[] }>().items.map((item) => item.slug),
    ).not.toContain(slug);
  });

  it('a paid subscription runs to its end after unpublish, even past the listing removal', async () => {
    const { slug } = await publishAgent({
      monetization: 'subscription',
      subscriptionFlowPerMonth: 3,
    });
    const subscriber = await signIn(app);
    const payer = await signIn(app);
    await fundFlow(ctx, subscriber.userId, 3);
    await fundFlow(ctx, payer.userId, 3);
    const subscribed = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: subscriber.cookie },
    });
    expect(subscribed.statusCode).toBe(200);
    expect((await invoke(slug, subscriber, {})).statusCode).toBe(200);
    await app.inject({
      method: 'POST',
      url: `/agents/${slug}/unpublish`,
      headers: { cookie: owner.cookie },
    });
    // No new subscriptions once unpublished, not even from someone who can still see it.
    const renew = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: subscriber.cookie },
    });
    expect(renew.statusCode).toBe(409);
    expect(renew.json<Envelope>().error.code).toBe('agent_not_published');
    // The month ends: the listing is gone, the paid period is not.
    await ctx.sql(`update agents set listed_until = now() - interval '1 second' where slug = $1`, [
      slug,
    ]);
    const after = await invoke(slug, subscriber, {});
    expect(after.statusCode).toBe(200);
    expect(after.json<CallResult>().costFlow).toBe(0);
    await ctx.sql(
      `update agent_subscriptions set period_end = now() - interval '1 second'
       where agent_id = (select id from agents where slug = $1)`,
      [slug],
    );
    expect((await invoke(slug, subscriber, {})).statusCode).toBe(404);
    expect((await balanceOf(payer.userId)).balance).toBe(microFlow(3));
  });

  it('stats and ratings come from real calls', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 0 });
    const caller = await signIn(app);
    const beforeCall = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/rating`,
      headers: { cookie: caller.cookie },
      payload: { rating: 5 },
    });
    expect(beforeCall.statusCode).toBe(403);
    for (const delayMs of [0, 50, 400]) {
      expect((await invoke(slug, caller, { delayMs })).statusCode).toBe(200);
    }
    expect((await invoke(slug, caller, { status: 500 })).statusCode).toBe(502);
    const rated = await app.inject({
      method: 'POST',
      url: `/agents/${slug}/rating`,
      headers: { cookie: caller.cookie },
      payload: { rating: 4 },
    });
    expect(rated.statusCode).toBe(200);
    const detail = await app.inject({ method: 'GET', url: `/marketplace/agents/${slug}` });
    const stats = detail.json<{
      stats: { callsLast30d: number; p50LatencyMs: number; rating: number; ratingCount: number };
    }>().stats;
    expect(stats.callsLast30d).toBe(3);
    expect(stats.p50LatencyMs).toBeGreaterThanOrEqual(50);
    expect(stats.p50LatencyMs).toBeLessThan(400);
    expect(stats.rating).toBe(4);
    expect(stats.ratingCount).toBe(1);
  });
});
