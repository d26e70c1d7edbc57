import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  reserveSpend,
  settleSpend,
  spendHeaders,
  spendState,
  type SpendReservation,
  type SpendState,
} from '../access/spend-guard';
import type { ApiKeyCredential } from '../access/api-key-store';

/**
 * FLOW spend caps of API keys (docs/spec/contract.md §5) for the request at hand. A charged handler
 * calls `request.reserveFlow(maxCost)` before the paid work (402 `spend_limit_reached` when
 * the key's cap would be passed) and `request.settleFlow(actualCost)` after it. A
 * reservation left unsettled is charged in full when the response succeeds and released
 * when it fails, so a failed call never costs anything. Requests without a key have no cap.
 * Every key request answers with the `X-FLOW-*` headers.
 */

declare module 'fastify' {
  interface FastifyRequest {
    reserveFlow(cost: bigint): Promise<void>;
    settleFlow(actualCost: bigint): Promise<void>;
    /** micro-FLOW this request has been charged (settled) on its API key. */
    flowCharged: bigint;
  }
}

interface SpendSlot {
  reservation: SpendReservation | null;
  settled: SpendState | null;
  /** Settlement was attempted: never settle twice, even if the attempt failed. */
  settling: boolean;
}

const slots = new WeakMap<FastifyRequest, SpendSlot>();

function slotOf(request: FastifyRequest): SpendSlot {
  let slot = slots.get(request);
  if (!slot) {
    slot = { reservation: null, settled: null, settling: false };
    slots.set(request, slot);
  }
  return slot;
}

async function spendPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('flowCharged', 0n);

  app.decorateRequest('reserveFlow', async function reserveFlow(this: FastifyRequest, cost) {
    const key = this.actor?.apiKey;
    if (!key) return;
    const slot = slotOf(this);
    if (slot.reservation) throw new Error('reserveFlow called twice in one request');
    slot.reservation = await reserveSpend(this.em, key.id, cost);
  });

  app.decorateRequest('settleFlow', async function settleFlow(this: FastifyRequest, actual) {
    const slot = slotOf(this);
    if (!slot.reservation || slot.settling) return;
    slot.settling = true;
    slot.settled = await settleSpend(this.em, slot.reservation, actual);
    this.flowCharged = actual;
    const key = this.actor?.apiKey;
    // Other instances cache this key's spend for its headers: tell them it moved.
    if (key && slot.reservation.cost > 0n) await app.access.apiKeys.invalidate(key.keyHash);
  });

  /** The `X-FLOW-*` headers; a 402 already carries those of the state that refused it. */
  function setHeaders(request: FastifyRequest, reply: FastifyReply, key: ApiKeyCredential) {
    if (reply.hasHeader('x-flow-period-used')) return;
    // Else the key's spend as its cached credential knows it (requests that charged nothing).
    const state = slots.get(request)?.settled ?? spendState(key, new Date());
    reply.headers(spendHeaders(state, request.flowCharged));
  }

  // Callback style: a request without a key, or a key request that reserved nothing (every
  // read), passes with no promise and no database work: its headers come from the credential.
  app.addHook('onSend', (request, reply, payload, done) => {
    const key = request.actor?.apiKey;
    if (!key) return done(null, payload);
    const slot = slots.get(request);
    if (!slot?.reservation || slot.settling) {
      setHeaders(request, reply, key);
      return done(null, payload);
    }
    request.settleFlow(reply.statusCode < 400 ? slot.reservation.cost : 0n).then(() => {
      setHeaders(request, reply, key);
      done(null, payload);
    }, done);
  });
}

export default fp(spendPlugin, { name: 'spend', fastify: '5.x', dependencies: ['auth'] });
