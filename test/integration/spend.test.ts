import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { App } from '../../api/app';
import { readSpend, reserveSpend, settleSpend } from '../../api/access/spend-guard';
import { parseFlow } from '../../shared/domain/flow';
import { AppError } from '../../shared/errors';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { createKey, signIn, type CreatedKey, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';

/**
 * FLOW spend caps of API keys (docs/spec/contract.md §5, spec "Limits"): the guard under concurrency,
 * UTC period rollover, release of failed calls, the X-FLOW-* headers and key settings.
 */

const FLOW = 1_000_000n;

function micro(flow: number): bigint {
  const value = parseFlow(flow);
  if (value === null) throw new Error(`not a FLOW amount: ${flow}`);
  return value;
}

/** A charged endpoint that exists only in this test file. */
const chargeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/__probe/charge',
    {
      config: { auth: 'user' },
      schema: {
        body: z.strictObject({
          cost: z.number().min(0),
          actual: z.number().min(0).optional(),
          fail: z.enum(['client', 'server']).optional(),
        }),
        response: { 200: z.object({ ok: z.boolean() }) },
      },
    },
    async (request) => {
      await request.reserveFlow(micro(request.body.cost));
      if (request.body.fail === 'client') throw new AppError('invalid_request', 'boom');
      if (request.body.fail === 'server') throw new Error('the paid work crashed');
      if (request.body.actual !== undefined) await request.settleFlow(micro(request.body.actual));
      return { ok: true };
    },
  );
};

let ctx: TestContext;
let apiA: App;
let apiB: App;
let session: SignedIn;
let n = 0;

beforeAll(async () => {
  ctx = await createTestContext(UNLIMITED_RATES);
  // Two API instances with their own pools, like two processes sharing one database.
  apiA = await ctx.newApi();
  apiB = await ctx.newApi();
  for (const app of [apiA, apiB]) {
    await app.register(chargeRoutes);
    await app.ready();
  }
  session = await signIn(apiA);
});
afterAll(async () => ctx.close());
// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

function newKey(body: Record<string, unknown>, owner = session): Promise<CreatedKey> {
  return createKey(apiA, owner, { name: `spend ${++n}`, rate_limit_rpm: 100_000, ...body });
}

function charge(app: App, key: string, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/__probe/charge',
    headers: { 'x-api-key': key },
    payload: body,
  });
}

async function spendUsed(keyId: string): Promise<bigint> {
  const [row] = await ctx.sql<{ spend_used: string }>(
    'select spend_used from api_keys where id = $1',
    [keyId],
  );
  if (!row) throw new Error(`no key ${keyId}`);
  return BigInt(row.spend_used);
}

