import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { createLogger } from '../../shared/logger';
import {
  createSqlPool,
  isoUtc,
  sqlOf,
  statement,
  type Sql,
  type SqlPool,
} from '../../shared/db/sql';
import { useTestApp } from '../helpers/context';

/**
 * The one SQL runner (shared/db/sql.ts): named prepared statements, values bound by the
 * server on every executor (the read pool, an entity manager, its transaction), typed rows,
 * MikroORM's exceptions for refused statements.
 */

let single: SqlPool;
const quiet = createLogger('silent', 'test');

const test = useTestApp({ apis: 0, beforeClose: () => single?.close() });
beforeAll(() => {
  // One connection, so the statements below and the catalog look-up share a session.
  single = createSqlPool(test.ctx.config.databaseUrl!, 1, quiet);
});

const echo = statement<{ value: string }, [string]>('test_echo', 'select $1::text as value');
const prepared = statement<{ name: string; statement: string }>(
  'test_prepared',
  `select name, statement from pg_prepared_statements order by name`,
);
/**
 * The value, and the text of the statement as the server received it: PostgreSQL keeps the
 * running statement's text in pg_stat_activity, so a value rendered into the text by the
 * client shows there, and a bound one does not.
 */
const seenByServer = statement<{ value: string; received: string }, [string]>(
  'test_seen_by_server',
  `select $1::text as value,
          (select query from pg_stat_activity where pid = pg_backend_pid()) as received`,
);

type Within = (run: (sql: Sql) => Promise<void>) => Promise<void>;
const em = () => test.ctx.deps.orm.em.fork();
/** Each executor the runner serves, by name. */
const executors: [string, Within][] = [
  ['the read pool', (run) => run(single)],
  ['an entity manager', (run) => run(sqlOf(em()))],
  ["an entity manager's transaction", (run) => em().transactional((tx) => run(sqlOf(tx)))],
];

describe('the SQL runner', () => {
  it('prepares each statement once per connection under its name', async () => {
    expect(await single.rows(echo, ['a'])).toEqual([{ value: 'a' }]);
    expect(await single.row(echo, ['b'])).toEqual({ value: 'b' });
    const names = (await single.rows(prepared, [])).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['test_echo', 'test_prepared']));
  });

  it('plans named statements once: generic plans on the read pool', async () => {
    const mode = statement<{ mode: string }>(
      'test_plan_cache_mode',
      `select current_setting('plan_cache_mode') as mode`,
    );
    expect(await single.row(mode, [])).toEqual({ mode: 'force_generic_plan' });
  });

  it.each(executors)(
    'binds values on the server through %s: the statement arrives with $1, the value apart',
    async (_name, within) => {
      const hostile = "marker-7f3a'; drop table users; --";
      await within(async (sql) => {
        const row = await sql.row(seenByServer, [hostile]);
        expect(row?.value).toBe(hostile);
        expect(row?.received).toContain('$1::text');
        expect(row?.received).not.toContain('marker-7f3a');
      });
      const [users] = await test.ctx.sql<{ exists: boolean }>(
        `select to_regclass('public.users') is not null as exists`,
      );
      expect(users?.exists).toBe(true);
    },
  );

  it("runs inside the entity manager's transaction: its writes commit or roll back with it", async () => {
    const insert = statement<Record<string, never>, [string]>(
      'test_insert_user',
      `insert into users (address, created_at) values ($1, now())`,
    );
    const count = statement<{ n: number }, [string]>(
      'test_count_user',
      'select count(*)::int as n from users where address = $1',
    );
    const address = `0x${'a1'.repeat(20)}`;
    await expect(
      em().transactional(async (tx) => {
        expect(await sqlOf(tx).run(insert, [address])).toBe(1);
        // Seen inside the transaction, not outside it yet.
        expect(await sqlOf(tx).row(count, [address])).toEqual({ n: 1 });
        expect(await single.row(count, [address])).toEqual({ n: 0 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await single.row(count, [address])).toEqual({ n: 0 });

    await em().transactional((tx) => sqlOf(tx).run(insert, [address]));
    expect(await single.row(count, [address])).toEqual({ n: 1 });
  });

  it("raises MikroORM's exception for a refused statement, the family entity writes raise", async () => {
    const insert = statement<Record<string, never>, [string]>(
      'test_insert_user',
      `insert into users (address, created_at) values ($1, now())`,
    );
    const address = `0x${'b2'.repeat(20)}`;
    const sql = sqlOf(em());
    await sql.run(insert, [address]);
    await expect(sql.run(insert, [address])).rejects.toBeInstanceOf(
      UniqueConstraintViolationException,
    );
    await expect(single.run(insert, [address])).rejects.toBeInstanceOf(
      UniqueConstraintViolationException,
    );
  });

  it('refuses one name declared with two texts', () => {
    expect(() => statement('test_echo', 'select 2')).toThrow(/declared twice/);
    expect(statement('test_echo', 'select $1::text as value').name).toBe('test_echo');
  });

  it.each(executors)(
    'parses rows alike through %s: timestamptz a Date, int8 a string',
    async (_name, within) => {
      const typed = statement<{ at: Date; big: string; small: number; day: string }>(
        'test_row_types',
        `select '2026-11-29T10:00:00.123Z'::timestamptz as at, 9007199254740993::int8 as big,
              7::int4 as small, '2026-11-29'::date::text as day`,
      );
      await within(async (sql) => {
        const row = await sql.row(typed, []);
        expect(row?.at).toBeInstanceOf(Date);
        expect(row?.at.toISOString()).toBe('2026-11-29T10:00:00.123Z');
        expect(row?.big).toBe('9007199254740993');
        expect(row?.small).toBe(7);
      });
    },
  );

  it('renders timestamps exactly as Date.prototype.toISOString', async () => {
    const times = statement<{ iso: string; at: Date }, [string]>(
      'test_iso',
      `select ${isoUtc('t')} as iso, t as at
         from (values ($1::timestamptz(3)), ('2026-01-02T03:04:05.006Z'),
                      ('1999-12-31T23:59:59.999+05:30')) as v(t)`,
    );
    const rows = await single.rows(times, ['2026-11-24T00:00:00.120Z']);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.iso).toBe(row.at.toISOString());
    expect(rows[0]?.iso).toBe('2026-11-24T00:00:00.120Z');
  });
});
