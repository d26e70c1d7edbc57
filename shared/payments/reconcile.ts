import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../db/sql';
import type { Logger } from '../logger';
import { confirmPayment, type ConfirmedPayment } from './confirm';
import type { HttpProviders } from './invoices';
import { ProviderError, type HttpProviderName } from './provider';

/**
 * Confirming payments whose callback never arrived, by asking the provider (docs/payments.md
 * "Lost callbacks"). Used by the subscription lifecycle before its time-driven steps (one
 * user's invoices) and by the payments reconciler (everyone's recent ones).
 */

export interface OpenInvoice {
  id: string;
  provider: string;
  providerInvoiceId: string;
}

const OPEN_INVOICE = `select id, provider, provider_invoice_id as "providerInvoiceId" from payments`;
const OPEN_AND_NEWEST = `status = 'pending' and provider_invoice_id is not null
  order by created_at desc limit $2`;

/** One user's open subscription invoices (top-ups left out), newest first. */
const usersOpenInvoices = statement<OpenInvoice, [userId: number, limit: number]>(
  'payments.open_invoices_of_user',
  `${OPEN_INVOICE} where user_id = $1 and purpose <> 'topup' and ${OPEN_AND_NEWEST}`,
);

/** Everyone's open invoices created after a time, newest first. */
const recentOpenInvoices = statement<OpenInvoice, [createdAfter: Date, limit: number]>(
  'payments.open_invoices_recent',
  `${OPEN_INVOICE} where created_at > $1 and ${OPEN_AND_NEWEST}`,
);

/** Pending invoices of the HTTP providers, newest first: one user's, or all recent ones. */
export async function openInvoices(
  em: EntityManager,
  scope: { userId: number; subscriptionsOnly: true } | { createdAfter: Date },
  limit: number,
): Promise<OpenInvoice[]> {
  return 'userId' in scope
    ? sqlOf(em).rows(usersOpenInvoices, [scope.userId, limit])
    : sqlOf(em).rows(recentOpenInvoices, [scope.createdAfter, limit]);
}

/**
 * Asks each invoice's provider for its state and confirms those paid there (once, as a
 * callback would). A provider that fails is logged and skipped: the next look asks again.
 */
export async function confirmPaidAtProvider(
  deps: { em: EntityManager; providers: HttpProviders; logger: Pick<Logger, 'info' | 'warn'> },
  invoices: readonly OpenInvoice[],
): Promise<ConfirmedPayment[]> {
  const confirmed: ConfirmedPayment[] = [];
  for (const invoice of invoices) {
    const provider = deps.providers[invoice.provider as HttpProviderName];
    if (!provider) continue;
    try {
      const found = await provider.fetchStatus(invoice.providerInvoiceId);
      if (found.status !== 'paid') continue;
      const payment = await confirmPayment(deps.em, {
        paymentId: invoice.id,
        provider: provider.name,
        providerPaymentId: found.providerPaymentId,
        now: new Date(),
      });
      if (!payment) continue;
      confirmed.push(payment);
      deps.logger.info({ paymentId: invoice.id }, 'payment confirmed by a status check');
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.logger.warn({ paymentId: invoice.id, detail: error.detail }, 'status check failed');
    }
  }
  return confirmed;
}
