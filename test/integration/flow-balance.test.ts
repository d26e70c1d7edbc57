import { randomUUID } from 'node:crypto';
import { creditUser, debitUser, holdFlow } from '../../shared/flow/ledger';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  INTERNAL_TOKEN,
  GONE,
  idsOf,
  type BalanceRecord,
  flowFixtures,
} from '../helpers/flow-fixtures';

/** The deprecated balance record, the removed payouts and the flow routes in OpenAPI. */

const test = useTestApp({ env: { ...UNLIMITED_RATES, INTERNAL_TOKENS: INTERNAL_TOKEN } });
const { credited, ledger, insertRows } = flowFixtures(test);

describe('GET /me/flow-balance (deprecated)', () => {
  async function balanceRecord(session: SignedIn) {
    const response = await test.app.inject({
      method: 'GET',
      url: '/me/flow-balance',
      headers: { cookie: session.cookie },
    });
    expect(response.statusCode).toBe(200);
    return response;
  }

  it('carries Deprecation and Link headers and starts at zero', async () => {
    const alice = await signIn(test.app);
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
    const alice = await signIn(test.app);
    await credited(alice.userId, 100, 'topup');
    await credited(alice.userId, 30, 'grant');
    await credited(alice.userId, 5, 'quest');
    await credited(alice.userId, 2, 'refund');
    const em = () => test.ctx.deps.orm.em.fork();
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
    await test.ctx.sql(
      `update ledger_entries set created_at = created_at - interval '25 hours'
       where user_id = $1 and reason = 'topup'`,
      [userId],
    );
  }

  it('never counts grant FLOW, nor unsettled top-ups, as withdrawable', async () => {
    const alice = await signIn(test.app);
    await credited(alice.userId, 50, 'grant');
    let record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([50, 0]);
    await credited(alice.userId, 20, 'topup');
    record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([70, 0]);
    await settleTopups(alice.userId);
    record = (await balanceRecord(alice)).json<BalanceRecord>();
    expect([record.balance, record.withdrawableFlow]).toEqual([70, 20]);
    await test.ctx.deps.orm.em.fork().transactional((tx) =>
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
    const alice = await signIn(test.app);
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
      await test.app.inject({ method: 'GET', url: '/me/flow-balance' }),
      401,
      'unauthenticated',
    );
  });
});

describe('/me/payouts (removed)', () => {
  it('answers 410 gone for every method and nested path, signed in or not', async () => {
    const alice = await signIn(test.app);
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
        const response = await test.app.inject({ ...request, headers });
        expectError(response, 410, 'gone', GONE);
        expect(response.json<{ error: { message: string } }>().error.message).toBe(GONE);
      }
    }
  });
});

describe('OpenAPI', () => {
  it('documents the routes under the flow tag, deprecations marked', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/openapi.json' });
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
