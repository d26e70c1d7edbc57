import Fastify, { LogController } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ApiDeps } from './deps';
import errorsPlugin from './plugins/errors';
import idempotencyPlugin from './plugins/idempotency';
import openapiPlugin from './plugins/openapi';
import paginationPlugin from './plugins/pagination';
import requestContextPlugin, { requestIdFor } from './plugins/request-context';
import { healthRoutes } from './routes/health/routes';

export const API_VERSION = '0.1.0';

/** Builds the API without listening: `main.ts` listens, tests use `inject()` or `listen(0)`. */
export function buildApp(deps: ApiDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: requestIdFor,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: deps.config.bodyLimitBytes,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Order matters: errors first so its onRoute hook sees every route registered after it.
  void app.register(errorsPlugin);
  void app.register(requestContextPlugin, { orm: deps.orm });
  void app.register(openapiPlugin, { version: API_VERSION });
  void app.register(paginationPlugin, { secret: deps.config.jwtSecret });
  void app.register(idempotencyPlugin);
  void app.register(healthRoutes, { deps });
  return app;
}

export type App = ReturnType<typeof buildApp>;
