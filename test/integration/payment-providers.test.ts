import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cryptoPaySignature } from '../../shared/payments/cryptobot';
import { createHttpProviders } from '../../shared/payments/http-providers';
import {
  ProviderError,
  type HttpPaymentProvider,
  type HttpProviderName,
  type ProviderPaymentState,
} from '../../shared/payments/provider';
import { startPaymentProviders, type TestPaymentProviders } from '../helpers/payment-providers';

/**
 * The Crypto Pay and Platega adapters against the loopback stand-ins, over real HTTP: invoices,
 * callbacks delivered by the stand-ins to a receiver that authenticates them as the service's
 * callback route does (verifyCallback: state → 200, null → 401), forged and altered callbacks,
 * status reads and provider errors.
 */

interface Delivery {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  state: ProviderPaymentState | null;
}

let providers: TestPaymentProviders;
let adapters: Partial<Record<HttpProviderName, HttpPaymentProvider>>;
let receiver: Server;
const deliveries: Record<HttpProviderName, Delivery[]> = { cryptobot: [], platega: [] };

function adapter(name: HttpProviderName): HttpPaymentProvider {
  const found = adapters[name];
  if (!found) throw new Error(`${name} is not configured`);
  return found;
}

/** The receiver: authenticates each callback with the adapter named by the path. */
async function startReceiver(): Promise<string> {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = request.url === '/cryptobot' ? 'cryptobot' : 'platega';
      const raw = Buffer.concat(chunks);
      adapter(name)
        .verifyCallback({ rawBody: raw, headers: request.headers })
        .then(
          (state) => {
            deliveries[name].push({ headers: request.headers, raw, state });
            response.writeHead(state ? 200 : 401).end();
          },
          () => response.writeHead(500).end(),
        );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  providers = await startPaymentProviders();
  adapters = createHttpProviders(providers.payments, providers.outbound);
  const base = await startReceiver();
  providers.cryptobot.callbackUrl = `${base}/cryptobot`;
  providers.platega.callbackUrl = `${base}/platega`;
});

afterAll(async () => {
  await providers.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

function invoiceRequest(amountUsdCents = 1234, ttlMs = 60 * 60_000) {
  return {
    paymentId: randomUUID(),
    amountUsdCents,
    description: 'pro subscription, 1 month',
    expiresAt: new Date(Date.now() + ttlMs),
  };
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ProviderError))
    throw new Error(`expected a ProviderError: ${String(error)}`);
  return error;
}

/** The same bytes with one JSON field replaced (`path` into nested objects). */
function altered(raw: Buffer, path: string[], value: unknown): Buffer {
  const body = JSON.parse(raw.toString('utf8'));
  let target = body;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]!] = value;
  return Buffer.from(JSON.stringify(body));
}

test('only configured providers are created', () => {
  expect(Object.keys(adapters).sort()).toEqual(['cryptobot', 'platega']);
  const none = createHttpProviders(
    { ...providers.payments, cryptobot: null, platega: null },
    providers.outbound,
  );
  expect(none).toEqual({});
});

