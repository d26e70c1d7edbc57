import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { flowNumber } from '../../../shared/domain/flow';
import { addMonthUtc } from '../../../shared/domain/pricing';
import { isPlatformTool, PLATFORM_TOOL_NAMES } from '../../../shared/domain/tools';
import { AppError } from '../../../shared/errors';
import { lowBalanceThreshold } from '../../../shared/flow/ledger';
import { createOutboundClient } from '../../../shared/net/outbound-client';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { isoTime, slugParams } from '../../wire';
import { paySubscription } from './charges';
import { invokeAgent } from './invoke';
import { agentForCaller, checkPremiumAccess } from './visibility';
import { errors } from '../../plugins/openapi';

/** Largest answer an agent may give to one call. */
const MAX_AGENT_RESPONSE_BYTES = 1024 * 1024;

const invokeBody = z.strictObject({
  input: z
    .unknown()
    .refine((value) => value !== undefined, { message: 'is required' })
    .describe('Anything JSON; passed to the agent as is'),
  tools: z
    .array(z.string().max(64))
    .max(PLATFORM_TOOL_NAMES.length)
    .optional()
    .describe('Tools the agent may use in this call (default: all platform tools)'),
});

const invokeResult = z
  .object({
    callId: z.uuid(),
    output: z.unknown(),
    model: z.string().nullable(),
    toolsUsed: z.array(z.string()),
    usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
    costFlow: z.number().describe('FLOW charged: base price (if any) plus the tools used'),
  })
  .meta({ id: 'AgentCallResult' });

const subscriptionResult = z
  .object({
    agentSlug: z.string(),
    subscribed: z.literal(true),
    periodStart: isoTime,
    periodEnd: isoTime,
    costFlow: z.number(),
  })
  .meta({ id: 'AgentSubscription' });

/** Paid agent invocation and agent subscriptions (docs/spec/contract.md §6). */
export const invokeRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, { deps }) => {
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: deps.config.agentCallTimeoutMs,
    maxResponseBytes: MAX_AGENT_RESPONSE_BYTES,
  });
  app.addHook('onClose', async () => outbound.close());
  const lowBalance = lowBalanceThreshold(deps.config.lowBalanceThresholdFlow);

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
      const unknown = request.body.tools?.find((tool) => !isPlatformTool(tool));
      if (unknown !== undefined) {
        throw new AppError(
          'tool_unknown',
          `tools: ${unknown} is not a platform tool (GET /marketplace/tools)`,
        );
      }
      const tools = request.body.tools && [...new Set(request.body.tools)];
      const caller = {
        userId: actorOf(request).userId,
        apiKeyId: request.actor?.apiKey?.id ?? null,
        reserveSpend: (maxCost: bigint) => request.reserveFlow(maxCost),
        settleSpend: (cost: bigint) => request.settleFlow(cost),
      };
      const onLateError = (error: unknown) =>
        request.log.error({ err: error }, 'settling the API key spend of a charged call failed');
      const result = await invokeAgent(
        request.em,
        {
          outbound,
          timeoutMs: deps.config.agentCallTimeoutMs,
          lowBalanceThreshold: lowBalance,
          onLateError,
        },
        caller,
        request.params.slug,
        { input: request.body.input, tools },
      );
      if (result.model) request.usageReport = { model: result.model, ...result.usage };
      return result;
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
      const subscriberId = actorOf(request).userId;
      const now = new Date();
      const found = await agentForCaller(request.em, request.params.slug, subscriberId, now);
      const { agent } = found;
      if (!agent.isPublished) {
        throw new AppError('agent_not_published', `${agent.slug}: is not published`);
      }
      if (agent.monetization !== 'subscription' && agent.monetization !== 'hybrid') {
        throw new AppError(
          'subscription_not_offered',
          `${agent.slug}: is priced ${agent.monetization ?? 'not at all'}, without subscriptions`,
        );
      }
      // A month of an agent the caller may not call would be paid for nothing.
      checkPremiumAccess(found, subscriberId);
      const price = BigInt(agent.subscriptionPrice ?? 0);
      await request.reserveFlow(price);
      const subscription = await paySubscription(request.em, {
        agent,
        subscriberId,
        price,
        periodEnd: (currentEnd) => addMonthUtc(currentEnd ?? now),
        now,
        lowBalanceThreshold: lowBalance,
      });
      await request.settleFlow(price);
      return {
        agentSlug: agent.slug,
        subscribed: true as const,
        periodStart: subscription.periodStart.toISOString(),
        periodEnd: subscription.periodEnd.toISOString(),
        costFlow: flowNumber(price),
      };
    },
  );
};
