import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { buildApp, type App } from '../../api/app';
import { proratedUpgradeCents } from '../../shared/domain/billing';
import { addUtcMonths, DAY_MS } from '../../shared/domain/calendar';
import { workflowIds } from '../../shared/temporal';
import { createActivities } from '../../workers/activities';
import { signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { startPaymentProviders, type TestPaymentProviders } from '../helpers/payment-providers';
import { readTestServices, startTimeSkipping } from '../helpers/services';

/**
 * Whole subscription lifecycles on Temporal's time-skipping test server: months pass in
 * seconds while the real worker, PostgreSQL and the Crypto Pay stand-in do the work, and the
 * API (answering the provider's callbacks over real HTTP) signals the workflow.
 */

const HOUR_MS = 3_600_000;
let ctx: TestContext;
let env: TestWorkflowEnvironment;
let providers: TestPaymentProviders;
let app: App;
let worker: Worker;
let running: Promise<void>;
/** The test server's clock, as last read: the API's clock for pro-rating. */
let virtualNow = Date.now();

beforeAll(async () => {
  providers = await startPaymentProviders();
  ctx = await createTestContext({ ...UNLIMITED_RATES, ...providers.env });
  env = await startTimeSkipping();
  app = buildApp({ ...ctx.deps, temporal: env.client, clock: () => new Date(virtualNow) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  providers.cryptobot.callbackUrl = `${url}/payments/cryptobot/callback`;
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: ctx.config.temporal.taskQueue,
    workflowBundle: { codePath: readTestServices().workflowBundlePath },
    activities: createActivities({
      orm: ctx.deps.orm,
      config: ctx.config,
      redis: ctx.deps.redis,
      temporal: env.client,
      logger: ctx.logger,
    }),
  });
  running = worker.run();
}, 60_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await app?.close();
  await env?.teardown();
  await ctx?.close();
  await providers?.close();
});

const leadMs = () => ctx.config.payments.renewalLeadHours * HOUR_MS;

/** Lets `ms` of workflow time pass (timers fire, activities run), then reads the clock. */
async function skip(ms: number): Promise<void> {
  await env.sleep(ms);
  virtualNow = await env.currentTimeMs();
}

