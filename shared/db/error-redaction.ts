import { DriverException } from '@mikro-orm/core';

/**
 * Database errors without the values they were given (docs/decisions.md "Logs"). A failed
 * statement's error carries the statement with every bound value written into its message
 * (Knex formats it so, MikroORM keeps it) and PostgreSQL's `detail` quotes the offending key:
 * an API key's hash, an agent's endpoint secret. Logging one, or letting a workflow history
 * store it, would put those values at rest in plaintext. Every error that leaves a process
 * boundary goes through `redactError`: the logger's `err` serializer (API and workers) and
 * the workers' activity interceptor.
 *
 * What stays: the class name, SQLSTATE, constraint, table, column, schema, PostgreSQL's own
 * message with each quoted literal replaced (identifiers named by those fields are kept), and
 * the stack frames. What goes: the statement, its values, `detail`, `where`, `hint`.
 */

/** Fields of a PostgreSQL error that name things, never values. */
const KEPT_FIELDS = ['code', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

/** `    at fn (file:line:col)` or `    at file:line:col`, never a statement's line. */
const STACK_FRAME = /^\s+at .*:\d+:\d+\)?$/;

type DatabaseErrorLike = Error & Partial<Record<(typeof KEPT_FIELDS)[number], string>>;

/** A PostgreSQL error as pg, Knex or MikroORM raise it (pg sets `severity` and `routine`). */
export function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  if (error instanceof DriverException) return true;
  if (!(error instanceof Error)) return false;
  const fields = error as unknown as Record<string, unknown>;
  return typeof fields.severity === 'string' && typeof fields.routine === 'string';
}

/**
 * PostgreSQL's message: what follows Knex's `<statement> - ` (the statement may span lines),
 * before MikroORM's `\n - detail: …`, with quoted literals masked.
 */
function serverMessage(error: DatabaseErrorLike): string {
  const detail = error.message.indexOf('\n - detail:');
  const text = detail >= 0 ? error.message.slice(0, detail) : error.message;
  const cut = text.lastIndexOf(' - ');
  const message = (cut >= 0 ? text.slice(cut + 3) : text).split('\n')[0] ?? '';
  const names = new Set(KEPT_FIELDS.map((field) => error[field]).filter(Boolean));
  return message.replace(/"([^"]*)"/g, (quoted, inner: string) =>
    names.has(inner) ? quoted : '"…"',
  );
}

function redactDatabaseError(error: DatabaseErrorLike): Error {
  const message = `${serverMessage(error)}${error.code ? ` (SQLSTATE ${error.code})` : ''}`;
  const redacted = new Error(message);
  redacted.name = error.name;
  for (const field of KEPT_FIELDS) {
    if (error[field] !== undefined) Object.assign(redacted, { [field]: error[field] });
  }
  const frames = (error.stack ?? '').split('\n').filter((line) => STACK_FRAME.test(line));
  redacted.stack = [`${error.name}: ${message}`, ...frames].join('\n');
  return redacted;
}

/**
 * `error` with every database error in it, itself or along its `cause` chain, replaced by
 * its redacted form; other errors are returned as they are (the same object when nothing in
 * the chain is a database error).
 */
export function redactError<T>(error: T, depth = 0): T | Error {
  if (isDatabaseError(error)) return redactDatabaseError(error);
  if (!(error instanceof Error) || error.cause === undefined || depth > 8) return error;
  const cause = redactError(error.cause, depth + 1);
  if (cause === error.cause) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object, {
    ...Object.getOwnPropertyDescriptors(error),
    cause: { value: cause, writable: true, configurable: true, enumerable: false },
  }) as Error;
  return copy;
}
