import { addUtcMonths } from '../../shared/domain/calendar';
import { signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { fundFlow, microFlow } from '../helpers/flow';
import { type Envelope, type CallResult, invokeFixtures } from '../helpers/invoke-fixtures';

/**
 * Paid invocation (docs/spec/contract.md §6) of subscription, hybrid and freemium agents end to
 * end: a real agent endpoint on loopback, real PostgreSQL balances and ledger.
 */

let agentServer: AgentServer;
let owner: SignedIn;

const test = useTestApp({
  env: { ...UNLIMITED_RATES, AGENT_CALL_TIMEOUT_MS: '1500' },
  apis: 2,
});
beforeAll(async () => {
  agentServer = await startAgentServer();
  owner = await signIn(test.app);
});
afterAll(async () => agentServer?.close());
const { balanceOf, linkToken, publishAgent, invoke, hitsOf } = invokeFixtures(test, () => ({
  agentServer,
  owner,
}));

// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

describe('subscription and hybrid', () => {
  it('subscription: refused without one, paid monthly, calls then cost only their tools', async () => {
    const token = await linkToken(owner.userId);
    const { slug, path } = await publishAgent({
      monetization: 'subscription',
      subscriptionFlowPerMonth: 20,
      tools: [{ tool: 'web_fetch', perCallFlow: 0.1 }],
      tokenSlug: token.slug,
    });
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 30);

    const refused = await invoke(slug, caller, {});
    expect(refused.statusCode).toBe(402);
    expect(refused.json<Envelope>().error.code).toBe('subscription_required');
    expect(hitsOf(path)).toBe(0);

    const ownerBefore = (await balanceOf(owner.userId)).balance;
    const subscribed = await test.app.inject({
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
    const short = await test.app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: caller.cookie },
    });
    expect(short.statusCode).toBe(402);
    expect(short.json<Envelope>().error.code).toBe('insufficient_flow');

    await fundFlow(test.ctx, caller.userId, 20);
    const renewed = await test.app.inject({
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
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 10);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(1);
    await test.app.inject({
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
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 16);
    const responses = await Promise.all(
      [test.app, test.other, test.app, test.other].map((via) =>
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
    for (let month = 0; month < 4; month++) end = addUtcMonths(end, 1);
    const [row] = await test.ctx.sql<{ period_end: Date }>(
      `select period_end from agent_subscriptions
       where agent_id = (select id from agents where slug = $1) and subscriber_id = $2`,
      [slug, caller.userId],
    );
    expect(row!.period_end.toISOString()).toBe(end.toISOString());
    expect((await balanceOf(caller.userId)).balance).toBe(0n);
  });

  it('per_call agents offer no subscription', async () => {
    const { slug } = await publishAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const caller = await signIn(test.app);
    const response = await test.app.inject({
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
    const caller = await signIn(test.app);
    await fundFlow(test.ctx, caller.userId, 5);
    expect((await invoke(slug, caller, { status: 500 })).statusCode).toBe(502);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(0);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(0);
    expect((await invoke(slug, caller, {})).json<CallResult>().costFlow).toBe(1);
    expect((await balanceOf(caller.userId)).balance).toBe(microFlow(4));
    // Another caller has their own quota.
    const other = await signIn(test.app);
    expect((await invoke(slug, other, {})).json<CallResult>().costFlow).toBe(0);
  });

  it('without a price beyond the quota: 429 free_quota_exhausted with Retry-After; concurrent calls never exceed the quota', async () => {
    const { slug, path } = await publishAgent({ monetization: 'freemium', freemiumDailyCalls: 3 });
    const caller = await signIn(test.app);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        invoke(slug, caller, {}, undefined, i % 2 ? test.other : test.app),
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
