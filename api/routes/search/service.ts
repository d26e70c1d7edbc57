import type { Sql, Statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { searchStatements, type SearchParams, type SearchRow, type TokenMatch } from './queries';
import type { SEARCH_KINDS } from './schemas';

/**
 * Search over published agents and all tokens (docs/spec/contract.md §7): case-insensitive substring
 * match on names (and token tickers), ranked exact → prefix → inner match.
 */

export interface SearchDeps {
  db: Sql;
}

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

/** What the token side matches for this q. */
function tokenMatch(q: string): TokenMatch {
  // An address also finds its token by the exact instance.
  if (ADDRESS.test(q)) return 'instance';
  // A ticker holds at most 6 characters, so a longer q cannot be inside one; leaving it out
  // spares a trigram index scan (a 42-character address has 40 trigrams).
  return [...q].length <= TICKER_MAX_CHARS ? 'ticker' : 'name';
}

/**
 * The one statement the endpoint runs for this input, with its parameters (exported so a test
 * can EXPLAIN it). Every filter is on exactly `lower(name) like …` / `lower(ticker) like …`
 * so the trigram GIN expression indexes apply; the patterns are lowered by PostgreSQL (not
 * JavaScript) so both sides fold case the same way, and being immutable over bound values
 * they are constants to the planner.
 */
export function searchStatement(input: SearchInput): {
  query: Statement<SearchRow, SearchParams>;
  params: SearchParams;
} {
  const query =
    input.type === 'agent'
      ? searchStatements.agent
      : searchStatements[input.type][tokenMatch(input.q)];
  const pattern = escapeLike(input.q);
  return { query, params: [input.q, `${pattern}%`, `%${pattern}%`, input.limit] };
}

/** Anyone may search: the actor (null when anonymous) changes nothing. */
export async function search(
  deps: SearchDeps,
  _actor: Actor | null,
  input: SearchInput,
): Promise<{ ok: true; items: SearchHit[] }> {
  const { query, params } = searchStatement(input);
  const rows = await deps.db.rows(query, params);
  return {
    ok: true,
    items: rows.map(({ kind, slug, name, ticker }) => ({ kind, slug, name, ticker })),
  };
}
