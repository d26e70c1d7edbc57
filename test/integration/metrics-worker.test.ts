import type { App } from '../../api/app';
import { chainSyncInput, ensureChainSync } from '../../api/maintenance';
import { mainTaskQueue, webhookTaskQueue, workflowIds } from '../../shared/temporal';
import { BUILD_LANES, buildTaskQueue } from '../../shared/temporal/task-queues';
import { INDEXER_LAG, WEBHOOK_ATTEMPTS } from '../../shared/metrics/worker-metrics';
import { signIn, type SignedIn } from '../helpers/auth';
import { localChain, startTestChain } from '../helpers/chain';
import { createTestContext, UNLIMITED_RATES, type TestContext } from '../helpers/context';
import { Exposition } from '../helpers/prometheus';
import { freePort } from '../helpers/services';
import { eventually } from '../helpers/sse-client';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

/**
 * The worker's metrics endpoint (`WORKER_METRICS_ADDRESS`, docs/metrics.md): Temporal's own
 * worker metrics and the series our activities record through the activity metric meter, on
 * one Prometheus exporter. Temporal's runtime is installed once per process, so the worker
 * runs as a process of its own (test/helpers/worker-process.ts), never inside jest.
 */

jest.setTimeout(120_000);

/** Blocks the test chain is ahead of its (empty) index when the indexer starts. */
const BACKLOG = 600;

// Not useTestApp: the environment needs a free port and a chain of this file's own first.
let ctx: TestContext;
let app: App;
let worker: WorkerProcess;
let receiver: WebhookReceiver;
let testChain: Awaited<ReturnType<typeof startTestChain>>;
let metricsUrl: string;
let alice: SignedIn;

beforeAll(async () => {
  testChain = await startTestChain();
  const address = `127.0.0.1:${await freePort()}`;
  metricsUrl = `http://${address}/metrics`;
  ctx = await createTestContext({
    ...UNLIMITED_RATES,
    WORKER_METRICS_ADDRESS: address,
    CHAIN_RPC_URLS: `31337=${testChain.url}`,
    // Two blocks per range: the backlog takes a few hundred ranges, long enough to be seen.
    CHAIN_LOG_RANGE: '2',
    CHAIN_POLL_INTERVAL_MS: '100',
  });
  app = await ctx.newApi();
  await app.ready();
  worker = await startWorkerProcess(ctx.config);
  receiver = await startWebhookReceiver();
  alice = await signIn(app);
}, 120_000);

afterAll(async () => {
  await ctx?.deps.temporal.workflow
    .getHandle(workflowIds.chainSync(31337, ctx.config.temporal.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await worker?.stop();
  await receiver?.close();
  await ctx?.close();
  await testChain?.stop();
});

async function scrape(): Promise<Exposition> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return Exposition.parse(await response.text());
}

it('serves Temporal worker metrics of every task queue the process polls', async () => {
  const metrics = await eventually(async () => {
    const scraped = await scrape();
    return scraped.samples('temporal_worker_task_slots_available').length > 0;
  }, 30_000).then(scrape);
  const slots = metrics.samples('temporal_worker_task_slots_available');
  const queues = new Set(slots.map((sample) => sample.labels.task_queue));
  const base = ctx.config.temporal.taskQueue;
  expect(queues).toEqual(
    new Set([
      mainTaskQueue(base),
      webhookTaskQueue(base),
      ...BUILD_LANES.map((lane) => buildTaskQueue(base, lane)),
    ]),
  );
  expect(metrics.family('temporal_worker_task_slots_available').type).toBe('GAUGE');
});

it('counts webhook attempts by outcome: delivered, failed and retried, failed for good', async () => {
  receiver.script('/flaky', [500]);
  receiver.script('/dead', [503, 503, 503, 503]);
  for (const path of ['/ok', '/flaky', '/dead']) {
    const created = await app.inject({
      method: 'POST',
      url: '/me/webhooks',
      headers: { cookie: alice.cookie },
      payload: { url: receiver.url(path), events: [] },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ webhook: { id: string } }>().webhook;
    const ping = await app.inject({
      method: 'POST',
      url: `/me/webhooks/${id}/test`,
      headers: { cookie: alice.cookie },
    });
    expect(ping.statusCode).toBe(202);
  }
  await receiver.waitFor('/ok', 1);
  await receiver.waitFor('/flaky', 2);
  await receiver.waitFor('/dead', 4);
  // The count follows the attempt's record: wait until every delivery is settled, then
  // until the exporter shows as many attempts as were recorded (each is counted just after
  // its record commits, so a scrape can fall between the two).
  await eventually(async () => {
    const [row] = await ctx.sql<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where status = 'pending'`,
    );
    return row?.n === 0;
  }, 20_000);
  const [{ recorded }] = (await ctx.sql<{ recorded: number }>(
    'select count(*)::int as recorded from webhook_delivery_attempts',
  )) as [{ recorded: number }];
  expect(recorded).toBe(7);
  // Counters only grow, and nothing is left to attempt: a later scrape shows the same counts.
  const metrics = await eventually(
    async () => (await scrape()).sum(WEBHOOK_ATTEMPTS) >= recorded,
    20_000,
  ).then(scrape);

  const attempts = (outcome: string, statusClass: string) =>
    metrics.sum(WEBHOOK_ATTEMPTS, { outcome, status_class: statusClass });
  expect({
    delivered: attempts('delivered', '2xx'),
    retrying: attempts('failed_retrying', '5xx'),
    failed: attempts('failed_permanently', '5xx'),
    all: metrics.sum(WEBHOOK_ATTEMPTS),
  }).toEqual({ delivered: 2, retrying: 4, failed: 1, all: 7 });
  expect(metrics.family(WEBHOOK_ATTEMPTS).type).toBe('COUNTER');
  // The activity's labels come with it, named as on Temporal's series: the webhook queue.
  const queues = new Set(metrics.samples(WEBHOOK_ATTEMPTS).map((s) => s.labels.task_queue));
  expect(queues).toEqual(new Set([webhookTaskQueue(ctx.config.temporal.taskQueue)]));
  const types = new Set(metrics.samples(WEBHOOK_ATTEMPTS).map((s) => s.labels.activity_type));
  expect(types).toEqual(new Set(['attemptDelivery']));
});

it('shows the indexer lag per chain falling to 0 as it catches up', async () => {
  await localChain(testChain.url).anvil.mine({ blocks: BACKLOG });
  await ensureChainSync(
    ctx.deps.temporal,
    ctx.config.temporal.taskQueue,
    chainSyncInput(ctx.config, 31337),
  );
  const lag = async () => (await scrape()).value(INDEXER_LAG, { chain_id: '31337' });
  const seen: number[] = [];
  await eventually(async () => {
    const value = await lag();
    if (value !== undefined) seen.push(value);
    return value === 0;
  }, 60_000);
  // Seen while behind, then falling with every range indexed (the head stood still).
  expect(Math.max(...seen)).toBeGreaterThan(0);
  expect(Math.max(...seen)).toBeLessThanOrEqual(BACKLOG + 100);
  expect(seen).toEqual([...seen].sort((a, b) => b - a));
  expect(new Set(seen).size).toBeGreaterThan(2);
});
