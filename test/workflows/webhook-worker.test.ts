import { randomBytes } from 'node:crypto';
import { ensureWebhookDispatcher } from '../../api/maintenance';
import { enqueueOutboxEvent } from '../../shared/outbox/outbox';
import { webhookTaskQueue, workflowIds, workflowTypes } from '../../shared/temporal';
import { createTestContext, type TestContext } from '../helpers/context';
import { envelopeOf, insertDelivery, insertUser, insertWebhook } from '../helpers/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * Webhook deliveries have a worker of their own (`webhookTaskQueue`), with
 * WEBHOOK_DELIVERY_CONCURRENCY slots: an attempt holds its slot while the POST runs, so slow
 * receivers queue behind each other and never take the main queue's slots.
 */

const SLOTS = 2;
const HANG_MS = 3000;

let ctx: TestContext;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_DELIVERY_CONCURRENCY: String(SLOTS) });
  await ctx.startWorker();
  receiver = await startWebhookReceiver();
  // A first delivery loads the workflow bundle, so a cold worker cannot pass for a slot limit.
  expect(await result(await startDelivery('/warm-up'))).toEqual({ ok: true, attempts: 1 });
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

async function startDelivery(path: string): Promise<string> {
  const userId = await insertUser(ctx);
  const hook = await insertWebhook(ctx, userId, receiver.url(path));
  const deliveryId = await insertDelivery(ctx, hook.id, envelopeOf(userId, { path }));
  await ctx.deps.temporal.workflow.start(workflowTypes.webhookDelivery, {
    workflowId: workflowIds.webhookDelivery(deliveryId),
    taskQueue: webhookTaskQueue(ctx.config.temporal.taskQueue),
    args: [{ deliveryId }],
  });
  return deliveryId;
}

const result = (deliveryId: string) =>
  ctx.deps.temporal.workflow.getHandle(workflowIds.webhookDelivery(deliveryId)).result();

describe('the webhook worker (real Temporal, loopback receivers)', () => {
  it(`runs at most WEBHOOK_DELIVERY_CONCURRENCY (${SLOTS}) attempts at once`, async () => {
    const path = '/slow/limit';
    const count = SLOTS + 3;
    receiver.script(
      path,
      Array.from({ length: count }, () => ({ hangMs: HANG_MS })),
    );
    const ids = [];
    for (let i = 0; i < count; i++) ids.push(await startDelivery(path));

    const [first] = await receiver.waitFor(path, SLOTS);
    // The others wait for a slot: none starts while the first ones hang (checked half a
    // second before the first hang ends, however late the second request came).
    await new Promise((resolve) =>
      setTimeout(resolve, first!.receivedAt + HANG_MS - 500 - Date.now()),
    );
    expect(receiver.requestsTo(path)).toHaveLength(SLOTS);
    const all = await receiver.waitFor(path, count, 30_000);
    // Each later attempt starts only after an earlier one ended.
    for (let k = SLOTS; k < count; k++) {
      expect(all[k]!.receivedAt - all[k - SLOTS]!.receivedAt).toBeGreaterThanOrEqual(HANG_MS - 200);
    }
    for (const id of ids) expect(await result(id)).toEqual({ ok: true, attempts: 1 });
  }, 60_000);

  it('leaves the main queue free while every delivery slot is held: the dispatcher still polls', async () => {
    const path = '/slow/bulkhead';
    receiver.script(path, [{ hangMs: 8000 }, { hangMs: 8000 }]);
    const hung = [await startDelivery(path), await startDelivery(path)];
    await receiver.waitFor(path, SLOTS);
    const slotsFullAt = Date.now();

    // An outbox event now becomes a delivery: the dispatcher runs on the main queue.
    const owner = await insertUser(ctx);
    await insertWebhook(ctx, owner, receiver.url('/fast'));
    const dedupeKey = `bulkhead:${randomBytes(6).toString('hex')}`;
    await ctx.deps.orm.em
      .fork()
      .transactional((em) =>
        enqueueOutboxEvent(em, { userId: owner, event: 'agent.published', data: {}, dedupeKey }),
      );
    const taskQueue = ctx.config.temporal.taskQueue;
    await ensureWebhookDispatcher(ctx.deps.temporal, taskQueue, {
      pollIntervalMs: 100,
      pollsPerRun: 50,
    });
    // Dispatched (delivery created, its workflow started, the event marked) while both slots
    // are still held by the hanging receivers.
    let delivery: { id: string } | undefined;
    while (delivery === undefined) {
      [delivery] = await ctx.sql<{ id: string }>(
        `select d.id from webhook_deliveries d join outbox_events o on o.id = d.outbox_event_id
         where o.dedupe_key = $1 and o.dispatched_at is not null`,
        [dedupeKey],
      );
      if (delivery === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now()).toBeLessThan(slotsFullAt + 8000);
    // Started on the webhook queue, where it waits for a slot.
    const waiting = ctx.deps.temporal.workflow.getHandle(workflowIds.webhookDelivery(delivery.id));
    const description = await waiting.describe();
    expect(description.taskQueue).toBe(webhookTaskQueue(taskQueue));
    expect(description.status.name).toBe('RUNNING');
    expect(receiver.requestsTo('/fast')).toHaveLength(0);

    // Once a slot frees, the new delivery goes out too.
    await receiver.waitFor('/fast', 1, 30_000);
    for (const id of hung) expect(await result(id)).toEqual({ ok: true, attempts: 1 });
    await ctx.deps.temporal.workflow
      .getHandle(workflowIds.webhookDispatch(taskQueue))
      .terminate('test over');
  }, 60_000);
});
