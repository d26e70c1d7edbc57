import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { finishDocument } from './document';
import { INFO_DESCRIPTION, SECURITY_SCHEMES } from './prose';
import { docsRoutes } from './reference';
import { documentRoute } from './route-docs';

/**
 * OpenAPI 3.1, generated from the same zod schemas that validate requests and serialize
 * responses, served at GET /openapi.json; an interactive reference (Scalar) at GET /docs.
 *
 * Only the wiring is here: @fastify/swagger with the per-route transform (route-docs.ts:
 * responses per status with their error codes, security, traits) and the document pass
 * (document.ts: operation ids, headers, tags, pruning, examples from examples.ts), the
 * document's texts (prose.ts), the reference page (reference.ts). Routes declare their error
 * codes with errors.ts.
 */

async function openapiPlugin(app: FastifyInstance, opts: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent platform API',
        version: opts.version,
        description: INFO_DESCRIPTION,
      },
      // Relative: the document describes the server that serves it.
      servers: [{ url: '/', description: 'This server' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    transformObject: finishDocument,
  } as Parameters<typeof swagger>[1]);
  await docsRoutes(app);
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}

export default fp(openapiPlugin, { name: 'openapi', fastify: '5.x', dependencies: ['errors'] });
