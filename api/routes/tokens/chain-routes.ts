import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { slugParams } from '../../wire';
import { holderPageSchema, onchainSchema, tokenPageQuery, tradePageSchema } from './chain-schemas';
import { tokenHolders, tokenOnchain, tokenTrades, type ChainReadDeps } from './chain-service';
import { errors } from '../../openapi/errors';

const tags = ['tokens'];

/** A token's figures from the chain index (docs/chain.md "Reads"). */
export const tokenChainRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const deps: ChainReadDeps = { db: opts.deps.db, cursors: app.cursors };

  app.get(
    '/tokens/:slug/holders',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Holders of a token with their share of the supply outside the curve and pool',
        description:
          'From the chain index, largest balance first, cursor-paged; `blockNumber` is the ' +
          'block the figures are at. Balances are decimal strings in whole tokens.',
        errors: errors('token_not_found'),
        tags,
        params: slugParams,
        querystring: tokenPageQuery,
        response: { 200: holderPageSchema },
      },
    },
    async (request) => tokenHolders(deps, request.actor, { ...request.params, ...request.query }),
  );

  app.get(
    '/tokens/:slug/trades',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Buys, sells and (virtuals) the graduation of a token, newest first',
        description:
          'From the chain index, cursor-paged; amounts are decimal strings in whole units. ' +
          'Only blocks the index has seen final or re-checked for reorgs are shown.',
        errors: errors('token_not_found'),
        tags,
        params: slugParams,
        querystring: tokenPageQuery,
        response: { 200: tradePageSchema },
      },
    },
    async (request) => tokenTrades(deps, request.actor, { ...request.params, ...request.query }),
  );

  app.get(
    '/tokens/:slug/onchain',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The on-chain aggregate: the bonding curve (virtuals) or the pool and tree (dpnm)',
        description:
          'The token’s contracts and their state at `blockNumber` as indexed: reserves, ' +
          'progress to graduation and last price of a virtuals curve, or pool, supply and ' +
          'tree positions of a dpnm token.',
        errors: errors('token_not_found'),
        tags,
        params: slugParams,
        response: { 200: onchainSchema },
      },
    },
    async (request) => tokenOnchain(deps, request.actor, request.params),
  );
};
