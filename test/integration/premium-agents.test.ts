import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Client } from 'pg';
import { startAgentServer, type AgentInstruction, type AgentServer } from '../helpers/agent-server';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { grantTier, type SubscriptionStatus, type Tier } from '../helpers/tiers';
import { fundFlow, microFlow } from '../helpers/flow';

/**
 * Premium agents (docs/spec/contract.md §11 `premiumAgents`): the owner marks an agent premium; only
 * callers whose tier has the feature (pro, max; active or in grace) and the owner may invoke it
 * or buy its subscription. Everyone else gets 403 feature_not_in_tier before anything is
 * priced, held, charged, sent to the agent or recorded as a call. Real agent endpoint on
 * loopback, real balances and ledger; tiers are rows in `subscriptions`.
 */

const test = useTestApp({ env: UNLIMITED_RATES });

let agentServer: AgentServer;
let owner: SignedIn;

beforeAll(async () => {
  agentServer = await startAgentServer();
  owner = await signIn(test.app);
});
afterAll(async () => agentServer?.close());
// Freemium quotas are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

type Status = SubscriptionStatus;

/** A signed-in caller with `flow` FLOW and, optionally, a tier. */
async function caller(flow: number, tier?: Tier, status: Status = 'active') {
  const user = await signIn(test.app);
  if (flow > 0) await fundFlow(test.ctx, user.userId, flow);
  if (tier) await grantTier(test.ctx, user.userId, tier, status);
  return user;
}

