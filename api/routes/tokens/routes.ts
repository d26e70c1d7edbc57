import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { announceMarketEvents } from '../../../shared/market/events';
import type { ApiDeps } from '../../deps';
import { actorOf } from '../../access/actor';
import { slugParams } from '../../wire';
import { listChains } from './chains';
import { candlesQuery, candlesSchema } from './market-schemas';
import { tokenCandles } from './candles';
import { tokenBySlug, tokenOnchain } from './detail';
import { tokenHolders } from './holders';
import { listTokens } from './list';
import {
  chainsSchema,
  createdTokenSchema,
  createTokenBody,
  holderPageSchema,
  listTokensQuery,
  onchainSchema,
  tokenDetailSchema,
  tokenPageQuery,
  tokenPageSchema,
  tradePageSchema,
  updateTokenBody,
} from './schemas';
import { createToken, type TokenDeps } from './service';
import { tokenTrades } from './trades';
import { tokenMetadata, tokenMetadataSchema } from './metadata';
import { updateToken } from './update';
import { errors } from '../../openapi/errors';

const tags = ['tokens'];

/**
 * Tokens and chains (spec "Tokens", docs/spec/contract.md §7) and a token's figures from the
 * chain index (docs/chain.md "Reads"). Each read is one file: its statement, row and mapper.
 */
export const tokenRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, redis, logger } = opts.deps;
  const announce = () => announceMarketEvents(redis, config.redisKeyPrefix, logger);
  const depsOf = (request: FastifyRequest): TokenDeps => ({
    em: request.em,
    db,
    cursors: app.cursors,
    config,
    announceMarketEvents: announce,
  });
  // The reads need nothing of the request: built once.
  const reads: Pick<TokenDeps, 'db' | 'cursors' | 'config'> = { db, cursors: app.cursors, config };

  app.post(
    '/tokens',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Create token metadata; without an instance, also the launch calldata to sign',
        description:
          'The API never signs: without `instance`, the answer has `pendingLaunchTx`, the ' +
          'calldata of the launch factory’s launch function, and `launchFactory`, where ' +
          'the caller’s wallet sends it; the token is `pending` until the chain index sees ' +
          'the launch (docs/launch-walkthrough.md). With `instance`, an already launched ' +
          'contract: metadata only. Checks, in order: the chain, the template, the ticker, ' +
          'the template’s params, then uniqueness of ticker and instance on the chain.',
        errors: errors(
          'chain_unsupported',
          'template_unknown',
          'invalid_ticker',
          'params_invalid',
          'ticker_taken',
          'instance_taken',
        ),
        tags,
        body: createTokenBody,
        response: { 201: createdTokenSchema },
      },
    },
    async (request, reply) => {
      const token = await createToken(depsOf(request), actorOf(request), request.body);
      return reply.code(201).send(token);
    },
  );

  app.get(
    '/tokens',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'List tokens, filtered by template, state or chain',
        description:
          'Cursor-paged (docs/guides/pagination.md): newest first by default. Anonymous ' +
          'callers may list.',
        tags,
        querystring: listTokensQuery,
        response: { 200: tokenPageSchema },
      },
    },
    async (request) => listTokens(reads, request.actor, request.query),
  );

  app.get(
    '/tokens/:slug',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'A token by slug, with its holder reward pool and launch factory',
        description:
          'The token with its on-chain figures from the chain index (bonding curve for ' +
          'virtuals, pool and tree for dpnm), holder count, and the holder reward pool: 5 ' +
          '% of the earnings of agents linked to it, shared among its holders once a day.',
        errors: errors('token_not_found'),
        tags,
        params: slugParams,
        response: { 200: tokenDetailSchema },
      },
    },
    async (request) => tokenBySlug(reads, request.actor, request.params),
  );

  app.patch(
    '/tokens/:slug',
    {
      config: { auth: 'user' },
      schema: {
        summary:
          'Edit a token’s metadata: description and links always, name, ticker and image until launch',
        description:
          'Creator only. Only the fields sent change; null removes a description, an image ' +
          'or a link. `name`, `ticker` and the image (`imageUrl` or `imageMediaId`, from POST ' +
          '/media) change only while the token is `pending`, and a new name or ticker ' +
          'rebuilds `pendingLaunchTx`: sign the new one. Answers the token as GET ' +
          '/tokens/:slug does.',
        errors: errors(
          'token_not_found',
          'not_owner',
          'token_launched',
          'invalid_ticker',
          'ticker_taken',
        ),
        tags,
        params: slugParams,
        body: updateTokenBody,
        response: { 200: tokenDetailSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await updateToken(depsOf(request), actor, request.params.slug, request.body);
      return tokenBySlug(reads, actor, request.params);
    },
  );

  app.get(
    '/tokens/:slug/metadata.json',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The token’s metadata JSON in the Metaplex and OpenSea fields',
        description:
          'For a wallet, explorer or launchpad that takes a metadata URI: name, symbol, ' +
          'description, image, external_url, properties.files and links ' +
          '(docs/guides/media.md). Cached for a minute.',
        errors: errors('token_not_found'),
        tags,
        params: slugParams,
        response: { 200: tokenMetadataSchema },
      },
    },
    async (request, reply) => {
      const body = await tokenMetadata(reads, request.actor, request.params);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'public, max-age=60');
      return body;
    },
  );

  app.get(
    '/chains',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Configured chains with the launch factory of each template',
        description:
          'Where a wallet launches and pays: each chain this deployment accepts ' +
          '(CHAIN_RPC_URLS), the launch factory per template, the payment tokens, and on ' +
          'the local chain 31337 how to get test tokens.',
        tags: ['chains'],
        response: { 200: chainsSchema },
      },
    },
    async (request) => listChains(reads, request.actor),
  );

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
    async (request) => tokenHolders(reads, request.actor, { ...request.params, ...request.query }),
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
    async (request) => tokenTrades(reads, request.actor, { ...request.params, ...request.query }),
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
    async (request) => tokenOnchain(reads, request.actor, request.params),
  );

  app.get(
    '/tokens/:slug/candles',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'OHLCV candles of a token, columnar, for charts',
        description:
          'Bars of `resolution` from the chain index (docs/guides/charts.md): prices are spot ' +
          'prices in `quoteSymbol`, volumes in the token (`vBase`) and the quote (`vQuote`). ' +
          'Either `from` (and `to`, default now; at most 1500 bars) or `countback` bars ' +
          'ending at `to`. `s: no_data` with `nextTime` tells a chart library where older ' +
          'bars are. Cached for a day once every bar of the range is final, else 2 s.',
        errors: errors('invalid_request', 'token_not_found'),
        tags,
        params: slugParams,
        querystring: candlesQuery,
        response: { 200: candlesSchema },
      },
    },
    async (request, reply) => {
      const { body, maxAgeS } = await tokenCandles(reads, request.actor, {
        ...request.query,
        slug: request.params.slug,
      });
      // A response that rotated the session cookie is already no-store: left so.
      if (!reply.hasHeader('cache-control')) {
        reply.header('cache-control', `public, max-age=${maxAgeS}`);
      }
      return body;
    },
  );
};
