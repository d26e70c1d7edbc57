import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createOutboundClient, type OutboundClient } from '../../shared/net/outbound-client';
import { webhookTaskQueue, workflowIds, workflowTypes } from '../../shared/temporal';
import { DELIVERY_BODY_LIMIT_BYTES, DELIVERY_TIMEOUT_MS } from '../../shared/webhooks/events';
import { attemptDelivery } from '../../workers/webhooks/attempt-delivery';
import { createTestContext, type TestContext } from '../helpers/context';
import {
  envelopeOf,
  insertDelivery,
  insertUser,
  insertWebhook,
  type Envelope,
} from '../helpers/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

/**
 * The delivery workflow against real receivers on loopback. Signatures are checked with a
 * verifier written here from docs/spec/contract.md §7 (not the service's signing code) and with the stock
 * `standardwebhooks` package.
 */

const SIGNATURE_TOLERANCE_S = 300;

/** `X-Service-Signature: t=<unix>,v1=<hex>`: HMAC-SHA256 over `<t>.<raw body>`, keyed with the secret string. */
function specVerify(secret: string, headers: IncomingHttpHeaders, raw: Buffer): boolean {
  const header = headers['x-service-signature'];
  if (typeof header !== 'string') return false;
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const [, t, v1] = match as unknown as [string, string, string];
  if (Math.abs(Date.now() / 1000 - Number(t)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), raw]))
    .digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

function standardVerify(secret: string, headers: IncomingHttpHeaders, raw: Buffer): unknown {
  return new StandardWebhook(secret).verify(raw, headers as Record<string, string>);
}

// Any code point except NUL (PostgreSQL text refuses it) and lone surrogates (not Unicode).
function randomText(maxLength: number): string {
  const whitespace = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u2029', '\ufeff'];
  const pick = () => {
    const roll = Math.random();
    if (roll < 0.15) return whitespace[Math.floor(Math.random() * whitespace.length)]!;
    if (roll < 0.25) return ['"', '\\', '/', '<', '&', "'"][Math.floor(Math.random() * 6)]!;
    if (roll < 0.5) return String.fromCodePoint(1 + Math.floor(Math.random() * 0x7f));
    if (roll < 0.75) return String.fromCodePoint(0x80 + Math.floor(Math.random() * 0xd780));
    return String.fromCodePoint(0x10000 + Math.floor(Math.random() * 0xfffff));
  };
  return Array.from({ length: Math.floor(Math.random() * maxLength) }, pick).join('');
}

function randomValue(depth: number): unknown {
  const roll = Math.random();
  if (depth > 3 || roll < 0.35) return randomText(40);
  if (roll < 0.45) return Math.floor((Math.random() - 0.5) * 2 ** 40);
  if (roll < 0.5) return [true, false, null, 1.5, -0.25][Math.floor(Math.random() * 5)];
  if (roll < 0.75)
    return Array.from({ length: Math.floor(Math.random() * 5) }, () => randomValue(depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(Math.random() * 5) }, () => [
      randomText(12),
      randomValue(depth + 1),
    ]),
  );
}

/** Mostly small payloads; every 25th carries ~100 KB of text. */
function randomData(index: number): unknown {
  const data = { note: randomText(200), nested: randomValue(0), [randomText(8)]: randomValue(1) };
  return index % 25 === 0 ? { ...data, large: randomText(60_000) } : data;
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>) {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(run));
  }
}

