import type { Monetization } from '../../../shared/db/entities/agent';
import { statement } from '../../../shared/db/sql';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { pageScope } from '../../paging/page';
import type { AgentListItem, MarketplaceInput, MarketplaceSort } from './schemas';
import type { MarketplaceDeps } from './service';

/**
 * The public listing: published agents only, keyset-paginated, one indexed statement per page
 * on the read model `agent_market_stats` (docs/decisions.md "Agents and the marketplace"),
 * whose figures the database keeps exact at every commit.
 *
 * Sorts (every one ends with the id, so the order is total; each is one partial index):
 * - trending: succeeded calls on the last 7 UTC days, today included; ties newest first.
 * - new: publishedAt, newest first.
 * - top_earning: gross FLOW billed on the last 30 UTC days, today included; ties newest first.
 * - top_rated: average rating; unrated agents last (stored as 0, below every rating); ties by
 *   number of ratings, then id.
 *
 * The cursor carries the last row's sort values as text (the exact round trip of each type).
 * An agent published while a client pages never makes another repeat or vanish; an agent
 * whose metric changes mid-walk may move (and so be seen twice or not at all), which is
 * inherent to sorting by live figures.
 */

/** micro-FLOW column → the wire number (`flowNumber`): exact decimal, then the nearest double. */
export const flowSql = (column: string) => `(${column} * 0.000001)::float8`;

/** The list item's columns, read from agents `a`, stats `s` and the linked token `t`. */
export const LIST_ITEM_COLUMNS = `
  a.slug, a.name, a.image_url as "imageUrl", a.tags, a.monetization,
  ${flowSql('a.per_call_price')} as "perCallPriceFlow", a.premium,
  coalesce(s.calls_30d, 0)::float8 as "callsLast30d",
  coalesce(s.p50_latency_ms, 0) as "p50LatencyMs",
  coalesce(s.rating, 0)::float8 as rating,
  coalesce(s.rating_count, 0) as "ratingCount",
  t.slug as "tokenSlug"`;

export interface ListItemRow {
  slug: string;
  name: string;
  imageUrl: string | null;
  tags: string[];
  monetization: Monetization | null;
  perCallPriceFlow: number | null;
  premium: boolean;
  callsLast30d: number;
  p50LatencyMs: number;
  rating: number;
  ratingCount: number;
  tokenSlug: string | null;
}

export function listItem(row: ListItemRow): AgentListItem {
  return {
    slug: row.slug,
    name: row.name,
    imageUrl: row.imageUrl,
    tags: row.tags,
    monetization: row.monetization,
    perCallPriceFlow: row.perCallPriceFlow,
    premium: row.premium,
    stats: {
      callsLast30d: row.callsLast30d,
      p50LatencyMs: row.p50LatencyMs,
      rating: row.rating,
      ratingCount: row.ratingCount,
    },
    tokenSlug: row.tokenSlug,
  };
}

/** The sort keys of each sort: a column of `agent_market_stats` and its type, in order. */
const SORT_KEYS: Record<MarketplaceSort, readonly (readonly [string, string])[]> = {
  trending: [
    ['calls_7d', 'bigint'],
    ['published_at', 'timestamptz'],
    ['agent_id', 'uuid'],
  ],
  new: [
    ['published_at', 'timestamptz'],
    ['agent_id', 'uuid'],
  ],
  top_earning: [
    ['earnings_30d', 'numeric'],
    ['published_at', 'timestamptz'],
    ['agent_id', 'uuid'],
  ],
  top_rated: [
    ['rating_avg', 'numeric'],
    ['rating_count', 'int'],
    ['agent_id', 'uuid'],
  ],
};

/** A page row: the item and its sort keys as text (k0, k1, k2) for the cursor. */
type PageRow = ListItemRow & Record<`k${number}`, string>;
/** The page size, then the cursor's sort keys (after a cursor), then the tag (when filtered). */
type PageParams = [limit: number, ...rest: string[]];

/**
 * One statement per sort, page kind (first page or after a cursor) and tag filter (with or
 * without), so each generic plan is an index scan in the sort's index with the keyset bound as
 * its index condition. A `$n is null or tags @> …` filter shared by both made PostgreSQL's
 * generic plan a scan and sort of every published agent: it cannot tell that the tag is null.
 */
function pageStatement(sort: MarketplaceSort, afterCursor: boolean, tagged: boolean) {
  const keys = SORT_KEYS[sort];
  const columns = keys.map(([column]) => `s.${column}`);
  const bound = afterCursor
    ? `and (${columns.join(', ')}) < (${keys.map(([, type], i) => `$${i + 2}::${type}`).join(', ')})`
    : '';
  const tagParam = afterCursor ? keys.length + 2 : 2;
  const tagFilter = tagged ? `and s.tags @> array[$${tagParam}::text]` : '';
  return statement<PageRow, PageParams>(
    `marketplace.page_${sort}${afterCursor ? '_after' : ''}${tagged ? '_tagged' : ''}`,
    `select ${LIST_ITEM_COLUMNS},
            ${columns.map((column, i) => `${column}::text as k${i}`).join(', ')}
       from agent_market_stats s
       join agents a on a.id = s.agent_id
       left join tokens t on t.id = a.token_id
      where s.is_published ${tagFilter} ${bound}
      order by ${columns.map((column) => `${column} desc`).join(', ')}
      limit $1`,
  );
}

type PageStatement = ReturnType<typeof pageStatement>;
type PageKind = 'first' | 'after' | 'firstTagged' | 'afterTagged';

const PAGES = Object.fromEntries(
  (Object.keys(SORT_KEYS) as MarketplaceSort[]).map((sort) => [
    sort,
    {
      first: pageStatement(sort, false, false),
      after: pageStatement(sort, true, false),
      firstTagged: pageStatement(sort, false, true),
      afterTagged: pageStatement(sort, true, true),
    },
  ]),
) as Record<MarketplaceSort, Record<PageKind, PageStatement>>;

function decodePosition(cursors: CursorCodec, scope: string, cursor: string, length: number) {
  const position = cursors.decode(scope, cursor);
  const valid =
    Array.isArray(position) &&
    position.length === length &&
    position.every((value) => typeof value === 'string');
  if (!valid) throw new AppError('invalid_cursor', 'cursor: malformed, tampered or foreign');
  return position;
}

/** Anyone may browse: the actor (null when anonymous) changes nothing. */
export async function listMarketplace(
  deps: Pick<MarketplaceDeps, 'db' | 'cursors'>,
  _actor: Actor | null,
  query: MarketplaceInput,
): Promise<{ items: AgentListItem[]; nextCursor: string | null }> {
  const { db, cursors } = deps;
  const keys = SORT_KEYS[query.sort];
  const scope = pageScope('marketplace', { tag: query.tag ?? null, sort: query.sort });
  const after =
    query.cursor === undefined ? [] : decodePosition(cursors, scope, query.cursor, keys.length);
  const tag = query.tag === undefined ? [] : [query.tag];
  const kind = `${after.length > 0 ? 'after' : 'first'}${tag.length > 0 ? 'Tagged' : ''}` as const;
  const rows = await db.rows(PAGES[query.sort][kind], [query.limit + 1, ...after, ...tag]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? cursors.encode(
          scope,
          keys.map((_, i) => last[`k${i}`] ?? ''),
        )
      : null;
  return { items: page.map(listItem), nextCursor };
}
