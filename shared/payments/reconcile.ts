import type { EntityManager } from '@mikro-orm/postgresql';
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
  provider_invoice_id: string;
}

/** Pending invoices of the HTTP providers, newest first: one user's, or all recent ones. */
export async function openInvoices(
  em: EntityManager,
  scope: { userId: number; subscriptionsOnly: true } | { createdAfter: Date },
  limit: number,
): Promise<OpenInvoice[]> {
  const [where, params] =
    'userId' in scope
      ? [`user_id = ? and purpose <> 'topup'`, [scope.userId]]
      : [`created_at > ?`, [scope.createdAfter]];
  return em.execute<OpenInvoice[]>(
    `select id, provider, provider_invoice_id from payments
     where ${where} and status = 'pending' and provider_invoice_id is not null
     order by created_at desc limit ${limit}`,
    params,
  );
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
      const found = await provider.fetchStatus(invoice.provider_invoice_id);
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
