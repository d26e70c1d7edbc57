import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../api/app';
import { parseFlow } from '../../shared/domain/flow';
import { creditUser } from '../../shared/flow/ledger';
import { signIn, type SignedIn } from '../helpers/auth';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * The webhook events written to the outbox by state changes (issue 6 part 6): `agent.published`
 * by POST /agents/:slug/publish and `flow.balance.low` by debits crossing
 * LOW_BALANCE_THRESHOLD_FLOW. Checked on the outbox table itself; delivery is tested elsewhere.
 */

interface OutboxRow extends Record<string, unknown> {
  id: string;
  user_id: number;
  event: string;
  data: Record<string, unknown>;
  dedupe_key: string;
}

let agentServer: AgentServer;

const test = useTestApp({
  env: { ...UNLIMITED_RATES, LOW_BALANCE_THRESHOLD_FLOW: '10' },
  apis: 2,
});
beforeAll(async () => {
  agentServer = await startAgentServer();
});
afterAll(async () => agentServer?.close());

function micro(flow: number): bigint {
  const value = parseFlow(flow);
  if (value === null) throw new Error(`not a FLOW amount: ${flow}`);
  return value;
}

async function fund(userId: number, flow: number): Promise<void> {
  await test.ctx.deps.orm.em.fork().transactional((tx) =>
    creditUser(tx, userId, micro(flow), {
      reason: 'topup',
      refType: 'credit',
      refId: randomUUID(),
      now: new Date(),
    }),
  );
}

async function eventsOf(userId: number, event: string): Promise<OutboxRow[]> {
  return test.ctx.sql<OutboxRow>(
    `select id, user_id, event, data, dedupe_key from outbox_events
     where user_id = $1 and event = $2 order by created_at, id`,
    [userId, event],
  );
}

/** The caller's debits, oldest first (the ids the low-balance events are keyed by). */
async function debitsOf(userId: number) {
  return test.ctx.sql<{ id: string; balance_after: string }>(
    `select id, balance_after from ledger_entries where user_id = $1 and delta < 0
     order by created_at, id`,
    [userId],
  );
}

async function createAgent(owner: SignedIn, description: string | null = 'Answers questions') {
  const path = `/agent/${randomUUID()}`;
  const created = await test.app.inject({
    method: 'POST',
    url: '/agents',
    headers: { cookie: owner.cookie },
    payload: {
      name: `Agent ${path.slice(-6)}`,
      ...(description === null ? {} : { description }),
      tags: ['test'],
      endpointUrl: agentServer.url(path),
    },
  });
  expect(created.statusCode).toBe(201);
  const { id, slug, endpointSecret } = created.json<{
    id: string;
    slug: string;
    endpointSecret: string;
  }>();
  agentServer.setSecret(path, endpointSecret);
  return { id, slug, name: `Agent ${path.slice(-6)}` };
}

function publish(owner: SignedIn, slug: string, payload: Record<string, unknown>) {
  return test.app.inject({
    method: 'POST',
    url: `/agents/${slug}/publish`,
    headers: { cookie: owner.cookie },
    payload,
  });
}

function invoke(
  slug: string,
  caller: SignedIn,
  via: App = test.app,
): Promise<LightMyRequestResponse> {
  return via.inject({
    method: 'POST',
    url: `/agents/${slug}/invoke`,
    headers: { cookie: caller.cookie },
    payload: { input: { text: 'hi' } },
  });
}

/** A published per_call agent at `priceFlow` and a caller holding `fundedFlow`. */
async function pricedAgentAndCaller(priceFlow: number, fundedFlow: number) {
  const owner = await signIn(test.app);
  const { slug } = await createAgent(owner);
  const published = await publish(owner, slug, {
    monetization: 'per_call',
    perCallPriceFlow: priceFlow,
    tags: ['test'],
  });
  expect(published.statusCode).toBe(200);
  const caller = await signIn(test.app);
  await fund(caller.userId, fundedFlow);
  return { slug, caller };
}

