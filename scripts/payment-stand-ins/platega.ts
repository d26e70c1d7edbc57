import { randomUUID } from 'node:crypto';
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
 * A loopback Platega (https://docs.platega.io) for tests and `npm run dev`:
 * `POST /transaction/process` and `GET /transaction/<id>` behind the `X-MerchantId` / `X-Secret`
 * headers, transactions in memory that expire (PENDING → CANCELED), and the callback Platega
 * sends: the same two headers and `{id, amount, currency, status, paymentMethod, payload}`.
 * Each transaction's `redirect` leads to a page here with Pay and Cancel buttons.
 */

/** Method ids and the names Platega answers them with. */
const METHODS: Record<number, string> = {
  2: 'SBPQR',
  3: 'ERIP',
  10: 'CardRu',
  11: 'Card',
  12: 'International',
  13: 'Crypto',
  14: 'SberPay',
};

export type PlategaStatus = 'PENDING' | 'CONFIRMED' | 'CANCELED' | 'CHARGEBACKED';

export interface PlategaTransaction {
  id: string;
  status: PlategaStatus;
  paymentMethod: number;
  paymentDetails: { amount: number; currency: string };
  description: string;
  return?: string;
  failedUrl?: string;
  payload?: string;
  createdAt: string;
  expiresAt: string;
}

export interface PlategaStandInOptions {
  merchantId?: string;
  secret?: string;
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** The merchant's callback URL; null: no callbacks are sent. */
  callbackUrl?: string | null;
  /** Currencies `paymentDetails.currency` may name; default RUB only, as Platega's rails. */
  currencies?: readonly string[];
  /** How long a transaction can be paid; default 30 minutes. */
  ttlSeconds?: number;
}

export interface PlategaStandIn {
  /** PLATEGA_API_URL. */
  url: string;
  merchantId: string;
  secret: string;
  callbackUrl: string | null;
  transactions(): PlategaTransaction[];
  transaction(key: string): PlategaTransaction | undefined;
  /**
   * Confirms a PENDING transaction (by id or our payment id in `payload`) and sends the
   * CONFIRMED callback; resolves with the receiver's status (null: no callback URL).
   */
  pay(key: string): Promise<number | null>;
  /** Cancels a PENDING transaction and sends the CANCELED callback. */
  fail(key: string): Promise<number | null>;
  /** The payment window ran out: CANCELED, with its callback. */
  expire(key: string): Promise<number | null>;
  close(): Promise<void>;
}

export async function startPlategaStandIn(
  options: PlategaStandInOptions = {},
): Promise<PlategaStandIn> {
  const merchantId = options.merchantId ?? randomUUID();
  const secret = options.secret ?? randomUUID().replace(/-/g, '');
  const currencies = options.currencies ?? ['RUB'];
  const ttlMs = (options.ttlSeconds ?? 30 * 60) * 1000;
  const transactions = new Map<string, PlategaTransaction>();

  const server = createServer(handleSafely(route));
  const url = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);

  const standIn: PlategaStandIn = {
    url,
    merchantId,
    secret,
    callbackUrl: options.callbackUrl ?? null,
    transactions: () => [...transactions.values()].map((tx) => structuredClone(refresh(tx))),
    transaction: (key) => {
      const found = find(key);
      return found && structuredClone(refresh(found));
    },
    pay: (key) => settle(key, 'CONFIRMED'),
    fail: (key) => settle(key, 'CANCELED'),
    expire: (key) => settle(key, 'CANCELED'),
    close: () => closeServer(server),
  };
  return standIn;

  /** An unpaid transaction past its window is CANCELED when next read. */
  function refresh(tx: PlategaTransaction): PlategaTransaction {
    if (tx.status === 'PENDING' && Date.parse(tx.expiresAt) <= Date.now()) tx.status = 'CANCELED';
    return tx;
  }

  function find(key: string): PlategaTransaction | undefined {
    return (
      transactions.get(key) ?? [...transactions.values()].reverse().find((tx) => tx.payload === key)
    );
  }

  async function settle(key: string, status: 'CONFIRMED' | 'CANCELED'): Promise<number | null> {
    const tx = find(key);
    if (!tx) throw new Error(`platega stand-in: no transaction ${key}`);
    if (refresh(tx).status !== 'PENDING') {
      throw new Error(`platega stand-in: transaction ${tx.id} is ${tx.status}`);
    }
    tx.status = status;
    if (!standIn.callbackUrl) return null;
    const body = JSON.stringify({
      id: tx.id,
      amount: tx.paymentDetails.amount,
      currency: tx.paymentDetails.currency,
      status: tx.status,
      paymentMethod: tx.paymentMethod,
      ...(tx.payload !== undefined ? { payload: tx.payload } : {}),
    });
    return deliverCallback(
      standIn.callbackUrl,
      { 'X-MerchantId': merchantId, 'X-Secret': secret },
      body,
    );
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { pathname } = new URL(request.url ?? '/', url);
    const raw = await readBody(request);
    const page = /^\/pay\/([0-9a-f-]{36})(?:\/(pay|cancel))?$/.exec(pathname);
    if (page?.[1]) {
      const action = request.method === 'POST' ? page[2] : undefined;
      return checkout(page[1], action === 'pay' || action === 'cancel' ? action : null, response);
    }
    const authenticated =
      request.headers['x-merchantid'] === merchantId && request.headers['x-secret'] === secret;
    if (pathname === '/transaction/process' && request.method === 'POST') {
      if (!authenticated) return sendJson(response, 401, { message: 'Unauthorized' });
      return createTransaction(raw, response);
    }
    const read = /^\/transaction\/([^/]+)$/.exec(pathname);
    if (read?.[1] && request.method === 'GET') {
      if (!authenticated) return sendJson(response, 401, { message: 'Unauthorized' });
      const tx = transactions.get(decodeURIComponent(read[1]));
      if (!tx) return sendJson(response, 404, { message: 'Transaction not found' });
      return sendJson(response, 200, record(refresh(tx)));
    }
    sendJson(response, 404, { message: 'Not found' });
  }

  function createTransaction(raw: Buffer, response: ServerResponse): void {
    const body = parseJsonObject(raw);
    const details = body?.paymentDetails as { amount?: unknown; currency?: unknown } | undefined;
    const method = body?.paymentMethod;
    if (!body || typeof method !== 'number' || !METHODS[method]) {
      return sendJson(response, 400, { message: 'Payment method is not available' });
    }
    const amount = details?.amount;
    const hundredths = typeof amount === 'number' ? amount * 100 : NaN;
    if (
      typeof amount !== 'number' ||
      !(amount > 0) ||
      Math.abs(hundredths - Math.round(hundredths)) > 1e-6
    ) {
      return sendJson(response, 400, { message: 'Invalid amount' });
    }
    const currency = details?.currency;
    if (typeof currency !== 'string' || !currencies.includes(currency)) {
      return sendJson(response, 400, { message: `Currency ${String(currency)} is not supported` });
    }
    const optional = (name: string) =>
      typeof body[name] === 'string' ? { [name]: body[name] } : {};
    const now = Date.now();
    const tx: PlategaTransaction = {
      id: randomUUID(),
      status: 'PENDING',
      paymentMethod: method,
      paymentDetails: { amount, currency },
      description: typeof body.description === 'string' ? body.description : '',
      ...optional('return'),
      ...optional('failedUrl'),
      ...optional('payload'),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlMs).toISOString(),
    };
    transactions.set(tx.id, tx);
    sendJson(response, 200, {
      paymentMethod: METHODS[method],
      transactionId: tx.id,
      redirect: `${url}/pay/${tx.id}`,
      return: tx.return ?? null,
      paymentDetails: tx.paymentDetails,
      status: tx.status,
      expiresIn: timeSpan(ttlMs),
      merchantId,
      usdtRate: 95.5,
    });
  }

  /** `GET /transaction/<id>`, spelled as Platega spells it (`mechantId`, `comission`). */
  function record(tx: PlategaTransaction) {
    return {
      id: tx.id,
      status: tx.status,
      paymentDetails: tx.paymentDetails,
      merchantName: 'Stand-in merchant',
      mechantId: merchantId,
      comission: 0,
      paymentMethod: METHODS[tx.paymentMethod],
      expiresIn: timeSpan(Math.max(0, Date.parse(tx.expiresAt) - Date.now())),
      return: tx.return ?? null,
      comissionUsdt: 0,
      amountUsdt: Math.round((tx.paymentDetails.amount / 95.5) * 1e8) / 1e8,
      qr: `${url}/pay/${tx.id}`,
      payformSuccessUrl: tx.return ?? null,
      payload: tx.payload ?? null,
      comissionType: 0,
      externalId: null,
      description: tx.description,
    };
  }

  async function checkout(id: string, action: 'pay' | 'cancel' | null, response: ServerResponse) {
    const tx = transactions.get(id);
    if (!tx) return sendHtml(response, 404, 'No such transaction');
    let notice: string | undefined;
    if (action) {
      try {
        const status = await settle(id, action === 'pay' ? 'CONFIRMED' : 'CANCELED');
        notice = `${tx.status}; ${status === null ? 'no callback URL.' : `the callback got HTTP ${status}.`}`;
      } catch (error) {
        notice = error instanceof Error ? error.message : 'failed';
      }
    }
    const open = refresh(tx).status === 'PENDING';
    const next =
      tx.status === 'CONFIRMED' ? tx.return : tx.status === 'CANCELED' ? tx.failedUrl : undefined;
    sendHtml(
      response,
      200,
      checkoutHtml({
        provider: 'Platega',
        rows: [
          ['Transaction', tx.id],
          ['Amount', `${tx.paymentDetails.amount} ${tx.paymentDetails.currency}`],
          ['Method', METHODS[tx.paymentMethod] ?? String(tx.paymentMethod)],
          ['Description', tx.description],
          ['Status', tx.status],
          ['Expires', tx.expiresAt],
          ...(next ? ([['Continue', next]] as [string, string][]) : []),
        ],
        payAction: open ? `/pay/${id}/pay` : null,
        cancelAction: open ? `/pay/${id}/cancel` : null,
        ...(notice ? { notice } : {}),
      }),
    );
  }
}

/** Milliseconds as a .NET TimeSpan, the form Platega's `expiresIn` takes ("00:30:00"). */
function timeSpan(ms: number): string {
  const total = Math.floor(ms / 1000);
  const days = Math.floor(total / 86_400);
  const pad = (value: number) => String(value).padStart(2, '0');
  const clock = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return days > 0 ? `${days}.${clock}` : clock;
}