function call(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  who: { cookie?: string; key?: string } | null,
  payload?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (who?.key) headers['x-api-key'] = who.key;
  else if (who?.cookie) headers.cookie = who.cookie;
  return test.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

interface PublishSpec {
  monetization: 'per_call' | 'subscription' | 'freemium';
  perCallPriceFlow?: number;
  subscriptionFlowPerMonth?: number;
  freemiumDailyCalls?: number;
  tools?: { tool: string; perCallFlow: number }[];
}

/** Creates (premium unless said otherwise), prices and publishes an agent of `owner`. */
async function premiumAgent(spec: PublishSpec, premium = true) {
  const path = `/agent/${randomUUID()}`;
  const created = await call('POST', '/agents', owner, {
    name: `Premium ${path.slice(-6)}`,
    description: 'Answers well',
    tags: ['premium-test'],
    endpointUrl: agentServer.url(path),
    premium,
  });
  expect(created.statusCode).toBe(201);
  const { slug, endpointSecret } = created.json<{ slug: string; endpointSecret: string }>();
  agentServer.setSecret(path, endpointSecret);
  if (spec.tools) {
    expect(
      (await call('POST', `/agents/${slug}/tool-prices`, owner, { tools: spec.tools })).statusCode,
    ).toBe(200);
  }
  const published = await call('POST', `/agents/${slug}/publish`, owner, {
    tags: ['premium-test'],
    monetization: spec.monetization,
    perCallPriceFlow: spec.perCallPriceFlow,
    subscriptionFlowPerMonth: spec.subscriptionFlowPerMonth,
    freemiumDailyCalls: spec.freemiumDailyCalls,
  });
  expect(published.statusCode).toBe(200);
  return { slug, path };
}

const invoke = (
  slug: string,
  who: { cookie?: string; key?: string },
  input: AgentInstruction = {},
) => call('POST', `/agents/${slug}/invoke`, who, { input });

const hitsOf = (path: string) => agentServer.calls.filter((c) => c.path === path).length;

/** Everything a refused call must have left untouched. */
async function traceOf(userId: number, slug: string) {
  const [account] = await test.ctx.sql<{ balance: string; held: string }>(
    'select balance, held from flow_accounts where user_id = $1',
    [userId],
  );
  const [counts] = await test.ctx.sql<{ calls: string; ledger: string; free: string }>(
    `select (select count(*) from agent_calls c join agents a on a.id = c.agent_id
              where a.slug = $2 and c.caller_id = $1) as calls,
            (select count(*) from ledger_entries where user_id = $1 and reason = 'call') as ledger,
            (select coalesce(sum(used), 0) from agent_free_calls f join agents a on a.id = f.agent_id
              where a.slug = $2 and f.caller_id = $1) as free`,
    [userId, slug],
  );
  return {
    balance: BigInt(account?.balance ?? 0),
    held: BigInt(account?.held ?? 0),
    calls: Number(counts!.calls),
    callLedgerRows: Number(counts!.ledger),
    freeCallsUsed: Number(counts!.free),
  };
}

/**
 * Traces a reservation leaves even when it is given back: a hold bumps the account's
 * `updated_at` (the hold row itself is deleted on release) and a free call leaves its day row.
 */
async function reservationMarksOf(userId: number) {
  const [marks] = await test.ctx.sql<{ touched: Date | null; freeRows: string }>(
    `select (select updated_at from flow_accounts where user_id = $1) as touched,
            (select count(*) from agent_free_calls where caller_id = $1) as "freeRows"`,
    [userId],
  );
  return { touched: marks!.touched?.toISOString() ?? null, freeRows: Number(marks!.freeRows) };
}

const PREMIUM_REFUSAL = /^[a-z0-9-]+: is a premium agent, for callers with the pro tier or higher/;

describe('the premium flag', () => {
  interface Owned {
    slug: string;
    premium: boolean;
  }

  it('is set at creation, kept or changed by PATCH and publish, and shown everywhere', async () => {
    const created = await call('POST', '/agents', owner, {
      name: 'Flag Agent',
      description: 'Has a flag',
      endpointUrl: agentServer.url('/flag'),
      premium: true,
    });
    expect(created.statusCode).toBe(201);
    const { slug } = created.json<Owned>();
    expect(created.json<Owned>().premium).toBe(true);
    const mine = await call('GET', '/me/agents?limit=100', owner);
    expect(mine.json<{ items: Owned[] }>().items.find((a) => a.slug === slug)?.premium).toBe(true);

    // Publishing without the field keeps it.
    await call('POST', `/agents/${slug}/publish`, owner, {
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tags: ['flagged'],
    });
    const detail = async () =>
      (await call('GET', `/marketplace/agents/${slug}`, null)).json<Owned>().premium;
    const listed = async () =>
      (await call('GET', '/marketplace/agents?sort=new&tag=flagged', null))
        .json<{ items: Owned[] }>()
        .items.find((a) => a.slug === slug)?.premium;
    expect(await detail()).toBe(true);
    expect(await listed()).toBe(true);

    const patched = await call('PATCH', `/agents/${slug}`, owner, { premium: false });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<Owned>().premium).toBe(false);
    expect(await detail()).toBe(false);
    expect(await listed()).toBe(false);

    const republished = await call('POST', `/agents/${slug}/publish`, owner, {
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tags: ['flagged'],
      premium: true,
    });
    expect(republished.statusCode).toBe(200);
    expect(await detail()).toBe(true);
    const [row] = await test.ctx.sql<{ premium: boolean }>(
      'select premium from agents where slug = $1',
      [slug],
    );
    expect(row?.premium).toBe(true);
  });

  it('defaults to false, and must be a boolean', async () => {
    const plain = await call('POST', '/agents', owner, {
      name: 'Plain Agent',
      endpointUrl: agentServer.url('/plain'),
    });
    expect(plain.json<Owned>().premium).toBe(false);
    expectError(
      await call('POST', '/agents', owner, {
        name: 'Bad Flag',
        endpointUrl: agentServer.url('/bad'),
        premium: 'yes',
      }),
      400,
      'invalid_request',
      /^premium: /,
    );
    const { slug } = plain.json<Owned>();
    expectError(
      await call('PATCH', `/agents/${slug}`, owner, { premium: 1 }),
      400,
      'invalid_request',
      /^premium: /,
    );
  });

  it('is the owner’s to change: another user gets 403 not_owner', async () => {
    const { slug } = await premiumAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const other = await caller(0, 'max');
    expectError(
      await call('PATCH', `/agents/${slug}`, other, { premium: false }),
      403,
      'not_owner',
    );
  });
});

