import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { slugParams } from '../../wire';
import { agentDetail } from './detail';
import { listMarketplace } from './listing';
import { ownerAgentsPage } from './owner-views';
import { rateAgent } from './ratings';
import {
  agentDetailSchema,
  agentListPageSchema,
  createAgentBody,
  createdAgentSchema,
  marketplaceQuery,
  ownerAgentPageSchema,
  ownerAgentSchema,
  ownerAgentsQuery,
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
  listTools,
  publishAgent,
  replaceToolPrices,
  unpublishAgent,
  updateAgent,
  type MarketplaceDeps,
} from './service';
import { errors } from '../../openapi/errors';

const agentTags = ['agents'];
const marketplaceTags = ['marketplace'];

/** Agents and the marketplace (spec "Marketplace", docs/spec/contract.md §6, §8). */
export const marketplaceRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const depsOf = (request: FastifyRequest): MarketplaceDeps => ({
    em: request.em,
    db: opts.deps.db,
    cursors: app.cursors,
    config: opts.deps.config,
  });

  app.post(
    '/agents',
    {
      config: { auth: 'user', secretResponse: true },
      schema: {
        summary: 'Create a draft agent (its endpointSecret is in this response only)',
        description:
          'A draft: not listed until POST /agents/{slug}/publish. `endpointUrl` is where ' +
          'the platform calls the agent (https, a public address; ' +
          'docs/guides/agent-endpoint.md); every call is signed with `endpointSecret`, ' +
          'shown in this response only. The slug derives from the name unless given.',
        errors: errors('invalid_url', 'slug_taken'),
        tags: agentTags,
        body: createAgentBody,
        response: { 201: createdAgentSchema },
      },
    },
    async (request, reply) => {
      const created = await createAgent(depsOf(request), actorOf(request), request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/me/agents',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s agents, newest first',
        description:
          'Drafts, published and unpublished agents with their prices and tool prices; ' +
          'cursor-paged.',
        tags: agentTags,
        querystring: ownerAgentsQuery,
        response: { 200: ownerAgentPageSchema },
      },
    },
    async (request) => ownerAgentsPage(depsOf(request), actorOf(request), request.query),
  );

  app.patch(
    '/agents/:slug',
    {
      config: { auth: 'user' },
      schema: {
        summary:
          'Change an agent’s name, description, tags, image, endpoint or premium flag (owner)',
        description:
          'Only the fields sent change; a new `endpointUrl` passes the same checks as at ' +
          'creation. Prices change with POST /agents/{slug}/publish.',
        errors: errors('agent_not_found', 'not_owner', 'invalid_url'),
        tags: agentTags,
        params: slugParams,
        body: updateAgentBody,
        response: { 200: ownerAgentSchema },
      },
    },
    async (request) =>
      updateAgent(depsOf(request), actorOf(request), { ...request.params, ...request.body }),
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
        errors: errors(
          'agent_not_found',
          'not_owner',
          'invalid_monetization',
          'token_not_found',
          'token_no_match',
        ),
        tags: agentTags,
        params: slugParams,
        body: publishBody,
        response: { 200: publishedSchema },
      },
    },
    async (request) =>
      publishAgent(depsOf(request), actorOf(request), { ...request.params, ...request.body }),
  );

  app.post(
    '/agents/:slug/unpublish',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Hide an agent from new callers; existing callers keep it to month end (owner)',
        description:
          'Idempotent. The agent leaves the listing; callers who used it keep calling it ' +
          'until the start of the next UTC month (`listedUntil`), subscribers until their ' +
          'period ends.',
        errors: errors('agent_not_found', 'not_owner'),
        tags: agentTags,
        params: slugParams,
        response: { 200: unpublishedSchema },
      },
    },
    async (request) => unpublishAgent(depsOf(request), actorOf(request), request.params),
  );

  app.post(
    '/agents/:slug/tool-prices',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Replace an agent’s per-tool prices (owner)',
        description:
          'The whole list is replaced: tools left out cost nothing from now on. A call ' +
          'pays the agent’s base price plus the price of each tool it used.',
        errors: errors('agent_not_found', 'not_owner', 'tool_unknown'),
        tags: agentTags,
        params: slugParams,
        body: toolPricesBody,
        response: { 200: toolPricesSchema },
      },
    },
    async (request) =>
      replaceToolPrices(depsOf(request), actorOf(request), {
        ...request.params,
        ...request.body,
      }),
  );

  app.post(
    '/agents/:slug/rating',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Rate an agent 1 to 5 (callers with a succeeded call; rating again replaces)',
        description:
          'Only callers with at least one succeeded call may rate, and never the owner; ' +
          'rating again replaces the earlier rating.',
        errors: errors('agent_not_found', 'rating_not_allowed'),
        tags: agentTags,
        params: slugParams,
        body: ratingBody,
        response: { 200: ratingSchema },
      },
    },
    async (request) =>
      rateAgent(depsOf(request), actorOf(request), { ...request.params, ...request.body }),
  );

  app.get(
    '/marketplace/agents',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Published agents, by trending (default), new, top_earning or top_rated',
        description: 'Cursor-paged; `tag` narrows to one tag. Anonymous callers may browse.',
        tags: marketplaceTags,
        querystring: marketplaceQuery,
        response: { 200: agentListPageSchema },
      },
    },
    async (request) => listMarketplace(depsOf(request), request.actor, request.query),
  );

  app.get(
    '/marketplace/agents/:slug',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'An agent’s detail',
        description:
          'A published agent (or one the caller owns or still has access to), with its ' +
          'prices, tool prices, statistics of the last 30 days and its linked token.',
        errors: errors('agent_not_found'),
        tags: marketplaceTags,
        params: slugParams,
        response: { 200: agentDetailSchema },
      },
    },
    async (request) => agentDetail(depsOf(request), request.actor, request.params),
  );

  app.get(
    '/marketplace/tools',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The platform tools an agent may use and price',
        description:
          'The tools an agent may use during a call; owners price them with POST ' +
          '/agents/{slug}/tool-prices and callers may restrict them per call.',
        tags: marketplaceTags,
        response: { 200: toolsSchema },
      },
    },
    async (request) => listTools(depsOf(request), request.actor),
  );
};