async function skipTo(at: number): Promise<void> {
  const now = await env.currentTimeMs();
  if (at > now) await skip(at - now);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Row = {
  tier: string;
  status: string;
  renews_at: number;
  pending_tier: string | null;
  next_period_payment_id: string | null;
};

async function row(user: SignedIn): Promise<Row | undefined> {
  const [found] = await ctx.sql<Row>(
    `select tier, status, round(extract(epoch from renews_at) * 1000)::float8 as renews_at,
       pending_tier, next_period_payment_id
     from subscriptions where user_id = $1`,
    [user.userId],
  );
  return found;
}

async function view(user: SignedIn) {
  const response = await app.inject({
    method: 'GET',
    url: '/me/subscription',
    headers: { cookie: user.cookie },
  });
  return response.json<{
    tier: string | null;
    status: string;
    renewsAt: string | null;
    features: Record<string, boolean>;
    pendingTier: string | null;
    cancelAtPeriodEnd: boolean;
  }>();
}

async function post(user: SignedIn, url: string, payload?: Record<string, unknown>) {
  return app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
}

/** Checks out `tier`, pays at the stand-in and waits for the activation. */
async function subscribe(tier: string): Promise<{ user: SignedIn; active: Row }> {
  const user = await signIn(app);
  const response = await post(user, '/subscriptions/checkout', { tier, provider: 'cryptobot' });
  expect(response.statusCode).toBe(201);
  expect(
    await providers.cryptobot.pay(response.json<{ subscriptionId: string }>().subscriptionId),
  ).toBe(200);
  const active = await until(
    () => row(user),
    (r) => r?.status === 'active',
    'activation',
  );
  return { user, active: active! };
}

async function pendingRenewal(user: SignedIn) {
  return until(
    () =>
      ctx.sql<{ id: string; tier: string; amount_usd_cents: string }>(
        `select id, tier, amount_usd_cents from payments
         where user_id = $1 and purpose = 'renewal' and status = 'pending'
         order by created_at desc`,
        [user.userId],
      ),
    (rows) => rows.length > 0,
    'a renewal invoice',
  ).then((rows) => rows[0]!);
}

async function granted(user: SignedIn) {
  return ctx.sql('select 1 from outbox_events where user_id = $1 and event = $2', [
    user.userId,
    'subscription.granted',
  ]);
}

describe('subscription lifecycle (time-skipping)', () => {
  it('renews monthly for three months when each renewal invoice is paid', async () => {
    const { user, active } = await subscribe('plus');
    let renewsAt = active.renews_at;
    for (let month = 1; month <= 3; month++) {
      await skipTo(renewsAt - leadMs() + HOUR_MS);
      const invoice = await pendingRenewal(user);
      expect(invoice).toMatchObject({ tier: 'plus', amount_usd_cents: '2000' });
      expect(await providers.cryptobot.pay(invoice.id)).toBe(200);
      await until(
        () => row(user),
        (r) => r?.next_period_payment_id === invoice.id,
        'prepaid',
      );
      await skipTo(renewsAt + HOUR_MS);
      const renewed = await until(
        () => row(user),
        (r) => r!.renews_at !== renewsAt,
        `renewal ${month}`,
      );
      expect(renewed).toMatchObject({ status: 'active', tier: 'plus' });
      expect(renewed!.renews_at).toBe(addUtcMonths(new Date(renewsAt), 1).getTime());
      renewsAt = renewed!.renews_at;
    }
    expect(await granted(user)).toHaveLength(4);
    // One workflow id, a new run per period.
    const description = await env.client.workflow
      .getHandle(workflowIds.subscription(user.userId))
      .describe();
    expect(description.status.name).toBe('RUNNING');
  });

  it('renews when the renewal was paid at the provider but its callback never arrived', async () => {
    const { user, active } = await subscribe('plus');
    await skipTo(active.renews_at - leadMs() + HOUR_MS);
    const invoice = await pendingRenewal(user);
    const callbackUrl = providers.cryptobot.callbackUrl;
    providers.cryptobot.callbackUrl = null;
    try {
      expect(await providers.cryptobot.pay(invoice.id)).toBeNull();
    } finally {
      providers.cryptobot.callbackUrl = callbackUrl;
    }
    expect((await row(user))?.next_period_payment_id).toBeNull();
    await skipTo(active.renews_at + HOUR_MS);
    const renewed = await until(
      () => row(user),
      (r) => r!.renews_at !== active.renews_at,
      'renewal after a status check',
    );
    expect(renewed).toMatchObject({ status: 'active', tier: 'plus' });
    const [payment] = await ctx.sql<{ status: string; outcome: string }>(
      'select status, outcome from payments where id = $1',
      [invoice.id],
    );
    expect(payment).toEqual({ status: 'paid', outcome: 'prepaid' });
  });

  it('keeps the features in grace, and a payment on day 3 continues the period from the old renewsAt', async () => {
    const { user, active } = await subscribe('pro');
    await skipTo(active.renews_at + HOUR_MS);
    await until(
      () => row(user),
      (r) => r?.status === 'grace',
      'grace',
    );
    const inGrace = await view(user);
    expect(inGrace).toMatchObject({ status: 'grace', tier: 'pro' });
    expect(inGrace.features.premiumAgents).toBe(true);
    await skipTo(active.renews_at + 2 * DAY_MS + HOUR_MS);
    const notices = await ctx.sql<{ kind: string }>(
      'select kind from notifications where user_id = $1 order by created_at',
      [user.userId],
    );
    expect(notices.map((n) => n.kind)).toEqual([
      'subscription.grace',
      'subscription.grace',
      'subscription.grace',
    ]);
    const invoice = await pendingRenewal(user);
    expect(await providers.cryptobot.pay(invoice.id)).toBe(200);
    const renewed = await until(
      () => row(user),
      (r) => r?.status === 'active',
      'renewed',
    );
    expect(renewed!.renews_at).toBe(addUtcMonths(new Date(active.renews_at), 1).getTime());
    expect((await view(user)).features.premiumAgents).toBe(true);
  });

  it('cancels after 7 unpaid days and the features go off', async () => {
    const { user, active } = await subscribe('max');
    await skipTo(active.renews_at + 6 * DAY_MS + HOUR_MS);
    expect((await row(user))?.status).toBe('grace');
    await skipTo(active.renews_at + 7 * DAY_MS + HOUR_MS);
    await until(
      () => row(user),
      (r) => r?.status === 'canceled',
      'canceled',
    );
    const ended = await view(user);
    expect(ended.status).toBe('canceled');
    expect(Object.values(ended.features)).toEqual([false, false, false, false, false]);
  });

  it('ends a subscription canceled at period end at renewsAt, and keeps one resumed before it', async () => {
    const canceled = await subscribe('plus');
    const resumed = await subscribe('plus');
    expect((await post(canceled.user, '/me/subscription/cancel')).json()).toMatchObject({
      cancelAtPeriodEnd: true,
      status: 'active',
    });
    expect((await post(resumed.user, '/me/subscription/cancel')).statusCode).toBe(200);
    expect((await post(resumed.user, '/me/subscription/resume')).json()).toMatchObject({
      cancelAtPeriodEnd: false,
    });
    await skipTo(resumed.active.renews_at - leadMs() + HOUR_MS);
    const invoice = await pendingRenewal(resumed.user);
    expect(await providers.cryptobot.pay(invoice.id)).toBe(200);
    await until(
      () => row(resumed.user),
      (r) => r?.next_period_payment_id !== null,
      'prepaid',
    );
    // The canceled one got no renewal invoice.
    const none = await ctx.sql(
      "select 1 from payments where user_id = $1 and purpose = 'renewal'",
      [canceled.user.userId],
    );
    expect(none).toHaveLength(0);
    expect((await view(canceled.user)).features.priorityQueue).toBe(true);

    await skipTo(Math.max(canceled.active.renews_at, resumed.active.renews_at) + HOUR_MS);
    await until(
      () => row(canceled.user),
      (r) => r?.status === 'none',
      'ended',
    );
    expect(await view(canceled.user)).toMatchObject({ status: 'none', tier: null, renewsAt: null });
    const kept = await until(
      () => row(resumed.user),
      (r) => r!.renews_at !== resumed.active.renews_at,
      'renewed',
    );
    expect(kept).toMatchObject({ status: 'active', tier: 'plus' });
  });

  it('renews a subscription canceled after its renewal invoice was issued, if that invoice is paid', async () => {
    const { user, active } = await subscribe('pro');
    await skipTo(active.renews_at - leadMs() + HOUR_MS);
    const invoice = await pendingRenewal(user);
    expect((await post(user, '/me/subscription/cancel')).json()).toMatchObject({
      cancelAtPeriodEnd: true,
      renewal: { paymentId: invoice.id },
    });
    expect(await providers.cryptobot.pay(invoice.id)).toBe(200);
    await until(
      () => row(user),
      (r) => r?.next_period_payment_id === invoice.id,
      'prepaid',
    );
    expect((await view(user)).cancelAtPeriodEnd).toBe(false);
    await skipTo(active.renews_at + HOUR_MS);
    const renewed = await until(
      () => row(user),
      (r) => r!.renews_at !== active.renews_at,
      'renewal',
    );
    expect(renewed).toMatchObject({ status: 'active', tier: 'pro' });
  });

  it('upgrades mid-period pro-rated and at once, and downgrades at renewal', async () => {
    const { user, active } = await subscribe('plus');
    await skipTo(active.renews_at - 15 * DAY_MS);
    const change = await post(user, '/me/subscription/change', { tier: 'max' });
    expect(change.statusCode).toBe(200);
    const { checkout } = change.json<{ checkout: { subscriptionId: string; amountUsd: number } }>();
    const expected = proratedUpgradeCents(
      'plus',
      'max',
      new Date(active.renews_at),
      new Date(virtualNow),
    );
    expect(Math.round(checkout.amountUsd * 100)).toBe(expected);
    // Half a month or so of the 180 USD difference.
    expect(checkout.amountUsd).toBeGreaterThan(80);
    expect(checkout.amountUsd).toBeLessThan(100);
    expect(await providers.cryptobot.pay(checkout.subscriptionId)).toBe(200);
    await until(
      () => row(user),
      (r) => r?.tier === 'max',
      'upgrade',
    );
    const upgraded = await view(user);
    expect(upgraded.features.dedicatedRuntime).toBe(true);
    expect(Date.parse(upgraded.renewsAt!)).toBe(active.renews_at);

    expect((await post(user, '/me/subscription/change', { tier: 'plus' })).json()).toMatchObject({
      subscription: { tier: 'max', pendingTier: 'plus' },
    });
    await skipTo(active.renews_at - leadMs() + HOUR_MS);
    const invoice = await pendingRenewal(user);
    expect(invoice).toMatchObject({ tier: 'plus', amount_usd_cents: '2000' });
    expect(await providers.cryptobot.pay(invoice.id)).toBe(200);
    await until(
      () => row(user),
      (r) => r?.next_period_payment_id !== null,
      'prepaid',
    );
    expect((await view(user)).tier).toBe('max');
    await skipTo(active.renews_at + HOUR_MS);
    const downgraded = await until(
      () => row(user),
      (r) => r?.tier === 'plus',
      'downgrade',
    );
    expect(downgraded).toMatchObject({ status: 'active', pending_tier: null });
    expect((await view(user)).features.dedicatedRuntime).toBe(false);
  });
});
