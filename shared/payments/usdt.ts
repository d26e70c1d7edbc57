import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../db/sql';
import { confirmPayment, type ConfirmedPayment } from './confirm';

/**
 * Confirming `usdt_bep20` invoices from the chain (docs/payments.md "usdt_bep20"). The chain
 * indexer records every USDT `Transfer` to the treasury and, once its block is final, hands it
 * here: the exact amount names the invoice (`payments.amount_units`, unique among the chain's
 * pending invoices), and the transfer's block time must fall within the invoice's validity.
 */

/**
 * How far the chain's clock (block timestamps) and ours (an invoice's `created_at` and
 * `expires_at`) may disagree. Without it a payment sent in an invoice's last seconds could be
 * refused for a block stamped a little late.
 */
export const USDT_CLOCK_SKEW_MS = 5 * 60_000;

/** A final USDT transfer to the treasury. */
export interface UsdtTransfer {
  chainId: number;
  txHash: string;
  logIndex: number;
  /** Base units, as a decimal string. */
  value: string;
  blockTime: Date;
}

/** The provider payment id of a transfer: one log confirms at most one payment. */
export function usdtProviderPaymentId(transfer: Pick<UsdtTransfer, 'txHash' | 'logIndex'>) {
  return `${transfer.txHash.toLowerCase()}:${transfer.logIndex}`;
}

interface PaymentIdRow {
  id: string;
}

/**
 * The invoice a transfer pays: same chain, exactly its amount, not paid yet, and the block time
 * within the invoice's life (give or take the clock skew). An invoice's amount is unique only
 * among pending ones, so an expired invoice and a newer one may share it: the one whose life
 * contains the block time exactly comes first, then the pending one, then the newest.
 */
const invoiceForTransfer = statement<
  PaymentIdRow,
  [chainId: number, value: string, skew: string, blockTime: Date]
>(
  'payments.usdt_invoice_for_transfer',
  `select id from payments
    where provider = 'usdt_bep20' and chain_id = $1 and amount_units = $2::numeric
      and status in ('pending', 'expired')
      and created_at - $3::interval <= $4::timestamptz
      and $4::timestamptz <= expires_at + $3::interval
    order by (created_at <= $4::timestamptz and $4::timestamptz <= expires_at) desc,
             (status = 'pending') desc,
             created_at desc
    limit 1
    for update`,
);

/** The payment a transfer (its provider payment id) already confirmed. */
const paymentOfTransfer = statement<PaymentIdRow, [providerPaymentId: string]>(
  'payments.usdt_by_transfer',
  `select id from payments where provider = 'usdt_bep20' and provider_payment_id = $1`,
);

async function invoiceFor(em: EntityManager, transfer: UsdtTransfer): Promise<string | null> {
  const skew = `${USDT_CLOCK_SKEW_MS} milliseconds`;
  const row = await sqlOf(em).row(invoiceForTransfer, [
    transfer.chainId,
    transfer.value,
    skew,
    transfer.blockTime,
  ]);
  return row?.id ?? null;
}

/**
 * Confirms the invoice a final transfer pays, through `confirmPayment` (once per payment and
 * per transfer). Idempotent: a transfer that already confirmed a payment answers with that
 * payment again (not newly paid). Null: the transfer pays no invoice (a wrong amount, a late
 * or a second payment), and nothing changed.
 */
export async function confirmUsdtTransfer(
  em: EntityManager,
  transfer: UsdtTransfer,
  now: Date,
): Promise<ConfirmedPayment | null> {
  const providerPaymentId = usdtProviderPaymentId(transfer);
  const earlier = await sqlOf(em).row(paymentOfTransfer, [providerPaymentId]);
  const paymentId = earlier?.id ?? (await invoiceFor(em, transfer));
  if (paymentId === null) return null;
  return confirmPayment(em, { paymentId, provider: 'usdt_bep20', providerPaymentId, now });
}
