import { randomBytes, randomUUID } from 'node:crypto';
import type { LedgerReason } from '../../shared/db/entities/ledger-entry';
import type { EntityManager } from '../../shared/db/orm';
import {
  creditHolderPool,
  creditUser,
  debitUser,
  holdFlow,
  releaseExpiredHolds,
  releaseHold,
  settleHold,
  type Debit,
} from '../../shared/flow/ledger';
import { useTestApp } from '../helpers/context';

/** shared/flow/ledger.ts on a real database: no overdraft, holds, rollback, running balances. */

const FLOW = 1_000_000n;

const test = useTestApp({ apis: 0 });

/** Each caller gets its own EntityManager and transaction, as concurrent requests would. */
function inTransaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return test.ctx.deps.orm.em.fork().transactional(work);
}

async function newUser(): Promise<number> {
  const address = `0x${randomBytes(20).toString('hex')}`;
  const [row] = await test.ctx.sql<{ id: number }>(
    'insert into users (address, created_at) values ($1, now()) returning id',
    [address],
  );
  return row!.id;
}

/** A zero low-balance threshold: no debit can cross it (test/integration/webhook-emitters). */
function move(reason: LedgerReason = 'topup', extra: Partial<Debit> = {}): Debit {
  return {
    reason,
    refType: 'test',
    refId: randomUUID(),
    now: new Date(),
    lowBalanceThreshold: 0n,
    ...extra,
  };
}

async function fund(userId: number, amount: bigint): Promise<void> {
  await inTransaction((tx) => creditUser(tx, userId, amount, move('topup')));
}

async function accountOf(userId: number) {
  const [row] = await test.ctx.sql<{ balance: string; held: string }>(
    'select balance, held from flow_accounts where user_id = $1',
    [userId],
  );
  return { balance: BigInt(row?.balance ?? 0), held: BigInt(row?.held ?? 0) };
}

async function ledgerOf(userId: number) {
  const rows = await test.ctx.sql<{ delta: string; balance_after: string; reason: string }>(
    'select delta, balance_after, reason from ledger_entries where user_id = $1',
    [userId],
  );
  return rows.map((row) => ({
    delta: BigInt(row.delta),
    balanceAfter: BigInt(row.balance_after),
    reason: row.reason,
  }));
}

async function holdsOf(userId: number) {
  return test.ctx.sql<{ id: string; amount: string }>(
    'select id, amount from flow_holds where user_id = $1',
    [userId],
  );
}

describe('debits', () => {
  it('never overdraw: 20 concurrent debits of 1 FLOW on 10 FLOW, exactly 10 succeed', async () => {
    const user = await newUser();
    await fund(user, 10n * FLOW);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        inTransaction((tx) => debitUser(tx, user, FLOW, move('call'))),
      ),
    );
    expect(results.filter((row) => row !== null)).toHaveLength(10);
    expect(await accountOf(user)).toEqual({ balance: 0n, held: 0n });
    const ledger = await ledgerOf(user);
    const debits = ledger.filter((row) => row.delta < 0n);
    expect(debits).toHaveLength(10);
    expect(debits.every((row) => row.delta === -FLOW)).toBe(true);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0n)).toBe(0n);
  });

  it('refuse a debit beyond what is spendable, and one from a user without an account', async () => {
    const user = await newUser();
    await fund(user, 3n * FLOW);
    expect(await inTransaction((tx) => debitUser(tx, user, 4n * FLOW, move('call')))).toBeNull();
    const stranger = await newUser();
    expect(await inTransaction((tx) => debitUser(tx, stranger, 1n, move('call')))).toBeNull();
    expect(await accountOf(user)).toEqual({ balance: 3n * FLOW, held: 0n });
    expect(await ledgerOf(stranger)).toEqual([]);
  });

  it('refuse zero and negative amounts', async () => {
    const user = await newUser();
    await expect(inTransaction((tx) => creditUser(tx, user, 0n, move()))).rejects.toThrow(
      RangeError,
    );
    await expect(inTransaction((tx) => debitUser(tx, user, -1n, move()))).rejects.toThrow(
      RangeError,
    );
    expect(await ledgerOf(user)).toEqual([]);
  });
});