describe('Crypto Pay', () => {
  it('creates a USD fiat invoice carrying our payment id and its expiry', async () => {
    const request = invoiceRequest(1234, 30 * 60_000);
    const sentAt = Date.now();
    const invoice = await adapter('cryptobot').createInvoice(request);
    const took = Date.now() - sentAt;

    const stored = providers.cryptobot.invoice(invoice.providerInvoiceId);
    expect(stored).toMatchObject({
      currency_type: 'fiat',
      fiat: 'USD',
      amount: '12.34',
      payload: request.paymentId,
      description: request.description,
      status: 'active',
    });
    expect(invoice.providerInvoiceId).toMatch(/^\d+$/);
    expect(invoice.checkoutUrl).toBe(stored!.bot_invoice_url);
    // The window travels as seconds from now: off by the rounding and however long the call
    // took (the stand-in counts from when it got the request).
    expect(Math.abs(invoice.expiresAt.getTime() - request.expiresAt.getTime())).toBeLessThan(
      2_000 + took,
    );

    const page = await fetch(invoice.checkoutUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('>Pay</button>');
  });

  it('reads pending, delivers a signed invoice_paid the adapter accepts, then reads paid', async () => {
    const cryptobot = adapter('cryptobot');
    const request = invoiceRequest(1999);
    const { providerInvoiceId } = await cryptobot.createInvoice(request);
    const expected = {
      providerInvoiceId,
      paymentId: request.paymentId,
      providerPaymentId: providerInvoiceId,
      amountUsdCents: 1999,
    };
    expect(await cryptobot.fetchStatus(providerInvoiceId)).toEqual({
      ...expected,
      status: 'pending',
    });

    expect(await providers.cryptobot.pay(request.paymentId)).toBe(200);

    const delivery = deliveries.cryptobot.at(-1)!;
    expect(delivery.headers['crypto-pay-api-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(delivery.raw.toString('utf8'))).toMatchObject({
      update_type: 'invoice_paid',
      payload: { invoice_id: Number(providerInvoiceId), status: 'paid' },
    });
    expect(delivery.state).toEqual({ ...expected, status: 'paid' });
    expect(await cryptobot.fetchStatus(providerInvoiceId)).toEqual({ ...expected, status: 'paid' });
  });

  it('refuses a callback that is forged, unsigned, or the genuine one with a field changed', async () => {
    const cryptobot = adapter('cryptobot');
    const request = invoiceRequest(500);
    await cryptobot.createInvoice(request);
    expect(await providers.cryptobot.pay(request.paymentId)).toBe(200);
    const genuine = deliveries.cryptobot.at(-1)!;
    const signature = genuine.headers['crypto-pay-api-signature'] as string;
    const headers = { 'crypto-pay-api-signature': signature };

    // Replayed as is, it is still authentic (see the adapter's note on request_date).
    expect(await cryptobot.verifyCallback({ rawBody: genuine.raw, headers })).not.toBeNull();

    const rawBody = genuine.raw;
    // Signed by someone holding another app's token (a forger's own Crypto Pay app).
    const forgedSignature = cryptoPaySignature('1234:AAforger-token', rawBody);
    expect(
      await cryptobot.verifyCallback({
        rawBody,
        headers: { 'crypto-pay-api-signature': forgedSignature },
      }),
    ).toBeNull();
    expect(await cryptobot.verifyCallback({ rawBody, headers: {} })).toBeNull();
    expect(
      await cryptobot.verifyCallback({
        rawBody,
        headers: { 'crypto-pay-api-signature': 'f'.repeat(64) },
      }),
    ).toBeNull();
    expect(
      await cryptobot.verifyCallback({
        rawBody,
        headers: { 'crypto-pay-api-signature': [signature, signature] },
      }),
    ).toBeNull();

    for (const [path, value] of [
      [['payload', 'amount'], '99.00'],
      [['payload', 'payload'], randomUUID()],
      [['payload', 'invoice_id'], 1],
      [['payload', 'status'], 'active'],
    ] as const) {
      const changed = altered(genuine.raw, [...path], value);
      expect(await cryptobot.verifyCallback({ rawBody: changed, headers })).toBeNull();
    }
    // Even re-serialising the same JSON differently breaks the signature over the bytes.
    const respaced = Buffer.from(JSON.stringify(JSON.parse(genuine.raw.toString()), null, 1));
    expect(await cryptobot.verifyCallback({ rawBody: respaced, headers })).toBeNull();
  });

  it('reports an expired invoice as failed, and pays through the checkout page', async () => {
    const cryptobot = adapter('cryptobot');
    const lapsing = await cryptobot.createInvoice(invoiceRequest(100, 1_000));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await cryptobot.fetchStatus(lapsing.providerInvoiceId)).status).toBe('failed');

    const expired = await cryptobot.createInvoice(invoiceRequest(100));
    providers.cryptobot.expire(expired.providerInvoiceId);
    expect((await cryptobot.fetchStatus(expired.providerInvoiceId)).status).toBe('failed');
    await expect(providers.cryptobot.pay(expired.providerInvoiceId)).rejects.toThrow('expired');

    const request = invoiceRequest(250);
    const invoice = await cryptobot.createInvoice(request);
    const before = deliveries.cryptobot.length;
    // What the page's Pay button does: a form POST to the stand-in.
    const page = await fetch(`${invoice.checkoutUrl}/pay`, { method: 'POST' });
    expect(await page.text()).toContain('the webhook got HTTP 200');
    expect(deliveries.cryptobot.slice(before).map((d) => d.state?.paymentId)).toEqual([
      request.paymentId,
    ]);
    expect((await cryptobot.fetchStatus(invoice.providerInvoiceId)).status).toBe('paid');
  });

  it('turns a refused token into a ProviderError that does not contain the token', async () => {
    const token = `${providers.cryptobot.token}-revoked`;
    const refused = createHttpProviders(
      { ...providers.payments, cryptobot: { ...providers.payments.cryptobot!, token } },
      providers.outbound,
    ).cryptobot!;
    const error = await providerError(refused.createInvoice(invoiceRequest()));
    expect(error.provider).toBe('cryptobot');
    expect(error.detail).toBe('createInvoice: UNAUTHORIZED (HTTP 401)');
    expect(error.message).not.toContain(token);
    const status = await providerError(refused.fetchStatus('1'));
    expect(status.detail).toBe('getInvoices: UNAUTHORIZED (HTTP 401)');
  });

  it('turns an unknown invoice and an unreachable API into ProviderErrors', async () => {
    expect((await providerError(adapter('cryptobot').fetchStatus('1'))).detail).toBe(
      'getInvoices: invoice not found',
    );
    const down = createHttpProviders(
      {
        ...providers.payments,
        cryptobot: {
          ...providers.payments.cryptobot!,
          apiUrl: 'http://127.0.0.1:9/api',
          token: 't',
        },
      },
      providers.outbound,
    ).cryptobot!;
    expect((await providerError(down.createInvoice(invoiceRequest()))).detail).toBe(
      'createInvoice: connection refused',
    );
  });
});