describe('webhook delivery workflow (real Temporal, PostgreSQL and loopback receivers)', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  let outbound: OutboundClient;
  let userId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.startWorker();
    receiver = await startWebhookReceiver();
    outbound = createOutboundClient({
      allowedHosts: ctx.config.webhookAllowedHosts,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxResponseBytes: DELIVERY_BODY_LIMIT_BYTES,
      onLargeBody: 'truncate',
    });
    userId = await insertUser(ctx);
  });
  afterAll(async () => {
    await outbound?.close();
    await receiver?.close();
    await ctx?.close();
  });

  const runDelivery = (deliveryId: string) =>
    ctx.deps.temporal.workflow.execute(workflowTypes.webhookDelivery, {
      workflowId: workflowIds.webhookDelivery(deliveryId),
      taskQueue: webhookTaskQueue(ctx.config.temporal.taskQueue),
      args: [{ deliveryId }],
    });

  const deliveryRow = async (id: string) =>
    (
      await ctx.sql<{ status: string; attempts: number; completed_at: Date | null }>(
        'select status, attempts, completed_at from webhook_deliveries where id = $1',
        [id],
      )
    )[0];

  const attemptRows = (id: string) =>
    ctx.sql<{ attempt: number; status_code: number | null; error: string | null }>(
      'select attempt, status_code, error from webhook_delivery_attempts where delivery_id = $1 order by attempt',
      [id],
    );

  it('1,000 random deliveries pass a verifier written from the spec and a stock Standard Webhooks verifier', async () => {
    const path = '/random';
    const hook = await insertWebhook(ctx, userId, receiver.url(path));
    const envelopes = Array.from({ length: 1000 }, (_, index) =>
      envelopeOf(userId, randomData(index)),
    );
    // Rows first (one connection, one query at a time), then the sends in parallel batches.
    const deliveryIds: string[] = [];
    for (const envelope of envelopes)
      deliveryIds.push(await insertDelivery(ctx, hook.id, envelope));
    for (const deliveryId of deliveryIds.slice(0, 5)) {
      expect(await runDelivery(deliveryId)).toEqual({ ok: true, attempts: 1 });
    }
    await inBatches(deliveryIds.slice(5), 20, async (deliveryId) => {
      const result = await attemptDelivery(
        { orm: ctx.deps.orm, outbound },
        { deliveryId, attempt: 1 },
      );
      expect(result).toEqual({ ok: true, status: 200, error: null, done: true });
    });

    const received = receiver.requestsTo(path);
    expect(received).toHaveLength(1000);
    const byId = new Map(envelopes.map((envelope) => [envelope.id, envelope]));
    for (const request of received) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(specVerify(hook.secret, request.headers, request.raw)).toBe(true);
      const parsed = standardVerify(hook.secret, request.headers, request.raw) as Envelope;
      expect(request.headers['webhook-id']).toBe(parsed.id);
      expect(parsed).toEqual(byId.get(parsed.id));
    }
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(1000);
    const [{ count }] = (await ctx.sql<{ count: string }>(
      `select count(*) from webhook_deliveries where webhook_id = $1 and status = 'succeeded'`,
      [hook.id],
    )) as [{ count: string }];
    expect(count).toBe('1000');

    // Replayed 301 s later, the same bytes are refused; at 298 s they are still accepted (a
    // second short of the 300 s limit: the verifier reads the clock again after signing).
    const request = received[0]!;
    const wh = new StandardWebhook(hook.secret);
    const msgId = request.headers['webhook-id'] as string;
    const signedAt = (ageSeconds: number) => {
      const date = new Date(Date.now() - ageSeconds * 1000);
      const t = Math.floor(date.getTime() / 1000);
      const v1 = createHmac('sha256', hook.secret)
        .update(`${t}.`)
        .update(request.raw)
        .digest('hex');
      return {
        'webhook-id': msgId,
        'webhook-timestamp': String(t),
        'webhook-signature': wh.sign(msgId, date, request.raw),
        'x-service-signature': `t=${t},v1=${v1}`,
      };
    };
    expect(() => wh.verify(request.raw, signedAt(301))).toThrow('Message timestamp too old');
    expect(specVerify(hook.secret, signedAt(301), request.raw)).toBe(false);
    expect(wh.verify(request.raw, signedAt(298))).toEqual(JSON.parse(request.raw.toString('utf8')));
    expect(specVerify(hook.secret, signedAt(298), request.raw)).toBe(true);
  }, 180_000);

  it('500, 500, 200: three attempts, one envelope id, each re-signed, pauses within the jitter bounds', async () => {
    const path = '/flaky';
    receiver.script(path, [500, 500, 200]);
    const hook = await insertWebhook(ctx, userId, receiver.url(path));
    const envelope = envelopeOf(userId, { projectId: randomUUID() });
    const deliveryId = await insertDelivery(ctx, hook.id, envelope);

    expect(await runDelivery(deliveryId)).toEqual({ ok: true, attempts: 3 });

    const received = receiver.requestsTo(path);
    expect(received).toHaveLength(3);
    for (const request of received) {
      expect(request.headers['webhook-id']).toBe(envelope.id);
      expect(request.raw.equals(received[0]!.raw)).toBe(true);
      expect(specVerify(hook.secret, request.headers, request.raw)).toBe(true);
      expect(standardVerify(hook.secret, request.headers, request.raw)).toEqual(envelope);
      // Signed when sent, not once for all attempts.
      const t = Number(request.headers['webhook-timestamp']) * 1000;
      expect(request.receivedAt - t).toBeGreaterThanOrEqual(0);
      expect(request.receivedAt - t).toBeLessThan(2000);
    }
    // Full jitter: the timers the workflow set are within [0, base]; the observed gaps add
    // only scheduling slack to them.
    const history = await ctx.deps.temporal.workflow
      .getHandle(workflowIds.webhookDelivery(deliveryId))
      .fetchHistory();
    const timersMs = (history.events ?? [])
      .map((event) => event.timerStartedEventAttributes?.startToFireTimeout)
      .filter((timeout) => timeout)
      .map(
        (timeout) => Number(timeout!.seconds ?? 0) * 1000 + Math.round((timeout!.nanos ?? 0) / 1e6),
      );
    expect(timersMs.length).toBeLessThanOrEqual(2);
    timersMs.forEach((ms, index) => expect(ms).toBeLessThanOrEqual([1000, 2000][index]!));
    const gaps = [
      received[1]!.receivedAt - received[0]!.receivedAt,
      received[2]!.receivedAt - received[1]!.receivedAt,
    ];
    expect(gaps[0]).toBeLessThan(1000 + 1500);
    expect(gaps[1]).toBeLessThan(2000 + 1500);

    expect(await attemptRows(deliveryId)).toEqual([
      { attempt: 1, status_code: 500, error: null },
      { attempt: 2, status_code: 500, error: null },
      { attempt: 3, status_code: 200, error: null },
    ]);
    expect(await deliveryRow(deliveryId)).toEqual({
      status: 'succeeded',
      attempts: 3,
      completed_at: expect.any(Date),
    });
    const [webhook] = await ctx.sql('select last_error from webhooks where id = $1', [hook.id]);
    expect(webhook).toEqual({ last_error: null });
  }, 60_000);

  it('four failures: the delivery fails and last_error (status, time) is stored on the subscription', async () => {
    const path = '/down';
    receiver.script(path, [503, 503, 503, 503]);
    const hook = await insertWebhook(ctx, userId, receiver.url(path));
    const deliveryId = await insertDelivery(ctx, hook.id, envelopeOf(userId, { n: 1 }));
    const before = Date.now();

    expect(await runDelivery(deliveryId)).toEqual({ ok: false, attempts: 4 });

    expect(receiver.requestsTo(path)).toHaveLength(4);
    expect((await attemptRows(deliveryId)).map((row) => row.status_code)).toEqual([
      503, 503, 503, 503,
    ]);
    expect(await deliveryRow(deliveryId)).toEqual({
      status: 'failed',
      attempts: 4,
      completed_at: expect.any(Date),
    });
    const [webhook] = await ctx.sql<{ last_error: Record<string, unknown> }>(
      'select last_error from webhooks where id = $1',
      [hook.id],
    );
    expect(webhook!.last_error).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deliveryId,
      status: 503,
      error: 'receiver answered HTTP 503',
    });
    expect(Date.parse(webhook!.last_error.at as string)).toBeGreaterThanOrEqual(before);
  }, 60_000);

  it('a receiver that never answers is a failed attempt with an error, not a crash', async () => {
    const path = '/silent';
    receiver.script(path, [{ hangMs: 5000 }]);
    const hook = await insertWebhook(ctx, userId, receiver.url(path));
    const deliveryId = await insertDelivery(ctx, hook.id, envelopeOf(userId, {}));
    // The production timeout is 10 s; the same client with a short one keeps the test quick.
    const impatient = createOutboundClient({
      allowedHosts: ctx.config.webhookAllowedHosts,
      timeoutMs: 300,
      maxResponseBytes: DELIVERY_BODY_LIMIT_BYTES,
      onLargeBody: 'truncate',
    });
    try {
      const result = await attemptDelivery(
        { orm: ctx.deps.orm, outbound: impatient },
        { deliveryId, attempt: 1 },
      );
      expect(result).toEqual({
        ok: false,
        status: null,
        error: 'no complete response within 300 ms',
        done: false,
      });
    } finally {
      await impatient.close();
    }
    expect(await attemptRows(deliveryId)).toEqual([
      { attempt: 1, status_code: null, error: 'no complete response within 300 ms' },
    ]);
    expect(await deliveryRow(deliveryId)).toEqual({
      status: 'pending',
      attempts: 1,
      completed_at: null,
    });
  });

  it('a deleted subscription is not called: the delivery fails with "subscription deleted"', async () => {
    const path = '/deleted';
    const hook = await insertWebhook(ctx, userId, receiver.url(path));
    await ctx.sql('update webhooks set deleted_at = now() where id = $1', [hook.id]);
    const deliveryId = await insertDelivery(ctx, hook.id, envelopeOf(userId, {}));

    expect(await runDelivery(deliveryId)).toEqual({ ok: false, attempts: 1 });
    expect(receiver.requestsTo(path)).toHaveLength(0);
    expect(await attemptRows(deliveryId)).toEqual([
      { attempt: 1, status_code: null, error: 'subscription deleted' },
    ]);
    expect((await deliveryRow(deliveryId))!.status).toBe('failed');
  });
});