describe('holds', () => {
  it('reserve only what is spendable, and holds reduce what can be spent', async () => {
    const user = await newUser();
    await fund(user, 5n * FLOW);
    const later = new Date(Date.now() + 60_000);
    expect(
      await holdFlow(test.ctx.deps.orm.em.fork(), user, 6n * FLOW, new Date(), later),
    ).toBeNull();
    const hold = await holdFlow(test.ctx.deps.orm.em.fork(), user, 4n * FLOW, new Date(), later);
    expect(hold).toEqual(expect.any(String));
    expect(await accountOf(user)).toEqual({ balance: 5n * FLOW, held: 4n * FLOW });
    // 1 FLOW is left to spend: a debit of 2 fails, a second hold of 2 too.
    expect(await inTransaction((tx) => debitUser(tx, user, 2n * FLOW, move('call')))).toBeNull();
    expect(
      await holdFlow(test.ctx.deps.orm.em.fork(), user, 2n * FLOW, new Date(), later),
    ).toBeNull();
    expect(await holdsOf(user)).toHaveLength(1);
  });

  it('20 concurrent holds of 1 FLOW on 10 FLOW: exactly 10 are granted', async () => {
    const user = await newUser();
    await fund(user, 10n * FLOW);
    const later = new Date(Date.now() + 60_000);
    const holds = await Promise.all(
      Array.from({ length: 20 }, () =>
        holdFlow(test.ctx.deps.orm.em.fork(), user, FLOW, new Date(), later),
      ),
    );
    expect(holds.filter((id) => id !== null)).toHaveLength(10);
    expect(await accountOf(user)).toEqual({ balance: 10n * FLOW, held: 10n * FLOW });
    expect(await holdsOf(user)).toHaveLength(10);
  });

  it('settle less than the hold: the amount is debited, the rest released', async () => {
    const user = await newUser();
    await fund(user, 10n * FLOW);
    const later = new Date(Date.now() + 60_000);
    const hold = await holdFlow(test.ctx.deps.orm.em.fork(), user, 4n * FLOW, new Date(), later);
    const row = await inTransaction((tx) =>
      settleHold(tx, hold!, user, 3n * FLOW, move('call', { refType: 'agent_call' })),
    );
    expect(row).toEqual({ id: expect.any(String), delta: -3n * FLOW, balanceAfter: 7n * FLOW });
    expect(await accountOf(user)).toEqual({ balance: 7n * FLOW, held: 0n });
    expect(await holdsOf(user)).toEqual([]);
  });

  it('settle 0: nothing is debited, the hold is released', async () => {
    const user = await newUser();
    await fund(user, 2n * FLOW);
    const later = new Date(Date.now() + 60_000);
    const hold = await holdFlow(test.ctx.deps.orm.em.fork(), user, FLOW, new Date(), later);
    expect(await inTransaction((tx) => settleHold(tx, hold!, user, 0n, move('call')))).toBeNull();
    expect(await accountOf(user)).toEqual({ balance: 2n * FLOW, held: 0n });
    expect((await ledgerOf(user)).filter((row) => row.reason === 'call')).toEqual([]);
  });

  it('refuse settling more than the hold, leaving the hold in place', async () => {
    const user = await newUser();
    await fund(user, 10n * FLOW);
    const later = new Date(Date.now() + 60_000);
    const hold = await holdFlow(test.ctx.deps.orm.em.fork(), user, 2n * FLOW, new Date(), later);
    await expect(
      inTransaction((tx) => settleHold(tx, hold!, user, 3n * FLOW, move('call'))),
    ).rejects.toThrow(RangeError);
    // The transaction rolled back: the hold is still there and nothing was debited.
    expect(await accountOf(user)).toEqual({ balance: 10n * FLOW, held: 2n * FLOW });
    expect(await holdsOf(user)).toHaveLength(1);
  });

  it('release gives the hold back untouched; a second release changes nothing', async () => {
    const user = await newUser();
    await fund(user, 3n * FLOW);
    const later = new Date(Date.now() + 60_000);
    const hold = await holdFlow(test.ctx.deps.orm.em.fork(), user, 3n * FLOW, new Date(), later);
    await releaseHold(test.ctx.deps.orm.em.fork(), hold!, new Date());
    await releaseHold(test.ctx.deps.orm.em.fork(), hold!, new Date());
    expect(await accountOf(user)).toEqual({ balance: 3n * FLOW, held: 0n });
    expect(await holdsOf(user)).toEqual([]);
    expect(await ledgerOf(user)).toHaveLength(1);
  });

  it('settling a hold already swept debits only when the balance still covers it', async () => {
    const user = await newUser();
    await fund(user, 2n * FLOW);
    const past = new Date(Date.now() - 1000);
    const hold = await holdFlow(test.ctx.deps.orm.em.fork(), user, 2n * FLOW, new Date(), past);
    expect(
      await releaseExpiredHolds(test.ctx.deps.orm.em.fork(), new Date()),
    ).toBeGreaterThanOrEqual(1);
    await inTransaction((tx) => debitUser(tx, user, FLOW, move('call')));
    // 1 FLOW is left: settling 2 against the vanished hold is refused, 1 goes through.
    expect(await inTransaction((tx) => settleHold(tx, hold!, user, 2n * FLOW, move('call')))).toBe(
      null,
    );
    const settled = await inTransaction((tx) => settleHold(tx, hold!, user, FLOW, move('call')));
    expect(settled?.balanceAfter).toBe(0n);
    expect(await accountOf(user)).toEqual({ balance: 0n, held: 0n });
  });

  it('releaseExpiredHolds frees only expired holds and fixes held per account', async () => {
    const [ann, ben] = [await newUser(), await newUser()];
    await fund(ann, 10n * FLOW);
    await fund(ben, 10n * FLOW);
    const now = new Date();
    const past = new Date(now.getTime() - 1000);
    const future = new Date(now.getTime() + 3_600_000);
    const em = () => test.ctx.deps.orm.em.fork();
    await holdFlow(em(), ann, 1n * FLOW, past, past);
    await holdFlow(em(), ann, 2n * FLOW, past, now); // expires exactly now: released
    const kept = await holdFlow(em(), ann, 3n * FLOW, now, future);
    await holdFlow(em(), ben, 4n * FLOW, past, past);
    const keptByBen = await holdFlow(em(), ben, 5n * FLOW, now, future);

    expect(await releaseExpiredHolds(em(), now)).toBe(3);
    expect(await accountOf(ann)).toEqual({ balance: 10n * FLOW, held: 3n * FLOW });
    expect(await accountOf(ben)).toEqual({ balance: 10n * FLOW, held: 5n * FLOW });
    expect((await holdsOf(ann)).map((hold) => hold.id)).toEqual([kept]);
    expect((await holdsOf(ben)).map((hold) => hold.id)).toEqual([keptByBen]);
    // Nothing expired is left: a second sweep at the same instant releases nothing.
    expect(await releaseExpiredHolds(em(), now)).toBe(0);
  });
});

