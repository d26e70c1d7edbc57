import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { spendHeaders, spendState, type KeyCharge } from '../access/spend-guard';

/**
 * The `X-FLOW-*` headers of API-key requests (docs/spec/contract.md §5). The spend cap itself
 * belongs to the services that charge (`access/spend-guard.ts`, called in their transactions);
 * a handler whose service charged the key stores what it returned in `request.keyCharge`, and
 * this hook renders it. A request that charged nothing shows the key's spend as its cached
 * credential knows it, without a database round trip; a 402 `spend_limit_reached` already
 * carries the headers of the state that refused it. Requests without a key get none.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** What this request charged its API key, as the service settled it (set by the handler). */
    keyCharge: KeyCharge | null;
    /** micro-FLOW this request charged its API key, for the usage log. */
    flowCharged: bigint;
  }
}

async function spendPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('keyCharge', null);
  app.decorateRequest('flowCharged', 0n);

  // Callback style and no database work: the state comes from the service or the credential.
  app.addHook('onSend', (request, reply, payload, done) => {
    const key = request.actor?.apiKey;
    if (!key) return done(null, payload);
    const charge = request.keyCharge;
    request.flowCharged = charge?.cost ?? 0n;
    if (!reply.hasHeader('x-flow-period-used')) {
      reply.headers(
        spendHeaders(charge?.spend ?? spendState(key, new Date()), request.flowCharged),
      );
    }
    done(null, payload);
  });
}

export default fp(spendPlugin, { name: 'spend', fastify: '5.x', dependencies: ['auth'] });
