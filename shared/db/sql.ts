import {
  Pool,
  types,
  type PoolClient,
  type QueryConfig,
  type QueryResult,
  type QueryResultRow,
} from 'pg';
import { PostgreSqlExceptionConverter, type EntityManager, type Knex } from '@mikro-orm/postgresql';
import { DependencyUnavailableError } from '../errors';
import type { Logger } from '../logger';

/**
 * The one way SQL reaches PostgreSQL from `api/`, `workers/` and `shared/` (docs/decisions.md
 * "One SQL runner"; CONTRIBUTING.md "A statement").
 *
 * A statement is declared once at module load, `statement<Row, Params>(name, text)`, its text
 * with `$n` placeholders and its columns aliased to the camelCase fields of `Row`, and run
 * through a `Sql`: `deps.db` (the API's read pool) or `sqlOf(em)` (the entity manager's
 * connection: its transaction's when it is in one, so a statement sees and joins the unit of
 * work around it). Values always travel as bind parameters, never inside the text: PostgreSQL
 * parses and plans a named statement once per connection and afterwards receives only
 * Bind/Execute. A read with variants (sorts, optional filters) declares one statement per
 * variant, so every text is known at load and has a plan checked with EXPLAIN.
 *
 * MikroORM stays for what it does well: entities, migrations and the unit of work where a
 * service loads, changes and flushes them. `em.execute` is banned by lint: it renders values
 * into the SQL text on the client.
 *
 * Rows come back as node-postgres parses them: `int4` as a number, `int8` and `numeric` as
 * strings, `timestamptz` as a Date. A statement that wants the wire form says so in SQL
 * (`::int`, `isoUtc(column)`), so mapping a row stays a rename at most. Values are sent as
 * node-postgres prepares them: a bigint or number as its decimal text, a Date as a timestamp
 * with its offset, an array as a PostgreSQL array (`= any($1)`, never `in ($1)`), any other
 * object as JSON.
 *
 * Errors: a statement PostgreSQL refuses is rethrown as MikroORM's exception for it
 * (`UniqueConstraintViolationException`, ...), the same family entity writes raise. A lost or
 * refused connection is a `DependencyUnavailableError` (503 `service_unavailable` with
 * `Retry-After`, logged as the `postgres` dependency), never a 500.
 */

/** A statement: its text and the types of its parameters and rows. */
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

/** Every statement declared so far, by name (the plan tests EXPLAIN them). */
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

// ---------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------
// Recognising an unreachable database

/** SQLSTATEs of a server that is going away or will not take the connection. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors on the way to the server. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres, tarn and Knex say when a connection is lost or cannot be had. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /Client has encountered a connection error and is not queryable/,
  /timeout exceeded when trying to connect/,
  /^timeout expired$/,
  /Timeout acquiring a connection/,
  /^Client was closed and is not queryable/,
];

/** The fields of an error this file reads (not `instanceof Error`: Node's socket errors come
 * from another realm under jest's module sandbox). */
interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isUnavailable(error: ErrorLike): boolean {
  const { code, name, message } = error;
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (UNAVAILABLE_ERRNOS.has(code)) return true;
  }
  if (name === 'KnexTimeoutError') return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((p) => p.test(message));
}

/**
 * Whether `error` (or an error along its `cause` chain, or inside an AggregateError) says
 * the database could not be reached or the connection was lost, rather than that a statement
 * was refused. The errors plugin asks this of errors raised by MikroORM itself (an entity
 * flush during an outage); the runner asks it of its own.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 8 || typeof error !== 'object' || error === null) return false;
  if (error instanceof DependencyUnavailableError) return error.dependency === 'postgres';
  const fields = error as ErrorLike;
  if (isUnavailable(fields)) return true;
  if (Array.isArray(fields.errors)) {
    return fields.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
  }
  return isDatabaseUnavailable(fields.cause, depth + 1);
}

/** Seconds a client should wait before retrying a request refused for an outage. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The 503 of a request that met an unreachable database. */
export function databaseUnavailable(cause: unknown): DependencyUnavailableError {
  return new DependencyUnavailableError(
    'postgres',
    'The database is unavailable; retry shortly',
    DATABASE_RETRY_AFTER_SECONDS,
    cause,
  );
}

const converter = new PostgreSqlExceptionConverter();

function translate(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) return databaseUnavailable(error);
  // A refused statement becomes MikroORM's exception for it, the family entity writes raise.
  if (typeof (error as ErrorLike | null)?.code === 'string') {
    return converter.convertException(error as Error);
  }
  return error;
}

