import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { OutboundError, type OutboundClient, type OutboundResponse } from '../net/outbound-client';
import {
  ProviderError,
  type CallbackRequest,
  type HttpPaymentProvider,
  type InvoiceRequest,
  type ProviderInvoice,
  type ProviderPaymentState,
} from './provider';

/**
 * Platega (https://docs.platega.io): `POST <apiUrl>/transaction/process` creates a transaction
 * and answers its `redirect` (the payment page); `GET <apiUrl>/transaction/<id>` reads it. Both
 * authenticate with the `X-MerchantId` and `X-Secret` headers. Callbacks carry those same two
 * headers and an unsigned JSON body, so a callback is believed only where Platega's own record
 * of the transaction agrees with it.
 *
 * Platega charges in rubles (SBP, Russian cards): amounts go out in `currency` at `ratePerUsd`
 * units per US dollar, rounded to the kopeck.
 */

export interface PlategaConfig {
  /** E.g. `https://app.platega.io`, no trailing slash. */
  apiUrl: string;
  merchantId: string;
  secret: string;
}

export interface PlategaOptions {
  /** Platega's method id: 2 SBP QR, 11 card acquiring, 12 international, 13 crypto, ... */
  paymentMethod?: number;
  /** ISO code sent as `paymentDetails.currency`. */
  currency?: string;
  /** Units of `currency` per 1 USD (1 for USD). */
  ratePerUsd?: number;
  /** Where Platega sends the payer after paying (`return`) and after a failure (`failedUrl`). */
  returnUrl?: string;
  failedUrl?: string;
  now?: () => Date;
}

/** Fallbacks of an adapter built without options (configuration always passes its own). */
export const PLATEGA_DEFAULTS = { paymentMethod: 2, currency: 'RUB', ratePerUsd: 100 } as const;

/** Whether a callback carries our own merchant id and secret (both compared in constant time). */
export function plategaCredentialsMatch(
  headers: CallbackRequest['headers'],
  merchantId: string,
  secret: string,
): boolean {
  const givenId = headers['x-merchantid'];
  const givenSecret = headers['x-secret'];
  if (typeof givenId !== 'string' || typeof givenSecret !== 'string') return false;
  // Both comparisons always run, over digests of equal length, so timing says nothing.
  const idMatches = sameSecret(givenId, merchantId);
  const secretMatches = sameSecret(givenSecret, secret);
  return idMatches && secretMatches && merchantId !== '' && secret !== '';
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** `paymentDetails` is an object, though some endpoints answer it as "100 RUB". */
const detailsSchema = z.union([
  z.object({ amount: z.number(), currency: z.string() }),
  z.string().transform((text, ctx) => {
    const match = /^\s*([\d.,]+)\s+([A-Za-z]+)\s*$/.exec(text);
    const amount = Number(match?.[1]?.replace(',', '.'));
    if (!match?.[2] || !Number.isFinite(amount)) {
      ctx.addIssue({ code: 'custom', message: 'not "<amount> <currency>"' });
      return z.NEVER;
    }
    return { amount, currency: match[2] };
  }),
]);

const createdSchema = z.object({
  transactionId: z.string().min(1),
  redirect: z.string().min(1),
  status: z.string(),
  expiresIn: z.string().nullish(),
});

const transactionSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  paymentDetails: detailsSchema,
  payload: z.string().nullish(),
});
type Transaction = z.infer<typeof transactionSchema>;

const callbackSchema = z.object({
  id: z.string().min(1),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  payload: z.string().nullish(),
});

