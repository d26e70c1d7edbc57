import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * Every response of a secret-bearing route (`config.secretResponse`, see the idempotency
 * plugin) documents the `Cache-Control: no-store` the plugin sets on it.
 */
const withNoStore: typeof jsonSchemaTransform = (input) => {
  const result = jsonSchemaTransform(input);
  if (!input.route.config?.secretResponse) return result;
  const responses = (result.schema as { response?: Record<string, Record<string, unknown>> })
    .response;
  for (const response of Object.values(responses ?? {})) {
    response.headers = {
      'Cache-Control': {
        type: 'string',
        const: 'no-store',
        description: 'This route shows a secret once: no cache may store any of its responses',
      },
    };
  }
  return result;
};

/**
 * OpenAPI 3.1, generated from the same zod schemas that validate requests and serialize
 * responses, served at GET /openapi.json; an interactive reference at GET /docs.
 */
async function openapiPlugin(app: FastifyInstance, opts: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent platform API',
        version: opts.version,
        description:
          'Agent marketplace, token launchpad metadata, live project builds (SSE), FLOW ledger, ' +
          'API keys, webhooks, search and the bot gateway. Errors are always ' +
          '`{"error":{"code","message"}}`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          internalToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'An internal service token (INTERNAL_TOKENS), for /internal/* only',
          },
          botToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Service-Bot-Token',
            description: 'A bot gateway token (BOT_TOKENS), for /api/v1/* only',
          },
        },
      },
    },
    transform: withNoStore,
    transformObject: jsonSchemaTransformObject,
  });
  // Swagger UI's own CSP (hashes of its inline scripts) replaces the API's `default-src 'none'`
  // on the docs pages (api/plugins/security-headers.ts).
  // Without `upgrade-insecure-requests`, which would send the page's own assets to https://
  // on a plain-HTTP development server.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}

export default fp(openapiPlugin, { name: 'openapi', fastify: '5.x', dependencies: ['errors'] });
