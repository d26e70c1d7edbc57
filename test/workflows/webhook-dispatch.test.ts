import { randomBytes } from 'node:crypto';
import { ensureWebhookDispatcher } from '../../api/maintenance';
import { enqueueOutboxEvent, type WebhookEventName } from '../../shared/outbox/outbox';
import { webhookTaskQueue, workflowIds } from '../../shared/temporal';
import { dispatchOutbox, markOutboxDispatched } from '../../workers/webhooks/dispatch-outbox';
import { createTestContext, type TestContext } from '../helpers/context';
import {
  insertUser as insertUserRow,
  insertWebhook as insertWebhookRow,
} from '../helpers/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

let ctx: TestContext;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.startWorker();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const insertUser = () => insertUserRow(ctx);
const insertWebhook = async (userId: number, path: string, events: string[], deleted = false) =>
  (await insertWebhookRow(ctx, userId, receiver.url(path), { events, deleted })).id;

/** Commits an outbox event the way emitters do, and returns its row. */
async function enqueue(userId: number, event: WebhookEventName, data: Record<string, unknown>) {
  const dedupeKey = `${event}:${randomBytes(8).toString('hex')}`;
  const em = ctx.deps.orm.em.fork();
  await em.transactional((tx) => enqueueOutboxEvent(tx, { userId, event, data, dedupeKey }));
  const [row] = await ctx.sql<{ id: string; created_at: Date }>(
    'select id, created_at from outbox_events where dedupe_key = $1',
    [dedupeKey],
  );
  return row!;
}

const deliveriesOf = (outboxEventId: string) =>
  ctx.sql<{ id: string; webhook_id: string; status: string; payload: Record<string, unknown> }>(
    'select id, webhook_id, status, payload from webhook_deliveries where outbox_event_id = $1 order by id',
    [outboxEventId],
  );

