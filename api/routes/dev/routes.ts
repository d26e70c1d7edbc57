import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { flowNumber, parseFlow } from '../../../shared/domain/flow';
import { AppError } from '../../../shared/errors';
import { creditUser } from '../../../shared/flow/ledger';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { creditResultSchema } from '../flow/schemas';

/** FLOW the faucet credits when the body names no amount, and the most one request may ask. */
export const FAUCET_DEFAULT_FLOW = 1000;
export const FAUCET_MAX_FLOW = 100_000;
/** Ledger `refType` of faucet credits (reason `grant`: never withdrawable). */
export const FAUCET_REF_TYPE = 'dev_faucet';

const faucetBody = z
  .strictObject({
    amountFlow: z
      .number({ error: 'must be a number' })
      .min(0.000001, { error: 'must be at least 0.000001' })
      .max(FAUCET_MAX_FLOW, { error: `must be at most ${FAUCET_MAX_FLOW}` })
      .default(FAUCET_DEFAULT_FLOW)
      .describe(
        `FLOW to credit (default ${FAUCET_DEFAULT_FLOW}); more than 6 decimals are rounded down`,
      ),
  })
  // No body at all arrives as null.
  .nullish();

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
      const userId = actorOf(request).userId;
      const amount = parseFlow(request.body?.amountFlow ?? FAUCET_DEFAULT_FLOW);
      if (amount === null || amount === 0n) {
        throw new AppError('invalid_request', 'amountFlow: must be at least 0.000001');
      }
      const now = new Date();
      const result = await request.em.transactional(async (tx) => {
        const refId = randomUUID();
        const entry = await creditUser(tx, userId, amount, {
          reason: 'grant',
          refType: FAUCET_REF_TYPE,
          refId,
          metadata: { faucet: true },
          now,
        });
        const [account] = await tx.execute<{ spendable: string }[]>(
          'select balance - held as spendable from flow_accounts where user_id = ?',
          [userId],
        );
        return {
          entry: {
            id: entry.id,
            delta: flowNumber(entry.delta),
            balanceAfter: flowNumber(entry.balanceAfter),
            reason: 'grant' as const,
            refType: FAUCET_REF_TYPE,
            refId,
            metadata: { faucet: true },
            createdAt: now.toISOString(),
          },
          balance: flowNumber(BigInt(account?.spendable ?? 0)),
        };
      });
      return reply.code(201).send(result);
    },
  );
};