// ---------------------------------------------------------------------------------------
// Running statements

/**
 * Runs one query where the statement belongs: on a pool (`pool.query`: check out, run, give
 * back) or on the connection an entity manager holds or borrows.
 */
type Execute = <Row extends QueryResultRow>(config: QueryConfig) => Promise<QueryResult<Row>>;

export class Sql {
  constructor(private readonly execute: Execute) {}

  /** Every row of the statement. */
  async rows<Row extends QueryResultRow, Params extends readonly unknown[]>(
    query: Statement<Row, Params>,
    params: Params,
  ): Promise<Row[]> {
    return (await this.send(query, params)).rows;
  }

  /** The first row, or undefined when there is none. */
  async row<Row extends QueryResultRow, Params extends readonly unknown[]>(
    query: Statement<Row, Params>,
    params: Params,
  ): Promise<Row | undefined> {
    return (await this.send(query, params)).rows[0];
  }

  /** Runs a statement for its effect; the number of rows it inserted, updated or deleted. */
  async run<Params extends readonly unknown[]>(
    query: Statement<QueryResultRow, Params>,
    params: Params,
  ): Promise<number> {
    return (await this.send(query, params)).rowCount ?? 0;
  }

  private send<Row extends QueryResultRow>(
    query: Statement<Row, readonly unknown[]>,
    params: readonly unknown[],
  ): Promise<QueryResult<Row>> {
    return this.execute<Row>(queryConfig(query, params)).catch((error: unknown) => {
      throw translate(error);
    });
  }
}

function queryConfig(
  query: Statement<QueryResultRow, readonly unknown[]>,
  params: readonly unknown[],
): QueryConfig {
  return { name: query.name, text: query.text, values: params as unknown[] };
}

/**
 * The statements of `em`: on its transaction's connection while it is in one (the statement
 * is part of that transaction), else on a connection of its pool for the one statement.
 */
export function sqlOf(em: EntityManager): Sql {
  return new Sql(async <Row extends QueryResultRow>(config: QueryConfig) => {
    const knex = em.getTransactionContext<Knex.Transaction>() ?? em.getKnex();
    // Knex's client hands out the transaction's own connection inside a transaction (and its
    // release is then a no-op), else one of the pool's. It watches its connections' errors
    // itself and drops a broken one from its pool.
    const client = knex.client as {
      acquireConnection(): Promise<PoolClient>;
      releaseConnection(connection: PoolClient): Promise<void>;
    };
    const connection = await client.acquireConnection();
    try {
      // node-postgres' own parsers, as on the read pool: MikroORM's connections parse dates
      // and timestamps as text for its own use, and a statement's rows must not depend on
      // which executor ran it.
      return await connection.query<Row>({ ...config, types });
    } finally {
      await client.releaseConnection(connection);
    }
  });
}

/**
 * A `Sql` over a pool of its own, with a `close()`. `pool.query` gives the connection back in
 * the query's own callback, before anything awaits the result, and listens for the
 * connection's errors while the statement runs (a connection whose statement failed, lost or
 * refused, is closed rather than reused). Checking a client out, awaiting the query and releasing it by hand cost a hot
 * read a fifth to a quarter of its throughput (docs/decisions.md "One SQL runner").
 */
export class SqlPool extends Sql {
  constructor(private readonly pool: Pool) {
    super(<Row extends QueryResultRow>(config: QueryConfig) => pool.query<Row>(config));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** How long to wait for a new connection before the request counts as an outage. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The read pool of an API process: at most `max` connections, opened on demand. An idle
 * connection that breaks is dropped and logged; the next read opens a new one.
 */
export function createSqlPool(databaseUrl: string, max: number, logger: Logger): SqlPool {
  const pool = new Pool({
    connectionString: databaseUrl,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'api-reads',
    // A named statement is planned once per connection. PostgreSQL's default mode may instead
    // plan it again on every execution when it cannot cost the generic plan (`limit $n`,
    // `$n is null or …`). Each read is written (keyset sentinels instead of branches) and
    // checked with EXPLAIN to be an index scan under its generic plan.
    // JIT off: a generic plan costs its ranges blind, and a high estimate (the key usage
    // summary's edge hours, at 2M rows) made PostgreSQL spend 400 ms compiling a 1 ms read.
    options: '-c plan_cache_mode=force_generic_plan -c jit=off',
  });
  pool.on('error', (err: Error) =>
    logger.warn({ err: { message: err.message } }, 'read pool: idle connection failed'),
  );
  return new SqlPool(pool);
}
