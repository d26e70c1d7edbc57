import { randomUUID } from 'node:crypto';
import { createKey, signIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  INTERNAL_TOKEN,
  ISO,
  type Page,
  type Credited,
  flowFixtures,
} from '../helpers/flow-fixtures';

/** FLOW credits over HTTP: POST /internal/flow/credit, its replays, races and refusals. */

const test = useTestApp({ env: { ...UNLIMITED_RATES, INTERNAL_TOKENS: INTERNAL_TOKEN } });
const { credit, credited, ledger, balanceOf } = flowFixtures(test);

describe('POST /internal/flow/credit', () => {
  it('credits, and the ledger shows the entry', async () => {
    const alice = await signIn(test.app);
    const refId = `stripe:pi_${randomUUID()}`;
    const response = await credit({
      userId: alice.userId,
      amountFlow: '12.5',
      reason: 'topup',
      refId,
      metadata: { provider: 'stripe', amountUsd: 12.5 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    const body = response.json<Credited>();
    expect(body).toEqual({
      entry: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        delta: 12.5,
        balanceAfter: 12.5,
        reason: 'topup',
        refType: 'credit',
        refId,
        metadata: { provider: 'stripe', amountUsd: 12.5 },
        createdAt: expect.stringMatching(ISO),
      },
      balance: 12.5,
    });
    const page = await ledger(alice);
    expect(page.statusCode).toBe(200);
    expect(page.json<Page>()).toEqual({ items: [body.entry], nextCursor: null });
    expect(await balanceOf(alice.userId)).toBe('12500000');
  });

  it('replays the same credit with 200, the original entry and no second credit', async () => {
    const alice = await signIn(test.app);
    const body = { userId: alice.userId, amountFlow: 3, reason: 'quest', refId: randomUUID() };
    const first = await credit(body);
    expect(first.statusCode).toBe(201);
    await credited(alice.userId, 1); // the balance moves on in between
    const again = await credit({ ...body, amountFlow: '3.000000', metadata: { other: true } });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const replayed = again.json<Credited>();
    expect(replayed.entry).toEqual(first.json<Credited>().entry);
    // The balance is today's; the entry keeps the balance right after the original credit.
    expect(replayed.balance).toBe(4);
    expect(replayed.entry.balanceAfter).toBe(3);
    expect(await balanceOf(alice.userId)).toBe('4000000');
    const rows = await test.ctx.sql('select id from ledger_entries where ref_id = $1', [
      body.refId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('20 concurrent identical credits credit once', async () => {
    const alice = await signIn(test.app);
    const body = { userId: alice.userId, amountFlow: 5, reason: 'topup', refId: randomUUID() };
    const responses = await Promise.all(Array.from({ length: 20 }, () => credit(body)));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    const replays = responses.filter((response) => response.statusCode === 200);
    expect(replays.every((response) => response.headers['idempotent-replayed'] === 'true')).toBe(
      true,
    );
    const ids = new Set(responses.map((response) => response.json<Credited>().entry.id));
    expect(ids.size).toBe(1);
    const rows = await test.ctx.sql('select id from ledger_entries where user_id = $1', [
      alice.userId,
    ]);
    expect(rows).toHaveLength(1);
    expect(await balanceOf(alice.userId)).toBe('5000000');
  });

  it('refuses the same refId for a different credit with 409 ref_id_conflict', async () => {
    const [alice, bob] = [await signIn(test.app), await signIn(test.app)];
    const body = { userId: alice.userId, amountFlow: 2, reason: 'topup', refId: randomUUID() };
    expect((await credit(body)).statusCode).toBe(201);
    for (const changed of [{ amountFlow: 2.5 }, { reason: 'grant' }, { userId: bob.userId }]) {
      expectError(await credit({ ...body, ...changed }), 409, 'ref_id_conflict', /^refId: /);
    }
    expect(await balanceOf(alice.userId)).toBe('2000000');
    expect(await balanceOf(bob.userId)).toBe('none');
  });

  it('answers 404 user_not_found for an unknown user, creating nothing', async () => {
    const refId = randomUUID();
    const response = await credit({ userId: 2_000_000_000, amountFlow: 1, reason: 'topup', refId });
    expectError(response, 404, 'user_not_found', /^userId: /);
    expect(await test.ctx.sql('select id from ledger_entries where ref_id = $1', [refId])).toEqual(
      [],
    );
    expect(await balanceOf(2_000_000_000)).toBe('none');
  });

  it('needs an internal token: none or a wrong one is 401, a user is 403', async () => {
    const alice = await signIn(test.app);
    const key = await createKey(test.app, alice);
    const body = { userId: alice.userId, amountFlow: 100, reason: 'topup', refId: randomUUID() };
    const attempts: [Record<string, string>, number, string][] = [
      [{}, 401, 'unauthenticated'],
      [{ authorization: `Bearer ${INTERNAL_TOKEN}x` }, 401, 'unauthenticated'],
      [{ cookie: alice.cookie }, 403, 'forbidden'],
      [{ authorization: `Bearer ${alice.token}` }, 403, 'forbidden'],
      [{ 'x-api-key': key.key }, 403, 'forbidden'],
    ];
    for (const [headers, status, code] of attempts) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/internal/flow/credit',
        headers,
        payload: body,
      });
      expectError(response, status, code);
    }
    expect(await balanceOf(alice.userId)).toBe('none');
  });

  it('validates the amount: positive, at most 6 decimals kept (rounded down)', async () => {
    const alice = await signIn(test.app);
    const base = { userId: alice.userId, reason: 'topup' };
    for (const amountFlow of [0, '0', -1, '-1', '0.0000001', 'abc', '', null, true, 1e13]) {
      const response = await credit({ ...base, amountFlow, refId: randomUUID() });
      expectError(response, 400, 'invalid_request', 'amountFlow: must be a positive FLOW amount');
    }
    expect(await balanceOf(alice.userId)).toBe('none');
    const rounded = await credit({ ...base, amountFlow: '1.2345679', refId: randomUUID() });
    expect(rounded.statusCode).toBe(201);
    expect(rounded.json<Credited>().entry.delta).toBe(1.234567);
    const numeric = await credit({ ...base, amountFlow: 0.1234567, refId: randomUUID() });
    expect(numeric.json<Credited>().entry.delta).toBe(0.123456);
    expect(await balanceOf(alice.userId)).toBe('1358023');
  });

  it('validates the other fields, naming each', async () => {
    const alice = await signIn(test.app);
    const base = { userId: alice.userId, amountFlow: 1, reason: 'topup', refId: 'ok-ref' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ reason: 'call' }, /^reason: /],
      [{ reason: 'payout' }, /^reason: /],
      [{ userId: 0 }, /^userId: /],
      [{ userId: 1.5 }, /^userId: /],
      [{ userId: '1' }, /^userId: /],
      [{ userId: 3_000_000_000 }, /^userId: /],
      [{ refId: '' }, /^refId: /],
      [{ refId: 'x'.repeat(256) }, /^refId: /],
      [{ refId: 'café' }, /^refId: /],
      [{ refId: 'tab\there' }, /^refId: /],
      [{ metadata: [1, 2] }, /^metadata: /],
      [{ extra: true }, /extra: is not a known field/],
    ];
    for (const [changed, message] of cases) {
      expectError(await credit({ ...base, ...changed }), 400, 'invalid_request', message);
    }
    for (const field of ['userId', 'amountFlow', 'reason', 'refId'] as const) {
      const partial: Record<string, unknown> = { ...base };
      delete partial[field];
      const response = await credit(partial);
      expectError(response, 400, 'invalid_request', new RegExp(`^${field}: is required`));
    }
    expect(await balanceOf(alice.userId)).toBe('none');
  });

  it('refuses a credit that would overflow the balance with 400, not 500', async () => {
    const alice = await signIn(test.app);
    // 10^12 FLOW is the largest single amount; nine fit in a bigint of micro-FLOW, ten do not.
    for (let i = 0; i < 9; i += 1) await credited(alice.userId, 1e12);
    const refId = randomUUID();
    const response = await credit({
      userId: alice.userId,
      amountFlow: 1e12,
      reason: 'topup',
      refId,
    });
    expectError(response, 400, 'invalid_request', /^amountFlow: /);
    expect(await balanceOf(alice.userId)).toBe('9000000000000000000');
    expect(await test.ctx.sql('select id from ledger_entries where ref_id = $1', [refId])).toEqual(
      [],
    );
  });
});
