import { randomUUID } from 'node:crypto';
import type { Actor } from '../../api/access/actor';
import { flowBalance } from '../../api/routes/flow/service';
import { creditUser, debitUser } from '../../shared/flow/ledger';
import { useTestApp } from '../helpers/context';

/**
 * The read model `flow_ledger_totals` against its source: after every kind of ledger write
 * (the ledger module, concurrent credits, raw multi-user inserts, updates, deletes, a user's
 * deletion), each stored total equals the ledger summed again here, with definitions written
 * independently of the migration (docs/decisions.md "Hot reads").
 */

const test = useTestApp({ apis: 0 });

const RECOMPUTED = `
  select user_id,
    sum(case when reason = 'topup' and delta > 0 then delta else 0 end)::text as top_up,
    sum(case when reason = 'grant' then delta else 0 end)::text as subscription_grant,
    sum(case when reason = 'call' and delta > 0 and ref_type <> 'holder_reward'
              and ref_type <> 'freelance' then delta else 0 end)::text as creator_share,
    sum(case when ref_type = 'holder_reward' then delta else 0 end)::text as holder_rewards,
    sum(case when ref_type = 'freelance' then delta else 0 end)::text as freelance,
    sum(case when reason = 'quest' then delta else 0 end)::text as quests
  from ledger_entries where user_id is not null group by user_id`;

const STORED = `
  select user_id, top_up::text as top_up, subscription_grant::text as subscription_grant,
         creator_share::text as creator_share, holder_rewards::text as holder_rewards,
         freelance::text as freelance, quests::text as quests
    from flow_ledger_totals`;

/** Users whose stored totals differ from the recomputation, both sides shown. */
async function drift(): Promise<unknown[]> {
  return test.ctx.sql(
    `select r.*, s.* from (${RECOMPUTED}) r full join (${STORED}) s using (user_id)
      where r is distinct from s
        and not (r.user_id is null and s.top_up = '0' and s.subscription_grant = '0'
                 and s.creator_share = '0' and s.holder_rewards = '0' and s.freelance = '0'
                 and s.quests = '0')`,
  );
}

async function newUser(): Promise<number> {
  const [row] = await test.ctx.sql<{ id: number }>(
    `insert into users (address) values ($1) returning id`,
    [`0x${randomUUID().replace(/-/g, '').padEnd(40, '0')}`],
  );
  return row!.id;
}

const move = (reason: 'topup' | 'call' | 'grant' | 'quest' | 'refund', refType = 'test') => ({
  reason,
  refType,
  refId: randomUUID(),
  now: new Date(),
});

describe('flow_ledger_totals', () => {
  it('follows the ledger module, source by source', async () => {
    const user = await newUser();
    const em = () => test.ctx.deps.orm.em.fork();
    await em().transactional((tx) => creditUser(tx, user, 100n, move('topup')));
    await em().transactional((tx) => creditUser(tx, user, 30n, move('grant')));
    await em().transactional((tx) => creditUser(tx, user, 7n, move('call')));
    await em().transactional((tx) => creditUser(tx, user, 5n, move('call', 'holder_reward')));
    await em().transactional((tx) => creditUser(tx, user, 3n, move('call', 'freelance')));
    await em().transactional((tx) => creditUser(tx, user, 2n, move('quest')));
    await em().transactional((tx) => creditUser(tx, user, 1n, move('refund')));
    await em().transactional((tx) =>
      debitUser(tx, user, 40n, { ...move('call'), lowBalanceThreshold: 0n }),
    );
    const [stored] = await test.ctx.sql(`${STORED} where user_id = $1`, [user]);
    expect(stored).toEqual({
      user_id: user,
      top_up: '100',
      subscription_grant: '30',
      creator_share: '7',
      holder_rewards: '5',
      freelance: '3',
      quests: '2',
    });
    expect(await drift()).toEqual([]);
    // The check itself can fail: a total off by one micro-FLOW is drift.
    await test.ctx.sql('update flow_ledger_totals set quests = quests + 1 where user_id = $1', [
      user,
    ]);
    expect(await drift()).toHaveLength(1);
    await test.ctx.sql('update flow_ledger_totals set quests = quests - 1 where user_id = $1', [
      user,
    ]);
  });

  it('stays exact under concurrent credits to one user', async () => {
    const user = await newUser();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        test.ctx.deps.orm.em
          .fork()
          .transactional((tx) => creditUser(tx, user, BigInt(i + 1), move('topup'))),
      ),
    );
    const [stored] = await test.ctx.sql<{ top_up: string }>(`${STORED} where user_id = $1`, [user]);
    expect(stored?.top_up).toBe(String((20 * 21) / 2));
    expect(await drift()).toEqual([]);
  });

  it('follows raw inserts over several users, updates and deletes, and a rollback', async () => {
    const users = [await newUser(), await newUser(), await newUser()];
    await test.ctx.sql(
      `insert into ledger_entries (id, user_id, delta, balance_after, reason, ref_type, ref_id,
                                   metadata, created_at)
       select gen_random_uuid(), u, 10 * i, 0,
              (array['topup', 'grant', 'call', 'quest'])[1 + i % 4], 'raw', 'raw-' || u || '-' || i,
              '{}', now()
         from unnest($1::int[]) u, generate_series(1, 12) i`,
      [users],
    );
    expect(await drift()).toEqual([]);

    await test.ctx.sql(
      `update ledger_entries set reason = 'grant' where user_id = $1 and reason = 'topup'`,
      [users[0]],
    );
    await test.ctx.sql(
      `update ledger_entries set user_id = $2 where user_id = $1 and reason = 'quest'`,
      [users[1], users[2]],
    );
    expect(await drift()).toEqual([]);

    await test.ctx.sql(`delete from ledger_entries where user_id = $1 and reason = 'call'`, [
      users[2],
    ]);
    expect(await drift()).toEqual([]);

    await expect(
      test.ctx.sql(
        `with moved as (insert into ledger_entries (id, user_id, delta, balance_after, reason,
                          ref_type, ref_id, metadata, created_at)
                        values (gen_random_uuid(), $1, 999, 0, 'topup', 'raw', 'x', '{}', now())
                        returning 1)
         select 1 / 0 from moved`,
        [users[0]],
      ),
    ).rejects.toThrow(/division by zero/);
    expect(await drift()).toEqual([]);

    await test.ctx.sql('delete from users where id = $1', [users[1]]);
    const left = await test.ctx.sql(`select 1 from flow_ledger_totals where user_id = $1`, [
      users[1],
    ]);
    expect(left).toEqual([]);
    expect(await drift()).toEqual([]);
  });

  it('is what the balance record reads', async () => {
    const user = await newUser();
    await test.ctx.sql(
      `insert into flow_ledger_totals (user_id, top_up, quests) values ($1, 5000000, 1000000)`,
      [user],
    );
    const record = await flowBalance(test.ctx.deps, { userId: user } as Actor);
    expect(record.breakdown.topUp).toBe(5);
    expect(record.breakdown.quests).toBe(1);
  });
});
