import type { CursorCodec } from '../../shared/domain/cursor';
import { AppError } from '../../shared/errors';

/**
 * Keyset pages of a prepared statement (`shared/db/sql.ts`), the statement counterpart of
 * `paginate`: the statement orders by the key columns, starts after a bound position and
 * fetches `limit + 1` rows; the extra row only says that another page follows.
 *
 * A cursor's position is `base64url(JSON.stringify([values...]))` of the last row's key values,
 * timestamps as ISO strings: byte for byte what MikroORM's `findByCursor` wrote, so cursors
 * issued by `paginate` keep working. On the first page the statement is bound to a sentinel
 * that sorts before every row, so one statement text (with an index-usable row comparison and
 * no `$n is null or …` branch a generic plan could not use) serves every page.
 */

/** How a key column is bound; decides its sentinel and what a cursor may hold for it. */
export type KeyType = 'timestamptz' | 'uuid' | 'text' | 'numeric' | 'int8' | 'address';

export interface KeyColumn<Field extends string> {
  /** The column as the statement names it (`p.created_at`). */
  column: string;
  type: KeyType;
  /** The row field holding the column's value as text (a timestamp through `isoUtc`). */
  field: Field;
}

export interface KeysetOrder<Field extends string> {
  readonly direction: 'asc' | 'desc';
  readonly keys: readonly KeyColumn<Field>[];
  /** `order by` list of the statement. */
  readonly orderBy: string;
  /** Number of parameters `after` takes. */
  readonly arity: number;
  /** The condition "after the bound position", its parameters numbered from `first`. */
  after(first: number): string;
}

const SENTINELS: Record<'asc' | 'desc', Partial<Record<KeyType, string>>> = {
  asc: {
    timestamptz: '-infinity',
    uuid: '00000000-0000-0000-0000-000000000000',
    text: '',
    numeric: '-Infinity',
    int8: '-9223372036854775808',
    address: '',
  },
  // No text sorts after every other, so a descending text key has no sentinel; a lowercase
  // 0x address sorts before 'z' in every collation.
  desc: {
    timestamptz: 'infinity',
    uuid: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
    numeric: 'Infinity',
    int8: '9223372036854775807',
    address: 'z',
  },
};

/** The SQL type a key's parameter is cast to. */
const CASTS: Record<KeyType, string> = {
  timestamptz: 'timestamptz',
  uuid: 'uuid',
  text: 'text',
  numeric: 'numeric',
  int8: 'int8',
  address: 'text',
};

const CHECKS: Record<KeyType, RegExp> = {
  timestamptz: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  text: /^/,
  // Token amounts in base units, and the board's signed ratios and scores (up to 40 decimals).
  numeric: /^-?\d{1,78}(\.\d{1,40})?$/,
  int8: /^\d{1,18}$/,
  address: /^0x[0-9a-f]{40}$/,
};

/**
 * An order over `keys`, all in one direction; the last key must be unique (usually `id`) so
 * the order is total and a row comparison finds the position exactly.
 */
export function keysetOrder<Field extends string>(
  direction: 'asc' | 'desc',
  keys: readonly KeyColumn<Field>[],
): KeysetOrder<Field> {
  for (const key of keys) {
    if (SENTINELS[direction][key.type] === undefined) {
      throw new Error(`keyset: no ${direction} sentinel for ${key.type} key ${key.column}`);
    }
  }
  const columns = keys.map((key) => key.column).join(', ');
  return {
    direction,
    keys,
    orderBy: keys.map((key) => `${key.column} ${direction}`).join(', '),
    arity: keys.length,
    after(first) {
      const params = keys.map((key, i) => `$${first + i}::${CASTS[key.type]}`).join(', ');
      return `(${columns}) ${direction === 'asc' ? '>' : '<'} (${params})`;
    },
  };
}

export interface KeysetRequest {
  /** What the cursor is valid for (`pageScope`). */
  scope: string;
  cursor: string | undefined;
  limit: number;
}

export interface Keyset<Field extends string> {
  /** Values of `order.after(...)`: the cursor's position, or the sentinel on the first page. */
  after: string[];
  /** The statement's `limit`: one row more than the page. */
  fetch: number;
  /** The page out of the fetched rows, with the cursor of the next page (null on the last). */
  page<Row extends Record<Field, string>>(rows: Row[]): { items: Row[]; nextCursor: string | null };
}

const invalidCursor = () =>
  new AppError('invalid_cursor', 'cursor: malformed, tampered or foreign');

function decodePosition<Field extends string>(
  order: KeysetOrder<Field>,
  position: unknown,
): string[] {
  if (typeof position !== 'string') throw invalidCursor();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(position, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const keys = order.keys;
  if (!Array.isArray(values) || values.length !== keys.length) throw invalidCursor();
  return values.map((value: unknown, i) => {
    const key = keys[i];
    if (!key || typeof value !== 'string' || !CHECKS[key.type].test(value)) throw invalidCursor();
    return value;
  });
}

/** Decodes the request's cursor (400 `invalid_cursor` unless issued for this scope and order). */
export function keyset<Field extends string>(
  cursors: CursorCodec,
  order: KeysetOrder<Field>,
  request: KeysetRequest,
): Keyset<Field> {
  const after =
    request.cursor === undefined
      ? order.keys.map((key) => SENTINELS[order.direction][key.type] ?? '')
      : decodePosition(order, cursors.decode(request.scope, request.cursor));
  return {
    after,
    fetch: request.limit + 1,
    page(rows) {
      if (rows.length <= request.limit) return { items: rows, nextCursor: null };
      const items = rows.slice(0, request.limit);
      const last = items[items.length - 1];
      const position = last ? order.keys.map((key) => last[key.field]) : [];
      const encoded = Buffer.from(JSON.stringify(position)).toString('base64url');
      return { items, nextCursor: cursors.encode(request.scope, encoded) };
    },
  };
}