async function listedKey(keyId: string, owner = session) {
  const response = await apiA.inject({
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

function flowHeaders(response: LightMyRequestResponse) {
  return {
    cost: response.headers['x-flow-cost'],
    used: response.headers['x-flow-period-used'],
    limit: response.headers['x-flow-period-limit'],
    reset: response.headers['x-flow-period-reset'],
  };
}

function free(app: App, key: string) {
  return app.inject({ method: 'GET', url: '/me', headers: { 'x-api-key': key } });
}

/**
 * A free request on an instance other than the one that changed the key: its cached view of
 * the key is dropped by a Redis pub/sub message, which may land a moment after the change.
 */
async function freeOnOtherInstance(app: App, key: string, used: string) {
  let response = await free(app, key);
  for (let i = 0; i < 40 && response.headers['x-flow-period-used'] !== used; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    response = await free(app, key);
  }
  return response;
}

function utcMidnight(d: Date, addDays = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + addDays));
}

/** Next UTC midnight, computed independently of the product code. */
const nextDay = (now = new Date()) => utcMidnight(now, 1).toISOString();
/** Next Monday 00:00 UTC. */
const nextMonday = (now = new Date()) =>
  utcMidnight(now, 7 - ((now.getUTCDay() + 6) % 7)).toISOString();
/** Next 1st of the month 00:00 UTC. */
const nextMonth = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();

function expectCapRefusal(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(402);
  expect(response.json()).toEqual({
    error: { code: 'spend_limit_reached', message: expect.any(String) },
  });
  expect(response.json<{ error: { message: string } }>().error.message.length).toBeGreaterThan(0);
}

async function reserve(keyId: string, flow: number, now: Date) {
  return reserveSpend(ctx.deps.orm.em.fork(), keyId, micro(flow), now);
}

async function expectRefused(promise: Promise<unknown>) {
  await expect(promise).rejects.toMatchObject({ code: 'spend_limit_reached', status: 402 });
}

describe('spend guard under concurrency', () => {
  it('accepts exactly cap / cost concurrent charges through the guard and never passes the cap', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => reserveSpend(ctx.deps.orm.em.fork(), key.id, 10n * FLOW)),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r) => r.status === 'rejected');
    expect(accepted).toHaveLength(10);
    expect(rejected).toHaveLength(40);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect(r.reason).toMatchObject({ code: 'spend_limit_reached', status: 402 });
    }
    // Every accepted charge saw a distinct running total: the charges were serialised.
    const totals = accepted.map((r) => r.value.used).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(totals).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i + 1) * 10n * FLOW));
    expect(await spendUsed(key.id)).toBe(100n * FLOW);
    const state = await readSpend(ctx.deps.orm.em.fork(), key.id);
    expect(state).toMatchObject({ used: 100n * FLOW, limit: 100n * FLOW, period: 'day' });
  });

  it('accepts exactly 10 of 50 concurrent HTTP charges across two instances; the rest get 402', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => charge(i % 2 ? apiA : apiB, key.key, { cost: 10 })),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 402);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const response of refused) {
      expectCapRefusal(response);
      expect(flowHeaders(response).cost).toBe('0');
    }
    // Each response reports the period use as read after its own charge: never above the cap.
    const usedHeaders = ok.map((r) => Number(r.headers['x-flow-period-used']));
    for (const used of usedHeaders) expect(used).toBeGreaterThanOrEqual(10);
    expect(Math.max(...usedHeaders)).toBe(100);
    for (const response of ok) expect(flowHeaders(response).cost).toBe('10');
    expect(await spendUsed(key.id)).toBe(100n * FLOW);
    expect((await listedKey(key.id)).spend_period_used).toBe(100);
  });
});

