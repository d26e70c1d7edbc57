import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { creditResultSchema } from '../flow/schemas';
import { FAUCET_DEFAULT_FLOW, FAUCET_MAX_FLOW, faucetBody } from './schemas';
import { faucet, type DevDeps } from './service';

/**
 * Development conveniences. Outside production only: in production these routes are not
 * registered at all (404 `not_found`, and absent from the OpenAPI document).
 *
 * `POST /dev/faucet` credits the signed-in caller test FLOW through the ledger
 * (shared/flow/ledger.ts, the one module that moves FLOW), as a grant. Like every POST it
 * honours `Idempotency-Key`: a retry with the same key is answered from the stored response
 * and credits nothing more.
 */
export const devRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  if (opts.deps.config.env === 'production') return;
  const depsOf = (request: FastifyRequest): DevDeps => ({ em: request.em });

  app.post(
    '/dev/faucet',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Development only: credit the caller test FLOW (absent in production)',
        description:
          `Credits \`amountFlow\` (default ${FAUCET_DEFAULT_FLOW}, at most ${FAUCET_MAX_FLOW}) ` +
          'to the caller as a `grant` ledger entry (refType `dev_faucet`). The body may be ' +
          'omitted. Not registered when NODE_ENV=production.',
        tags: ['dev'],
        body: faucetBody,
        response: { 201: creditResultSchema },
      },
    },
    async (request, reply) => {
      const result = await faucet(depsOf(request), actorOf(request), { ...request.body });
      return reply.code(201).send(result);
    },
  );
};
