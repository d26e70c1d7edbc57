import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLATFORM_TOOLS } from '../../../shared/domain/tools';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { pageOf, pageQuery } from '../../plugins/pagination';
import { slugParams } from '../../wire';
import { agentDetail } from './detail';
import { listMarketplace } from './listing';
import { ownerAgentsPage } from './owner-views';
import {
  agentDetailSchema,
  agentListItemSchema,
  createAgentBody,
  createdAgentSchema,
  marketplaceQuery,
  ownerAgentSchema,
  publishBody,
  publishedSchema,
  ratingBody,
  ratingSchema,
  toolPricesBody,
  toolPricesSchema,
  toolsSchema,
  unpublishedSchema,
  updateAgentBody,
} from './schemas';
import {
  createAgent,
  publishAgent,
  replaceToolPrices,
  unpublishAgent,
  updateAgent,
} from './service';
import { rateAgent } from './stats';
import { agentForCaller } from './visibility';

const agentTags = ['agents'];
const marketplaceTags = ['marketplace'];

/** Agents and the marketplace (spec "Marketplace", decisions §6, §8). */
export const marketplaceRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const services = (request: FastifyRequest) => ({ em: request.em, config: opts.deps.config });

  app.post(
    '/agents',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Create a draft agent (its endpointSecret is in this response only)',
        tags: agentTags,
        body: createAgentBody,
        response: { 201: createdAgentSchema },
      },
    },
    async (request, reply) => {
      const created = await createAgent(services(request), actorOf(request).userId, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/me/agents',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s agents, newest first',
        tags: agentTags,
        querystring: z.object(pageQuery),
        response: { 200: pageOf(ownerAgentSchema) },
      },
    },
    async (request) =>
      ownerAgentsPage(opts.deps.db, app.cursors, actorOf(request).userId, request.query),
  );

  app.patch(
    '/agents/:slug',
    {
      config: { auth: 'user' },
      schema: {
        summary:
          'Change an agent’s name, description, tags, image, endpoint or premium flag (owner)',
        tags: agentTags,
        params: slugParams,
        body: updateAgentBody,
        response: { 200: ownerAgentSchema },
      },
    },
    async (request) =>
      updateAgent(services(request), actorOf(request).userId, request.params.slug, request.body),
  );

  app.post(
    '/agents/:slug/publish',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Publish an agent with a monetization model and tags (owner)',
        description:
          'per_call: every call pays perCallPriceFlow. subscription: subscribers pay ' +
          'subscriptionFlowPerMonth and call at no base price. hybrid: both offered; ' +
          'subscribers call at no base price, others pay per call. freemium: ' +
          'freemiumDailyCalls free calls per caller and UTC day, then perCallPriceFlow if set, ' +
          'else refused. Tool prices stack on every model. premium: true limits calls (and ' +
          'subscriptions) to the owner and callers with the pro or max tier; omitted keeps it.',
        tags: agentTags,
        params: slugParams,
        body: publishBody,
        response: { 200: publishedSchema },
      },
    },
    async (request) =>
      publishAgent(services(request), actorOf(request).userId, request.params.slug, request.body),
  );

  app.post(
    '/agents/:slug/unpublish',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Hide an agent from new callers; existing callers keep it to month end (owner)',
        tags: agentTags,
        params: slugParams,
        response: { 200: unpublishedSchema },
      },
    },
    async (request) =>
      unpublishAgent(services(request), actorOf(request).userId, request.params.slug),
  );

  app.post(
    '/agents/:slug/tool-prices',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Replace an agent’s per-tool prices (owner)',
        tags: agentTags,
        params: slugParams,
        body: toolPricesBody,
        response: { 200: toolPricesSchema },
      },
    },
    async (request) =>
      replaceToolPrices(
        request.em,
        actorOf(request).userId,
        request.params.slug,
        request.body.tools,
      ),
  );

  app.post(
    '/agents/:slug/rating',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Rate an agent 1 to 5 (callers with a succeeded call; rating again replaces)',
        tags: agentTags,
        params: slugParams,
        body: ratingBody,
        response: { 200: ratingSchema },
      },
    },
    async (request) => {
      const userId = actorOf(request).userId;
      const { agent } = await agentForCaller(request.em, request.params.slug, userId, new Date());
      return rateAgent(request.em, agent, userId, request.body.rating);
    },
  );

  app.get(
    '/marketplace/agents',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Published agents, by trending (default), new, top_earning or top_rated',
        tags: marketplaceTags,
        querystring: marketplaceQuery,
        response: { 200: pageOf(agentListItemSchema) },
      },
    },
    async (request) => listMarketplace(opts.deps.db, app.cursors, request.query),
  );

  app.get(
    '/marketplace/agents/:slug',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'An agent’s detail',
        tags: marketplaceTags,
        params: slugParams,
        response: { 200: agentDetailSchema },
      },
    },
    async (request) =>
      agentDetail(opts.deps.db, request.params.slug, request.actor?.userId ?? null, new Date()),
  );

  app.get(
    '/marketplace/tools',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The platform tools an agent may use and price',
        tags: marketplaceTags,
        response: { 200: toolsSchema },
      },
    },
    async () => ({
      items: Object.entries(PLATFORM_TOOLS).map(([tool, description]) => ({ tool, description })),
    }),
  );
};
