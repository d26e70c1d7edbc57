import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
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
 * Crypto Pay (@CryptoBot), https://help.send.tg/en/articles/10279948-crypto-pay-api: every method
 * is `<apiUrl>/<method>` with the app token in `Crypto-Pay-API-Token`, answered with
 * `{ok: true, result}` or `{ok: false, error: {code, name}}`. We issue fiat invoices in USD (the
 * payer picks the crypto asset) carrying our payment id as `payload`. Webhooks are signed:
 * `crypto-pay-api-signature` is the hex HMAC-SHA-256 of the raw body keyed by SHA-256(token).
 */

export const CRYPTO_PAY_SIGNATURE_HEADER = 'crypto-pay-api-signature';
/** `expires_in` bounds the API accepts (1 s to 31 days). */
const EXPIRES_IN_MAX_SECONDS = 2_678_400;
const DESCRIPTION_MAX_CHARS = 1024;

export interface CryptoBotConfig {
  /** E.g. `https://pay.crypt.bot/api`, no trailing slash. */
  apiUrl: string;
  token: string;
}

export interface CryptoBotOptions {
  /** `accepted_assets` (e.g. `['USDT', 'TON']`); default: every asset Crypto Pay offers. */
  acceptedAssets?: readonly string[];
  now?: () => Date;
}

/** The signature Crypto Pay sends for `rawBody`: hex HMAC-SHA-256 keyed by SHA-256(token). */
export function cryptoPaySignature(token: string, rawBody: Buffer | string): string {
  const key = createHash('sha256').update(token, 'utf8').digest();
  return createHmac('sha256', key).update(rawBody).digest('hex');
}

/** Whether `header` is Crypto Pay's signature of exactly these bytes (constant-time compare). */
export function verifyCryptoPaySignature(
  token: string,
  rawBody: Buffer,
  header: string | string[] | undefined,
): boolean {
  // One header, 32 bytes of hex: anything else (missing, repeated, truncated) is not a signature.
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = Buffer.from(cryptoPaySignature(token, rawBody), 'hex');
  return timingSafeEqual(Buffer.from(header, 'hex'), expected);
}

const invoiceSchema = z.object({
  invoice_id: z.number().int().nonnegative(),
  status: z.string(),
  currency_type: z.string().optional(),
  fiat: z.string().optional(),
  amount: z.string(),
  payload: z.string().optional(),
  bot_invoice_url: z.string().optional(),
  mini_app_invoice_url: z.string().optional(),
  web_app_invoice_url: z.string().optional(),
  /** Deprecated since API 1.2 in favour of `bot_invoice_url`; read as a last resort. */
  pay_url: z.string().optional(),
  expiration_date: z.string().optional(),
});
type Invoice = z.infer<typeof invoiceSchema>;

const envelopeSchema = z.object({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.object({ code: z.number().optional(), name: z.string().optional() }).optional(),
});

const updateSchema = z.object({
  update_type: z.string(),
  request_date: z.string().optional(),
  payload: invoiceSchema,
});

