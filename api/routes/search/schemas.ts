import { z } from 'zod';
import { pageLimit } from '../../paging/page';

/** Wire shapes of `GET /search` (spec "Search", docs/spec/contract.md §7). */

export const MAX_QUERY_CHARS = 120;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;

export const SEARCH_KINDS = ['agent', 'token'] as const;

const queryLength = `must be 1 to ${MAX_QUERY_CHARS} characters`;

/** Counted in characters (code points), not UTF-16 units; surrounding spaces do not count. */
const searchText = z
  .string()
  .trim()
  .refine((q) => q.length > 0 && [...q].length <= MAX_QUERY_CHARS, { error: queryLength })
  // PostgreSQL rejects NUL in text, and no name holds a control character.
  .refine((q) => !/\p{Cc}/u.test(q), { error: 'must not contain control characters' })
  .describe('Substring to find, case-insensitive; `%`, `_` and `\\` match themselves')
  // What the checks above refuse, told to clients (the document cannot count code points).
  .meta({ minLength: 1, pattern: '\\S' });

export const searchQuery = z.object({
  q: searchText,
  type: z.enum(['agent', 'token', 'all'], { error: 'must be agent, token or all' }).default('all'),
  // A page size (docs/spec/contract.md §1): too large is clamped, not refused; here below 100.
  limit: pageLimit(DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT).describe(
    `${DEFAULT_SEARCH_LIMIT} by default; values above ${MAX_SEARCH_LIMIT} are clamped`,
  ),
});

export const searchHitSchema = z
  .object({
    kind: z.enum(SEARCH_KINDS),
    slug: z.string(),
    name: z.string(),
    ticker: z.string().nullable().describe('Null for agents'),
  })
  .meta({ id: 'SearchHit' });

export const searchResultSchema = z.object({
  ok: z.literal(true),
  items: z.array(searchHitSchema),
});
