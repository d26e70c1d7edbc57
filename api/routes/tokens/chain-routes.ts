import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { slugParams } from '../../wire';
import { holderPageSchema, onchainSchema, tokenPageQuery, tradePageSchema } from './chain-schemas';
import { tokenHolders, tokenOnchain, tokenTrades } from './chain-service';

const tags = ['tokens'];

/** A token's figures from the chain index (docs/chain.md "Reads"). */
export const tokenChainRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const reads = { db: opts.deps.db, cursors: app.cursors };

  app.get(
    '/tokens/:slug/holders',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Holders of a token with their share of the supply outside the curve and pool',
        tags,
        params: slugParams,
        querystring: tokenPageQuery,
        response: { 200: holderPageSchema },
      },
    },
    async (request) => tokenHolders(reads, request.params.slug, request.query),
  );

  app.get(
    '/tokens/:slug/trades',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Buys, sells and (virtuals) the graduation of a token, newest first',
        tags,
        params: slugParams,
        querystring: tokenPageQuery,
        response: { 200: tradePageSchema },
      },
    },
    async (request) => tokenTrades(reads, request.params.slug, request.query),
  );

  app.get(
    '/tokens/:slug/onchain',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The on-chain aggregate: the bonding curve (virtuals) or the pool and tree (dpnm)',
        tags,
        params: slugParams,
        response: { 200: onchainSchema },
      },
    },
    async (request) => tokenOnchain(reads, request.params.slug),
  );
};
