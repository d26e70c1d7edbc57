import type { EntityName, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import stringify from 'safe-stable-stringify';
import { z } from 'zod';
import type { CursorCodec } from '../../shared/domain/cursor';
import { AppError } from '../../shared/errors';
import type { EntityManager } from '../../shared/db/orm';

/**
 * What every list shares: the `limit` and `cursor` query fields, the page body, the scope a
 * cursor is bound to, and keyset pages of entities (`paginate`). Keyset pages of a prepared
 * statement are `keyset.ts`; the cursor codec itself is the pagination plugin's
 * (`app.cursors`).
 */

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * `limit`: integer ≥ 1, default `defaultSize`, values above `max` (100 unless a list says
 * otherwise) clamped, not refused (docs/spec/contract.md §1).
 */
export function pageLimit(defaultSize: number, max = MAX_PAGE_SIZE) {
  return z.coerce
    .number({ error: 'must be an integer' })
    .int({ error: 'must be an integer' })
    .min(1, { error: 'must be at least 1' })
    .default(defaultSize)
    .transform((limit) => Math.min(limit, max))
    .describe(`Page size, ${defaultSize} by default; values above ${max} are clamped`);
}

/** The usual `limit`: 20 by default. */
export const limitQuery = pageLimit(DEFAULT_PAGE_SIZE);

export const cursorQuery = z
  .string()
  .min(1)
  .max(2048)
  .optional()
  .describe('The `nextCursor` of the previous page');

/** Query fields of every list endpoint. */
export const pageQuery = { cursor: cursorQuery, limit: limitQuery };

export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('Opaque; null on the last page'),
  });
}

/**
 * A cursor is only valid for the listing that issued it: the scope names the list and every
 * filter and sort that shapes it.
 */
export function pageScope(list: string, filters: Record<string, unknown> = {}): string {
  return `${list}:${stringify(filters)}`;
}

export interface PageRequest<Entity extends object> {
  scope: string;
  where: FilterQuery<Entity>;
  /** Must end with a unique column (usually `id`) so the order is total. */
  orderBy: QueryOrderMap<Entity>;
  limit: number;
  cursor: string | undefined;
}

/** Keyset pagination: inserts between pages neither repeat nor skip an item. */
export async function paginate<Entity extends object>(
  em: EntityManager,
  cursors: CursorCodec,
  entity: EntityName<Entity>,
  page: PageRequest<Entity>,
): Promise<{ items: Entity[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? undefined : cursors.decode(page.scope, page.cursor);
  if (after !== undefined && typeof after !== 'string') {
    throw new AppError('invalid_cursor', 'cursor: malformed, tampered or foreign');
  }
  const result = await em.findByCursor(entity, page.where, {
    first: page.limit,
    after,
    orderBy: page.orderBy,
    includeCount: false,
  });
  const nextCursor =
    result.hasNextPage && result.endCursor ? cursors.encode(page.scope, result.endCursor) : null;
  return { items: result.items, nextCursor };
}
