import { Pool, type QueryResultRow } from 'pg';
import type { Logger } from '../logger';

/**
 * The one way hot reads reach PostgreSQL (docs/decisions.md "Hot reads").
 *
 * A read is one statement shaped like the response, declared once at module load with
 * `statement(name, text)` and run through a `SqlReader`. Each statement is a named prepared
 * statement: node-postgres parses and plans it once per connection and afterwards sends only
 * Bind/Execute with the values as parameters, never inlined. MikroORM stays the way to write
 * and to load entities for logic that changes them; it keeps its own pool, so a read never
 * waits behind a long write transaction for a connection.
 *
 * Rows come back as PostgreSQL sends them through node-postgres' default parsers: `int4` as a
 * number, `int8` and `numeric` as strings, `timestamptz` as a Date. A statement that wants the
 * wire form directly says so in SQL (`::int`, `isoUtc(column)`), so mapping a row stays a
 * rename at most.
 */

/** A prepared statement: its text and the types of its parameters and rows. */
export interface Statement<Row extends QueryResultRow, Params extends readonly unknown[]> {
  readonly name: string;
  readonly text: string;
  /** Type-only: never set. */
  readonly __types?: { row: Row; params: Params };
}

const declared = new Map<string, string>();

/**
 * Declares a statement (at module load). Names are global per connection, so one name may
 * carry only one text: a second, different declaration is a programming error.
 */
export function statement<Row extends QueryResultRow, Params extends readonly unknown[] = []>(
  name: string,
  text: string,
): Statement<Row, Params> {
  const earlier = declared.get(name);
  if (earlier !== undefined && earlier !== text) {
    throw new Error(`sql statement ${name} is declared twice with different text`);
  }
  declared.set(name, text);
  return { name, text };
}

/** Every statement declared so far, by name (the plan test EXPLAINs each one). */
export function declaredStatements(): ReadonlyMap<string, string> {
  return declared;
}

/** An ISO-8601 UTC timestamp with milliseconds, as `Date.prototype.toISOString` writes it. */
export function isoUtc(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A timestamp as epoch milliseconds (`float8`, a JS number), exact for `timestamptz(3)`. */
export function epochMs(column: string): string {
  return `round(extract(epoch from ${column}) * 1000)::float8`;
}

export class SqlReader {
  constructor(
    private readonly pool: Pool,
    /** False where connections share one backend session (the embedded dev database). */
    private readonly named = true,
  ) {}

  /** Every row of the statement. */
  async rows<Row extends QueryResultRow, Params extends readonly unknown[]>(
    query: Statement<Row, Params>,
    params: Params,
  ): Promise<Row[]> {
    const result = await this.pool.query<Row>({
      ...(this.named ? { name: query.name } : {}),
      text: query.text,
      values: params as unknown as unknown[],
    });
    return result.rows;
  }

  /** The first row, or undefined when there is none. */
  async row<Row extends QueryResultRow, Params extends readonly unknown[]>(
    query: Statement<Row, Params>,
    params: Params,
  ): Promise<Row | undefined> {
    return (await this.rows(query, params))[0];
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * The read pool of an API process: at most `max` connections, opened on demand. An idle
 * connection that breaks is dropped and logged; the next read opens a new one.
 * `namedStatements: false` sends every statement unnamed (still with bound parameters): the
 * embedded development database multiplexes its socket connections onto one session, where a
 * name prepared by one connection would collide with the same name prepared by another.
 */
export function createSqlReader(
  databaseUrl: string,
  max: number,
  logger: Logger,
  options: { namedStatements?: boolean } = {},
): SqlReader {
  const named = options.namedStatements ?? true;
  const pool = new Pool({
    connectionString: databaseUrl,
    max,
    idleTimeoutMillis: 30_000,
    application_name: 'api-reads',
    // A named statement is planned once per connection. PostgreSQL's default mode may instead
    // plan it again on every execution when it cannot cost the generic plan (`limit $n`,
    // `$n is null or …`). Each statement here is written (keyset sentinels instead of
    // branches) and checked with EXPLAIN to be an index scan under its generic plan.
    // JIT off: a generic plan costs its ranges blind, and a high estimate (the key usage
    // summary's edge hours, at 2M rows) made PostgreSQL spend 400 ms compiling a 1 ms read.
    ...(named ? { options: '-c plan_cache_mode=force_generic_plan -c jit=off' } : {}),
  });
  pool.on('error', (err: Error) =>
    logger.warn({ err: { message: err.message } }, 'read pool: idle connection failed'),
  );
  return new SqlReader(pool, named);
}
