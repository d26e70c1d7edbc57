import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChainClients } from '../../../shared/chain/clients';
import type { ApiDeps } from '../../deps';
import { errors } from '../../openapi/errors';
import { asset, chainOf, events, latestBlock, pair, type DexDeps } from './reads';
import {
  assetSchema,
  chainQuery,
  eventsQuery,
  eventsSchema,
  idQuery,
  latestBlockSchema,
  pairSchema,
} from './schemas';

const tags = ['aggregators'];

/**
 * The DEX Screener Adapter (docs/spec/contract.md §13, docs/chain.md "Market data"): public
 * reads an aggregator polls to list the launchpad's bonding-curve pairs, final blocks only.
 */
export const dexScreenerRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db } = opts.deps;
  const deps: DexDeps = { db, config, chains: new ChainClients(config.chainRpcUrls) };
  const common = { config: { auth: 'public' as const } };

  app.get(
    '/dexscreener/latest-block',
    {
      ...common,
      schema: {
        summary: 'DEX Screener Adapter: the newest final indexed block',
        description:
          'Every swap up to this block is in /dexscreener/events; nothing newer is shown ' +
          '(a reorg can take back only blocks above it). 503 before the first final block.',
        errors: errors('chain_unsupported', 'service_unavailable'),
        tags,
        querystring: chainQuery,
        response: { 200: latestBlockSchema },
      },
    },
    async (request) => latestBlock(deps, chainOf(deps, request.query.chainId)),
  );

  app.get(
    '/dexscreener/asset',
    {
      ...common,
      schema: {
        summary: 'DEX Screener Adapter: a launched token, or a quote token, by address',
        description:
          'A launched token: its name, ticker, supply (virtuals: the curve’s whole supply; ' +
          'dpnm: the tokens minted) and circulating supply (outside the curve and pool), in ' +
          'whole units. A quote token (a configured payment token): its name, symbol and supply ' +
          'read from the chain.',
        errors: errors('invalid_request', 'chain_unsupported', 'not_found'),
        tags,
        querystring: idQuery,
        response: { 200: assetSchema },
      },
    },
    async (request) => asset(deps, chainOf(deps, request.query.chainId), request.query.id),
  );

  app.get(
    '/dexscreener/pair',
    {
      ...common,
      schema: {
        summary: 'DEX Screener Adapter: a launched token’s bonding-curve pair',
        description:
          'The pair of a launched token (its address is the pair’s id) against its quote ' +
          'token, with the launch’s block, transaction and creator.',
        errors: errors('invalid_request', 'chain_unsupported', 'not_found'),
        tags,
        querystring: idQuery,
        response: { 200: pairSchema },
      },
    },
    async (request) => pair(deps, chainOf(deps, request.query.chainId), request.query.id),
  );

  app.get(
    '/dexscreener/events',
    {
      ...common,
      schema: {
        summary: 'DEX Screener Adapter: swaps in a block range, final blocks only',
        description: 'fromBlock and toBlock inclusive, at most 100,000 blocks per request.',
        errors: errors('invalid_request', 'chain_unsupported'),
        tags,
        querystring: eventsQuery,
        response: { 200: eventsSchema },
      },
    },
    async (request) => {
      const { chainId, fromBlock, toBlock } = request.query;
      return events(deps, chainOf(deps, chainId), fromBlock, toBlock);
    },
  );
};
