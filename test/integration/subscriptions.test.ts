import { ensurePaymentsReconcile } from '../../api/maintenance';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { startPaymentProviders, type TestPaymentProviders } from '../helpers/payment-providers';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * Subscriptions through the public surface with both HTTP providers as loopback servers that
 * speak their real protocols, a real worker running the lifecycle workflow, and the callbacks
 * arriving over real HTTP (docs/payments.md).
 */

let providers: TestPaymentProviders;

beforeAll(async () => {
  providers = await startPaymentProviders();
});
const test = useTestApp({
  env: () => ({ ...UNLIMITED_RATES, ...providers.env }),
  apis: 2,
  listen: true,
  worker: true,
});
beforeAll(() => {
  providers.cryptobot.callbackUrl = `${test.url}/payments/cryptobot/callback`;
  providers.platega.callbackUrl = `${test.url}/payments/platega/callback`;
});
afterAll(async () => providers?.close());

function as(user: SignedIn) {
  return {
    get: (url: string) => test.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } }),
    post: (url: string, payload?: unknown) =>
      test.app.inject({
        method: 'POST',
        url,
        headers: { cookie: user.cookie },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
  };
}

interface SubscriptionWire {
  tier: string | null;
  status: string;
  renewsAt: string | null;
  provider: string | null;
  features: Record<string, boolean>;
  cancelAtPeriodEnd: boolean;
  pendingTier: string | null;
}

