import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../api/app';
import { reserveSpend } from '../../api/access/spend-guard';
import { parseFlow } from '../../shared/domain/flow';
import type { AgentServer } from './agent-server';
import { createKey, type CreatedKey, type SignedIn } from './auth';
import { UNLIMITED_RATES, type TestApp } from './context';
import { expectError } from './errors';
import { fundFlow } from './flow';
import { invokeFixtures } from './invoke-fixtures';

/**
 * FLOW spend caps as the split spend-*.test.ts files drive them. A charge is a real paid call,
 * `POST /agents/:slug/invoke` of an agent on the file's loopback agent server, so the cap the
 * tests meet is the one the invoke service keeps (with the balance hold and the settlement,
 * in their transactions), not a probe's. UTC period boundaries are computed independently of
 * the product code; keys and reservations are bound to a file's world.
 */

export const FLOW = 1_000_000n;

/** The settings of a spend test file's world. */
export const SPEND_ENV = { ...UNLIMITED_RATES, AGENT_CALL_TIMEOUT_MS: '1500' };

export function micro(flow: number): bigint {
  const value = parseFlow(flow);
  if (value === null) throw new Error(`not a FLOW amount: ${flow}`);
  return value;
}

/** A paid call as a spend test asks for it. */
export interface ChargeBody {
  /** FLOW the call reserves: the most it can cost. */
  cost: number;
  /**
   * FLOW the call settles at (default: `cost`): the agent costs `actual` per call and leaves
   * unused a tool priced at the difference, which the reservation had to cover.
   */
  actual?: number;
  /** The agent fails after the reservation (502 `agent_failed`): nothing is charged. */
  fail?: 'agent';
  /** Milliseconds the agent takes to answer. */
  delayMs?: number;
}

/** How a charge authenticates: an API key (`x-api-key`), or any other credential's headers. */
export type Caller = string | { headers: Record<string, string> };

export function flowHeaders(response: LightMyRequestResponse) {
  return {
    cost: response.headers['x-flow-cost'],
    used: response.headers['x-flow-period-used'],
    limit: response.headers['x-flow-period-limit'],
    reset: response.headers['x-flow-period-reset'],
  };
}

export function free(app: App, key: string) {
  return app.inject({ method: 'GET', url: '/me', headers: { 'x-api-key': key } });
}

/**
 * A free request on an instance other than the one that changed the key: its cached view of
 * the key is dropped by a Redis pub/sub message, which may land a moment after the change.
 */
export async function freeOnOtherInstance(app: App, key: string, used: string) {
  let response = await free(app, key);
  for (let i = 0; i < 40 && response.headers['x-flow-period-used'] !== used; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    response = await free(app, key);
  }
  return response;
}

export function utcMidnight(d: Date, addDays = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + addDays));
}

/** Next UTC midnight, computed independently of the product code. */
export const nextDay = (now = new Date()) => utcMidnight(now, 1).toISOString();
/** Next Monday 00:00 UTC. */
export const nextMonday = (now = new Date()) =>
  utcMidnight(now, 7 - ((now.getUTCDay() + 6) % 7)).toISOString();
/** Next 1st of the month 00:00 UTC. */
export const nextMonth = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();

export function expectCapRefusal(response: LightMyRequestResponse) {
  expectError(response, 402, 'spend_limit_reached');
}

export async function expectRefused(promise: Promise<unknown>) {
  await expect(promise).rejects.toMatchObject({ code: 'spend_limit_reached', status: 402 });
}

/** The world of a spend test file: the key owner, the agents' owner and their endpoint. */
export interface SpendWorld {
  session: SignedIn;
  agentOwner: SignedIn;
  agentServer: AgentServer;
}

