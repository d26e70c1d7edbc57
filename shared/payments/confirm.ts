import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentPurpose } from '../db/entities/payment';
import { flowNumber } from '../domain/flow';
import { usdNumber } from '../domain/billing';
import { sqlOf, statement } from '../db/sql';
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

/** A payment as its confirmation needs it (`bigint` amounts as strings). */
interface PaidRow {
  userId: number;
  purpose: PaymentPurpose;
  provider: ProviderName;
  amountUsdCents: string;
  amountFlow: string | null;
  /** Applied by the lifecycle workflow already. */
  applied: boolean;
  status: string;
}

const PAID_COLUMNS = `user_id as "userId", purpose, provider, amount_usd_cents as "amountUsdCents",
  amount_flow as "amountFlow", applied_at is not null as applied, status`;

/** The conditional UPDATE that makes a payment paid: only one confirmation gets its row. */
const markPaid = statement<
  PaidRow,
  [providerPaymentId: string, now: Date, paymentId: string, provider: ProviderName]
>(
  'payments.mark_paid',
  `update payments set status = 'paid', provider_payment_id = $1, paid_at = $2, updated_at = $2
    where id = $3 and provider = $4 and status <> 'paid'
    returning ${PAID_COLUMNS}`,
);

/** The payment as it is, for a confirmation that did not make it paid. */
const paymentByProvider = statement<PaidRow, [paymentId: string, provider: ProviderName]>(
  'payments.by_provider',
  `select ${PAID_COLUMNS} from payments where id = $1 and provider = $2`,
);

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
      const paid = await sqlOf(tx).row(markPaid, [
        confirmation.providerPaymentId,
        confirmation.now,
        confirmation.paymentId,
        confirmation.provider,
      ]);
      if (!paid) return alreadyPaid(tx, confirmation);
      await recordPaid(tx, confirmation, paid);
      return {
        id: confirmation.paymentId,
        userId: paid.userId,
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
  const row = await sqlOf(em).row(paymentByProvider, [
    confirmation.paymentId,
    confirmation.provider,
  ]);
  if (!row || row.status !== 'paid') return null;
  return {
    id: confirmation.paymentId,
    userId: row.userId,
    purpose: row.purpose,
    needsLifecycle: row.purpose !== 'topup' && !row.applied,
    newlyPaid: false,
  };
}

async function recordPaid(em: EntityManager, confirmation: Confirmation, paid: PaidRow) {
  const amountFlow = paid.amountFlow === null ? 0n : BigInt(paid.amountFlow);
  if (paid.purpose === 'topup' && amountFlow > 0n) {
    await creditUser(em, paid.userId, amountFlow, {
      reason: 'topup',
      refType: TOPUP_REF_TYPE,
      refId: confirmation.paymentId,
      metadata: { provider: paid.provider, amountUsd: usdNumber(BigInt(paid.amountUsdCents)) },
      now: confirmation.now,
    });
  }
  await enqueueOutboxEvent(em, {
    userId: paid.userId,
    event: 'payment.received',
    data: {
      payment_id: confirmation.paymentId,
      purpose: paid.purpose,
      provider: paid.provider,
      amount_usd: usdNumber(BigInt(paid.amountUsdCents)),
      amount_flow: flowNumber(amountFlow),
    },
    dedupeKey: `payment.received:${confirmation.paymentId}`,
  });
}
