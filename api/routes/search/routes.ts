import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../../deps';
import { search, SEARCH_KINDS } from './service';

export const MAX_QUERY_CHARS = 120;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;

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
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int({ error: 'must be an integer' })
    .min(1, { error: 'must be at least 1' })
    .default(DEFAULT_SEARCH_LIMIT)
    // Lenient like page sizes (docs/spec/contract.md §1): too large is clamped, not refused.
    .transform((limit) => Math.min(limit, MAX_SEARCH_LIMIT))
    .describe(`${DEFAULT_SEARCH_LIMIT} by default; values above ${MAX_SEARCH_LIMIT} are clamped`),
});

export const searchHitSchema = z
  .object({
    kind: z.enum(SEARCH_KINDS),
    slug: z.string(),
    name: z.string(),
    ticker: z.string().nullable().describe('Null for agents'),
  })
  .meta({ id: 'SearchHit' });

/** Search over published agents and tokens (spec "Search", docs/spec/contract.md §7). */
export const searchRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { db } = opts.deps;
  app.get(
    '/search',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Find published agents and tokens by name or ticker',
        description:
          'Exact matches first, then names or tickers starting with `q`, then other ' +
          'substring matches; ties by name. A token contract address finds its token.',
        tags: ['search'],
        querystring: searchQuery,
        response: {
          200: z.object({ ok: z.literal(true), items: z.array(searchHitSchema) }),
        },
      },
    },
    async (request) => ({
      ok: true as const,
      items: await search(db, request.query),
    }),
  );
};
