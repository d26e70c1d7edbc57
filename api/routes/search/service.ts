import type { EntityManager } from '../../../shared/db/orm';

/**
 * Search over published agents and all tokens (decisions §7): case-insensitive substring
 * match on names (and token tickers), ranked exact → prefix → inner match.
 */

export const SEARCH_KINDS = ['agent', 'token'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export type SearchType = SearchKind | 'all';

export interface SearchInput {
  q: string;
  type: SearchType;
  limit: number;
}

export interface SearchHit {
  kind: SearchKind;
  slug: string;
  name: string;
  ticker: string | null;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The width of `tokens.ticker`. */
const TICKER_MAX_CHARS = 6;

/** `%`, `_` and the escape character itself match literally (the query says `escape '\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

type Bind = (value: unknown) => string;

/** Collects bound values in order and hands back their `?` placeholders. */
function binder(): { params: unknown[]; bind: Bind } {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return '?';
  };
  return { params, bind };
}

/**
 * The select of one table: `columns` are matched (as `lower(column)`, exactly the indexed
 * expressions), `extraExact` are further conditions that count as an exact match. Values are
 * bound in the order their fragments appear in the text, which `?` placeholders rely on.
 */
function matchSelect(
  q: string,
  bind: Bind,
  table: { kind: SearchKind; from: string; ticker: string; filter?: string },
  columns: string[],
  extraExact: (bind: Bind) => string[] = () => [],
): string {
  const any = (conditions: string[]) => conditions.join(' or ');
  const like = (pattern: string) => (column: string) =>
    `lower(${column}) like lower(${bind(pattern)}) escape '\\'`;
  const exact = any([
    ...columns.map((c) => `lower(${c}) = lower(${bind(q)})`),
    ...extraExact(bind),
  ]);
  const prefix = any(columns.map(like(`${escapeLike(q)}%`)));
  const inner = any([...columns.map(like(`%${escapeLike(q)}%`)), ...extraExact(bind)]);
  const filter = table.filter ? `${table.filter} and (${inner})` : inner;
  return `select '${table.kind}' as kind, slug, name, ${table.ticker} as ticker,
         lower(name) as sort_name,
         case when ${exact} then 0 when ${prefix} then 1 else 2 end as rank
    from ${table.from}
   where ${filter}`;
}

/**
 * The one statement the endpoint runs (exported so a test can EXPLAIN it). Every filter is on
 * exactly `lower(name) like …` / `lower(ticker) like …` so the trigram GIN expression indexes
 * apply; the patterns are lowered by PostgreSQL (not JavaScript) so both sides fold case
 * the same way, and being immutable over bound values they are constants to the planner.
 */
export function buildSearchQuery(input: SearchInput): { sql: string; params: unknown[] } {
  const { params, bind } = binder();
  const selects: string[] = [];
  if (input.type !== 'token') {
    const agents = {
      kind: 'agent',
      from: 'agents',
      ticker: 'null::text',
      filter: 'is_published',
    } as const;
    selects.push(matchSelect(input.q, bind, agents, ['name']));
  }
  if (input.type !== 'agent') {
    // A ticker holds at most 6 characters, so a longer q cannot be inside one; leaving it out
    // spares a trigram index scan (a 42-character address has 40 trigrams).
    const columns = [...input.q].length <= TICKER_MAX_CHARS ? ['name', 'ticker'] : ['name'];
    // An address also finds its token by the exact instance (the lower(instance) index).
    const byInstance = (bind: Bind) =>
      ADDRESS.test(input.q)
        ? [`(instance is not null and lower(instance) = lower(${bind(input.q)}))`]
        : [];
    const tokens = { kind: 'token', from: 'tokens', ticker: 'ticker::text' } as const;
    selects.push(matchSelect(input.q, bind, tokens, columns, byInstance));
  }
  // A union may only be ordered by its output columns, hence `sort_name`.
  const sql = `${selects.join('\n union all\n')}
   order by rank, sort_name, slug, kind
   limit ${bind(input.limit)}`;
  return { sql, params };
}

export async function search(em: EntityManager, input: SearchInput): Promise<SearchHit[]> {
  const { sql, params } = buildSearchQuery(input);
  const rows = await em.execute<(SearchHit & { rank: number; sort_name: string })[]>(sql, params);
  return rows.map(({ kind, slug, name, ticker }) => ({ kind, slug, name, ticker }));
}
