import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentPurpose } from '../db/entities/payment';
import { flowNumber } from '../domain/flow';
import { usdNumber } from '../domain/billing';
import { creditUser } from '../flow/ledger';
import { enqueueOutboxEvent } from '../outbox/outbox';
import type { ProviderName } from './provider';

/** Ledger rows of a confirmed top-up: reason `topup`, referencing the payment. */
export const TOPUP_REF_TYPE = 'payment';

export interface Confirmation {
  paymentId: string;
  provider: ProviderName;
  /** The provider's id of what paid it (unique per provider). */
  providerPaymentId: string;
  now: Date;
}

export interface ConfirmedPayment {
  id: string;
  userId: number;
  purpose: PaymentPurpose;
  /** Subscription payments not yet applied by the lifecycle workflow need a signal. */
  needsLifecycle: boolean;
  /** This call made it paid (false: it was paid before, by this or another confirmation). */
  newlyPaid: boolean;
}

interface PaidRow {
  user_id: number;
  purpose: PaymentPurpose;
  provider: ProviderName;
  amount_usd_cents: string;
  amount_flow: string | null;
  applied_at: Date | null;
  status: string;
}

/**
 * Marks a payment paid, once. One transaction: the conditional UPDATE decides which of any
 * number of concurrent confirmations (a callback delivered twice, to two API instances, or a
 * callback racing the chain indexer) wins; only the winner records `payment.received` and, for
 * a top-up, credits the FLOW. A provider payment id already used for another payment confirms
 * nothing (null). Returns null too for an unknown payment or one of another provider.
 */
export async function confirmPayment(
  em: EntityManager,
  confirmation: Confirmation,
): Promise<ConfirmedPayment | null> {
  try {
    return await em.transactional(async (tx) => {
      const [paid] = await tx.execute<PaidRow[]>(
        `update payments set status = 'paid', provider_payment_id = ?, paid_at = ?, updated_at = ?
         where id = ? and provider = ? and status <> 'paid'
         returning user_id, purpose, provider, amount_usd_cents, amount_flow, applied_at, status`,
        [
          confirmation.providerPaymentId,
          confirmation.now,
          confirmation.now,
          confirmation.paymentId,
          confirmation.provider,
        ],
      );
      if (!paid) return alreadyPaid(tx, confirmation);
      await recordPaid(tx, confirmation, paid);
      return {
        id: confirmation.paymentId,
        userId: paid.user_id,
        purpose: paid.purpose,
        needsLifecycle: paid.purpose !== 'topup',
        newlyPaid: true,
      };
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return null;
    throw error;
  }
}

async function alreadyPaid(
  em: EntityManager,
  confirmation: Confirmation,
): Promise<ConfirmedPayment | null> {
  const [row] = await em.execute<PaidRow[]>(
    `select user_id, purpose, provider, amount_usd_cents, amount_flow, applied_at, status
     from payments where id = ? and provider = ?`,
    [confirmation.paymentId, confirmation.provider],
  );
  if (!row || row.status !== 'paid') return null;
  return {
    id: confirmation.paymentId,
    userId: row.user_id,
    purpose: row.purpose,
    needsLifecycle: row.purpose !== 'topup' && row.applied_at === null,
    newlyPaid: false,
  };
}

async function recordPaid(em: EntityManager, confirmation: Confirmation, paid: PaidRow) {
  const amountFlow = paid.amount_flow === null ? 0n : BigInt(paid.amount_flow);
  if (paid.purpose === 'topup' && amountFlow > 0n) {
    await creditUser(em, paid.user_id, amountFlow, {
      reason: 'topup',
      refType: TOPUP_REF_TYPE,
      refId: confirmation.paymentId,
      metadata: { provider: paid.provider, amountUsd: usdNumber(BigInt(paid.amount_usd_cents)) },
      now: confirmation.now,
    });
  }
  await enqueueOutboxEvent(em, {
    userId: paid.user_id,
    event: 'payment.received',
    data: {
      payment_id: confirmation.paymentId,
      purpose: paid.purpose,
      provider: paid.provider,
      amount_usd: usdNumber(BigInt(paid.amount_usd_cents)),
      amount_flow: flowNumber(amountFlow),
    },
    dedupeKey: `payment.received:${confirmation.paymentId}`,
  });
}