describe('period rollover', () => {
  it('resets a past period once, however many charges arrive together', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const yesterday = utcMidnight(new Date(), -1);
    await ctx.sql('update api_keys set spend_used = $1, spend_period_start = $2 where id = $3', [
      String(100n * FLOW),
      yesterday,
      key.id,
    ]);
    // Yesterday's spend is not this period's.
    expect((await listedKey(key.id)).spend_period_used).toBe(0);

    const responses = await Promise.all(
      Array.from({ length: 7 }, (_, i) => charge(i % 2 ? apiA : apiB, key.key, { cost: 10 })),
    );
    for (const response of responses) expect(response.statusCode).toBe(200);
    // Had yesterday's 100 counted, every charge would be refused; had each charge reset the
    // count, the total would be 10: the first charge started from 0 and only it reset.
    const usedHeaders = responses.map((r) => Number(r.headers['x-flow-period-used']));
    for (const used of usedHeaders) expect(used).toBeGreaterThanOrEqual(10);
    expect(Math.max(...usedHeaders)).toBe(70);
    expect(await spendUsed(key.id)).toBe(70n * FLOW);
    const [row] = await ctx.sql<{ spend_period_start: Date }>(
      'select spend_period_start from api_keys where id = $1',
      [key.id],
    );
    expect(row?.spend_period_start.toISOString()).toBe(utcMidnight(new Date()).toISOString());
    expect((await listedKey(key.id)).spend_period_used).toBe(70);
  });

  it('resets a past period once under concurrent guard calls', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    await ctx.sql('update api_keys set spend_used = $1, spend_period_start = $2 where id = $3', [
      String(90n * FLOW),
      utcMidnight(new Date(), -3),
      key.id,
    ]);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => reserveSpend(ctx.deps.orm.em.fork(), key.id, 5n * FLOW)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(await spendUsed(key.id)).toBe(100n * FLOW);
  });

  it('splits the day at 00:00:00.000 UTC', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const lastMs = new Date('2031-01-14T23:59:59.999Z');
    const midnight = new Date('2031-01-15T00:00:00.000Z');

    const first = await reserve(key.id, 40, new Date('2031-01-14T00:00:00.000Z'));
    expect(first.used).toBe(40n * FLOW);
    const before = await reserve(key.id, 60, lastMs);
    expect(before).toMatchObject({
      used: 100n * FLOW,
      periodStart: new Date('2031-01-14T00:00:00.000Z'),
      resetsAt: midnight,
    });
    await expectRefused(reserve(key.id, 0.000001, lastMs));

    const after = await reserve(key.id, 60, midnight);
    expect(after).toMatchObject({
      used: 60n * FLOW,
      periodStart: midnight,
      resetsAt: new Date('2031-01-16T00:00:00.000Z'),
    });
    expect(await readSpend(ctx.deps.orm.em.fork(), key.id, midnight)).toMatchObject({
      used: 60n * FLOW,
    });
    await expectRefused(reserve(key.id, 40.000001, new Date('2031-01-15T23:59:59.999Z')));

    // Releasing yesterday's reservation does not touch today's count.
    await settleSpend(ctx.deps.orm.em.fork(), before, 0n, midnight);
    expect(await spendUsed(key.id)).toBe(60n * FLOW);
  });

  it('splits the week at Monday 00:00 UTC', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'week' });
    // 2024-06-03 and 2024-06-10 are Mondays.
    const monday = new Date('2024-06-03T00:00:00.000Z');
    const nextMondayAt = new Date('2024-06-10T00:00:00.000Z');
    const sundayLast = new Date('2024-06-09T23:59:59.999Z');

    expect((await reserve(key.id, 40, monday)).used).toBe(40n * FLOW);
    expect((await reserve(key.id, 40, new Date('2024-06-05T12:00:00.000Z'))).used).toBe(80n * FLOW);
    await expectRefused(reserve(key.id, 30, sundayLast));
    expect(await reserve(key.id, 20, sundayLast)).toMatchObject({
      used: 100n * FLOW,
      periodStart: monday,
      resetsAt: nextMondayAt,
    });
    expect(await reserve(key.id, 60, nextMondayAt)).toMatchObject({
      used: 60n * FLOW,
      periodStart: nextMondayAt,
      resetsAt: new Date('2024-06-17T00:00:00.000Z'),
    });
  });

  it('splits the month at the 1st 00:00 UTC, across a year end and a leap day', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'month' });
    const decLast = new Date('2024-12-31T23:59:59.999Z');
    const jan1 = new Date('2025-01-01T00:00:00.000Z');

    expect((await reserve(key.id, 50, new Date('2024-12-01T00:00:00.000Z'))).used).toBe(50n * FLOW);
    expect(await reserve(key.id, 50, decLast)).toMatchObject({
      used: 100n * FLOW,
      periodStart: new Date('2024-12-01T00:00:00.000Z'),
      resetsAt: jan1,
    });
    await expectRefused(reserve(key.id, 0.000001, decLast));
    expect(await reserve(key.id, 100, jan1)).toMatchObject({
      used: 100n * FLOW,
      periodStart: jan1,
      resetsAt: new Date('2025-02-01T00:00:00.000Z'),
    });

    const leap = await newKey({ spend_limit_flow: '100', spend_period: 'month' });
    expect(await reserve(leap.id, 100, new Date('2028-02-29T23:59:59.999Z'))).toMatchObject({
      resetsAt: new Date('2028-03-01T00:00:00.000Z'),
    });
    await expectRefused(reserve(leap.id, 1, new Date('2028-02-29T23:59:59.999Z')));
    expect((await reserve(leap.id, 1, new Date('2028-03-01T00:00:00.000Z'))).used).toBe(FLOW);
  });

  it('never rolls a forever period over', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'forever' });
    expect(await reserve(key.id, 60, new Date('2000-01-01T00:00:00.000Z'))).toMatchObject({
      used: 60n * FLOW,
      resetsAt: null,
    });
    await expectRefused(reserve(key.id, 60, new Date('2100-01-01T00:00:00.000Z')));
    expect((await reserve(key.id, 40, new Date('2100-01-01T00:00:00.000Z'))).used).toBe(
      100n * FLOW,
    );
  });
});

