import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientErrorHandler } from './client-errors';
import { buildPageRoutes } from './pages/build-page';
import type { ApiDeps } from './deps';
import authPlugin from './plugins/auth';
import errorsPlugin, { frameworkErrorHandler } from './plugins/errors';
import idempotencyPlugin from './plugins/idempotency';
import metricsPlugin from './plugins/metrics';
import openapiPlugin from './openapi/plugin';
import paginationPlugin from './plugins/pagination';
import requestContextPlugin, { RequestLog, requestIdFor } from './plugins/request-context';
import securityHeadersPlugin from './plugins/security-headers';
import { serializerCompiler } from './serializer';
import { validatorCompiler } from './validation';
import spendPlugin from './plugins/spend';
import usagePlugin from './plugins/usage';
import { analyticsRoutes } from './routes/analytics/routes';
import { authRoutes } from './routes/auth/routes';
import { botRoutes } from './routes/bot/routes';
import { healthRoutes } from './routes/health/routes';
import { mediaRoutes } from './routes/media/routes';
import { aiRoutes } from './routes/ai/routes';
import { approvalRoutes } from './routes/projects/approval-routes';
import { devRoutes } from './routes/dev/routes';
import { homeRoutes } from './routes/home/routes';
import { flowRoutes } from './routes/flow/routes';
import { onchainRoutes } from './routes/onchain/routes';
import { keyRoutes } from './routes/keys/routes';
import { invokeRoutes } from './routes/marketplace/invoke-routes';
import { marketplaceRoutes } from './routes/marketplace/routes';
import { notificationRoutes } from './routes/notifications/routes';
import { projectRoutes } from './routes/projects/routes';
import { projectStreamRoutes } from './routes/projects/stream-routes';
import { searchRoutes } from './routes/search/routes';
import { subscriptionRoutes } from './routes/subscriptions/routes';
import { dexScreenerRoutes } from './routes/dexscreener/routes';
import { tokenRoutes } from './routes/tokens/routes';
import { tokenStreamRoutes } from './routes/tokens/stream-routes';
import { webhookRoutes } from './routes/webhooks/routes';

export const API_VERSION = '0.1.0';

/** Builds the API without listening: `main.ts` listens, tests use `inject()` or `listen(0)`. */
export function buildApp(deps: ApiDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: requestIdFor,
    logController: new RequestLog(),
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // docs/decisions.md "Wire": a request (headers and body) must arrive within
    // REQUEST_TIMEOUT_MS, its headers within 10 s of that; Node checks every second, not
    // every 30 s, so the bound holds. Responses are not timed: SSE streams stay open.
    requestTimeout: deps.config.requestTimeoutMs,
    keepAliveTimeout: deps.config.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(10_000, deps.config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1_000, deps.config.requestTimeoutMs),
    },
    // Path segments up to 2,048 characters reach validation (slugs allow 128, and their
    // percent-encoded form is longer), so an over-long one is a 400 naming the parameter.
    routerOptions: { maxParamLength: 2048 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Order matters: errors first so its onRoute hook sees every route registered after it.
  void app.register(errorsPlugin);
  void app.register(requestContextPlugin, { orm: deps.orm });
  // Early: its hooks count every response and refusal (GET /metrics, docs/metrics.md).
  void app.register(metricsPlugin, { deps });
  // Before auth: a CORS preflight is answered in its hook, with no credential read or counted.
  void app.register(securityHeadersPlugin, { corsOrigins: deps.config.corsOrigins });
  void app.register(openapiPlugin, { version: API_VERSION });
  void app.register(paginationPlugin, { secret: deps.config.jwtSecret });
  // Auth before idempotency: an Idempotency-Key is scoped to the authenticated principal.
  void app.register(authPlugin, { deps });
  void app.register(spendPlugin);
  void app.register(usagePlugin, { deps });
  void app.register(idempotencyPlugin);
  void app.register(healthRoutes, { deps });
  void app.register(homeRoutes, { deps, version: API_VERSION });
  // Outside production only (POST /dev/faucet); in production it registers nothing.
  void app.register(devRoutes, { deps });
  void app.register(authRoutes, { deps });
  void app.register(keyRoutes, { deps });
  void app.register(tokenRoutes, { deps });
  void app.register(dexScreenerRoutes, { deps });
  void app.register(marketplaceRoutes, { deps });
  void app.register(invokeRoutes, { deps });
  void app.register(flowRoutes, { deps });
  void app.register(onchainRoutes, { deps });
  void app.register(projectRoutes, { deps });
  void app.register(projectStreamRoutes, { deps });
  void app.register(tokenStreamRoutes, { deps });
  void app.register(mediaRoutes, { deps });
  void app.register(aiRoutes, { deps });
  void app.register(approvalRoutes, { deps });
  void app.register(buildPageRoutes, { deps });
  void app.register(searchRoutes, { deps });
  void app.register(subscriptionRoutes, { deps });
  void app.register(webhookRoutes, { deps });
  void app.register(analyticsRoutes, { deps });
  void app.register(botRoutes, { deps });
  void app.register(notificationRoutes, { deps });
  return app;
}

export type App = ReturnType<typeof buildApp>;
