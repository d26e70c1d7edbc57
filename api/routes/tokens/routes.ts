import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';
import { actorOf } from '../../access/actor';
import { slugParams } from '../../wire';
import {
  chainsSchema,
  createdTokenSchema,
  createTokenBody,
  listTokensQuery,
  tokenDetailSchema,
  tokenPageSchema,
} from './schemas';
import { createToken, listChains, listTokens, tokenBySlug } from './service';

const tags = ['tokens'];

/** Tokens and chains (spec "Tokens", decisions §7). */
export const tokenRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db } = opts.deps;
  const services = (request: FastifyRequest) => ({ em: request.em, config });
  const reads = { db, cursors: app.cursors, config };

  app.post(
    '/tokens',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Create token metadata; without an instance, also the launch calldata to sign',
        tags,
        body: createTokenBody,
        response: { 201: createdTokenSchema },
      },
    },
    async (request, reply) => {
      const token = await createToken(services(request), actorOf(request).userId, request.body);
      return reply.code(201).send(token);
    },
  );

  app.get(
    '/tokens',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'List tokens, filtered by template, state or chain',
        tags,
        querystring: listTokensQuery,
        response: { 200: tokenPageSchema },
      },
    },
    async (request) => listTokens(reads, request.query),
  );

  app.get(
    '/tokens/:slug',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'A token by slug, with its holder reward pool and launch factory',
        tags,
        params: slugParams,
        response: { 200: tokenDetailSchema },
      },
    },
    async (request) => tokenBySlug(reads, request.params.slug),
  );

  app.get(
    '/chains',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Configured chains with the launch factory of each template',
        tags: ['chains'],
        response: { 200: chainsSchema },
      },
    },
    async () => listChains(config),
  );
};
