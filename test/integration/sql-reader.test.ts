import { createLogger } from '../../shared/logger';
import { createSqlReader, isoUtc, statement, type SqlReader } from '../../shared/db/sql';
import { useTestApp } from '../helpers/context';

/** The hot-read mechanism: named prepared statements, bound values, wire-shaped columns. */

let single: SqlReader;
const quiet = createLogger('silent', 'test');

const test = useTestApp({ apis: 0, beforeClose: () => single?.close() });
beforeAll(() => {
  // One connection, so the statements below and the catalog look-up share a session.
  single = createSqlReader(test.ctx.config.databaseUrl!, 1, quiet);
});

const echo = statement<{ value: string }, [string]>('test_echo', 'select $1::text as value');
const prepared = statement<{ name: string; statement: string }>(
  'test_prepared',
  `select name, statement from pg_prepared_statements order by name`,
);

describe('SqlReader', () => {
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

  it('binds values as parameters, never as SQL', async () => {
    const hostile = "x'; drop table users; --";
    expect(await single.row(echo, [hostile])).toEqual({ value: hostile });
    const [users] = await test.ctx.sql<{ exists: boolean }>(
      `select to_regclass('public.users') is not null as exists`,
    );
    expect(users?.exists).toBe(true);
  });

  it('sends statements unnamed where sessions are shared (embedded database)', async () => {
    const unnamed = createSqlReader(test.ctx.config.databaseUrl!, 1, quiet, {
      namedStatements: false,
    });
    try {
      expect(await unnamed.row(echo, ['c'])).toEqual({ value: 'c' });
      expect(await unnamed.rows(prepared, [])).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });

  it('refuses one name declared with two texts', () => {
    expect(() => statement('test_echo', 'select 2')).toThrow(/declared twice/);
    expect(statement('test_echo', 'select $1::text as value').name).toBe('test_echo');
  });

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
