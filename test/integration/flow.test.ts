import { randomUUID } from 'node:crypto';
import type { App } from '../../api/app';
import type { LedgerReason } from '../../shared/db/entities/ledger-entry';
import { creditUser, debitUser, holdFlow } from '../../shared/flow/ledger';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';

/** FLOW over HTTP: the ledger, the deprecated balance record, removed payouts, credits. */

const INTERNAL_TOKEN = 'internal-token-for-flow-tests-0123456789';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const GONE =
  'Payouts were removed: withdrawing FLOW means selling it from your wallet (see /me/flow-onchain)';

interface Entry {
  id: string;
  delta: number;
  balanceAfter: number;
  reason: LedgerReason;
  refType: string;
  refId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}
interface Page {
  items: Entry[];
  nextCursor: string | null;
}
interface Credited {
  entry: Entry;
  balance: number;
}
interface BalanceRecord {
  balance: number;
  withdrawableFlow: number;
  breakdown: Record<string, number>;
  recentLedger: Entry[];
}
type Reply = Awaited<ReturnType<App['inject']>>;

let ctx: TestContext;
let app: App;

beforeAll(async () => {
  ctx = await createTestContext({ ...UNLIMITED_RATES, INTERNAL_TOKENS: INTERNAL_TOKEN });
  app = await ctx.newApi();
  await app.ready();
});
afterAll(async () => ctx.close());

function expectError(response: Reply, status: number, code: string, message?: string | RegExp) {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ error: { code, message: expect.any(String) } });
  if (message !== undefined) {
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
  }
}

function credit(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/internal/flow/credit',
    headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, ...headers },
    payload: body,
  });
}

async function credited(userId: number, amountFlow: number | string, reason = 'topup') {
  const response = await credit({ userId, amountFlow, reason, refId: randomUUID() });
  if (response.statusCode !== 201) throw new Error(`credit: ${response.body}`);
  return response.json<Credited>();
}

function ledger(session: SignedIn, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) search.set(name, String(value));
  return app.inject({
    method: 'GET',
    url: `/ledger?${search.toString()}`,
    headers: { cookie: session.cookie },
  });
}

const idsOf = (response: Reply) => response.json<Page>().items.map((item) => item.id);

async function balanceOf(userId: number): Promise<string> {
  const [row] = await ctx.sql<{ balance: string }>(
    'select balance from flow_accounts where user_id = $1',
    [userId],
  );
  return row?.balance ?? 'none';
}

/** Ledger rows written directly, at chosen instants (micro-FLOW deltas). */
async function insertRows(
  userId: number,
  rows: { at: Date; delta?: number; reason?: LedgerReason; refType?: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const id = randomUUID();
    await ctx.sql(
      `insert into ledger_entries (id, user_id, delta, balance_after, reason, ref_type, ref_id,
         metadata, created_at) values ($1, $2, $3, 0, $4, $5, $6, '{}', $7)`,
      [
        id,
        userId,
        row.delta ?? 1_000_000,
        row.reason ?? 'topup',
        row.refType ?? 'test',
        id,
        row.at,
      ],
    );
    ids.push(id);
  }
  return ids;
}

