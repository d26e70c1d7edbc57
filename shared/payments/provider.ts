/**
 * Payment providers behind one interface (docs/payments.md). The HTTP providers (Crypto Pay,
 * Platega) speak their real protocols to a configurable base URL, so tests and `npm run dev`
 * run faithful loopback servers of each; `usdt_bep20` has no API (the chain indexer confirms
 * its transfers) and is not an `HttpPaymentProvider`.
 */

export const PROVIDERS = ['cryptobot', 'platega', 'usdt_bep20'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export type HttpProviderName = Exclude<ProviderName, 'usdt_bep20'>;

export interface InvoiceRequest {
  /** Our payment id: sent to the provider as its payload / order reference. */
  paymentId: string;
  amountUsdCents: number;
  /** Shown to the payer, e.g. "pro subscription, 1 month". */
  description: string;
  /** The invoice should not be payable after this (providers round to what they support). */
  expiresAt: Date;
}

export interface ProviderInvoice {
  /** The provider's id of the invoice (Crypto Pay `invoice_id`, Platega `transactionId`). */
  providerInvoiceId: string;
  /** Where the payer goes to pay. */
  checkoutUrl: string;
  /** When the provider stops accepting payment for it. */
  expiresAt: Date;
}

/** What a provider says about an invoice, from a verified callback or a status fetch. */
export interface ProviderPaymentState {
  providerInvoiceId: string;
  /** Our payment id, when the provider echoes it back (payload). */
  paymentId: string | null;
  /** `paid`: the money arrived; `failed`: canceled or expired at the provider. */
  status: 'pending' | 'paid' | 'failed';
  /** Identifies the confirming payment at the provider: unique per provider. */
  providerPaymentId: string;
  /** The amount the provider reports, in US cents (null when it reports another currency). */
  amountUsdCents: number | null;
}

export interface CallbackRequest {
  /** The body exactly as received: signatures are computed over these bytes. */
  rawBody: Buffer;
  /** Lower-case header names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
}

/** A provider refused a call or answered something we cannot use. `detail` is safe to log. */
export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderName,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${detail}`, options);
    this.name = 'ProviderError';
  }
}

export interface HttpPaymentProvider {
  readonly name: HttpProviderName;
  /** Asks the provider for an invoice. Throws `ProviderError` when it refuses or is unreachable. */
  createInvoice(request: InvoiceRequest): Promise<ProviderInvoice>;
  /**
   * Authenticates a callback by the provider's own scheme and reads it. Null when the request
   * is not authentic (the route answers 401 and changes nothing). Implementations may ask the
   * provider for the invoice's state to confirm what an unsigned body claims.
   */
  verifyCallback(request: CallbackRequest): Promise<ProviderPaymentState | null>;
  /** The invoice's state at the provider now (renewal checks, reconciliation). */
  fetchStatus(providerInvoiceId: string): Promise<ProviderPaymentState>;
}

/** How long one provider API call may take (create an invoice, fetch its state). */
export const PROVIDER_TIMEOUT_MS = 15_000;
/** Provider answers are small JSON documents. */
export const PROVIDER_RESPONSE_MAX_BYTES = 1024 * 1024;
