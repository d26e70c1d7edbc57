import { reserveSpend } from '../../api/access/spend-guard';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { signIn, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcDay, freshDayHookTimeout } from '../helpers/clock';
import { useTestApp } from '../helpers/context';
import {
  FLOW,
  SPEND_ENV,
  flowHeaders,
  free,
  freeOnOtherInstance,
  nextDay,
  nextMonday,
  nextMonth,
  expectCapRefusal,
  spendFixtures,
} from '../helpers/spend-fixtures';

/**
 * FLOW spend caps of API keys (docs/spec/contract.md §5, spec "Limits") as callers see them:
 * the X-FLOW-* headers, key settings, and free requests at the cap. Charges are paid agent
 * calls: the headers render what the invoke service charged.
 */

let session: SignedIn;
let agentOwner: SignedIn;
let agentServer: AgentServer;

// Two API instances with their own pools, like two processes sharing one database.
const test = useTestApp({ env: SPEND_ENV, apis: 2 });
const { charge, fund, newKey, spendUsed, listedKey } = spendFixtures(test, () => ({
  session,
  agentOwner,
  agentServer,
}));
beforeAll(async () => {
  agentServer = await startAgentServer();
  session = await signIn(test.app);
  agentOwner = await signIn(test.app);
  await fund(session, 2_000_000);
});
afterAll(async () => agentServer?.close());

// Quotas, spend periods and the trending window are UTC days: no test straddles midnight.
beforeEach(() => awaitFreshUtcDay(), freshDayHookTimeout());

describe('X-FLOW headers', () => {
  it('reports cost, period use, cap and reset on a charged request', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const response = await charge(test.app, key.key, { cost: 10 });
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
    const before = await free(test.app, key.key);
    expect(flowHeaders(before)).toEqual({
      cost: '0',
      used: '0',
      limit: '25.5',
      reset: nextMonday(),
    });
    expect((await charge(test.other, key.key, { cost: 2.5 })).statusCode).toBe(200);
    // The charging instance shows the charge at once; the other once its cache is invalidated.
    for (const response of [
      await free(test.other, key.key),
      await freeOnOtherInstance(test.app, key.key, '2.5'),
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
    expect((await charge(test.app, key.key, { cost: 10 })).statusCode).toBe(200);
    const refused = await charge(test.app, key.key, { cost: 6 });
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
    await test.ctx.sql('update api_keys set spend_used = $1 where id = $2', [
      String(12n * FLOW),
      key.id,
    ]);
    const again = await charge(test.app, key.key, { cost: 4 });
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
    const a = await charge(test.app, uncapped.key, { cost: 1_000_000 });
    expect(a.statusCode).toBe(200);
    expect(flowHeaders(a)).toEqual({
      cost: '1000000',
      used: '1000000',
      limit: undefined,
      reset: nextDay(),
    });
    expect(a.headers).not.toHaveProperty('x-flow-period-limit');

    const forever = await newKey({ spend_limit_flow: '7', spend_period: 'forever' });
    const b = await charge(test.app, forever.key, { cost: 3 });
    expect(flowHeaders(b)).toEqual({ cost: '3', used: '3', limit: '7', reset: undefined });
    expect(b.headers).not.toHaveProperty('x-flow-period-reset');
    const freeForever = await free(test.app, forever.key);
    expect(flowHeaders(freeForever)).toEqual({
      cost: '0',
      used: '3',
      limit: '7',
      reset: undefined,
    });
    expect((await listedKey(forever.id)).spend_period_resets_at).toBeNull();

    const neither = await newKey({ spend_period: 'forever' });
    const c = await free(test.app, neither.key);
    expect(c.statusCode).toBe(200);
    expect(flowHeaders(c)).toEqual({ cost: '0', used: '0', limit: undefined, reset: undefined });
  });

  it('carries the headers for a key sent as a Bearer credential too', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    const response = await charge(
      test.app,
      { headers: { authorization: `Bearer ${key.key}` } },
      { cost: 4 },
    );
    expect(response.statusCode).toBe(200);
    expect(flowHeaders(response)).toEqual({ cost: '4', used: '4', limit: '100', reset: nextDay() });
  });

  it('sends no X-FLOW headers to session requests, which are never capped', async () => {
    const owner = await signIn(test.app);
    await fund(owner, 5_000);
    const key = await newKey({ spend_limit_flow: '1', spend_period: 'day' }, owner);
    expect((await charge(test.app, key.key, { cost: 1 })).statusCode).toBe(200);

    const cookie = { cookie: owner.cookie };
    for (const app of [test.app, test.other]) {
      for (const response of [
        await charge(app, { headers: cookie }, { cost: 1_000 }),
        await app.inject({ method: 'GET', url: '/me', headers: cookie }),
      ]) {
        expect(response.statusCode).toBe(200);
        for (const name of Object.keys(response.headers)) expect(name).not.toMatch(/^x-flow-/);
      }
    }
    const bearer = await charge(
      test.app,
      { headers: { authorization: `Bearer ${owner.token}` } },
      { cost: 1_000 },
    );
    expect(bearer.statusCode).toBe(200);
    for (const name of Object.keys(bearer.headers)) expect(name).not.toMatch(/^x-flow-/);
    // The owner's key is untouched by the owner's session spending.
    expect(await spendUsed(key.id)).toBe(FLOW);
  });
});