describe('POST /internal/flow/credit', () => {
  it('credits, and the ledger shows the entry', async () => {
    const alice = await signIn(app);
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
    const alice = await signIn(app);
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
    const rows = await ctx.sql('select id from ledger_entries where ref_id = $1', [body.refId]);
    expect(rows).toHaveLength(1);
  });

  it('20 concurrent identical credits credit once', async () => {
    const alice = await signIn(app);
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
    const rows = await ctx.sql('select id from ledger_entries where user_id = $1', [alice.userId]);
    expect(rows).toHaveLength(1);
    expect(await balanceOf(alice.userId)).toBe('5000000');
  });

  it('refuses the same refId for a different credit with 409 ref_id_conflict', async () => {
    const [alice, bob] = [await signIn(app), await signIn(app)];
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
    expect(await ctx.sql('select id from ledger_entries where ref_id = $1', [refId])).toEqual([]);
    expect(await balanceOf(2_000_000_000)).toBe('none');
  });

  it('needs an internal token: none or a wrong one is 401, a user is 403', async () => {
    const alice = await signIn(app);
    const key = await createKey(app, alice);
    const body = { userId: alice.userId, amountFlow: 100, reason: 'topup', refId: randomUUID() };
    const attempts: [Record<string, string>, number, string][] = [
      [{}, 401, 'unauthenticated'],
      [{ authorization: `Bearer ${INTERNAL_TOKEN}x` }, 401, 'unauthenticated'],
      [{ cookie: alice.cookie }, 403, 'forbidden'],
      [{ authorization: `Bearer ${alice.token}` }, 403, 'forbidden'],
      [{ 'x-api-key': key.key }, 403, 'forbidden'],
    ];
    for (const [headers, status, code] of attempts) {
      const response = await app.inject({
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
    const alice = await signIn(app);
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
    const alice = await signIn(app);
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
    const alice = await signIn(app);
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
    expect(await ctx.sql('select id from ledger_entries where ref_id = $1', [refId])).toEqual([]);
  });
});

describe('GET /ledger', () => {
  it('needs a user: 401 unauthenticated without one or with a bad session', async () => {
    expectError(await app.inject({ method: 'GET', url: '/ledger' }), 401, 'unauthenticated');
    const stale = await app.inject({
      method: 'GET',
      url: '/ledger',
      headers: { authorization: 'Bearer not-a-session' },
    });
    expectError(stale, 401, 'unauthenticated');
  });

  it('pages newest first over 250 rows, each exactly once while rows are added', async () => {
    const alice = await signIn(app);
    const base = Date.now() - 86_400_000;
    // Three rows per millisecond, so the id breaks ties in the order.
    const originals = await insertRows(
      alice.userId,
      Array.from({ length: 250 }, (_, i) => ({ at: new Date(base + Math.floor(i / 3)) })),
    );
    const seen: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await ledger(alice, { limit: 20, ...(cursor && { cursor }) });
      expect(response.statusCode).toBe(200);
      const page = response.json<Page>();
      expect(page.items.length).toBeLessThanOrEqual(20);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
      await credited(alice.userId, 1); // newer than anything paged so far
    } while (cursor !== null && pages < 40);

    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => originals.includes(id)).sort()).toEqual([...originals].sort());
    for (let i = 1; i < seen.length; i += 1) {
      const [before, after] = [seen[i - 1]!, seen[i]!];
      const ordered =
        before.createdAt > after.createdAt ||
        (before.createdAt === after.createdAt && before.id > after.id);
      expect(ordered).toBe(true);
    }
  });

  it('filters by reason, and refuses an unknown reason', async () => {
    const alice = await signIn(app);
    const topup = (await credited(alice.userId, 1, 'topup')).entry.id;
    const quest = (await credited(alice.userId, 2, 'quest')).entry.id;
    const grant = (await credited(alice.userId, 3, 'grant')).entry.id;
    expect(idsOf(await ledger(alice, { reason: 'quest' }))).toEqual([quest]);
    expect(idsOf(await ledger(alice, { reason: 'grant' }))).toEqual([grant]);
    expect(idsOf(await ledger(alice, { reason: 'topup' }))).toEqual([topup]);
    expect(idsOf(await ledger(alice, { reason: 'payout' }))).toEqual([]);
    expectError(await ledger(alice, { reason: 'bonus' }), 400, 'invalid_request', /^reason: /);
  });

  it('filters by time: from inclusive, to exclusive, offsets understood', async () => {
    const alice = await signIn(app);
    const t = (ms: number) => new Date(Date.UTC(2026, 0, 10, 12, 0, 0, ms));
    const [a, b, c] = await insertRows(alice.userId, [{ at: t(0) }, { at: t(1) }, { at: t(2) }]);
    const iso = (ms: number) => t(ms).toISOString();
    expect(idsOf(await ledger(alice, { from: iso(1) }))).toEqual([c, b]);
    expect(idsOf(await ledger(alice, { to: iso(2) }))).toEqual([b, a]);
    expect(idsOf(await ledger(alice, { from: iso(1), to: iso(2) }))).toEqual([b]);
    expect(idsOf(await ledger(alice, { from: iso(1), to: iso(1) }))).toEqual([]);
    // The same instant as 14:00:00.001 at +02:00.
    expect(idsOf(await ledger(alice, { from: '2026-01-10T14:00:00.001+02:00' }))).toEqual([c, b]);
    // An unencoded "+" in the query string decodes to a space; it still means the offset.
    const raw = await app.inject({
      method: 'GET',
      url: '/ledger?from=2026-01-10T14:00:00.001+02:00',
      headers: { cookie: alice.cookie },
    });
    expect(idsOf(raw)).toEqual([c, b]);
    // Finer than a millisecond: 12:00:00.0015 is after row b and before row c.
    expect(idsOf(await ledger(alice, { from: '2026-01-10T12:00:00.0015Z' }))).toEqual([c]);
    expect(idsOf(await ledger(alice, { to: '2026-01-10T12:00:00.0015Z' }))).toEqual([b, a]);
    // Extreme but valid bounds.
    expect(
      idsOf(await ledger(alice, { from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59Z' })),
    ).toEqual([c, b, a]);
  });

  it('refuses unparsable bounds and from after to, naming the field', async () => {
    const alice = await signIn(app);
    for (const from of ['yesterday', '2026-01-10', '2026-02-30T00:00:00Z', '2026-01-10T12:00']) {
      expectError(await ledger(alice, { from }), 400, 'invalid_request', /^from: /);
    }
    expectError(await ledger(alice, { to: '1700000000' }), 400, 'invalid_request', /^to: /);
    expectError(
      await ledger(alice, { from: '2026-01-11T00:00:00Z', to: '2026-01-10T00:00:00Z' }),
      400,
      'invalid_request',
      /^from: /,
    );
  });

  it('refuses tampered, foreign and other-filter cursors with 400 invalid_cursor', async () => {
    const [alice, bob] = [await signIn(app), await signIn(app)];
    await insertRows(alice.userId, [{ at: new Date(1e12) }, { at: new Date(1e12 + 1) }]);
    await insertRows(bob.userId, [{ at: new Date(1e12) }, { at: new Date(1e12 + 1) }]);
    const cursor = (await ledger(alice, { limit: 1 })).json<Page>().nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    const [payload, mac] = cursor.split('.');
    const flipped = `${payload}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
    for (const bad of [flipped, 'garbage', `${payload}`]) {
      expectError(await ledger(alice, { cursor: bad }), 400, 'invalid_cursor');
    }
    expectError(await ledger(alice, { cursor, reason: 'topup' }), 400, 'invalid_cursor');
    expectError(await ledger(bob, { cursor, limit: 1 }), 400, 'invalid_cursor');
    expect((await ledger(alice, { cursor, limit: 1 })).statusCode).toBe(200);
  });

  it('shows only the caller’s own rows, by session or API key', async () => {
    const [alice, bob] = [await signIn(app), await signIn(app)];
    const mine = (await credited(alice.userId, 1)).entry.id;
    const theirs = (await credited(bob.userId, 1)).entry.id;
    expect(idsOf(await ledger(alice))).toEqual([mine]);
    expect(idsOf(await ledger(bob))).toEqual([theirs]);
    const key = await createKey(app, bob);
    const byKey = await app.inject({
      method: 'GET',
      url: '/ledger',
      headers: { 'x-api-key': key.key },
    });
    expect(byKey.statusCode).toBe(200);
    expect(idsOf(byKey)).toEqual([theirs]);
  });

  it('validates limit', async () => {
    const alice = await signIn(app);
    expectError(await ledger(alice, { limit: 0 }), 400, 'invalid_request', /^limit: /);
    expect((await ledger(alice, { limit: 1000 })).statusCode).toBe(200);
  });
});

describe('GET /me/flow-balance (deprecated)', () => {
  async function balanceRecord(session: SignedIn) {
    const response = await app.inject({
      method: 'GET',
      url: '/me/flow-balance',
      headers: { cookie: session.cookie },
    });
    expect(response.statusCode).toBe(200);
    return response;
  }

  it('carries Deprecation and Link headers and starts at zero', async () => {
    const alice = await signIn(app);
    const response = await balanceRecord(alice);
    expect(response.headers.deprecation).toBe('@1795305600');
    expect(response.headers.link).toBe('</me/flow-onchain>; rel="successor-version"');
    expect(response.json()).toEqual({
      balance: 0,
      withdrawableFlow: 0,
      breakdown: {
        topUp: 0,
        subscriptionGrant: 0,
        creatorShare: 0,
        holderRewardsTotal: 0,
        freelance: 0,
        quests: 0,
      },
      recentLedger: [],
    });
  });

  it('sums each source over the lifetime, spendable net of holds', async () => {
    const alice = await signIn(app);
    await credited(alice.userId, 100, 'topup');
    await credited(alice.userId, 30, 'grant');
    await credited(alice.userId, 5, 'quest');
    await credited(alice.userId, 2, 'refund');
    const em = () => ctx.deps.orm.em.fork();
    const now = () => new Date();
    const earn = (amount: bigint, refType: string, role: string) =>
      em().transactional((tx) =>
        creditUser(tx, alice.userId, amount, {
          reason: 'call',
          refType,
          refId: randomUUID(),
          metadata: { role },
          now: now(),
        }),
      );
    await earn(9_500_000n, 'agent_call', 'creator');
    await earn(1_500_000n, 'holder_reward', 'holder');
    await earn(3_000_000n, 'freelance', 'freelancer');
    await em().transactional((tx) =>
      debitUser(tx, alice.userId, 4_000_000n, {
        reason: 'call',
        refType: 'agent_call',
        refId: randomUUID(),
        metadata: { role: 'caller' },
        now: now(),
        lowBalanceThreshold: 0n,
      }),
    );
    await holdFlow(em(), alice.userId, 10_000_000n, now(), new Date(Date.now() + 60_000));

    const record = (await balanceRecord(alice)).json<BalanceRecord>();
    // 151 credited, 4 spent, 10 held by a call in flight; 30 of it granted and 100 top-ups
    // younger than TOPUP_SETTLEMENT_HOURS, neither withdrawable.
    expect(record.balance).toBe(137);
    expect(record.withdrawableFlow).toBe(7);
    await settleTopups(alice.userId);
    expect((await balanceRecord(alice)).json<BalanceRecord>().withdrawableFlow).toBe(107);
    expect(record.breakdown).toEqual({
      topUp: 100,
      subscriptionGrant: 30,
      creatorShare: 9.5,
      holderRewardsTotal: 1.5,
      freelance: 3,
      quests: 5,
    });
    expect(record.recentLedger).toHaveLength(8);
    expect(record.recentLedger[0]).toMatchObject({ delta: -4, balanceAfter: 147 });
    expect(idsOf(await ledger(alice))).toEqual(record.recentLedger.map((entry) => entry.id));
  });

  /** Ages the user's top-ups past the settlement window (TOPUP_SETTLEMENT_HOURS, 24). */
  async function settleTopups(userId: number) {
    await ctx.sql(
      `update ledger_entries set created_at = created_at - interval '25 hours'
       where user_id = $1 and reason = 'topup'`,
      [userId],
    );
  }

  it('never counts grant FLOW, nor unsettled top-ups, as withdrawable', async () => {
    const alice = await signIn(app);
    await credited(alice.userId, 50, 'grant');
    let record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([50, 0]);
    await credited(alice.userId, 20, 'topup');
    record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([70, 0]);
    await settleTopups(alice.userId);
    record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([70, 20]);
    await ctx.deps.orm.em.fork().transactional((tx) =>
      debitUser(tx, alice.userId, 30_000_000n, {
        reason: 'call',
        refType: 'agent_call',
        refId: randomUUID(),
        now: new Date(),
        lowBalanceThreshold: 0n,
      }),
    );
    record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([40, 0]);
  });

  it('lists the last 20 entries only, newest first', async () => {
    const alice = await signIn(app);
    const base = Date.now() - 3_600_000;
    const ids = await insertRows(
      alice.userId,
      Array.from({ length: 25 }, (_, i) => ({ at: new Date(base + i * 1000) })),
    );
    const record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect(record.recentLedger.map((entry) => entry.id)).toEqual(ids.slice(5).reverse());
  });

  it('needs a user', async () => {
    expectError(
      await app.inject({ method: 'GET', url: '/me/flow-balance' }),
      401,
      'unauthenticated',
    );
  });
});

describe('/me/payouts (removed)', () => {
  it('answers 410 gone for every method and nested path, signed in or not', async () => {
    const alice = await signIn(app);
    const requests = [
      { method: 'GET', url: '/me/payouts' },
      { method: 'POST', url: '/me/payouts', payload: { amountFlow: 10 } },
      { method: 'DELETE', url: '/me/payouts/123' },
      { method: 'GET', url: '/me/payouts/abc/status' },
      { method: 'PATCH', url: '/me/payouts/abc', payload: {} },
      { method: 'PUT', url: '/me/payouts' },
    ] as const;
    for (const request of requests) {
      for (const headers of [{}, { cookie: alice.cookie }]) {
        const response = await app.inject({ ...request, headers });
        expectError(response, 410, 'gone', GONE);
        expect(response.json<{ error: { message: string } }>().error.message).toBe(GONE);
      }
    }
  });
});

describe('OpenAPI', () => {
  it('documents the routes under the flow tag, deprecations marked', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    type Operation = { tags?: string[]; deprecated?: boolean; summary?: string };
    const paths = response.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    const operations: [string, string, boolean][] = [
      ['/ledger', 'get', false],
      ['/me/flow-balance', 'get', true],
      ['/me/payouts', 'get', true],
      ['/me/payouts', 'post', true],
      ['/me/payouts/{path}', 'delete', true],
      ['/internal/flow/credit', 'post', false],
    ];
    for (const [path, method, deprecated] of operations) {
      const operation = paths[path]?.[method];
      expect(operation?.tags).toEqual(['flow']);
      expect(operation?.summary).toEqual(expect.any(String));
      expect(Boolean(operation?.deprecated)).toBe(deprecated);
    }
  });
});
