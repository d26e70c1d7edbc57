import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { searchQuery, searchResultSchema } from './schemas';
import { search, type SearchDeps } from './service';

/** Search over published agents and tokens (spec "Search", docs/spec/contract.md §7). */
export const searchRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const deps: SearchDeps = { db: opts.deps.db };
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
        response: { 200: searchResultSchema },
      },
    },
    async (request) => search(deps, request.actor, request.query),
  );
};