describe('Platega', () => {
  it('creates an SBP transaction in rubles carrying our payment id', async () => {
    const request = invoiceRequest(1234);
    const sentAt = Date.now();
    const invoice = await adapter('platega').createInvoice(request);
    const answeredAt = Date.now();

    const stored = providers.platega.transaction(invoice.providerInvoiceId);
    // 12.34 USD at the default 100 RUB/USD.
    expect(stored).toMatchObject({
      status: 'PENDING',
      paymentMethod: 2,
      paymentDetails: { amount: 1234, currency: 'RUB' },
      payload: request.paymentId,
      description: request.description,
    });
    expect(invoice.checkoutUrl).toBe(`${providers.platega.url}/pay/${invoice.providerInvoiceId}`);
    // Platega sets the window itself (the stand-in: 30 minutes from some instant of the call).
    expect(invoice.expiresAt.getTime() - (sentAt + 30 * 60_000)).toBeGreaterThan(-5_000);
    expect(invoice.expiresAt.getTime() - (answeredAt + 30 * 60_000)).toBeLessThan(5_000);
    const page = await fetch(invoice.checkoutUrl);
    expect(await page.text()).toContain('>Pay</button>');
  });

  it('reads pending, delivers a CONFIRMED callback the adapter accepts, then reads paid', async () => {
    const platega = adapter('platega');
    const request = invoiceRequest(1050);
    const { providerInvoiceId } = await platega.createInvoice(request);
    const expected = {
      providerInvoiceId,
      paymentId: request.paymentId,
      providerPaymentId: providerInvoiceId,
      amountUsdCents: null,
    };
    expect(await platega.fetchStatus(providerInvoiceId)).toEqual({
      ...expected,
      status: 'pending',
    });

    expect(await providers.platega.pay(request.paymentId)).toBe(200);

    const delivery = deliveries.platega.at(-1)!;
    expect(delivery.headers).toMatchObject({
      'x-merchantid': providers.platega.merchantId,
      'x-secret': providers.platega.secret,
    });
    expect(JSON.parse(delivery.raw.toString('utf8'))).toEqual({
      id: providerInvoiceId,
      amount: 1050,
      currency: 'RUB',
      status: 'CONFIRMED',
      paymentMethod: 2,
      payload: request.paymentId,
    });
    expect(delivery.state).toEqual({ ...expected, status: 'paid' });
    expect(await platega.fetchStatus(providerInvoiceId)).toEqual({ ...expected, status: 'paid' });
  });

  it('refuses a callback without our merchant id and secret', async () => {
    const request = invoiceRequest(300);
    await adapter('platega').createInvoice(request);
    expect(await providers.platega.pay(request.paymentId)).toBe(200);
    const { raw } = deliveries.platega.at(-1)!;
    const { merchantId, secret } = providers.platega;
    for (const headers of [
      {},
      { 'x-merchantid': merchantId },
      { 'x-merchantid': merchantId, 'x-secret': `${secret}x` },
      { 'x-merchantid': randomUUID(), 'x-secret': secret },
      { 'x-merchantid': merchantId, 'x-secret': [secret, secret] },
    ]) {
      expect(await adapter('platega').verifyCallback({ rawBody: raw, headers })).toBeNull();
    }
  });

  it('refuses a replayed callback whose body disagrees with Platega’s record', async () => {
    const platega = adapter('platega');
    const headers = {
      'x-merchantid': providers.platega.merchantId,
      'x-secret': providers.platega.secret,
    };
    const paid = invoiceRequest(700);
    await platega.createInvoice(paid);
    await providers.platega.pay(paid.paymentId);
    const confirmed = deliveries.platega.at(-1)!.raw;
    const canceledRequest = invoiceRequest(700);
    await platega.createInvoice(canceledRequest);
    expect(await providers.platega.fail(canceledRequest.paymentId)).toBe(200);
    const canceled = deliveries.platega.at(-1)!;
    expect(canceled.state).toMatchObject({
      status: 'failed',
      paymentId: canceledRequest.paymentId,
    });

    // Unchanged replays are true statements and pass.
    expect(await platega.verifyCallback({ rawBody: confirmed, headers })).not.toBeNull();
    for (const changed of [
      altered(canceled.raw, ['status'], 'CONFIRMED'),
      altered(confirmed, ['amount'], 7000),
      altered(confirmed, ['currency'], 'USD'),
      altered(confirmed, ['payload'], canceledRequest.paymentId),
      altered(confirmed, ['id'], randomUUID()),
      Buffer.from('not json'),
    ]) {
      expect(await platega.verifyCallback({ rawBody: changed, headers })).toBeNull();
    }
  });

  it('reports an expired transaction as failed', async () => {
    const platega = adapter('platega');
    const { providerInvoiceId } = await platega.createInvoice(invoiceRequest(100));
    expect(await providers.platega.expire(providerInvoiceId)).toBe(200);
    expect(await platega.fetchStatus(providerInvoiceId)).toMatchObject({ status: 'failed' });
    await expect(providers.platega.pay(providerInvoiceId)).rejects.toThrow('CANCELED');
  });

  it('turns refused credentials and unknown ids into ProviderErrors without the secret', async () => {
    const secret = `${providers.platega.secret}-old`;
    const refused = createHttpProviders(
      { ...providers.payments, platega: { ...providers.payments.platega!, secret } },
      providers.outbound,
    ).platega!;
    const error = await providerError(refused.createInvoice(invoiceRequest()));
    expect(error.provider).toBe('platega');
    expect(error.detail).toBe('transaction/process: HTTP 401, Unauthorized');
    expect(error.message).not.toContain(secret);
    expect((await providerError(refused.fetchStatus(randomUUID()))).detail).toBe(
      'transaction: HTTP 401, Unauthorized',
    );
    expect((await providerError(adapter('platega').fetchStatus(randomUUID()))).detail).toBe(
      'transaction: not found',
    );
  });

  it('sends the configured method, currency, rate and return URLs', async () => {
    const configured = createHttpProviders(providers.payments, providers.outbound, {
      platega: {
        paymentMethod: 11,
        ratePerUsd: 92.37,
        returnUrl: 'https://app.example/paid',
        failedUrl: 'https://app.example/failed',
      },
    }).platega!;
    const { providerInvoiceId } = await configured.createInvoice(invoiceRequest(999));
    expect(providers.platega.transaction(providerInvoiceId)).toMatchObject({
      paymentMethod: 11,
      // 9.99 × 92.37 = 922.7763 → 922.78
      paymentDetails: { amount: 922.78, currency: 'RUB' },
      return: 'https://app.example/paid',
      failedUrl: 'https://app.example/failed',
    });
    const usd = createHttpProviders(providers.payments, providers.outbound, {
      platega: { currency: 'USD' },
    }).platega!;
    // The stand-in, as Platega's ruble rails, refuses USD.
    expect((await providerError(usd.createInvoice(invoiceRequest()))).detail).toBe(
      'transaction/process: HTTP 400, Currency USD is not supported',
    );
  });
});
