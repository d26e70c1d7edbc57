import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { ensureWebhookDispatcher } from '../../api/maintenance';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * Webhooks through the public surface with a real worker and dispatcher: a subscription, its
 * test ping, and an event caused by an API operation (agent publish → outbox → dispatcher →
 * delivery), each verified as a receiver would (spec signature and Standard Webhooks).
 */

let receiver: WebhookReceiver;
let alice: SignedIn;

const test = useTestApp({
  env: { ...UNLIMITED_RATES, WEBHOOK_DISPATCH_INTERVAL_MS: '200' },
  worker: true,
});
beforeAll(async () => {
  await ensureWebhookDispatcher(test.ctx.deps.temporal, test.ctx.config.temporal.taskQueue, {
    pollIntervalMs: test.ctx.config.webhookDispatchIntervalMs,
    pollsPerRun: 500,
  });
  receiver = await startWebhookReceiver();
  alice = await signIn(test.app);
});

afterAll(async () => receiver?.close());

/** The spec's check: `v1` is HMAC-SHA256 hex of `<t>.<raw body>` keyed with the secret. */
function verifySpecSignature(secret: string, header: string, raw: Buffer): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
  return parts.v1 === expected;
}

function expectSigned(secret: string, request: { headers: Record<string, unknown>; raw: Buffer }) {
  const header = String(request.headers['x-service-signature']);
  expect(verifySpecSignature(secret, header, request.raw)).toBe(true);
  const standard = new StandardWebhook(secret.slice('whsec_'.length));
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
      name,
      String(request.headers[name]),
    ]),
  );
  expect(() => standard.verify(request.raw.toString('utf8'), headers)).not.toThrow();
}

async function subscribe(path: string, events: string[]) {
  const response = await test.app.inject({
    method: 'POST',
    url: '/me/webhooks',
    headers: { cookie: alice.cookie },
    payload: { url: receiver.url(path), events },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ webhook: { id: string; secret: string } }>().webhook;
}

it('a test ping reaches the receiver signed, and its delivery shows as succeeded', async () => {
  const webhook = await subscribe('/ping', []);
  const ping = await test.app.inject({
    method: 'POST',
    url: `/me/webhooks/${webhook.id}/test`,
    headers: { cookie: alice.cookie },
  });
  expect(ping.statusCode).toBe(202);
  const { delivery_id: deliveryId } = ping.json<{ delivery_id: string }>();

  const [request] = await receiver.waitFor('/ping', 1, 20_000);
  expectSigned(webhook.secret, request!);
  const envelope = JSON.parse(request!.raw.toString('utf8')) as Record<string, unknown>;
  expect(envelope).toMatchObject({
    event: 'ping',
    user_id: alice.userId,
    data: { webhook_id: webhook.id },
  });
  expect(request!.headers['webhook-id']).toBe(envelope.id);

  let status = 'pending';
  for (let waited = 0; status === 'pending' && waited < 10_000; waited += 100) {
    const list = await test.app.inject({
      method: 'GET',
      url: `/me/webhooks/${webhook.id}/deliveries`,
      headers: { cookie: alice.cookie },
    });
    status = list.json<{ items: { id: string; status: string }[] }>().items[0]?.status ?? '';
    if (status === 'pending') await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status).toBe('succeeded');
  expect(deliveryId).toEqual(expect.any(String));
});

it('publishing an agent is delivered as agent.published to matching subscriptions only', async () => {
  const all = await subscribe('/all', []);
  const published = await subscribe('/published', ['agent.published']);
  await subscribe('/other', ['project.failed']);

  const created = await test.app.inject({
    method: 'POST',
    url: '/agents',
    headers: { cookie: alice.cookie },
    payload: {
      name: 'Hook Agent',
      description: 'Answers questions',
      tags: ['test'],
      endpointUrl: receiver.url('/agent'),
    },
  });
  expect(created.statusCode).toBe(201);
  const { slug } = created.json<{ slug: string }>();
  const publish = await test.app.inject({
    method: 'POST',
    url: `/agents/${slug}/publish`,
    headers: { cookie: alice.cookie },
    payload: { monetization: 'per_call', perCallPriceFlow: 1, tags: ['test'] },
  });
  expect(publish.statusCode).toBe(200);

  const [toAll] = await receiver.waitFor('/all', 1, 20_000);
  const [toPublished] = await receiver.waitFor('/published', 1, 20_000);
  expectSigned(all.secret, toAll!);
  expectSigned(published.secret, toPublished!);
  const envelope = JSON.parse(toAll!.raw.toString('utf8')) as {
    id: string;
    event: string;
    created_at: string;
    data: { slug: string };
  };
  expect(envelope.event).toBe('agent.published');
  expect(envelope.data.slug).toBe(slug);
  expect(envelope.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  // One event: the same envelope id for every subscription.
  expect(JSON.parse(toPublished!.raw.toString('utf8'))).toEqual(envelope);

  // The subscription to another event gets nothing, and nothing is sent twice.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(receiver.requestsTo('/other')).toHaveLength(0);
  expect(receiver.requestsTo('/all')).toHaveLength(1);
});