describe('release and settlement', () => {
  it('releases the reservation of a failed request (4xx and 5xx)', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    expect((await charge(apiA, key.key, { cost: 30 })).statusCode).toBe(200);

    const client = await charge(apiA, key.key, { cost: 50, fail: 'client' });
    expect(client.statusCode).toBe(400);
    expect(client.json()).toEqual({ error: { code: 'invalid_request', message: 'boom' } });
    expect(flowHeaders(client)).toEqual({
      cost: '0',
      used: '30',
      limit: '100',
      reset: nextDay(),
    });
    expect(await spendUsed(key.id)).toBe(30n * FLOW);

    const server = await charge(apiB, key.key, { cost: 50, fail: 'server' });
    expect(server.statusCode).toBe(500);
    expect(server.json().error.code).toBe('internal_error');
    expect(flowHeaders(server).cost).toBe('0');
    expect(flowHeaders(server).used).toBe('30');
    expect(await spendUsed(key.id)).toBe(30n * FLOW);

    // The released amounts are available again.
    expect((await charge(apiA, key.key, { cost: 70 })).statusCode).toBe(200);
    expect(await spendUsed(key.id)).toBe(100n * FLOW);
  });

  it('charges only the actual cost when settled lower, the full cost when not settled', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const settled = await charge(apiA, key.key, { cost: 10, actual: 2.5 });
    expect(settled.statusCode).toBe(200);
    expect(flowHeaders(settled)).toEqual({
      cost: '2.5',
      used: '2.5',
      limit: '100',
      reset: nextDay(),
    });
    expect(await spendUsed(key.id)).toBe(2_500_000n);

    const unsettled = await charge(apiA, key.key, { cost: 10 });
    expect(flowHeaders(unsettled)).toMatchObject({ cost: '10', used: '12.5' });
    expect(await spendUsed(key.id)).toBe(12_500_000n);

    const settledAtZero = await charge(apiA, key.key, { cost: 10, actual: 0 });
    expect(flowHeaders(settledAtZero)).toMatchObject({ cost: '0', used: '12.5' });
    expect(await spendUsed(key.id)).toBe(12_500_000n);
    expect((await listedKey(key.id)).spend_period_used).toBe(12.5);
  });

  it('settles through the guard: only the difference is released', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const reservation = await reserveSpend(ctx.deps.orm.em.fork(), key.id, 40n * FLOW);
    expect(await spendUsed(key.id)).toBe(40n * FLOW);
    const state = await settleSpend(ctx.deps.orm.em.fork(), reservation, 15_250_000n);
    expect(state.used).toBe(15_250_000n);
    expect(await spendUsed(key.id)).toBe(15_250_000n);
    await expect(settleSpend(ctx.deps.orm.em.fork(), reservation, 41n * FLOW)).rejects.toThrow(
      RangeError,
    );
  });
});

