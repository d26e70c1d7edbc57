import { readSpend, reserveSpend, settleSpend } from '../../api/access/spend-guard';
import { AppError } from '../../shared/errors';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { useTestApp } from '../helpers/context';
import {
  FLOW,
  SPEND_ENV,
  flowHeaders,
  utcMidnight,
  nextDay,
  expectCapRefusal,
  expectRefused,
  spendFixtures,
} from '../helpers/spend-fixtures';
import { expectError } from '../helpers/errors';

/**
 * FLOW spend caps of API keys (docs/spec/contract.md §5, spec "Limits"): the guard under
 * concurrency, UTC period rollover, release of failed calls and settlement. The HTTP cases are
 * paid agent calls: the cap they meet is the invoke service's own.
 */

let session: SignedIn;
let agentOwner: SignedIn;
let agentServer: AgentServer;

// Two API instances with their own pools, like two processes sharing one database.
const test = useTestApp({ env: SPEND_ENV, apis: 2 });
const { charge, subscribe, fund, newKey, spendUsed, balanceOf, listedKey, reserve } = spendFixtures(
  test,
  () => ({ session, agentOwner, agentServer }),
);
beforeAll(async () => {
  agentServer = await startAgentServer();
  session = await signIn(test.app);
  agentOwner = await signIn(test.app);
  await fund(session, 1_000_000);
});
afterAll(async () => agentServer?.close());

// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

describe('spend guard under concurrency', () => {
  it('accepts exactly cap / cost concurrent charges through the guard and never passes the cap', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        reserveSpend(test.ctx.deps.orm.em.fork(), key.id, 10n * FLOW),
      ),
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
    const state = await readSpend(test.ctx.deps.orm.em.fork(), key.id);
    expect(state).toMatchObject({ used: 100n * FLOW, limit: 100n * FLOW, period: 'day' });
  });

  it('accepts exactly 10 of 50 concurrent paid calls across two instances; the rest get 402', async () => {
    const owner = await signIn(test.app);
    await fund(owner, 1_000);
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' }, owner);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        charge(i % 2 ? test.app : test.other, key.key, { cost: 10 }),
      ),
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
    expect((await listedKey(key.id, owner)).spend_period_used).toBe(100);
    // The balance paid exactly what the cap let through.
    expect(await balanceOf(owner)).toEqual({ balance: 900n * FLOW, held: 0n });
  });

  it('never overspends the balance either: 50 concurrent calls on a balance for 6 under a cap for 10', async () => {
    const owner = await signIn(test.app);
    await fund(owner, 60);
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' }, owner);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        charge(i % 2 ? test.app : test.other, key.key, { cost: 10 }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(6);
    // The cap never refused: a call the balance could not hold took nothing from it.
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, 402, 'insufficient_flow');
      expect(flowHeaders(response).cost).toBe('0');
    }
    expect(await balanceOf(owner)).toEqual({ balance: 0n, held: 0n });
    expect(await spendUsed(key.id)).toBe(60n * FLOW);
    expect(Math.max(...ok.map((r) => Number(r.headers['x-flow-period-used'])))).toBe(60);
  });
});