describe('a delivery survives its worker being SIGKILLed mid-request (worker in its own OS process)', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await receiver?.close();
    await ctx?.close();
  });

  it('is delivered after a new worker starts (at least once, same envelope id)', async () => {
    const path = '/slow';
    receiver.script(path, [{ hangMs: 5000 }]);
    const userId = await insertUser(ctx);
    const hook = await insertWebhook(ctx, userId, receiver.url(path));
    const envelope = envelopeOf(userId, { survived: true });
    const deliveryId = await insertDelivery(ctx, hook.id, envelope);

    workers.push(await startWorkerProcess(ctx.config));
    const handle = await ctx.deps.temporal.workflow.start(workflowTypes.webhookDelivery, {
      workflowId: workflowIds.webhookDelivery(deliveryId),
      taskQueue: webhookTaskQueue(ctx.config.temporal.taskQueue),
      args: [{ deliveryId }],
    });
    await receiver.waitFor(path, 1);
    await workers[0]!.crash();
    expect(
      (await ctx.sql('select status from webhook_deliveries where id = $1', [deliveryId]))[0],
    ).toEqual({
      status: 'pending',
    });

    workers.push(await startWorkerProcess(ctx.config));
    expect(await handle.result()).toEqual({ ok: true, attempts: 1 });

    const received = receiver.requestsTo(path);
    expect(received.length).toBeGreaterThanOrEqual(2);
    for (const request of received) {
      expect(request.headers['webhook-id']).toBe(envelope.id);
      expect(specVerify(hook.secret, request.headers, request.raw)).toBe(true);
    }
    const rows = await ctx.sql(
      'select attempt, status_code from webhook_delivery_attempts where delivery_id = $1',
      [deliveryId],
    );
    expect(rows).toEqual([{ attempt: 1, status_code: 200 }]);
    const [delivery] = await ctx.sql(
      'select status, attempts from webhook_deliveries where id = $1',
      [deliveryId],
    );
    expect(delivery).toEqual({ status: 'succeeded', attempts: 1 });
  }, 120_000);
});