describe('agent.published', () => {
  it('a publish writes one event with the listing; a repeated publish writes none', async () => {
    const owner = await signIn(test.app);
    const agent = await createAgent(owner);
    const payload = {
      monetization: 'hybrid',
      perCallPriceFlow: 1.5,
      subscriptionFlowPerMonth: 20,
      tags: ['search', 'news'],
    };
    const response = await publish(owner, agent.slug, payload);
    expect(response.statusCode).toBe(200);
    const published = response.json<{ publishedAt: string; marketplaceUrl: string }>();

    const events = await eventsOf(owner.userId, 'agent.published');
    expect(events).toEqual([
      {
        id: expect.any(String) as string,
        user_id: owner.userId,
        event: 'agent.published',
        dedupe_key: `agent.published:${agent.id}:${Date.parse(published.publishedAt)}`,
        data: {
          slug: agent.slug,
          marketplace_meta: {
            name: agent.name,
            description: 'Answers questions',
            tags: ['search', 'news'],
            monetization: 'hybrid',
            per_call_price_flow: 1.5,
            subscription_flow_per_month: 20,
            freemium_daily_calls: null,
            marketplace_url: `${test.ctx.config.publicBaseUrl}/marketplace/agents/${agent.slug}`,
            published_at: published.publishedAt,
          },
        },
      },
    ]);
    expect(published.marketplaceUrl).toBe(
      `${test.ctx.config.publicBaseUrl}/marketplace/agents/${agent.slug}`,
    );

    // A retried request (or a re-pricing of the live agent) keeps the publication date.
    const again = await publish(owner, agent.slug, payload);
    expect(again.statusCode).toBe(200);
    expect(await eventsOf(owner.userId, 'agent.published')).toHaveLength(1);
  });

  it('a publish that fails validation writes no event', async () => {
    const owner = await signIn(test.app);
    const agent = await createAgent(owner);
    const unpriced = await publish(owner, agent.slug, { monetization: 'per_call', tags: ['x'] });
    expect(unpriced.statusCode).toBe(400);
    expect(unpriced.json()).toEqual({
      error: {
        code: 'invalid_monetization',
        message: 'perCallPriceFlow: is required for the per_call model',
      },
    });

    const undescribed = await createAgent(owner, null);
    const noDescription = await publish(owner, undescribed.slug, {
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tags: ['x'],
    });
    expect(noDescription.statusCode).toBe(400);
    expect(noDescription.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'description: required before publishing (set it with PATCH /agents/:slug)',
      },
    });

    const stranger = await signIn(test.app);
    const notOwner = await publish(stranger, agent.slug, {
      monetization: 'per_call',
      perCallPriceFlow: 1,
      tags: ['x'],
    });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json()).toEqual({
      error: { code: 'not_owner', message: `Agent ${agent.slug} belongs to another user` },
    });

    expect(await eventsOf(owner.userId, 'agent.published')).toEqual([]);
    expect(await eventsOf(stranger.userId, 'agent.published')).toEqual([]);
    const [state] = await test.ctx.sql<{ is_published: boolean }>(
      'select is_published from agents where id = $1',
      [agent.id],
    );
    expect(state!.is_published).toBe(false);
  });

  it('publishing again after an unpublish writes a second event', async () => {
    const owner = await signIn(test.app);
    const agent = await createAgent(owner);
    const payload = { monetization: 'freemium', freemiumDailyCalls: 5, tags: ['x'] };
    expect((await publish(owner, agent.slug, payload)).statusCode).toBe(200);
    const unpublished = await test.app.inject({
      method: 'POST',
      url: `/agents/${agent.slug}/unpublish`,
      headers: { cookie: owner.cookie },
    });
    expect(unpublished.statusCode).toBe(200);
    const republished = await publish(owner, agent.slug, payload);
    expect(republished.statusCode).toBe(200);
    const { publishedAt } = republished.json<{ publishedAt: string }>();

    const events = await eventsOf(owner.userId, 'agent.published');
    expect(events).toHaveLength(2);
    expect(events[1]!.dedupe_key).toBe(`agent.published:${agent.id}:${Date.parse(publishedAt)}`);
    expect(events[1]!.dedupe_key).not.toBe(events[0]!.dedupe_key);
    expect(events[1]!.data).toMatchObject({
      slug: agent.slug,
      marketplace_meta: {
        monetization: 'freemium',
        per_call_price_flow: null,
        freemium_daily_calls: 5,
        published_at: publishedAt,
      },
    });
  });
});