describe('X-FLOW headers', () => {
  it('reports cost, period use, cap and reset on a charged request', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const response = await charge(apiA, key.key, { cost: 10 });
    expect(response.statusCode).toBe(200);
    expect(flowHeaders(response)).toEqual({
      cost: '10',
      used: '10',
      limit: '100',
      reset: nextDay(),
    });
  });

  it('reports cost 0 and the current use on a free request', async () => {
    const key = await newKey({ spend_limit_flow: '25.5', spend_period: 'week' });
    // A free request first, so the key's credential is cached before the charge.
    const before = await free(apiA, key.key);
    expect(flowHeaders(before)).toEqual({
      cost: '0',
      used: '0',
      limit: '25.5',
      reset: nextMonday(),
    });
    expect((await charge(apiB, key.key, { cost: 2.5 })).statusCode).toBe(200);
    // The charging instance shows the charge at once; the other once its cache is invalidated.
    for (const response of [
      await free(apiB, key.key),
      await freeOnOtherInstance(apiA, key.key, '2.5'),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(flowHeaders(response)).toEqual({
        cost: '0',
        used: '2.5',
        limit: '25.5',
        reset: nextMonday(),
      });
    }
  });

  it('reports the refusing state on a 402', async () => {
    const key = await newKey({ spend_limit_flow: '15', spend_period: 'month' });
    expect((await charge(apiA, key.key, { cost: 10 })).statusCode).toBe(200);
    const refused = await charge(apiA, key.key, { cost: 6 });
    expectCapRefusal(refused);
    expect(flowHeaders(refused)).toEqual({
      cost: '0',
      used: '10',
      limit: '15',
      reset: nextMonth(),
    });
    expect(await spendUsed(key.id)).toBe(10n * FLOW);

    // The headers come from the state that refused the charge, not from a cached view of
    // the key (the instance's cache still says 10 after this direct update).
    await ctx.sql('update api_keys set spend_used = $1 where id = $2', [
      String(12n * FLOW),
      key.id,
    ]);
    const again = await charge(apiA, key.key, { cost: 4 });
    expectCapRefusal(again);
    expect(flowHeaders(again)).toEqual({
      cost: '0',
      used: '12',
      limit: '15',
      reset: nextMonth(),
    });
  });

  it('omits the cap without a limit and the reset for forever', async () => {
    const uncapped = await newKey({ spend_period: 'day' });
    const a = await charge(apiA, uncapped.key, { cost: 1_000_000 });
    expect(a.statusCode).toBe(200);
    expect(flowHeaders(a)).toEqual({
      cost: '1000000',
      used: '1000000',
      limit: undefined,
      reset: nextDay(),
    });
    expect(a.headers).not.toHaveProperty('x-flow-period-limit');

    const forever = await newKey({ spend_limit_flow: '7', spend_period: 'forever' });
    const b = await charge(apiA, forever.key, { cost: 3 });
    expect(flowHeaders(b)).toEqual({ cost: '3', used: '3', limit: '7', reset: undefined });
    expect(b.headers).not.toHaveProperty('x-flow-period-reset');
    const freeForever = await free(apiA, forever.key);
    expect(flowHeaders(freeForever)).toEqual({
      cost: '0',
      used: '3',
      limit: '7',
      reset: undefined,
    });
    expect((await listedKey(forever.id)).spend_period_resets_at).toBeNull();

    const neither = await newKey({ spend_period: 'forever' });
    const c = await free(apiA, neither.key);
    expect(c.statusCode).toBe(200);
    expect(flowHeaders(c)).toEqual({ cost: '0', used: '0', limit: undefined, reset: undefined });
  });

  it('carries the headers for a key sent as a Bearer credential too', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const response = await apiA.inject({
      method: 'POST',
      url: '/__probe/charge',
      headers: { authorization: `Bearer ${key.key}` },
      payload: { cost: 4 },
    });
    expect(response.statusCode).toBe(200);
    expect(flowHeaders(response)).toEqual({ cost: '4', used: '4', limit: '100', reset: nextDay() });
  });

  it('sends no X-FLOW headers to session requests, which are never capped', async () => {
    const owner = await signIn(apiA);
    const key = await newKey({ spend_limit_flow: '1', spend_period: 'day' }, owner);
    expect((await charge(apiA, key.key, { cost: 1 })).statusCode).toBe(200);

    for (const app of [apiA, apiB]) {
      for (const request of [
        { method: 'POST' as const, url: '/__probe/charge', payload: { cost: 1_000 } },
        { method: 'GET' as const, url: '/me' },
      ]) {
        const response = await app.inject({ ...request, headers: { cookie: owner.cookie } });
        expect(response.statusCode).toBe(200);
        for (const name of Object.keys(response.headers)) expect(name).not.toMatch(/^x-flow-/);
      }
    }
    const bearer = await apiA.inject({
      method: 'POST',
      url: '/__probe/charge',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { cost: 1_000 },
    });
    expect(bearer.statusCode).toBe(200);
    for (const name of Object.keys(bearer.headers)) expect(name).not.toMatch(/^x-flow-/);
    // The owner's key is untouched by the owner's session spending.
    expect(await spendUsed(key.id)).toBe(FLOW);
  });
});

