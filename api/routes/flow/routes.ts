import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, AppError } from '../../../shared/errors';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import {
  creditBody,
  creditResultSchema,
  flowBalanceSchema,
  ledgerPageSchema,
  ledgerQuery,
  payoutsWildcardParams,
} from './schemas';
import { creditFlow, flowBalance, listLedger, type FlowDeps } from './service';
import { errors } from '../../openapi/errors';

const tags = ['flow'];

/**
 * RFC 9745 `Deprecation` (a structured-field date: `@` + unix seconds) of GET /me/flow-balance:
 * 2026-11-22T00:00:00Z, the day the deprecation was announced.
 */
export const FLOW_BALANCE_DEPRECATED_AT = 1_795_305_600;
const FLOW_BALANCE_SUCCESSOR = '</me/flow-onchain>; rel="successor-version"';
export const PAYOUTS_GONE =
  'Payouts were removed: withdrawing FLOW means selling it from your wallet (see /me/flow-onchain)';
const PAYOUT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** FLOW balance, ledger and internal credits (spec "FLOW", docs/spec/contract.md §6). */
export const flowRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const depsOf = (request: FastifyRequest): FlowDeps => ({
    em: request.em,
    db: opts.deps.db,
    cursors: app.cursors,
    config: opts.deps.config,
  });
  app.get(
    '/ledger',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s FLOW ledger, newest first',
        description:
          'Keyset-paged. `from` is inclusive and `to` exclusive; both are ISO 8601 instants ' +
          'with Z or an offset.',
        tags,
        querystring: ledgerQuery,
        response: { 200: ledgerPageSchema },
      },
    },
    async (request) => listLedger(depsOf(request), actorOf(request), request.query),
  );

  app.get(
    '/me/flow-balance',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'FLOW balance record (deprecated: use /me/flow-onchain)',
        description:
          'Deprecated (`Deprecation` and `Link: </me/flow-onchain>; ' +
          'rel="successor-version"` headers): the platform FLOW balance record, what is ' +
          'withdrawable, lifetime receipts by source and the last 20 ledger entries.',
        tags,
        deprecated: true,
        response: { 200: flowBalanceSchema },
      },
    },
    async (request, reply) => {
      reply.header('deprecation', `@${FLOW_BALANCE_DEPRECATED_AT}`);
      reply.header('link', FLOW_BALANCE_SUCCESSOR);
      return flowBalance(depsOf(request), actorOf(request));
    },
  );

  const gone = async () => {
    throw new AppError('gone', PAYOUTS_GONE);
  };
  app.route({
    method: PAYOUT_METHODS,
    url: '/me/payouts',
    config: { auth: 'public' },
    schema: {
      summary: 'Removed: payouts (withdrawal means selling FLOW from the wallet)',
      description:
        'Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet ' +
        '(see GET /me/flow-onchain).',
      errors: errors('gone'),
      tags,
      deprecated: true,
      response: { 410: errorEnvelopeSchema },
    },
    handler: gone,
  });
  app.route({
    method: PAYOUT_METHODS,
    url: '/me/payouts/*',
    config: { auth: 'public' },
    schema: {
      summary: 'Removed: every path under /me/payouts',
      description:
        'Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet ' +
        '(see GET /me/flow-onchain).',
      errors: errors('gone'),
      tags,
      params: payoutsWildcardParams,
      deprecated: true,
      response: { 410: errorEnvelopeSchema },
    },
    handler: gone,
  });

  app.post(
    '/internal/flow/credit',
    {
      config: { auth: 'internal' },
      schema: {
        summary: 'Credit FLOW to a user (top-ups, quests, grants, refunds); idempotent on refId',
        description:
          'The same refId with the same userId, amountFlow and reason answers 200 with the ' +
          'original entry and `Idempotent-Replayed: true`; with anything else, 409 ' +
          '`ref_id_conflict`.',
        errors: errors('user_not_found', 'ref_id_conflict'),
        tags,
        body: creditBody,
        response: { 200: creditResultSchema, 201: creditResultSchema },
      },
    },
    async (request, reply) => {
      const { replayed, ...result } = await creditFlow(depsOf(request), request.body);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(replayed ? 200 : 201).send(result);
    },
  );
};