describe('flow.balance.low', () => {
  it('a paid call taking the balance from the threshold to below it writes one event', async () => {
    const { slug, caller } = await pricedAgentAndCaller(0.75, 10);
    const response = await invoke(slug, caller);
    expect(response.statusCode).toBe(200);
    const [debit] = await debitsOf(caller.userId);
    expect(debit!.balance_after).toBe(String(micro(9.25)));
    expect(await eventsOf(caller.userId, 'flow.balance.low')).toEqual([
      {
        id: expect.any(String) as string,
        user_id: caller.userId,
        event: 'flow.balance.low',
        dedupe_key: `flow.balance.low:${debit!.id}`,
        data: { balance: 9.25, threshold: 10 },
      },
    ]);

    // Already below: the next debit does not cross again.
    expect((await invoke(slug, caller)).statusCode).toBe(200);
    expect(await eventsOf(caller.userId, 'flow.balance.low')).toHaveLength(1);
  });

  it('a debit that stays at or above the threshold writes nothing', async () => {
    const { slug, caller } = await pricedAgentAndCaller(3, 13);
    expect((await invoke(slug, caller)).statusCode).toBe(200);
    const [debit] = await debitsOf(caller.userId);
    expect(debit!.balance_after).toBe(String(micro(10)));
    expect(await eventsOf(caller.userId, 'flow.balance.low')).toEqual([]);
  });

  it('a debit starting below the threshold writes nothing', async () => {
    const { slug, caller } = await pricedAgentAndCaller(1, 9.5);
    expect((await invoke(slug, caller)).statusCode).toBe(200);
    expect(await debitsOf(caller.userId)).toHaveLength(1);
    expect(await eventsOf(caller.userId, 'flow.balance.low')).toEqual([]);
  });

  it('concurrent debits on two instances write exactly one event for the one crossing', async () => {
    const { slug, caller } = await pricedAgentAndCaller(1, 12);
    const responses = await Promise.all(
      [test.app, test.other, test.app, test.other, test.app, test.other].map((via) =>
        invoke(slug, caller, via),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([
      200, 200, 200, 200, 200, 200,
    ]);
    const crossing = (await debitsOf(caller.userId)).find(
      (debit) => debit.balance_after === String(micro(9)),
    );
    expect(await eventsOf(caller.userId, 'flow.balance.low')).toEqual([
      expect.objectContaining({
        dedupe_key: `flow.balance.low:${crossing!.id}`,
        data: { balance: 9, threshold: 10 },
      }) as OutboxRow,
    ]);
  });

  it('a top-up back above the threshold makes the next crossing a new event', async () => {
    const { slug, caller } = await pricedAgentAndCaller(2, 11);
    expect((await invoke(slug, caller)).statusCode).toBe(200);
    await fund(caller.userId, 3);
    // 12 → 10 stays at the threshold; 10 → 8 crosses again.
    expect((await invoke(slug, caller)).statusCode).toBe(200);
    expect((await invoke(slug, caller)).statusCode).toBe(200);
    const events = await eventsOf(caller.userId, 'flow.balance.low');
    expect(events.map((event) => event.data)).toEqual([
      { balance: 9, threshold: 10 },
      { balance: 8, threshold: 10 },
    ]);
  });

  it('a subscription payment crossing the threshold writes the event too', async () => {
    const owner = await signIn(test.app);
    const { slug } = await createAgent(owner);
    const published = await publish(owner, slug, {
      monetization: 'subscription',
      subscriptionFlowPerMonth: 4,
      tags: ['x'],
    });
    expect(published.statusCode).toBe(200);
    const subscriber = await signIn(test.app);
    await fund(subscriber.userId, 12);
    const subscribed = await test.app.inject({
      method: 'POST',
      url: `/agents/${slug}/subscribe`,
      headers: { cookie: subscriber.cookie },
    });
    expect(subscribed.statusCode).toBe(200);
    const [debit] = await debitsOf(subscriber.userId);
    expect(await eventsOf(subscriber.userId, 'flow.balance.low')).toEqual([
      expect.objectContaining({
        dedupe_key: `flow.balance.low:${debit!.id}`,
        data: { balance: 8, threshold: 10 },
      }) as OutboxRow,
    ]);
  });
});