const dispatchedAt = async (outboxEventId: string) =>
  (
    await ctx.sql<{ dispatched_at: Date | null }>(
      'select dispatched_at from outbox_events where id = $1',
      [outboxEventId],
    )
  )[0]!.dispatched_at;

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook outbox dispatcher (real Temporal, PostgreSQL and loopback receivers)', () => {
  it('creates one delivery per matching live subscription, the envelope, and nothing twice', async () => {
    const owner = await insertUser();
    const other = await insertUser();
    const all = await insertWebhook(owner, '/a/all', []);
    const failedOnly = await insertWebhook(owner, '/a/failed', ['project.failed']);
    await insertWebhook(owner, '/a/completed', ['project.completed']);
    await insertWebhook(owner, '/a/deleted', [], true);
    await insertWebhook(other, '/b/all', []);
    const outbox = await enqueue(owner, 'project.failed', { projectId: 'p1', reason: 'é ✓ 🚀' });

    const first = await dispatchOutbox(ctx.deps.orm.em.fork());
    expect(first.outboxEventIds).toEqual([outbox.id]);
    const deliveries = await deliveriesOf(outbox.id);
    expect(deliveries.map((row) => row.webhook_id).sort()).toEqual([all, failedOnly].sort());
    expect([...first.deliveryIds].sort()).toEqual(deliveries.map((row) => row.id));
    for (const row of deliveries) {
      expect(row.status).toBe('pending');
      expect(row.payload).toEqual({
        id: outbox.id,
        event: 'project.failed',
        user_id: owner,
        created_at: outbox.created_at.toISOString(),
        data: { projectId: 'p1', reason: 'é ✓ 🚀' },
      });
    }

    // Until marked, a re-run (after a crash) finds the same deliveries and inserts none.
    const again = await dispatchOutbox(ctx.deps.orm.em.fork());
    expect([...again.deliveryIds].sort()).toEqual(deliveries.map((row) => row.id));
    expect(await deliveriesOf(outbox.id)).toEqual(deliveries);

    await markOutboxDispatched(ctx.deps.orm.em.fork(), first.outboxEventIds);
    expect(await dispatchedAt(outbox.id)).toBeInstanceOf(Date);
    expect(await dispatchOutbox(ctx.deps.orm.em.fork())).toEqual({
      outboxEventIds: [],
      deliveryIds: [],
    });
    expect(await deliveriesOf(outbox.id)).toEqual(deliveries);
  });

  it('recovers deliveries inserted before a crash: each subscription still gets it exactly once', async () => {
    const owner = await insertUser();
    await insertWebhook(owner, '/c/all', []);
    await insertWebhook(owner, '/c/failed', ['project.failed']);
    const outbox = await enqueue(owner, 'project.failed', { projectId: 'p2' });
    // The activity ran and its deliveries committed, but no workflow was started (a crash).
    const crashed = await dispatchOutbox(ctx.deps.orm.em.fork());
    expect(crashed.deliveryIds).toHaveLength(2);

    const { temporal } = ctx.deps;
    const taskQueue = ctx.config.temporal.taskQueue;
    const input = { pollIntervalMs: 200, pollsPerRun: 3 };
    const runId = await ensureWebhookDispatcher(temporal, taskQueue, input);
    // Another API instance booting finds the running dispatcher.
    expect(await ensureWebhookDispatcher(temporal, taskQueue, input)).toBe(runId);

    await receiver.waitFor('/c/all', 1);
    await receiver.waitFor('/c/failed', 1);
    await waitFor(async () => (await dispatchedAt(outbox.id)) !== null);
    await waitFor(async () =>
      (await deliveriesOf(outbox.id)).every((row) => row.status === 'succeeded'),
    );
    const deliveries = await deliveriesOf(outbox.id);
    expect([...crashed.deliveryIds].sort()).toEqual(deliveries.map((row) => row.id));
    // The row settles inside the last activity; the workflow completes just after.
    for (const row of deliveries) {
      const handle = temporal.workflow.getHandle(workflowIds.webhookDelivery(row.id));
      expect(await handle.result()).toEqual({ ok: true, attempts: 1 });
      // On the deliveries' own queue (their own worker and slots), not the dispatcher's.
      expect((await handle.describe()).taskQueue).toBe(webhookTaskQueue(taskQueue));
    }

    // Later polls (across continue-as-new) send nothing again.
    const dispatcher = temporal.workflow.getHandle(workflowIds.webhookDispatch(taskQueue));
    await waitFor(async () => (await dispatcher.describe()).runId !== runId);
    expect(receiver.requestsTo('/c/all')).toHaveLength(1);
    expect(receiver.requestsTo('/c/failed')).toHaveLength(1);
    await dispatcher.terminate('test finished');
  }, 60_000);

  it('a nudge makes a slow dispatcher read the outbox at once', async () => {
    const { temporal } = ctx.deps;
    const taskQueue = ctx.config.temporal.taskQueue;
    await ensureWebhookDispatcher(temporal, taskQueue, { pollIntervalMs: 60_000, pollsPerRun: 10 });
    const dispatcher = temporal.workflow.getHandle(workflowIds.webhookDispatch(taskQueue));
    // Let the first (empty) poll finish: the dispatcher sleeps for a minute on a timer.
    await waitFor(async () => {
      const history = await dispatcher.fetchHistory();
      return (history.events ?? []).some((event) => event.timerStartedEventAttributes);
    });
    const owner = await insertUser();
    await insertWebhook(owner, '/d/all', []);
    await enqueue(owner, 'agent.published', { slug: 'nudged' });

    await dispatcher.signal('nudge');
    const [request] = await receiver.waitFor('/d/all', 1, 15_000);
    expect(JSON.parse(request!.raw.toString('utf8'))).toMatchObject({
      event: 'agent.published',
      user_id: owner,
      data: { slug: 'nudged' },
    });
    await dispatcher.terminate('test finished');
  }, 60_000);
});