describe('key settings', () => {
  it('resets the period use when PATCH changes spend_period, and only then', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    expect((await charge(apiA, key.key, { cost: 30 })).statusCode).toBe(200);

    const patch = (body: Record<string, unknown>) =>
      apiA.inject({
        method: 'PATCH',
        url: `/me/api-keys/${key.id}`,
        headers: { cookie: session.cookie },
        payload: body,
      });

    for (const body of [{ spend_period: 'day' }, { name: 'renamed' }, { spend_limit_flow: '50' }]) {
      const same = await patch(body);
      expect(same.statusCode).toBe(200);
      expect(same.json()).toMatchObject({ spend_period: 'day', spend_period_used: 30 });
    }
    expect(await spendUsed(key.id)).toBe(30n * FLOW);
    expect((await listedKey(key.id)).spend_period_used).toBe(30);
    // The limit change is enforced at once: 30 + 25 > 50.
    expectCapRefusal(await charge(apiB, key.key, { cost: 25 }));

    const changed = await patch({ spend_period: 'week' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      spend_period: 'week',
      spend_period_used: 0,
      spend_limit_flow: '50',
      spend_period_resets_at: nextMonday(),
    });
    expect(await spendUsed(key.id)).toBe(0n);
    expect((await listedKey(key.id)).spend_period_used).toBe(0);
    // Both instances dropped their cached view of the key.
    for (const response of [
      await free(apiA, key.key),
      await freeOnOtherInstance(apiB, key.key, '0'),
    ]) {
      expect(flowHeaders(response)).toEqual({
        cost: '0',
        used: '0',
        limit: '50',
        reset: nextMonday(),
      });
    }
    const next = await charge(apiB, key.key, { cost: 10 });
    expect(flowHeaders(next)).toMatchObject({ cost: '10', used: '10', limit: '50' });
  });

  it('rounds spend_limit_flow down to 6 decimals, as a number or a string', async () => {
    const created = await newKey({ spend_limit_flow: 1.2345679, spend_period: 'day' });
    expect(created.spend_limit_flow).toBe('1.234567');
    const fromString = await newKey({ spend_limit_flow: '1.2345679999', spend_period: 'day' });
    expect(fromString.spend_limit_flow).toBe('1.234567');

    const key = await newKey({ spend_limit_flow: '5', spend_period: 'day' });
    const patched = await apiA.inject({
      method: 'PATCH',
      url: `/me/api-keys/${key.id}`,
      headers: { cookie: session.cookie },
      payload: { spend_limit_flow: 1.2345679 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().spend_limit_flow).toBe('1.234567');
    expect((await listedKey(key.id)).spend_limit_flow).toBe('1.234567');
    const [row] = await ctx.sql<{ spend_limit: string }>(
      'select spend_limit from api_keys where id = $1',
      [key.id],
    );
    expect(row?.spend_limit).toBe('1234567');

    // The cap is exact to the micro-FLOW.
    const full = await charge(apiA, key.key, { cost: 1.234567 });
    expect(full.statusCode).toBe(200);
    expect(flowHeaders(full)).toMatchObject({ used: '1.234567', limit: '1.234567' });
    expectCapRefusal(await charge(apiA, key.key, { cost: 0.000001 }));
  });
});

describe('free requests at the cap', () => {
  it('still pass when the cap is fully used', async () => {
    const key = await newKey({ spend_limit_flow: '10', spend_period: 'day' });
    expect((await charge(apiA, key.key, { cost: 10 })).statusCode).toBe(200);
    expectCapRefusal(await charge(apiA, key.key, { cost: 0.000001 }));

    const me = await free(apiA, key.key);
    expect(me.statusCode).toBe(200);
    expect(flowHeaders(me)).toEqual({ cost: '0', used: '10', limit: '10', reset: nextDay() });

    const zero = await charge(apiB, key.key, { cost: 0 });
    expect(zero.statusCode).toBe(200);
    expect(flowHeaders(zero)).toEqual({ cost: '0', used: '10', limit: '10', reset: nextDay() });
    expect(await spendUsed(key.id)).toBe(10n * FLOW);
  });

  it('still pass when the cap was lowered below the period use', async () => {
    const key = await newKey({ spend_limit_flow: '10', spend_period: 'day' });
    expect((await charge(apiA, key.key, { cost: 8 })).statusCode).toBe(200);
    const lowered = await apiA.inject({
      method: 'PATCH',
      url: `/me/api-keys/${key.id}`,
      headers: { cookie: session.cookie },
      payload: { spend_limit_flow: '5' },
    });
    expect(lowered.json()).toMatchObject({ spend_limit_flow: '5', spend_period_used: 8 });
    expectCapRefusal(await charge(apiA, key.key, { cost: 1 }));

    const me = await free(apiA, key.key);
    expect(me.statusCode).toBe(200);
    expect(flowHeaders(me)).toMatchObject({ cost: '0', used: '8', limit: '5' });

    const zero = await charge(apiA, key.key, { cost: 0 });
    expect(zero.statusCode).toBe(200);
    expect(flowHeaders(zero)).toMatchObject({ cost: '0', used: '8', limit: '5' });
    await expect(reserveSpend(ctx.deps.orm.em.fork(), key.id, 0n)).resolves.toMatchObject({
      used: 8n * FLOW,
    });
  });
});
