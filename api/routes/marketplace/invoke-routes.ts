import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { lowBalanceThreshold } from '../../../shared/flow/ledger';
import { createOutboundClient } from '../../../shared/net/outbound-client';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { slugParams } from '../../wire';
import { invokeAgent, type InvokeDeps } from './invoke';
import { invokeBody, invokeResult, subscriptionResult } from './schemas';
import { subscribeToAgent } from './subscribe';
import { errors } from '../../openapi/errors';

/** Largest answer an agent may give to one call. */
const MAX_AGENT_RESPONSE_BYTES = 1024 * 1024;

/** Paid agent invocation and agent subscriptions (docs/spec/contract.md §6). */
export const invokeRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, { deps }) => {
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: deps.config.agentCallTimeoutMs,
    maxResponseBytes: MAX_AGENT_RESPONSE_BYTES,
  });
  app.addHook('onClose', async () => outbound.close());
  const lowBalance = lowBalanceThreshold(deps.config.lowBalanceThresholdFlow);
  const depsOf = (request: FastifyRequest): InvokeDeps => ({
    em: request.em,
    outbound,
    timeoutMs: deps.config.agentCallTimeoutMs,
    lowBalanceThreshold: lowBalance,
    onLateError: (error) =>
      request.log.error({ err: error }, 'telling other instances an API key spend moved failed'),
    keySpendMoved: (key) => app.access.apiKeys.invalidate(key.keyHash),
  });

  app.post(
    '/agents/:slug/invoke',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Call an agent; FLOW is charged only when the call succeeds',
        description:
          'A premium agent (premium: true) answers only callers whose tier has premiumAgents ' +
          '(pro, max) and its owner; anyone else gets 403 feature_not_in_tier before anything ' +
          'is charged or the agent is called.',
        errors: errors(
          'agent_not_found',
          'agent_not_published',
          'feature_not_in_tier',
          'tool_unknown',
          'subscription_required',
          'free_quota_exhausted',
          'insufficient_flow',
          'spend_limit_reached',
          'agent_failed',
          'agent_timeout',
        ),
        tags: ['agents'],
        params: slugParams,
        body: invokeBody,
        response: { 200: invokeResult },
      },
    },
    async (request) => {
      const input = { ...request.params, ...request.body };
      const { body, keyCharge } = await invokeAgent(depsOf(request), actorOf(request), input);
      // The `X-FLOW-*` headers and the usage log's cost (the spend plugin renders them).
      request.keyCharge = keyCharge;
      // Usage by model (`GET /me/api-keys/:id/usage`), recorded with the request.
      if (body.model) request.usageReport = { model: body.model, ...body.usage };
      return body;
    },
  );

  app.post(
    '/agents/:slug/subscribe',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Pay a month of an agent’s subscription (extends an active one)',
        description:
          'A premium agent’s subscription is sold only to callers who may call it (pro, max): ' +
          'others get 403 feature_not_in_tier and pay nothing.',
        errors: errors(
          'agent_not_found',
          'agent_not_published',
          'subscription_not_offered',
          'feature_not_in_tier',
          'insufficient_flow',
          'spend_limit_reached',
        ),
        tags: ['agents'],
        params: slugParams,
        response: { 200: subscriptionResult },
      },
    },
    async (request) => {
      const { body, keyCharge } = await subscribeToAgent(
        depsOf(request),
        actorOf(request),
        request.params,
      );
      request.keyCharge = keyCharge;
      return body;
    },
  );
};
