import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { createOutboundClient } from '../../../shared/net/outbound-client';
import { createHttpProviders } from '../../../shared/payments/http-providers';
import {
  PROVIDER_RESPONSE_MAX_BYTES,
  PROVIDER_TIMEOUT_MS,
} from '../../../shared/payments/provider';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { handleCallback } from './callbacks';
import {
  callbackAckSchema,
  callbackParams,
  changeBody,
  changeResultSchema,
  checkoutBody,
  checkoutSchema,
  subscriptionSchema,
  topupBody,
  topupSchema,
} from './schemas';
import {
  cancelSubscription,
  changeSubscription,
  checkout,
  createTopup,
  resumeSubscription,
  subscriptionView,
  type SubscriptionDeps,
} from './service';
import { errors } from '../../openapi/errors';

const tags = ['subscriptions'];

/** Subscriptions, FLOW top-ups and provider callbacks (docs/payments.md). */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (
  app,
  { deps },
) => {
  // Provider hosts pass the same SSRF checks as every outbound call.
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: PROVIDER_TIMEOUT_MS,
    maxResponseBytes: PROVIDER_RESPONSE_MAX_BYTES,
  });
  app.addHook('onClose', async () => outbound.close());
  const providers = createHttpProviders(deps.config.payments, outbound);
  const depsOf = (request: FastifyRequest): SubscriptionDeps => ({
    em: request.em,
    config: deps.config,
    temporal: deps.temporal,
    providers,
    logger: request.log,
    now: deps.clock ?? (() => new Date()),
  });

  app.post(
    '/subscriptions/checkout',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Start a subscription: an invoice to pay at checkoutUrl',
        description:
          'Checks, in order: the body (400 invalid_request), the tier (400 tier_unknown), the ' +
          'provider (400 provider_unsupported), no active or grace subscription (409 ' +
          'subscription_active: use POST /me/subscription/change). The subscription activates ' +
          'when the provider confirms the payment; for usdt_bep20 when the chain shows the ' +
          'exact amount at the treasury, after the chain’s finality depth.',
        errors: errors(
          'tier_unknown',
          'provider_unsupported',
          'subscription_active',
          'payment_provider_failed',
        ),
        tags,
        body: checkoutBody,
        response: { 201: checkoutSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await checkout(depsOf(request), actorOf(request), request.body)),
  );

  app.get(
    '/me/subscription',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s subscription and its features',
        description:
          'Tier, status, renewal date and the features the tier grants; `tier: null` and ' +
          'status `none` without a subscription. An unpaid renewal shows its invoice in ' +
          '`renewal`.',
        tags,
        response: { 200: subscriptionSchema },
      },
    },
    async (request) => subscriptionView(depsOf(request), actorOf(request)),
  );

  app.post(
    '/me/subscription/cancel',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Cancel at the end of the period (features stay until renewsAt)',
        description:
          'In grace the paid period is over, so the subscription ends at once. 404 ' +
          'subscription_not_found without an active or grace subscription.',
        errors: errors('subscription_not_found'),
        tags,
        response: { 200: subscriptionSchema },
      },
    },
    async (request) => cancelSubscription(depsOf(request), actorOf(request)),
  );

  app.post(
    '/me/subscription/resume',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Undo a cancel before the period ends',
        description: 'Renewal is back on; a subscription that was not canceled stays as it is.',
        errors: errors('subscription_not_found'),
        tags,
        response: { 200: subscriptionSchema },
      },
    },
    async (request) => resumeSubscription(depsOf(request), actorOf(request)),
  );

  app.post(
    '/me/subscription/change',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Change tier: upgrades now (pro-rated checkout), downgrades at renewsAt',
        description:
          'Upgrade: a checkout of the monthly price difference for the share of the period ' +
          'left; the tier switches when it is paid, renewsAt unchanged (409 ' +
          'subscription_past_due in grace). Downgrade: pendingTier, effective at renewsAt; ' +
          'changing back to the current tier clears it.',
        errors: errors(
          'subscription_not_found',
          'tier_unknown',
          'provider_unsupported',
          'subscription_past_due',
          'payment_provider_failed',
        ),
        tags,
        body: changeBody,
        response: { 200: changeResultSchema },
      },
    },
    async (request) => changeSubscription(depsOf(request), actorOf(request), request.body),
  );

  app.post(
    '/flow/topups',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Buy FLOW: an invoice whose payment credits amountFlow',
        description:
          'amountFlow = amountUsd × FLOW_PER_USD, credited with reason topup when the provider ' +
          'confirms; it counts in withdrawableFlow after TOPUP_SETTLEMENT_HOURS.',
        errors: errors('provider_unsupported', 'payment_provider_failed'),
        tags: ['flow'],
        body: topupBody,
        response: { 201: topupSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createTopup(depsOf(request), actorOf(request), request.body)),
  );

  // Callbacks are signed over their exact bytes: this scope keeps JSON bodies raw.
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<ZodTypeProvider>();
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    raw.post(
      '/payments/:provider/callback',
      {
        // Authenticated by the provider's own scheme, and not counted against the anonymous
        // per-IP limit: a provider sends every user's callbacks from a few addresses.
        config: { auth: 'none' },
        schema: {
          summary: 'Payment provider callback (cryptobot, platega)',
          description:
            'cryptobot: crypto-pay-api-signature, HMAC-SHA256 of the raw body keyed with ' +
            'SHA-256 of the API token. platega: X-MerchantId and X-Secret, and the body must ' +
            'match the transaction as the Platega API reports it. A bad signature is 401 ' +
            'invalid_signature and changes nothing; repeats are acknowledged and change nothing.',
          errors: errors('provider_unsupported', 'invalid_signature', 'service_unavailable'),
          tags,
          params: callbackParams,
          response: { 200: callbackAckSchema },
        },
      },
      async (request) =>
        handleCallback(depsOf(request), {
          provider: request.params.provider,
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          headers: request.headers,
        }),
    );
  });
};