describe('period rollover', () => {
  it('resets a past period once, however many charges arrive together', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const yesterday = utcMidnight(new Date(), -1);
    await test.ctx.sql(
      'update api_keys set spend_used = $1, spend_period_start = $2 where id = $3',
      [String(100n * FLOW), yesterday, key.id],
    );
    // Yesterday's spend is not this period's.
    expect((await listedKey(key.id)).spend_period_used).toBe(0);

    const responses = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        charge(i % 2 ? test.app : test.other, key.key, { cost: 10 }),
      ),
    );
    for (const response of responses) expect(response.statusCode).toBe(200);
    // Had yesterday's 100 counted, every charge would be refused; had each charge reset the
    // count, the total would be 10: the first charge started from 0 and only it reset.
    const usedHeaders = responses.map((r) => Number(r.headers['x-flow-period-used']));
    for (const used of usedHeaders) expect(used).toBeGreaterThanOrEqual(10);
    expect(Math.max(...usedHeaders)).toBe(70);
    expect(await spendUsed(key.id)).toBe(70n * FLOW);
    const [row] = await test.ctx.sql<{ spend_period_start: Date }>(
      'select spend_period_start from api_keys where id = $1',
      [key.id],
    );
    expect(row?.spend_period_start.toISOString()).toBe(utcMidnight(new Date()).toISOString());
    expect((await listedKey(key.id)).spend_period_used).toBe(70);
  });

  it('resets a past period once under concurrent guard calls', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    await test.ctx.sql(
      'update api_keys set spend_used = $1, spend_period_start = $2 where id = $3',
      [String(90n * FLOW), utcMidnight(new Date(), -3), key.id],
    );
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        reserveSpend(test.ctx.deps.orm.em.fork(), key.id, 5n * FLOW),
      ),
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
    expect(await readSpend(test.ctx.deps.orm.em.fork(), key.id, midnight)).toMatchObject({
      used: 60n * FLOW,
    });
    await expectRefused(reserve(key.id, 40.000001, new Date('2031-01-15T23:59:59.999Z')));

    // Releasing yesterday's reservation does not touch today's count.
    await settleSpend(test.ctx.deps.orm.em.fork(), before, 0n, midnight);
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
  it('gives the reservation back when the balance cannot hold the call or the agent fails', async () => {
    const owner = await signIn(test.app);
    await fund(owner, 40);
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' }, owner);
    expect((await charge(test.app, key.key, { cost: 30 })).statusCode).toBe(200);

    // 30 + 50 fit under the cap, but 50 is more than the 10 left: the hold is refused, and the
    // key's reservation, made in the same transaction, goes with it.
    const short = await charge(test.app, key.key, { cost: 50 });
    expectError(short, 402, 'insufficient_flow');
    expect(flowHeaders(short)).toEqual({ cost: '0', used: '30', limit: '100', reset: nextDay() });
    expect(await spendUsed(key.id)).toBe(30n * FLOW);

    await fund(owner, 100);
    const failed = await charge(test.other, key.key, { cost: 50, fail: 'agent' });
    expectError(failed, 502, 'agent_failed');
    expect(flowHeaders(failed).cost).toBe('0');
    expect(flowHeaders(failed).used).toBe('30');
    expect(await spendUsed(key.id)).toBe(30n * FLOW);
    expect(await balanceOf(owner)).toEqual({ balance: 110n * FLOW, held: 0n });

    // The released amounts are available again.
    expect((await charge(test.app, key.key, { cost: 70 })).statusCode).toBe(200);
    expect(await spendUsed(key.id)).toBe(100n * FLOW);
    expect(await balanceOf(owner)).toEqual({ balance: 40n * FLOW, held: 0n });
  });

  it('counts the most a call can cost while it runs, then only what it cost', async () => {
    const key = await newKey({ spend_limit_flow: '10', spend_period: 'day' });
    // A session call (never capped) publishes the agent of the second call beforehand.
    const bySession = { headers: { cookie: session.cookie } };
    expect((await charge(test.app, bySession, { cost: 5 })).statusCode).toBe(200);
    // Reserves 10 (2.5 per call and an unused tool at 7.5), answers after a while.
    const running = charge(test.app, key.key, { cost: 10, actual: 2.5, delayMs: 800 });
    for (let i = 0; i < 100 && (await spendUsed(key.id)) !== 10n * FLOW; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await spendUsed(key.id)).toBe(10n * FLOW);
    expectCapRefusal(await charge(test.other, key.key, { cost: 5 }));

    const settled = await running;
    expect(settled.statusCode).toBe(200);
    expect(flowHeaders(settled)).toEqual({
      cost: '2.5',
      used: '2.5',
      limit: '10',
      reset: nextDay(),
    });
    expect(await spendUsed(key.id)).toBe(2_500_000n);
    const after = await charge(test.other, key.key, { cost: 5 });
    expect(flowHeaders(after)).toMatchObject({ cost: '5', used: '7.5' });
  });

  it('charges only the actual cost: settled lower, in full, or at zero', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const settled = await charge(test.app, key.key, { cost: 10, actual: 2.5 });
    expect(settled.statusCode).toBe(200);
    expect(flowHeaders(settled)).toEqual({
      cost: '2.5',
      used: '2.5',
      limit: '100',
      reset: nextDay(),
    });
    expect(await spendUsed(key.id)).toBe(2_500_000n);

    const full = await charge(test.app, key.key, { cost: 10 });
    expect(flowHeaders(full)).toMatchObject({ cost: '10', used: '12.5' });
    expect(await spendUsed(key.id)).toBe(12_500_000n);

    const settledAtZero = await charge(test.app, key.key, { cost: 10, actual: 0 });
    expect(flowHeaders(settledAtZero)).toMatchObject({ cost: '0', used: '12.5' });
    expect(await spendUsed(key.id)).toBe(12_500_000n);
    expect((await listedKey(key.id)).spend_period_used).toBe(12.5);
  });

  it("counts a subscription bought with a key in the payment's transaction", async () => {
    const owner = await signIn(test.app);
    await fund(owner, 100);
    const key = await newKey({ spend_limit_flow: '50', spend_period: 'day' }, owner);
    expect((await charge(test.app, key.key, { cost: 30 })).statusCode).toBe(200);

    const over = await subscribe(test.other, key.key, 30);
    expectCapRefusal(over);
    expect(flowHeaders(over)).toEqual({ cost: '0', used: '30', limit: '50', reset: nextDay() });
    expect(await balanceOf(owner)).toEqual({ balance: 70n * FLOW, held: 0n });

    const paid = await subscribe(test.app, key.key, 20);
    expect(paid.statusCode).toBe(200);
    expect(flowHeaders(paid)).toEqual({ cost: '20', used: '50', limit: '50', reset: nextDay() });
    expect(await spendUsed(key.id)).toBe(50n * FLOW);
    expect(await balanceOf(owner)).toEqual({ balance: 50n * FLOW, held: 0n });

    // A payment the balance cannot make takes nothing from the key's cap either.
    const uncapped = await newKey({ spend_period: 'day' }, owner);
    expectError(await subscribe(test.app, uncapped.key, 60), 402, 'insufficient_flow');
    expect(await spendUsed(uncapped.id)).toBe(0n);
    expect(await balanceOf(owner)).toEqual({ balance: 50n * FLOW, held: 0n });
  });

  it('settles through the guard: only the difference is released', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const reservation = await reserveSpend(test.ctx.deps.orm.em.fork(), key.id, 40n * FLOW);
    expect(await spendUsed(key.id)).toBe(40n * FLOW);
    const state = await settleSpend(test.ctx.deps.orm.em.fork(), reservation, 15_250_000n);
    expect(state.used).toBe(15_250_000n);
    expect(await spendUsed(key.id)).toBe(15_250_000n);
    await expect(settleSpend(test.ctx.deps.orm.em.fork(), reservation, 41n * FLOW)).rejects.toThrow(
      RangeError,
    );
  });
});
