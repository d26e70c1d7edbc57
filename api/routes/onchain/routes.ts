import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChainClients } from '../../../shared/chain/clients';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { LiveUserReads } from './live';
import { flowOnchainSchema, treeQuery, treeSchema } from './schemas';
import { flowOnchain, flowTree, type OnchainDeps } from './service';
import { errors } from '../../openapi/errors';

const tags = ['flow'];

/** The caller's FLOW on chain: state per chain and the referral tree (docs/chain.md "User state"). */
export const onchainRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, logger } = opts.deps;
  const chains = new ChainClients(config.chainRpcUrls);
  const deps: OnchainDeps = {
    db,
    live: new LiveUserReads(chains, logger),
    chainIds: chains.chainIds.sort((a, b) => a - b),
    flowTokens: config.chainFlowTokens,
  };

  app.get(
    '/me/flow-onchain',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s FLOW, USDT, GWT, limits and tree position on each chain',
        description:
          'One entry per configured chain where the signed-in wallet has FLOW activity (a ' +
          'balance, a tree position or a protocol event). Every figure reflects `blockNumber`, ' +
          'the indexed block: indexed state, except `usdtBalance` and `dailyLimitRemaining`, ' +
          'which are contract views at that block. An account without a wallet gets `chains: []`.',
        tags,
        response: { 200: flowOnchainSchema },
      },
    },
    async (request) => flowOnchain(deps, actorOf(request)),
  );

  app.get(
    '/me/tree',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s referral tree: counts and earnings per level, directs nested',
        description:
          'From indexed rows in one statement, whatever the tree’s size. 403 ' +
          '`address_not_activated` until the wallet called `activate` on that chain’s FLOW ' +
          'protocol; 400 `chain_unsupported` for a chain not configured here.',
        errors: errors('chain_unsupported', 'address_not_activated'),
        tags,
        querystring: treeQuery,
        response: { 200: treeSchema },
      },
    },
    async (request) => flowTree(deps, actorOf(request), request.query),
  );
};