async function subscriptionOf(user: SignedIn): Promise<SubscriptionWire> {
  const response = await as(user).get('/me/subscription');
  expect(response.statusCode).toBe(200);
  return response.json<SubscriptionWire>();
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function outbox(userId: number, event: string) {
  return test.ctx.sql<{ data: Record<string, unknown> }>(
    'select data from outbox_events where user_id = $1 and event = $2',
    [userId, event],
  );
}

async function checkoutPaid(user: SignedIn, tier: string, provider: 'cryptobot' | 'platega') {
  const response = await as(user).post('/subscriptions/checkout', { tier, provider });
  expect(response.statusCode).toBe(201);
  const checkout = response.json<{ subscriptionId: string }>();
  expect(await providers[provider].pay(checkout.subscriptionId)).toBe(200);
  return checkout;
}

describe('checkout', () => {
  it('checks the body, then the tier, then the provider, with the exact envelope', async () => {
    const user = as(await signIn(test.app));
    expectError(
      await user.post('/subscriptions/checkout', { tier: 'pro' }),
      400,
      'invalid_request',
      /provider/,
    );
    expectError(
      await user.post('/subscriptions/checkout', { tier: 'pro', provider: 'cryptobot', x: 1 }),
      400,
      'invalid_request',
    );
    expectError(
      await user.post('/subscriptions/checkout', { tier: 'gold', provider: 'paypal' }),
      400,
      'tier_unknown',
    );
    expectError(
      await user.post('/subscriptions/checkout', { tier: 'pro', provider: 'paypal' }),
      400,
      'provider_unsupported',
      /cryptobot, platega/,
    );
    const anonymous = await test.app.inject({
      method: 'POST',
      url: '/subscriptions/checkout',
      payload: { tier: 'pro', provider: 'cryptobot' },
    });
    expectError(anonymous, 401, 'unauthenticated');
  });

  it('returns an invoice of the provider and writes nothing else', async () => {
    const alice = await signIn(test.app);
    const response = await as(alice).post('/subscriptions/checkout', {
      tier: 'plus',
      provider: 'cryptobot',
    });
    expect(response.statusCode).toBe(201);
    const checkout = response.json<Record<string, string>>();
    expect(checkout).toEqual({
      subscriptionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tier: 'plus',
      provider: 'cryptobot',
      checkoutUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      expiresAt: expect.stringMatching(/Z$/),
    });
    const invoice = providers.cryptobot.invoice(checkout.subscriptionId!);
    expect(invoice).toMatchObject({
      amount: '20.00',
      fiat: 'USD',
      payload: checkout.subscriptionId,
    });
    expect((await subscriptionOf(alice)).status).toBe('none');
  });
});

describe('a confirmed payment', () => {
  it('activates the subscription once and emits payment.received and subscription.granted', async () => {
    const bob = await signIn(test.app);
    expect(await subscriptionOf(bob)).toEqual({
      tier: null,
      status: 'none',
      renewsAt: null,
      provider: null,
      features: {
        priorityQueue: false,
        premiumAgents: false,
        fasterSse: false,
        privateProjects: false,
        dedicatedRuntime: false,
      },
      cancelAtPeriodEnd: false,
      pendingTier: null,
      graceUntil: null,
      renewal: null,
    });
    await checkoutPaid(bob, 'pro', 'cryptobot');
    const active = await eventually(
      () => subscriptionOf(bob),
      (s) => s.status === 'active',
    );
    expect(active).toMatchObject({
      tier: 'pro',
      status: 'active',
      provider: 'cryptobot',
      features: {
        priorityQueue: true,
        premiumAgents: true,
        fasterSse: true,
        privateProjects: false,
      },
      cancelAtPeriodEnd: false,
    });
    const renewsIn = Date.parse(active.renewsAt!) - Date.now();
    expect(renewsIn).toBeGreaterThan(27 * 86_400_000);
    expect(renewsIn).toBeLessThan(32 * 86_400_000);
    expect(await outbox(bob.userId, 'payment.received')).toEqual([
      { data: expect.objectContaining({ provider: 'cryptobot', amount_usd: 100, amount_flow: 0 }) },
    ]);
    await eventually(
      () => outbox(bob.userId, 'subscription.granted'),
      (rows) => rows.length > 0,
    );
    expect(await outbox(bob.userId, 'subscription.granted')).toEqual([
      { data: expect.objectContaining({ tier: 'pro', amount_flow: 0 }) },
    ]);
    expectError(
      await as(bob).post('/subscriptions/checkout', { tier: 'max', provider: 'cryptobot' }),
      409,
      'subscription_active',
    );
  });
});

describe('callbacks', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver?.close());

  /** Pays through the provider with its callback captured instead of delivered. */
  async function capturedCallback(provider: 'cryptobot' | 'platega', user: SignedIn) {
    const response = await as(user).post('/subscriptions/checkout', { tier: 'plus', provider });
    const { subscriptionId } = response.json<{ subscriptionId: string }>();
    const standIn = providers[provider];
    const original = standIn.callbackUrl;
    standIn.callbackUrl = receiver.url(`/${subscriptionId}`);
    try {
      await standIn.pay(subscriptionId);
    } finally {
      standIn.callbackUrl = original;
    }
    const [delivered] = await receiver.waitFor(`/${subscriptionId}`, 1);
    return { subscriptionId, delivered: delivered! };
  }

  function deliver(url: string, provider: string, raw: Buffer, headers: Record<string, string>) {
    return fetch(`${url}/payments/${provider}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: raw,
    });
  }

  function providerHeaders(headers: Record<string, unknown>, names: string[]) {
    return Object.fromEntries(names.map((name) => [name, String(headers[name])]));
  }

  it('delivered concurrently to two API instances, and again later, activate once', async () => {
    const carol = await signIn(test.app);
    const { subscriptionId, delivered } = await capturedCallback('cryptobot', carol);
    const headers = providerHeaders(delivered.headers, ['crypto-pay-api-signature']);
    const answers = await Promise.all([
      deliver(test.url, 'cryptobot', delivered.raw, headers),
      deliver(test.otherUrl, 'cryptobot', delivered.raw, headers),
      deliver(test.url, 'cryptobot', delivered.raw, headers),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await eventually(
      () => subscriptionOf(carol),
      (s) => s.status === 'active',
    );
    expect((await deliver(test.otherUrl, 'cryptobot', delivered.raw, headers)).status).toBe(200);
    expect(await outbox(carol.userId, 'payment.received')).toHaveLength(1);
    const [payment] = await test.ctx.sql<{ status: string; outcome: string }>(
      'select status, outcome from payments where id = $1',
      [subscriptionId],
    );
    expect(payment).toEqual({ status: 'paid', outcome: 'activated' });
    expect(await outbox(carol.userId, 'subscription.granted')).toHaveLength(1);
  });

  it('refuses a forged or altered cryptobot callback with 401 and changes nothing', async () => {
    const dave = await signIn(test.app);
    const { subscriptionId, delivered } = await capturedCallback('cryptobot', dave);
    const signature = String(delivered.headers['crypto-pay-api-signature']);
    const forged = await deliver(test.url, 'cryptobot', delivered.raw, {
      'crypto-pay-api-signature': signature.replace(/^./, (c) => (c === '0' ? '1' : '0')),
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({
      error: { code: 'invalid_signature', message: expect.any(String) },
    });
    const altered = Buffer.from(delivered.raw.toString().replace('"20.00"', '"20.01"'));
    expect(altered.equals(delivered.raw)).toBe(false);
    const replayed = await deliver(test.url, 'cryptobot', altered, {
      'crypto-pay-api-signature': signature,
    });
    expect(replayed.status).toBe(401);
    expect((await deliver(test.url, 'cryptobot', delivered.raw, {})).status).toBe(401);
    const [payment] = await test.ctx.sql<{ status: string }>(
      'select status from payments where id = $1',
      [subscriptionId],
    );
    expect(payment?.status).toBe('pending');
    expect(await outbox(dave.userId, 'payment.received')).toHaveLength(0);
    expect((await subscriptionOf(dave)).status).toBe('none');
  });

  it('accepts a genuine platega callback and refuses one with a changed body', async () => {
    const erin = await signIn(test.app);
    const { delivered } = await capturedCallback('platega', erin);
    const headers = providerHeaders(delivered.headers, ['x-merchantid', 'x-secret']);
    const body = JSON.parse(delivered.raw.toString()) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...body, amount: Number(body.amount) * 2 }));
    expect((await deliver(test.url, 'platega', altered, headers)).status).toBe(401);
    const wrongSecret = { ...headers, 'x-secret': 'not-the-secret' };
    expect((await deliver(test.url, 'platega', delivered.raw, wrongSecret)).status).toBe(401);
    expect((await subscriptionOf(erin)).status).toBe('none');
    expect((await deliver(test.url, 'platega', delivered.raw, headers)).status).toBe(200);
    await eventually(
      () => subscriptionOf(erin),
      (s) => s.status === 'active',
    );
    expect(await subscriptionOf(erin)).toMatchObject({ tier: 'plus', provider: 'platega' });
  });
});

describe('cancel, resume and change', () => {
  it('answers 404 subscription_not_found without a subscription', async () => {
    const user = as(await signIn(test.app));
    expectError(await user.post('/me/subscription/cancel'), 404, 'subscription_not_found');
    expectError(await user.post('/me/subscription/resume'), 404, 'subscription_not_found');
    expectError(
      await user.post('/me/subscription/change', { tier: 'pro' }),
      404,
      'subscription_not_found',
    );
  });

  it('cancels at period end, resumes, records a downgrade and upgrades pro-rated', async () => {
    const frank = await signIn(test.app);
    await checkoutPaid(frank, 'plus', 'cryptobot');
    const active = await eventually(
      () => subscriptionOf(frank),
      (s) => s.status === 'active',
    );

    const canceled = await as(frank).post('/me/subscription/cancel');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      tier: 'plus',
    });
    expect((await subscriptionOf(frank)).features.priorityQueue).toBe(true);
    const resumed = await as(frank).post('/me/subscription/resume');
    expect(resumed.json()).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    expectError(
      await as(frank).post('/me/subscription/change', { tier: 'plus' }),
      400,
      'invalid_request',
    );
    expectError(
      await as(frank).post('/me/subscription/change', { tier: 'gold' }),
      400,
      'tier_unknown',
    );

    const upgrade = await as(frank).post('/me/subscription/change', { tier: 'max' });
    expect(upgrade.statusCode).toBe(200);
    const { checkout, subscription } = upgrade.json<{
      checkout: { subscriptionId: string; amountUsd: number; tier: string };
      subscription: SubscriptionWire;
    }>();
    expect(subscription.tier).toBe('plus');
    // (200 - 20) USD for the share of the month left: nearly all of it.
    expect(checkout.tier).toBe('max');
    expect(checkout.amountUsd).toBeGreaterThan(170);
    expect(checkout.amountUsd).toBeLessThanOrEqual(180);
    expect(await providers.cryptobot.pay(checkout.subscriptionId)).toBe(200);
    const upgraded = await eventually(
      () => subscriptionOf(frank),
      (s) => s.tier === 'max',
    );
    expect(upgraded).toMatchObject({ tier: 'max', status: 'active', renewsAt: active.renewsAt });
    expect(upgraded.features.privateProjects).toBe(true);

    const downgrade = await as(frank).post('/me/subscription/change', { tier: 'plus' });
    expect(downgrade.json()).toMatchObject({
      checkout: null,
      subscription: { tier: 'max', pendingTier: 'plus' },
    });
    const back = await as(frank).post('/me/subscription/change', { tier: 'max' });
    expect(back.json()).toMatchObject({ subscription: { tier: 'max', pendingTier: null } });
  });
});

describe('the payments reconciler', () => {
  beforeAll(async () => {
    await ensurePaymentsReconcile(test.ctx.deps.temporal, test.ctx.config.temporal.taskQueue, {
      intervalSeconds: 1,
      roundsPerRun: 1000,
    });
  });

  /** Pays at the provider with callbacks off, as if every delivery had been lost. */
  async function payWithoutCallback(provider: 'cryptobot' | 'platega', paymentId: string) {
    const standIn = providers[provider];
    const callbackUrl = standIn.callbackUrl;
    standIn.callbackUrl = null;
    try {
      expect(await standIn.pay(paymentId)).toBeNull();
    } finally {
      standIn.callbackUrl = callbackUrl;
    }
  }

  it('confirms a checkout and a top-up paid at the provider whose callbacks never arrived', async () => {
    const henry = await signIn(test.app);
    const checkout = await as(henry).post('/subscriptions/checkout', {
      tier: 'pro',
      provider: 'platega',
    });
    await payWithoutCallback('platega', checkout.json<{ subscriptionId: string }>().subscriptionId);
    const topup = await as(henry).post('/flow/topups', { provider: 'cryptobot', amountUsd: 3 });
    await payWithoutCallback('cryptobot', topup.json<{ topupId: string }>().topupId);
    const active = await eventually(
      () => subscriptionOf(henry),
      (s) => s.status === 'active',
    );
    expect(active).toMatchObject({ tier: 'pro', provider: 'platega' });
    const balance = await eventually(
      async () => (await as(henry).get('/me/flow-balance')).json<{ balance: number }>(),
      (b) => b.balance === 3,
    );
    expect(balance.balance).toBe(3);
    expect(await outbox(henry.userId, 'payment.received')).toHaveLength(2);
  });

  it('signals the lifecycle again for a confirmed payment left unapplied', async () => {
    const iris = await signIn(test.app);
    const checkout = await as(iris).post('/subscriptions/checkout', {
      tier: 'plus',
      provider: 'cryptobot',
    });
    const { subscriptionId } = checkout.json<{ subscriptionId: string }>();
    // Confirmed as a callback would, but its signal lost: paid, unapplied, two minutes ago.
    await test.ctx.sql(
      `update payments set status = 'paid', provider_payment_id = 'lost-signal',
         paid_at = now() - interval '2 minutes' where id = $1`,
      [subscriptionId],
    );
    const active = await eventually(
      () => subscriptionOf(iris),
      (s) => s.status === 'active',
    );
    expect(active.tier).toBe('plus');
  });
});

describe('FLOW top-ups', () => {
  it('credit FLOW on confirmation, settle into withdrawableFlow later, and count in breakdown.topUp', async () => {
    const grace = await signIn(test.app);
    expectError(
      await as(grace).post('/flow/topups', { provider: 'cryptobot', amountUsd: 0.5 }),
      400,
      'invalid_request',
      /amountUsd/,
    );
    expectError(
      await as(grace).post('/flow/topups', { provider: 'cryptobot', amountUsd: 1.234 }),
      400,
      'invalid_request',
      /2 decimals/,
    );
    expectError(
      await as(grace).post('/flow/topups', { provider: 'paypal', amountUsd: 10 }),
      400,
      'provider_unsupported',
    );
    const response = await as(grace).post('/flow/topups', { provider: 'platega', amountUsd: 12.5 });
    expect(response.statusCode).toBe(201);
    const topup = response.json<{ topupId: string; amountFlow: number; amountUsd: number }>();
    expect(topup).toMatchObject({ provider: 'platega', amountUsd: 12.5, amountFlow: 12.5 });
    expect(await providers.platega.pay(topup.topupId)).toBe(200);
    expect(await providers.platega.pay(topup.topupId).catch(() => null)).not.toBe(500);

    const balance = await as(grace).get('/me/flow-balance');
    expect(balance.json()).toMatchObject({
      balance: 12.5,
      withdrawableFlow: 0,
      breakdown: { topUp: 12.5 },
    });
    const ledger = await as(grace).get('/ledger?reason=topup');
    expect(ledger.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({
        delta: 12.5,
        reason: 'topup',
        refType: 'payment',
        refId: topup.topupId,
      }),
    ]);
    expect(await outbox(grace.userId, 'payment.received')).toEqual([
      {
        data: expect.objectContaining({ provider: 'platega', amount_usd: 12.5, amount_flow: 12.5 }),
      },
    ]);
    // Past the settlement window the top-up is withdrawable.
    await test.ctx.sql(
      `update ledger_entries set created_at = created_at - interval '25 hours' where ref_id = $1`,
      [topup.topupId],
    );
    expect((await as(grace).get('/me/flow-balance')).json()).toMatchObject({
      withdrawableFlow: 12.5,
    });
  });
});