describe('key settings', () => {
  it('resets the period use when PATCH changes spend_period, and only then', async () => {
    const key = await newKey({ spend_limit_flow: '100', spend_period: 'day' });
    expect((await charge(test.app, key.key, { cost: 30 })).statusCode).toBe(200);

    const patch = (body: Record<string, unknown>) =>
      test.app.inject({
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
    expectCapRefusal(await charge(test.other, key.key, { cost: 25 }));

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
      await free(test.app, key.key),
      await freeOnOtherInstance(test.other, key.key, '0'),
    ]) {
      expect(flowHeaders(response)).toEqual({
        cost: '0',
        used: '0',
        limit: '50',
        reset: nextMonday(),
      });
    }
    const next = await charge(test.other, key.key, { cost: 10 });
    expect(flowHeaders(next)).toMatchObject({ cost: '10', used: '10', limit: '50' });
  });

  it('rounds spend_limit_flow down to 6 decimals, as a number or a string', async () => {
    const created = await newKey({ spend_limit_flow: 1.2345679, spend_period: 'day' });
    expect(created.spend_limit_flow).toBe('1.234567');
    const fromString = await newKey({ spend_limit_flow: '1.2345679999', spend_period: 'day' });
    expect(fromString.spend_limit_flow).toBe('1.234567');

    const key = await newKey({ spend_limit_flow: '5', spend_period: 'day' });
    const patched = await test.app.inject({
      method: 'PATCH',
      url: `/me/api-keys/${key.id}`,
      headers: { cookie: session.cookie },
      payload: { spend_limit_flow: 1.2345679 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().spend_limit_flow).toBe('1.234567');
    expect((await listedKey(key.id)).spend_limit_flow).toBe('1.234567');
    const [row] = await test.ctx.sql<{ spend_limit: string }>(
      'select spend_limit from api_keys where id = $1',
      [key.id],
    );
    expect(row?.spend_limit).toBe('1234567');

    // The cap is exact to the micro-FLOW.
    const full = await charge(test.app, key.key, { cost: 1.234567 });
    expect(full.statusCode).toBe(200);
    expect(flowHeaders(full)).toMatchObject({ used: '1.234567', limit: '1.234567' });
    expectCapRefusal(await charge(test.app, key.key, { cost: 0.000001 }));
  });
});

describe('free requests at the cap', () => {
  it('still pass when the cap is fully used', async () => {
    const key = await newKey({ spend_limit_flow: '10', spend_period: 'day' });
    expect((await charge(test.app, key.key, { cost: 10 })).statusCode).toBe(200);
    expectCapRefusal(await charge(test.app, key.key, { cost: 0.000001 }));

    const me = await free(test.app, key.key);
    expect(me.statusCode).toBe(200);
    expect(flowHeaders(me)).toEqual({ cost: '0', used: '10', limit: '10', reset: nextDay() });

    const zero = await charge(test.other, key.key, { cost: 0 });
    expect(zero.statusCode).toBe(200);
    expect(flowHeaders(zero)).toEqual({ cost: '0', used: '10', limit: '10', reset: nextDay() });
    expect(await spendUsed(key.id)).toBe(10n * FLOW);
  });

  it('still pass when the cap was lowered below the period use', async () => {
    const key = await newKey({ spend_limit_flow: '10', spend_period: 'day' });
    expect((await charge(test.app, key.key, { cost: 8 })).statusCode).toBe(200);
    const lowered = await test.app.inject({
      method: 'PATCH',
      url: `/me/api-keys/${key.id}`,
      headers: { cookie: session.cookie },
      payload: { spend_limit_flow: '5' },
    });
    expect(lowered.json()).toMatchObject({ spend_limit_flow: '5', spend_period_used: 8 });
    expectCapRefusal(await charge(test.app, key.key, { cost: 1 }));

    const me = await free(test.app, key.key);
    expect(me.statusCode).toBe(200);
    expect(flowHeaders(me)).toMatchObject({ cost: '0', used: '8', limit: '5' });

    const zero = await charge(test.app, key.key, { cost: 0 });
    expect(zero.statusCode).toBe(200);
    expect(flowHeaders(zero)).toMatchObject({ cost: '0', used: '8', limit: '5' });
    await expect(reserveSpend(test.ctx.deps.orm.em.fork(), key.id, 0n)).resolves.toMatchObject({
      used: 8n * FLOW,
    });
  });
});