export function createCryptoBotProvider(
  config: CryptoBotConfig,
  outbound: OutboundClient,
  options: CryptoBotOptions = {},
): HttpPaymentProvider {
  const now = options.now ?? (() => new Date());

  async function call<T>(method: string, params: object, schema: z.ZodType<T>): Promise<T> {
    let response: OutboundResponse;
    try {
      response = await outbound.postJson(`${config.apiUrl}/${method}`, JSON.stringify(params), {
        'Crypto-Pay-API-Token': config.token,
      });
    } catch (error) {
      const reason = error instanceof OutboundError ? error.message : 'request failed';
      throw new ProviderError('cryptobot', `${method}: ${reason}`, { cause: error });
    }
    const envelope = envelopeSchema.safeParse(parseJson(response.body));
    if (!envelope.success) {
      throw new ProviderError('cryptobot', `${method}: HTTP ${response.status}, not an API answer`);
    }
    if (!envelope.data.ok) {
      // The error name is an upper-case constant (UNAUTHORIZED, EXPIRES_IN_INVALID, ...).
      const name = envelope.data.error?.name ?? '';
      const safe = /^[A-Z0-9_]{1,64}$/.test(name) ? name : 'error';
      throw new ProviderError('cryptobot', `${method}: ${safe} (HTTP ${response.status})`);
    }
    const result = schema.safeParse(envelope.data.result);
    if (!result.success) throw new ProviderError('cryptobot', `${method}: unexpected result`);
    return result.data;
  }

  async function createInvoice(request: InvoiceRequest): Promise<ProviderInvoice> {
    const started = now();
    const expiresIn = Math.min(
      EXPIRES_IN_MAX_SECONDS,
      Math.max(1, Math.ceil((request.expiresAt.getTime() - started.getTime()) / 1000)),
    );
    const invoice = await call(
      'createInvoice',
      {
        currency_type: 'fiat',
        fiat: 'USD',
        amount: centsToDecimal(request.amountUsdCents),
        description: request.description.slice(0, DESCRIPTION_MAX_CHARS),
        payload: request.paymentId,
        expires_in: expiresIn,
        ...(options.acceptedAssets ? { accepted_assets: options.acceptedAssets.join(',') } : {}),
      },
      invoiceSchema,
    );
    // The bot link opens the invoice in Telegram on any device (t.me hands over to the app or
    // the web client); the Mini App and web-app links are narrower fallbacks.
    const checkoutUrl =
      invoice.bot_invoice_url ??
      invoice.mini_app_invoice_url ??
      invoice.web_app_invoice_url ??
      invoice.pay_url;
    if (!checkoutUrl) throw new ProviderError('cryptobot', 'createInvoice: no invoice URL');
    const expiration = invoice.expiration_date ? new Date(invoice.expiration_date) : null;
    return {
      providerInvoiceId: String(invoice.invoice_id),
      checkoutUrl,
      expiresAt:
        expiration && !Number.isNaN(expiration.getTime())
          ? expiration
          : new Date(started.getTime() + expiresIn * 1000),
    };
  }

  async function fetchStatus(providerInvoiceId: string): Promise<ProviderPaymentState> {
    if (!/^\d{1,20}$/.test(providerInvoiceId)) {
      throw new ProviderError('cryptobot', 'getInvoices: invoice id is not a number');
    }
    const { items } = await call(
      'getInvoices',
      { invoice_ids: providerInvoiceId },
      z.object({ items: z.array(invoiceSchema) }),
    );
    const invoice = items.find((item) => String(item.invoice_id) === providerInvoiceId);
    if (!invoice) throw new ProviderError('cryptobot', 'getInvoices: invoice not found');
    return stateOf(invoice);
  }

  /**
   * The signature covers the exact body, so a valid one proves Crypto Pay said it. A stale
   * `request_date` is deliberately NOT refused: Crypto Pay retries a webhook for up to 3 days
   * (API 1.5.2), and a replay of a genuine `invoice_paid` only restates a permanent fact that
   * the caller deduplicates by `providerPaymentId`.
   */
  async function verifyCallback(request: CallbackRequest): Promise<ProviderPaymentState | null> {
    const header = request.headers[CRYPTO_PAY_SIGNATURE_HEADER];
    if (!verifyCryptoPaySignature(config.token, request.rawBody, header)) return null;
    const update = updateSchema.safeParse(parseJson(request.rawBody.toString('utf8')));
    // Authentic but unreadable: the provider answered something we cannot use.
    if (!update.success) throw new ProviderError('cryptobot', 'callback: not an invoice update');
    if (update.data.update_type !== 'invoice_paid') {
      throw new ProviderError('cryptobot', 'callback: unknown update_type');
    }
    return stateOf(update.data.payload);
  }

  return { name: 'cryptobot', createInvoice, verifyCallback, fetchStatus };
}

function stateOf(invoice: Invoice): ProviderPaymentState {
  const id = String(invoice.invoice_id);
  return {
    providerInvoiceId: id,
    paymentId: invoice.payload ?? null,
    status: invoice.status === 'paid' ? 'paid' : invoice.status === 'active' ? 'pending' : 'failed',
    // An invoice is paid at most once, so its id identifies the confirming payment.
    providerPaymentId: id,
    amountUsdCents:
      invoice.currency_type === 'fiat' && invoice.fiat === 'USD'
        ? decimalToCents(invoice.amount)
        : null,
  };
}

/** 1234 → "12.34" (Crypto Pay takes amounts as decimal strings). */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) {
    throw new ProviderError('cryptobot', 'amount must be a positive whole number of cents');
  }
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "12.5" → 1250; null when not a whole number of cents (e.g. "0.001"). */
export function decimalToCents(amount: string): number | null {
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(amount);
  if (!match?.[1]) return null;
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(2))) return null;
  return Number(match[1]) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
