import { statement, type Statement } from '../../../shared/db/sql';
import type { SearchKind } from './service';

/**
 * The search statements (decisions "Hot reads"). What is searched shapes the text (which tables,
 * whether tickers can match, whether q is an address), so each such variant is a statement of
 * its own, all with the same parameters: `$1` q, `$2` the prefix pattern, `$3` the substring
 * pattern, `$4` the limit.
 */

export interface SearchRow {
  kind: SearchKind;
  slug: string;
  name: string;
  ticker: string | null;
  sortName: string;
  rank: number;
}

export type SearchParams = [q: string, prefix: string, inner: string, limit: number];

/** What the token side of a search matches besides names. */
export type TokenMatch = 'ticker' | 'name' | 'instance';

interface Table {
  kind: SearchKind;
  from: string;
  ticker: string;
  filter?: string;
}

/**
 * The select of one table: `columns` are matched as `lower(column)`, exactly the indexed
 * expressions; `extraExact` are further conditions that count as an exact match.
 */
function matchSelect(table: Table, columns: string[], extraExact: string[] = []): string {
  const any = (conditions: string[]) => conditions.join(' or ');
  const like = (pattern: string) => (column: string) =>
    `lower(${column}) like lower(${pattern}) escape '\\'`;
  const exact = any([...columns.map((c) => `lower(${c}) = lower($1)`), ...extraExact]);
  const prefix = any(columns.map(like('$2')));
  const inner = any([...columns.map(like('$3')), ...extraExact]);
  const filter = table.filter ? `${table.filter} and (${inner})` : inner;
  return `select '${table.kind}' as kind, slug, name, ${table.ticker} as ticker,
         lower(name) as "sortName",
         case when ${exact} then 0 when ${prefix} then 1 else 2 end as rank
    from ${table.from}
   where ${filter}`;
}

const AGENTS = matchSelect(
  { kind: 'agent', from: 'agents', ticker: 'null::text', filter: 'is_published' },
  ['name'],
);

function tokensSelect(match: TokenMatch): string {
  const tokens = { kind: 'token', from: 'tokens', ticker: 'ticker::text' } as const;
  switch (match) {
    case 'ticker':
      return matchSelect(tokens, ['name', 'ticker']);
    case 'name':
      return matchSelect(tokens, ['name']);
    case 'instance':
      // An address also finds its token by the exact instance (the lower(instance) index).
      return matchSelect(
        tokens,
        ['name'],
        ['(instance is not null and lower(instance) = lower($1))'],
      );
  }
}

/** A union may only be ordered by its output columns, hence `sortName`. */
function search(name: string, selects: string[]): Statement<SearchRow, SearchParams> {
  return statement<SearchRow, SearchParams>(
    `search.${name}`,
    `${selects.join('\n union all\n')}
   order by rank, "sortName", slug, kind
   limit $4`,
  );
}

/** The statements of one search type, by what the token side matches. */
function byTokenMatch(
  type: 'tokens' | 'all',
): Record<TokenMatch, Statement<SearchRow, SearchParams>> {
  const agents = type === 'all' ? [AGENTS] : [];
  return {
    ticker: search(`${type}_ticker`, [...agents, tokensSelect('ticker')]),
    name: search(`${type}_name`, [...agents, tokensSelect('name')]),
    instance: search(`${type}_instance`, [...agents, tokensSelect('instance')]),
  };
}

export const searchStatements = {
  agent: search('agents', [AGENTS]),
  token: byTokenMatch('tokens'),
  all: byTokenMatch('all'),
};