export function createPlategaProvider(
  config: PlategaConfig,
  outbound: OutboundClient,
  options: PlategaOptions = {},
): HttpPaymentProvider {
  const now = options.now ?? (() => new Date());
  const paymentMethod = options.paymentMethod ?? PLATEGA_DEFAULTS.paymentMethod;
  const currency = options.currency ?? PLATEGA_DEFAULTS.currency;
  const ratePerUsd = options.ratePerUsd ?? (currency === 'USD' ? 1 : PLATEGA_DEFAULTS.ratePerUsd);
  const headers = { 'X-MerchantId': config.merchantId, 'X-Secret': config.secret };

  async function send(what: string, call: () => Promise<OutboundResponse>) {
    try {
      return await call();
    } catch (error) {
      const reason = error instanceof OutboundError ? error.message : 'request failed';
      throw new ProviderError('platega', `${what}: ${reason}`, { cause: error });
    }
  }

  /** A refusal as a safe detail: status, and Platega's `message` without our credentials. */
  function refused(what: string, response: OutboundResponse): ProviderError {
    const body = parseJson(response.body);
    const message =
      typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
    const text =
      typeof message === 'string'
        ? message
            .split(config.secret)
            .join('[secret]')
            .split(config.merchantId)
            .join('[merchant]')
            .replace(/[^\p{L}\p{N} .,:;'()_-]/gu, '')
            .slice(0, 120)
        : '';
    return new ProviderError(
      'platega',
      `${what}: HTTP ${response.status}${text ? `, ${text}` : ''}`,
    );
  }

  async function createInvoice(request: InvoiceRequest): Promise<ProviderInvoice> {
    if (!Number.isSafeInteger(request.amountUsdCents) || request.amountUsdCents <= 0) {
      throw new ProviderError('platega', 'amount must be a positive whole number of cents');
    }
    const body = {
      paymentMethod,
      paymentDetails: { amount: Math.round(request.amountUsdCents * ratePerUsd) / 100, currency },
      description: request.description,
      ...(options.returnUrl ? { return: options.returnUrl } : {}),
      ...(options.failedUrl ? { failedUrl: options.failedUrl } : {}),
      payload: request.paymentId,
    };
    const started = now();
    const response = await send('transaction/process', () =>
      outbound.postJson(`${config.apiUrl}/transaction/process`, JSON.stringify(body), headers),
    );
    if (response.status < 200 || response.status > 299) {
      throw refused('transaction/process', response);
    }
    const created = createdSchema.safeParse(parseJson(response.body));
    if (!created.success)
      throw new ProviderError('platega', 'transaction/process: unexpected answer');
    // Platega sets the lifetime itself and tells it as a TimeSpan ("00:30:00", "1.00:00:00").
    const lifetimeMs = timeSpanMs(created.data.expiresIn);
    return {
      providerInvoiceId: created.data.transactionId,
      checkoutUrl: created.data.redirect,
      expiresAt: lifetimeMs === null ? request.expiresAt : new Date(started.getTime() + lifetimeMs),
    };
  }

  /** Platega's record of a transaction; null when it does not know the id. */
  async function readTransaction(id: string): Promise<Transaction | null> {
    if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) return null;
    const response = await send('transaction', () =>
      outbound.getJson(`${config.apiUrl}/transaction/${id}`, headers),
    );
    if (response.status === 404) return null;
    if (response.status < 200 || response.status > 299) throw refused('transaction', response);
    const record = transactionSchema.safeParse(parseJson(response.body));
    if (!record.success || record.data.id !== id) {
      throw new ProviderError('platega', 'transaction: unexpected answer');
    }
    return record.data;
  }

  async function fetchStatus(providerInvoiceId: string): Promise<ProviderPaymentState> {
    const record = await readTransaction(providerInvoiceId);
    if (!record) throw new ProviderError('platega', 'transaction: not found');
    return stateOf(record);
  }

  /**
   * The headers prove only that the sender knows our secret, and the body is unsigned, so the
   * transaction is read back from Platega: a body whose status, amount, currency or payload
   * differs from that record (a replayed callback with a changed body) is refused. Platega
   * unreachable throws (the route answers 5xx and Platega retries).
   */
  async function verifyCallback(request: CallbackRequest): Promise<ProviderPaymentState | null> {
    if (!plategaCredentialsMatch(request.headers, config.merchantId, config.secret)) return null;
    const claimed = callbackSchema.safeParse(parseJson(request.rawBody.toString('utf8')));
    if (!claimed.success) return null;
    const record = await readTransaction(claimed.data.id);
    if (!record) return null;
    const agrees =
      claimed.data.status === record.status &&
      kopecks(claimed.data.amount) === kopecks(record.paymentDetails.amount) &&
      claimed.data.currency.toUpperCase() === record.paymentDetails.currency.toUpperCase() &&
      (claimed.data.payload ?? null) === (record.payload ?? null);
    return agrees ? stateOf(record) : null;
  }

  return { name: 'platega', createInvoice, verifyCallback, fetchStatus };
}

function stateOf(record: Transaction): ProviderPaymentState {
  const { amount, currency } = record.paymentDetails;
  return {
    providerInvoiceId: record.id,
    paymentId: record.payload ?? null,
    // PENDING (and anything in between) waits; CANCELED, CHARGEBACKED, EXPIRED, FAILED are done
    // without money kept.
    status:
      record.status === 'CONFIRMED'
        ? 'paid'
        : ['CANCELED', 'CHARGEBACKED', 'EXPIRED', 'FAILED'].includes(record.status)
          ? 'failed'
          : 'pending',
    // A transaction is paid at most once, so its id identifies the confirming payment.
    providerPaymentId: record.id,
    amountUsdCents: currency.toUpperCase() === 'USD' ? kopecks(amount) : null,
  };
}

/** Hundredths of the amount, so 500 and 500.00 compare equal. */
function kopecks(amount: number): number {
  return Math.round(amount * 100);
}

/** A .NET TimeSpan ("[d.]hh:mm:ss[.fff]") in milliseconds; null when absent or unreadable. */
export function timeSpanMs(value: string | null | undefined): number | null {
  const match = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(value ?? '');
  if (!match) return null;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  return (
    ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 + Number(seconds) * 1000
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