describe('transactions and the ledger', () => {
  it('a transaction that throws after creditUser leaves no row and no balance change', async () => {
    const user = await newUser();
    await fund(user, 5n * FLOW);
    const refId = randomUUID();
    await expect(
      inTransaction(async (tx) => {
        await creditUser(tx, user, 7n * FLOW, move('topup', { refId }));
        throw new Error('provider said no after all');
      }),
    ).rejects.toThrow('provider said no after all');
    expect(await accountOf(user)).toEqual({ balance: 5n * FLOW, held: 0n });
    const rows = await test.ctx.sql('select id from ledger_entries where ref_id = $1', [refId]);
    expect(rows).toEqual([]);
  });

  it('balance_after is a running balance, also under concurrent movements', async () => {
    const user = await newUser();
    const amounts = Array.from({ length: 15 }, (_, i) => BigInt(i + 1) * 100_000n);
    await Promise.all(
      amounts.map((amount) => inTransaction((tx) => creditUser(tx, user, amount, move()))),
    );
    await Promise.all(
      [300_000n, 700_000n].map((amount) =>
        inTransaction((tx) => debitUser(tx, user, amount, move('call'))),
      ),
    );
    // Whatever order the rows were written in, each starts where another one ended.
    const ledger = await ledgerOf(user);
    const balances = new Set(ledger.map((row) => row.balanceAfter));
    balances.add(0n);
    for (const row of ledger) expect(balances.has(row.balanceAfter - row.delta)).toBe(true);
    const starts = ledger.map((row) => row.balanceAfter - row.delta);
    expect(new Set(starts).size).toBe(ledger.length);
    const total = ledger.reduce((sum, row) => sum + row.delta, 0n);
    expect((await accountOf(user)).balance).toBe(total);
    expect(ledger.some((row) => row.balanceAfter === total)).toBe(true);
  });

  it('creditHolderPool accrues to the token’s pool with a token ledger row', async () => {
    const owner = await newUser();
    const tokenId = randomUUID();
    await test.ctx.sql(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state,
         created_at) values ($1, $2, $3, 'Pool Token', 'POOL', 'virtuals', 31337, '{}', 'live',
         now())`,
      [tokenId, owner, `pool-${tokenId.slice(0, 8)}`],
    );
    const first = await inTransaction((tx) =>
      creditHolderPool(tx, tokenId, 250_000n, move('call', { refType: 'agent_call' })),
    );
    const second = await inTransaction((tx) =>
      creditHolderPool(tx, tokenId, 50_000n, move('call', { refType: 'agent_call' })),
    );
    expect(first.balanceAfter).toBe(250_000n);
    expect(second.balanceAfter).toBe(300_000n);
    const [token] = await test.ctx.sql<{ pool: string }>(
      'select holder_reward_pool as pool from tokens where id = $1',
      [tokenId],
    );
    expect(token?.pool).toBe('300000');
    const rows = await test.ctx.sql<{ user_id: number | null; delta: string; ref_type: string }>(
      'select user_id, delta, ref_type from ledger_entries where token_id = $1 order by delta',
      [tokenId],
    );
    expect(rows).toEqual([
      { user_id: null, delta: '50000', ref_type: 'agent_call' },
      { user_id: null, delta: '250000', ref_type: 'agent_call' },
    ]);
    // The owner's own account is untouched.
    expect(await ledgerOf(owner)).toEqual([]);
  });
});