/** The helpers of one test file, bound to its world and its signed-in key owner. */
export function spendFixtures(test: TestApp, world: () => SpendWorld) {
  let n = 0;
  const { publishAgent } = invokeFixtures(test, () => ({
    agentServer: world().agentServer,
    owner: world().agentOwner,
  }));
  /** One agent per price shape, published on first use (concurrent first uses share it). */
  const agents = new Map<string, Promise<string>>();

  function agentFor(cost: bigint, actual: bigint): Promise<string> {
    const shape = `${cost}/${actual}`;
    let slug = agents.get(shape);
    if (!slug) {
      const unused = cost - actual;
      slug = publishAgent({
        monetization: 'per_call',
        perCallPriceFlow: Number(actual) / 1e6,
        ...(unused > 0n
          ? { tools: [{ tool: 'web_search', perCallFlow: Number(unused) / 1e6 }] }
          : {}),
      }).then((published) => published.slug);
      agents.set(shape, slug);
    }
    return slug;
  }

  /** A paid call reserving `cost` FLOW and settling at `actual`, through `app`. */
  async function charge(app: App, caller: Caller, body: ChargeBody) {
    const cost = micro(body.cost);
    const actual = micro(body.actual ?? body.cost);
    if (actual > cost) throw new Error('a call settles at most at what it reserved');
    const slug = await agentFor(cost, actual);
    const input = {
      ...(body.fail === 'agent' ? { status: 500 } : {}),
      ...(body.delayMs ? { delayMs: body.delayMs } : {}),
    };
    return app.inject({
      method: 'POST',
      url: `/agents/${slug}/invoke`,
      headers: typeof caller === 'string' ? { 'x-api-key': caller } : caller.headers,
      payload: { input },
    });
  }

  /** A month of a subscription agent priced `flow` FLOW a month, bought through `app`. */
  async function subscribe(app: App, caller: Caller, flow: number) {
    const shape = `subscription/${micro(flow)}`;
    let slug = agents.get(shape);
    if (!slug) {
      slug = publishAgent({ monetization: 'subscription', subscriptionFlowPerMonth: flow }).then(
        (published) => published.slug,
      );
      agents.set(shape, slug);
    }
    return app.inject({
      method: 'POST',
      url: `/agents/${await slug}/subscribe`,
      headers: typeof caller === 'string' ? { 'x-api-key': caller } : caller.headers,
    });
  }

  /** Credits `flow` FLOW to a user (the key owners pay for their calls). */
  function fund(user: SignedIn, flow: number): Promise<void> {
    return fundFlow(test.ctx, user.userId, flow);
  }

  function newKey(body: Record<string, unknown>, owner = world().session): Promise<CreatedKey> {
    return createKey(test.app, owner, { name: `spend ${++n}`, rate_limit_rpm: 100_000, ...body });
  }

  async function spendUsed(keyId: string): Promise<bigint> {
    const [row] = await test.ctx.sql<{ spend_used: string }>(
      'select spend_used from api_keys where id = $1',
      [keyId],
    );
    if (!row) throw new Error(`no key ${keyId}`);
    return BigInt(row.spend_used);
  }

  async function balanceOf(user: SignedIn): Promise<{ balance: bigint; held: bigint }> {
    const [row] = await test.ctx.sql<{ balance: string; held: string }>(
      'select balance, held from flow_accounts where user_id = $1',
      [user.userId],
    );
    return { balance: BigInt(row?.balance ?? 0), held: BigInt(row?.held ?? 0) };
  }

  async function listedKey(keyId: string, owner = world().session) {
    const response = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: owner.cookie },
    });
    expect(response.statusCode).toBe(200);
    const key = response
      .json<{ items: { id: string; [field: string]: unknown }[] }>()
      .items.find((item) => item.id === keyId);
    if (!key) throw new Error(`key ${keyId} not listed`);
    return key;
  }

  async function reserve(keyId: string, flow: number, now: Date) {
    return reserveSpend(test.ctx.deps.orm.em.fork(), keyId, micro(flow), now);
  }

  return { charge, subscribe, fund, newKey, spendUsed, balanceOf, listedKey, reserve };
}
