import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { confirmPayment } from '../../../shared/payments/confirm';
import type { HttpProviders } from '../../../shared/payments/invoices';
import {
  ProviderError,
  type CallbackRequest,
  type HttpProviderName,
} from '../../../shared/payments/provider';
import { signalLifecycle, type LifecycleDeps } from '../../../shared/payments/lifecycle-signal';
import { isUuid } from '../../wire';

export interface CallbackDeps extends LifecycleDeps {
  em: EntityManager;
  providers: HttpProviders;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** A payment a callback names; `amountUsdCents` is a `bigint`, as a string. */
interface CalledPaymentRow {
  id: string;
  amountUsdCents: string;
}

/** By the provider's invoice id first, else by our payment id (the payload we sent). */
const paymentOfInvoice = statement<
  CalledPaymentRow,
  [provider: HttpProviderName, providerInvoiceId: string, paymentId: string | null]
>(
  'payments.of_callback',
  `select id, amount_usd_cents as "amountUsdCents" from payments
    where provider = $1 and (provider_invoice_id = $2 or id = $3::uuid)
    order by (provider_invoice_id = $2) desc nulls last limit 1`,
);

/** Our payment behind a provider's invoice: by the invoice id, or the payload we sent. */
async function paymentOf(
  em: EntityManager,
  provider: HttpProviderName,
  providerInvoiceId: string,
  paymentId: string | null,
): Promise<CalledPaymentRow | null> {
  const byPayload = paymentId !== null && isUuid(paymentId) ? paymentId : null;
  const row = await sqlOf(em).row(paymentOfInvoice, [provider, providerInvoiceId, byPayload]);
  return row ?? null;
}

/**
 * A provider's callback (`POST /payments/<provider>/callback`). Authenticated by the
 * provider's own scheme (a bad one is 401 `invalid_signature` and changes nothing), then
 * idempotent per payment: the first confirmation marks it paid and records
 * `payment.received`; repeats, also concurrent ones on other API instances, only repeat the
 * signal to the lifecycle workflow while the payment is not yet applied. Anything the service
 * cannot act on (an unknown invoice, a state other than paid) is acknowledged and logged, so
 * the provider stops retrying; a failure on our side is a 503, so it retries. The caller is
 * a provider, not a user: `(deps, input)`, no actor.
 */
export async function handleCallback(
  deps: CallbackDeps,
  input: CallbackRequest & { provider: string },
): Promise<{ ok: true }> {
  const { provider: name, ...request } = input;
  const provider = Object.hasOwn(deps.providers, name)
    ? deps.providers[name as HttpProviderName]
    : undefined;
  if (!provider) {
    throw new AppError(
      'provider_unsupported',
      `provider: ${name.slice(0, 32)} is not enabled here`,
    );
  }
  let state;
  try {
    state = await provider.verifyCallback(request);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.logger.warn({ provider: provider.name, detail: error.detail }, 'callback not verified');
    throw new AppError('service_unavailable', 'The payment could not be checked; retry later');
  }
  if (!state) {
    deps.logger.warn({ provider: provider.name }, 'payment callback refused: not authentic');
    throw new AppError('invalid_signature', 'The callback is not signed by the provider');
  }
  const log = { provider: provider.name, providerInvoiceId: state.providerInvoiceId };
  if (state.status !== 'paid') {
    deps.logger.info({ ...log, status: state.status }, 'payment callback: not paid');
    return { ok: true };
  }
  const payment = await paymentOf(deps.em, provider.name, state.providerInvoiceId, state.paymentId);
  if (!payment) {
    deps.logger.warn(log, 'payment callback for an unknown invoice');
    return { ok: true };
  }
  if (state.amountUsdCents !== null && state.amountUsdCents < Number(payment.amountUsdCents)) {
    deps.logger.error(
      { ...log, paymentId: payment.id },
      'payment callback: amount below the invoice',
    );
    return { ok: true };
  }
  const confirmed = await confirmPayment(deps.em, {
    paymentId: payment.id,
    provider: provider.name,
    providerPaymentId: state.providerPaymentId,
    now: new Date(),
  });
  if (!confirmed) {
    deps.logger.warn(
      { ...log, paymentId: payment.id },
      'payment callback: already confirmed another payment',
    );
    return { ok: true };
  }
  if (confirmed.needsLifecycle) {
    try {
      await signalLifecycle(deps, confirmed.userId, { paymentConfirmed: confirmed.id });
    } catch (error) {
      deps.logger.error(
        { err: error, paymentId: confirmed.id },
        'subscription workflow not signalled',
      );
      throw new AppError('service_unavailable', 'The payment is recorded; retry to complete it');
    }
  }
  return { ok: true };
}
