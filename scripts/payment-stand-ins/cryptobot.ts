import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  checkoutHtml,
  closeServer,
  deliverCallback,
  handleSafely,
  listen,
  parseJsonObject,
  readBody,
  sendHtml,
  sendJson,
} from './common';

/**
 * A loopback Crypto Pay (https://help.send.tg/en/articles/10279948-crypto-pay-api) for tests and
 * `npm run dev`: `<url>/api/<method>` with the `Crypto-Pay-API-Token` header, parameters as a
 * query string, JSON or a form, the `{ok, result}` / `{ok: false, error: {code, name}}` envelope,
 * invoices in memory that expire, and the signed `invoice_paid` webhook. Each invoice's URLs
 * lead to a page here whose Pay button pays it.
 */

const ASSETS = ['USDT', 'TON', 'BTC', 'ETH', 'LTC', 'BNB', 'TRX', 'USDC'];
const FIATS = ['USD', 'EUR', 'RUB', 'BYN', 'UAH', 'GBP', 'CNY', 'KZT', 'UZS', 'GEL', 'TRY'];
const EXPIRES_IN_MAX = 2_678_400;

export interface CryptoPayInvoice {
  invoice_id: number;
  hash: string;
  currency_type: 'crypto' | 'fiat';
  asset?: string;
  fiat?: string;
  accepted_assets?: string[];
  amount: string;
  bot_invoice_url: string;
  mini_app_invoice_url: string;
  web_app_invoice_url: string;
  description?: string;
  status: 'active' | 'paid' | 'expired';
  created_at: string;
  allow_comments: boolean;
  allow_anonymous: boolean;
  expiration_date?: string;
  payload?: string;
  paid_btn_name?: string;
  paid_btn_url?: string;
  paid_asset?: string;
  paid_amount?: string;
  paid_usd_rate?: string;
  paid_fiat_rate?: string;
  fee_asset?: string;
  fee_amount?: string;
  paid_at?: string;
  paid_anonymously?: boolean;
}

export interface CryptoBotStandInOptions {
  /** The app token the stand-in accepts; default a random one. */
  token?: string;
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Where `invoice_paid` webhooks go; null: webhooks off (as an app without a webhook URL). */
  callbackUrl?: string | null;
}

export interface CryptoBotStandIn {
  /** `http://host:port`; the API is under `/api` (CRYPTOBOT_API_URL = `apiUrl`). */
  url: string;
  apiUrl: string;
  token: string;
  callbackUrl: string | null;
  /** Copies of the invoices created so far, oldest first. */
  invoices(): CryptoPayInvoice[];
  invoice(key: string | number): CryptoPayInvoice | undefined;
  /**
   * Pays an active invoice (by invoice id, hash or our payment id in `payload`) and POSTs the
   * signed `invoice_paid` webhook; resolves with the receiver's status (null: webhooks off).
   */
  pay(key: string | number): Promise<number | null>;
  /** Expires an active invoice now (Crypto Pay has no other failure, and sends no webhook). */
  expire(key: string | number): void;
  fail(key: string | number): void;
  close(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
  ) {
    super(errorName);
  }
}