describe('invoking a premium agent', () => {
  it('refuses callers without premiumAgents before any charge, hold, call or record', async () => {
    const { slug, path } = await premiumAgent({
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tools: [{ tool: 'web_search', perCallFlow: 0.5 }],
    });
    const cases: [string, Tier | undefined, Status][] = [
      ['no subscription', undefined, 'active'],
      ['plus', 'plus', 'active'],
      ['plus in grace', 'plus', 'grace'],
      ['canceled pro', 'pro', 'canceled'],
      ['canceled max', 'max', 'canceled'],
    ];
    for (const [label, tier, status] of cases) {
      const user = await caller(10, tier, status);
      const marks = await reservationMarksOf(user.userId);
      const response = await invoke(slug, user, { toolsUsed: ['web_search'] });
      expect({ label, status: response.statusCode }).toEqual({ label, status: 403 });
      // Refused before the hold, not after it was taken and given back.
      expect({ label, marks: await reservationMarksOf(user.userId) }).toEqual({ label, marks });
      expectError(response, 403, 'feature_not_in_tier', PREMIUM_REFUSAL);
      expect(response.json<{ error: { message: string } }>().error.message).toContain(
        `your tier: ${status === 'canceled' || !tier ? 'none' : tier}`,
      );
      expect({ label, trace: await traceOf(user.userId, slug) }).toEqual({
        label,
        trace: { balance: microFlow(10), held: 0n, calls: 0, callLedgerRows: 0, freeCallsUsed: 0 },
      });
    }
    expect(hitsOf(path)).toBe(0);
  });

  it('refuses an API key caller without charging its spend cap', async () => {
    const { slug, path } = await premiumAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const user = await caller(10, 'plus');
    const key = await createKey(test.app, user, { name: 'capped', spend_limit_flow: '5' });
    const response = await invoke(slug, { key: key.key });
    expectError(response, 403, 'feature_not_in_tier', PREMIUM_REFUSAL);
    expect(response.headers['x-flow-cost']).toBe('0');
    const keys = await call('GET', '/me/api-keys', user);
    const listed = keys.json<{ items: { id: string; spend_period_used: number }[] }>().items;
    expect(listed.find((k) => k.id === key.id)?.spend_period_used).toBe(0);
    expect(hitsOf(path)).toBe(0);
    expect(await traceOf(user.userId, slug)).toMatchObject({ balance: microFlow(10), calls: 0 });
  });

  it('uses no free call of a premium freemium agent when refusing', async () => {
    const { slug, path } = await premiumAgent({ monetization: 'freemium', freemiumDailyCalls: 3 });
    const user = await caller(0);
    expectError(await invoke(slug, user), 403, 'feature_not_in_tier');
    expect(await traceOf(user.userId, slug)).toMatchObject({ calls: 0, freeCallsUsed: 0 });
    // Not taken and given back either: no day row was ever written.
    expect((await reservationMarksOf(user.userId)).freeRows).toBe(0);
    expect(hitsOf(path)).toBe(0);
    // Entitled, the same caller gets the free call, counted once.
    await grantTier(test.ctx, user.userId, 'pro');
    expect((await invoke(slug, user)).statusCode).toBe(200);
    expect(await traceOf(user.userId, slug)).toMatchObject({ calls: 1, freeCallsUsed: 1 });
  });

  it('serves pro and max callers, active or in grace, and charges them as usual', async () => {
    const { slug, path } = await premiumAgent({
      monetization: 'per_call',
      perCallPriceFlow: 2,
      tools: [{ tool: 'web_search', perCallFlow: 0.5 }],
    });
    const entitled: [Tier, Status][] = [
      ['pro', 'active'],
      ['pro', 'grace'],
      ['max', 'active'],
      ['max', 'grace'],
    ];
    for (const [tier, status] of entitled) {
      const user = await caller(10, tier, status);
      const response = await invoke(slug, user, { text: tier, toolsUsed: ['web_search'] });
      expect({ tier, status, code: response.statusCode }).toEqual({ tier, status, code: 200 });
      expect(response.json<{ costFlow: number }>().costFlow).toBe(2.5);
      expect(await traceOf(user.userId, slug)).toEqual({
        balance: microFlow(7.5),
        held: 0n,
        calls: 1,
        callLedgerRows: 1,
        freeCallsUsed: 0,
      });
    }
    expect(hitsOf(path)).toBe(entitled.length);
  });

  it('follows the tier as it changes: a lapsed pro is refused, a new one served', async () => {
    const { slug } = await premiumAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const user = await caller(10, 'pro');
    expect((await invoke(slug, user)).statusCode).toBe(200);
    await grantTier(test.ctx, user.userId, 'pro', 'canceled');
    expectError(await invoke(slug, user), 403, 'feature_not_in_tier');
    await grantTier(test.ctx, user.userId, 'max', 'active');
    expect((await invoke(slug, user)).statusCode).toBe(200);
  });

  it('lets the owner call their own premium agent without any tier', async () => {
    const { slug, path } = await premiumAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const [tier] = await test.ctx.sql('select 1 from subscriptions where user_id = $1', [
      owner.userId,
    ]);
    expect(tier).toBeUndefined();
    await fundFlow(test.ctx, owner.userId, 1);
    const before = hitsOf(path);
    const response = await invoke(slug, owner, { text: 'mine' });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ output: { echo: string } }>().output.echo).toBe('mine');
    expect(hitsOf(path)).toBe(before + 1);
  });

  it('needs no tier for an agent that is not premium', async () => {
    const { slug } = await premiumAgent({ monetization: 'per_call', perCallPriceFlow: 1 }, false);
    const user = await caller(5);
    expect((await invoke(slug, user)).statusCode).toBe(200);
  });

  it('keeps a hidden premium agent a 404, and checks the body before the tier', async () => {
    const created = await call('POST', '/agents', owner, {
      name: 'Hidden Premium',
      description: 'A draft',
      endpointUrl: agentServer.url('/hidden'),
      premium: true,
    });
    const { slug } = created.json<{ slug: string }>();
    const user = await caller(5);
    expectError(await invoke(slug, user), 404, 'agent_not_found');
    expectError(await invoke('no-such-agent', user), 404, 'agent_not_found');
    expectError(
      await call('POST', `/agents/${slug}/invoke`, user, { input: {}, tools: ['teleport'] }),
      400,
      'tool_unknown',
    );
    expectError(
      await call('POST', `/agents/${slug}/invoke`, null, { input: {} }),
      401,
      'unauthenticated',
    );
  });

  it('adds no statement to the invoke path: the tier is read with the agent', async () => {
    const { slug } = await premiumAgent({ monetization: 'per_call', perCallPriceFlow: 1 });
    const user = await caller(10, 'pro');
    // Every statement reaches PostgreSQL through a node-postgres client: MikroORM's (through
    // Knex) and the SQL runner's alike.
    const statementsOf = async () => {
      const query = jest.spyOn(Client.prototype, 'query');
      try {
        expect((await invoke(slug, user)).statusCode).toBe(200);
        return query.mock.calls.map(([config]) =>
          typeof config === 'string' ? config : (config as { text: string }).text,
        );
      } finally {
        query.mockRestore();
      }
    };
    await statementsOf(); // warms the credential caches
    const premiumCall = await statementsOf();
    expect(premiumCall.filter((sql) => /from "?subscriptions"? s/.test(sql))).toHaveLength(1);
    expect(premiumCall.find((sql) => /from "?subscriptions"?/.test(sql))).toMatch(/from agents a/);

    expect((await call('PATCH', `/agents/${slug}`, owner, { premium: false })).statusCode).toBe(
      200,
    );
    const plainCall = await statementsOf();
    expect(premiumCall).toHaveLength(plainCall.length);
  });
});

describe('subscribing to a premium agent', () => {
  it('is refused without premiumAgents, nothing paid; pro may subscribe and call', async () => {
    const { slug, path } = await premiumAgent({
      monetization: 'subscription',
      subscriptionFlowPerMonth: 3,
    });
    const user = await caller(10, 'plus');
    const refused = await call('POST', `/agents/${slug}/subscribe`, user);
    expectError(refused, 403, 'feature_not_in_tier', PREMIUM_REFUSAL);
    const subscriptions = await test.ctx.sql(
      'select 1 from agent_subscriptions where subscriber_id = $1',
      [user.userId],
    );
    expect(subscriptions).toEqual([]);
    expect(await traceOf(user.userId, slug)).toMatchObject({ balance: microFlow(10), held: 0n });

    await grantTier(test.ctx, user.userId, 'pro');
    expect((await call('POST', `/agents/${slug}/subscribe`, user)).statusCode).toBe(200);
    expect((await invoke(slug, user)).statusCode).toBe(200);
    expect(await traceOf(user.userId, slug)).toMatchObject({ balance: microFlow(7), calls: 1 });
    expect(hitsOf(path)).toBe(1);
  });
});