export async function startCryptoBotStandIn(
  options: CryptoBotStandInOptions = {},
): Promise<CryptoBotStandIn> {
  const token = options.token ?? `${Date.now() % 100_000}:AA${randomBytes(16).toString('hex')}`;
  const invoices = new Map<number, CryptoPayInvoice>();
  let nextInvoiceId = 100_000 + Math.floor(Math.random() * 1_000);
  let nextUpdateId = 1;

  const server = createServer(handleSafely(route));
  const url = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);

  const standIn: CryptoBotStandIn = {
    url,
    apiUrl: `${url}/api`,
    token,
    callbackUrl: options.callbackUrl ?? null,
    invoices: () => [...invoices.values()].map((invoice) => ({ ...refresh(invoice) })),
    invoice: (key) => {
      const found = find(key);
      return found && { ...refresh(found) };
    },
    pay,
    expire,
    fail: expire,
    close: () => closeServer(server),
  };
  return standIn;

  /** Invoices expire when read, as the API reports them. */
  function refresh(invoice: CryptoPayInvoice): CryptoPayInvoice {
    if (
      invoice.status === 'active' &&
      invoice.expiration_date &&
      Date.parse(invoice.expiration_date) <= Date.now()
    ) {
      invoice.status = 'expired';
    }
    return invoice;
  }

  function find(key: string | number): CryptoPayInvoice | undefined {
    const text = String(key);
    if (/^\d+$/.test(text)) return invoices.get(Number(text));
    const all = [...invoices.values()].reverse();
    return all.find((invoice) => invoice.hash === text) ?? all.find((i) => i.payload === text);
  }

  function activeInvoice(key: string | number): CryptoPayInvoice {
    const invoice = find(key);
    if (!invoice) throw new Error(`cryptobot stand-in: no invoice ${String(key)}`);
    if (refresh(invoice).status !== 'active') {
      throw new Error(`cryptobot stand-in: invoice ${invoice.invoice_id} is ${invoice.status}`);
    }
    return invoice;
  }

  async function pay(key: string | number): Promise<number | null> {
    const invoice = activeInvoice(key);
    const asset = invoice.asset ?? 'USDT';
    Object.assign(invoice, {
      status: 'paid',
      paid_asset: asset,
      paid_amount: invoice.amount,
      paid_usd_rate: '1.00000000',
      paid_fiat_rate: '1.00000000',
      fee_asset: asset,
      fee_amount: (Number(invoice.amount) * 0.03).toFixed(8),
      paid_at: new Date().toISOString(),
      paid_anonymously: false,
    });
    if (!standIn.callbackUrl) return null;
    const body = JSON.stringify({
      update_id: nextUpdateId++,
      update_type: 'invoice_paid',
      request_date: new Date().toISOString(),
      payload: invoice,
    });
    // Crypto Pay's scheme: HMAC-SHA-256 of the body, keyed by the SHA-256 of the app token.
    const secret = createHash('sha256').update(token).digest();
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    return deliverCallback(standIn.callbackUrl, { 'crypto-pay-api-signature': signature }, body);
  }

  function expire(key: string | number): void {
    const invoice = activeInvoice(key);
    invoice.status = 'expired';
    invoice.expiration_date = new Date().toISOString();
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestUrl = new URL(request.url ?? '/', url);
    const raw = await readBody(request);
    const api = /^\/api\/([A-Za-z]+)$/.exec(requestUrl.pathname);
    if (api?.[1]) return answerApi(api[1], request, requestUrl, raw, response);
    const page = /^\/invoices\/([A-Za-z0-9]+)(\/pay)?$/.exec(requestUrl.pathname);
    if (page?.[1])
      return checkout(page[1], Boolean(page[2]) && request.method === 'POST', response);
    sendJson(response, 404, { ok: false, error: { code: 404, name: 'NOT_FOUND' } });
  }

  function answerApi(
    method: string,
    request: IncomingMessage,
    requestUrl: URL,
    raw: Buffer,
    response: ServerResponse,
  ): void {
    if (request.headers['crypto-pay-api-token'] !== token) {
      return sendJson(response, 401, { ok: false, error: { code: 401, name: 'UNAUTHORIZED' } });
    }
    try {
      const params = readParams(request, requestUrl, raw);
      sendJson(response, 200, { ok: true, result: callMethod(method, params) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      sendJson(response, error.status, {
        ok: false,
        error: { code: error.status, name: error.errorName },
      });
    }
  }

  function callMethod(method: string, params: Record<string, unknown>): unknown {
    switch (method) {
      case 'getMe':
        return { app_id: 1, name: 'stand-in', payment_processing_bot_username: 'CryptoBot' };
      case 'createInvoice':
        return createInvoice(params);
      case 'getInvoices':
        return { items: listInvoices(params) };
      default:
        throw new ApiError(405, 'METHOD_NOT_FOUND');
    }
  }

  function createInvoice(params: Record<string, unknown>): CryptoPayInvoice {
    const currencyType = text(params.currency_type) ?? 'crypto';
    if (currencyType !== 'crypto' && currencyType !== 'fiat') {
      throw new ApiError(400, 'CURRENCY_TYPE_INVALID');
    }
    const asset = text(params.asset);
    const fiat = text(params.fiat);
    if (currencyType === 'crypto' && !ASSETS.includes(asset ?? '')) {
      throw new ApiError(400, 'ASSET_INVALID');
    }
    if (currencyType === 'fiat' && !FIATS.includes(fiat ?? '')) {
      throw new ApiError(400, 'FIAT_INVALID');
    }
    const accepted = list(params.accepted_assets);
    if (accepted?.some((code) => !ASSETS.includes(code))) {
      throw new ApiError(400, 'ACCEPTED_ASSETS_INVALID');
    }
    const amount = text(params.amount);
    if (!amount || !/^\d+(\.\d+)?$/.test(amount) || !(Number(amount) > 0)) {
      throw new ApiError(400, 'AMOUNT_INVALID');
    }
    const description = text(params.description);
    if (description !== undefined && description.length > 1024) {
      throw new ApiError(400, 'DESCRIPTION_TOO_LONG');
    }
    const payload = text(params.payload);
    if (payload !== undefined && Buffer.byteLength(payload) > 4096) {
      throw new ApiError(400, 'PAYLOAD_TOO_LONG');
    }
    const expiresIn = params.expires_in === undefined ? undefined : Number(params.expires_in);
    if (
      expiresIn !== undefined &&
      (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > EXPIRES_IN_MAX)
    ) {
      throw new ApiError(400, 'EXPIRES_IN_INVALID');
    }
    const hash = `IV${randomBytes(6).toString('base64url').replace(/[-_]/g, 'x')}`;
    const invoice: CryptoPayInvoice = {
      invoice_id: nextInvoiceId++,
      hash,
      currency_type: currencyType,
      ...(currencyType === 'crypto'
        ? { asset }
        : { fiat, accepted_assets: accepted ?? [...ASSETS] }),
      amount,
      bot_invoice_url: `${url}/invoices/${hash}`,
      mini_app_invoice_url: `${url}/invoices/${hash}?via=mini_app`,
      web_app_invoice_url: `${url}/invoices/${hash}?via=web_app`,
      ...(description !== undefined ? { description } : {}),
      status: 'active',
      created_at: new Date().toISOString(),
      allow_comments: params.allow_comments !== false && params.allow_comments !== 'false',
      allow_anonymous: params.allow_anonymous !== false && params.allow_anonymous !== 'false',
      ...(expiresIn !== undefined
        ? { expiration_date: new Date(Date.now() + expiresIn * 1000).toISOString() }
        : {}),
      ...(payload !== undefined ? { payload } : {}),
      ...(text(params.paid_btn_name) ? { paid_btn_name: text(params.paid_btn_name) } : {}),
      ...(text(params.paid_btn_url) ? { paid_btn_url: text(params.paid_btn_url) } : {}),
    };
    invoices.set(invoice.invoice_id, invoice);
    return invoice;
  }

  function listInvoices(params: Record<string, unknown>): CryptoPayInvoice[] {
    const ids = list(params.invoice_ids)?.map(Number);
    const status = text(params.status);
    const offset = Number(params.offset ?? 0);
    const count = Math.min(1000, Number(params.count ?? 100));
    return [...invoices.values()]
      .map(refresh)
      .filter((invoice) => !ids || ids.includes(invoice.invoice_id))
      .filter((invoice) => !status || invoice.status === status)
      .reverse()
      .slice(offset, offset + count);
  }

  async function checkout(hash: string, paying: boolean, response: ServerResponse) {
    const invoice = find(hash);
    if (!invoice || invoice.hash !== hash) return sendHtml(response, 404, 'No such invoice');
    let notice: string | undefined;
    if (paying) {
      try {
        const status = await pay(invoice.invoice_id);
        notice = status === null ? 'Paid (webhooks off).' : `Paid; the webhook got HTTP ${status}.`;
      } catch (error) {
        notice = error instanceof Error ? error.message : 'payment failed';
      }
    }
    refresh(invoice);
    sendHtml(
      response,
      200,
      checkoutHtml({
        provider: 'Crypto Pay',
        rows: [
          ['Invoice', String(invoice.invoice_id)],
          ['Amount', `${invoice.amount} ${invoice.fiat ?? invoice.asset ?? ''}`],
          ['Description', invoice.description ?? ''],
          ['Status', invoice.status],
          ['Expires', invoice.expiration_date ?? 'never'],
          ...(invoice.status === 'paid' && invoice.paid_btn_url
            ? ([['Continue', invoice.paid_btn_url]] as [string, string][])
            : []),
        ],
        payAction: invoice.status === 'active' ? `/invoices/${hash}/pay` : null,
        ...(notice ? { notice } : {}),
      }),
    );
  }
}

/** The real API takes parameters as a query string, JSON, or a urlencoded form. */
function readParams(request: IncomingMessage, requestUrl: URL, raw: Buffer) {
  const params: Record<string, unknown> = Object.fromEntries(requestUrl.searchParams);
  const type = request.headers['content-type'] ?? '';
  if (raw.length === 0) return params;
  if (type.startsWith('application/json')) {
    const body = parseJsonObject(raw);
    if (!body) throw new ApiError(400, 'JSON_INVALID');
    return { ...params, ...body };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { ...params, ...Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
  }
  return params;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** "a,b" or ["a", "b"]. */
function list(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  const joined = text(value);
  return joined === undefined ? undefined : joined.split(',').map((item) => item.trim());
}
