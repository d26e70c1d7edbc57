import type { Client } from '@temporalio/client';
import type { MikroORM } from '../shared/db/orm';
import { sqlOf, statement } from '../shared/db/sql';
import { workflowIds } from '../shared/temporal';
import { enqueueOutboxEvent } from '../shared/outbox/outbox';
import type { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { percentile } from './sse-subscribers';

/**
 * The webhook bench's two kinds of phase, both "N items, `concurrency` creators in flight,
 * clock from the first creation to the last item done":
 * - deliveries: N outbox events (as an API transaction writes them) → the real dispatcher and
 *   worker → the loopback receiver's 200; an item is done when the receiver has its body. The
 *   phase ends when every delivery row settled and every delivery workflow closed.
 * - workflows: N `client.workflow.start` of a baseline workflow; an item is done at its
 *   server-side close time.
 * Per-item latency: done − the moment its creation began (both on this machine's clock).
 */

const WAIT_TIMEOUT_MS = 300_000;
const POLL_MS = 10;

export interface PhaseResult {
  count: number;
  /** From the first creation to the last item done. */
  totalMs: number;
  perSecond: number;
  p50: number;
  p99: number;
  stages?: DeliveryStages;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Runs `job(0..n-1)` with at most `concurrency` in flight, in order of index. */
async function runPool(n: number, concurrency: number, job: (i: number) => Promise<void>) {
  let next = 0;
  const runner = async () => {
    while (next < n) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, runner));
}

function summarize(startedAt: number[], doneAt: number[]): PhaseResult {
  const first = Math.min(...startedAt);
  const totalMs = Math.max(...doneAt) - first;
  const latencies = Float64Array.from(doneAt.map((done, i) => done - startedAt[i]!)).sort();
  return {
    count: doneAt.length,
    totalMs,
    perSecond: (doneAt.length * 1000) / totalMs,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${WAIT_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

export interface DeliveryTarget {
  orm: MikroORM;
  /** Waits for the delivery workflows to close, so none of their work spills into the next phase. */
  client: Client;
  receiver: WebhookReceiver;
  path: string;
  userId: number;
}

/** The bench's envelope data: which phase and which item, so receipts map back to sends. */
interface BenchData {
  phase: string;
  seq: number;
}

export async function measureDeliveries(
  target: DeliveryTarget,
  phase: string,
  n: number,
  concurrency: number,
): Promise<PhaseResult> {
  const seen = target.receiver.requestsTo(target.path).length;
  const startedAt: number[] = [];
  await runPool(n, concurrency, async (seq) => {
    startedAt[seq] = Date.now();
    const data: BenchData = { phase, seq };
    await enqueueOutboxEvent(target.orm.em.fork(), {
      userId: target.userId,
      event: 'project.completed',
      data: { ...data },
      dedupeKey: `bench:${phase}:${seq}`,
    });
  });
  const doneAt: number[] = [];
  let received = 0;
  await waitUntil(`${phase}: receiver`, () => {
    const fresh = target.receiver.requestsTo(target.path).slice(seen + received);
    for (const request of fresh) {
      const envelope = JSON.parse(request.raw.toString('utf8')) as { data: BenchData };
      // At least once: a repeated envelope counts once, at its first arrival.
      if (envelope.data.phase === phase && doneAt[envelope.data.seq] === undefined) {
        doneAt[envelope.data.seq] = request.receivedAt;
      }
    }
    received += fresh.length;
    return Object.keys(doneAt).length >= n;
  });
  await waitForSettled(target.orm, phase, n);
  await waitForClosed(target, phase, concurrency);
  return { ...summarize(startedAt, doneAt), stages: await stageMedians(target.orm, phase) };
}

/** The deliveries of a phase. */
const phaseDeliveries = statement<{ id: string }, [phase: string]>(
  'bench.phase_deliveries',
  `select id from webhook_deliveries where payload #>> '{data,phase}' = $1`,
);

async function waitForClosed(target: DeliveryTarget, phase: string, concurrency: number) {
  const rows = await sqlOf(target.orm.em.fork()).rows(phaseDeliveries, [phase]);
  await runPool(rows.length, concurrency, async (i) => {
    await target.client.workflow.getHandle(workflowIds.webhookDelivery(rows[i]!.id)).result();
  });
}

/** Medians (ms) of where a delivery's time goes, from the rows' own timestamps. */
export interface DeliveryStages {
  /** Outbox row committed → its delivery row created by the dispatcher. */
  dispatch: number;
  /** Delivery row created → first attempt begins (workflow start and its first task). */
  start: number;
  /** The POST itself. */
  post: number;
  /** POST answered → delivery row settled. */
  settle: number;
}

/** The medians of a phase's stages, from its first attempts. */
const phaseStageMedians = statement<DeliveryStages, [phase: string]>(
  'bench.phase_stage_medians',
  `with stages as (
       select extract(epoch from d.created_at - o.created_at) * 1000 as dispatch,
         extract(epoch from a.started_at - d.created_at) * 1000 as start,
         a.duration_ms as post,
         extract(epoch from d.completed_at - a.started_at) * 1000 - a.duration_ms as settle
       from webhook_deliveries d
       join outbox_events o on o.id = d.outbox_event_id
       join webhook_delivery_attempts a on a.delivery_id = d.id and a.attempt = 1
       where d.payload #>> '{data,phase}' = $1
     )
     select percentile_cont(0.5) within group (order by dispatch)::float8 as dispatch,
       percentile_cont(0.5) within group (order by start)::float8 as start,
       percentile_cont(0.5) within group (order by post)::float8 as post,
       percentile_cont(0.5) within group (order by settle)::float8 as settle
     from stages`,
);

async function stageMedians(orm: MikroORM, phase: string): Promise<DeliveryStages> {
  return (await sqlOf(orm.em.fork()).row(phaseStageMedians, [phase]))!;
}

interface SettledRow {
  settled: number;
  undispatched: number;
}

/** A phase's settled deliveries, and the outbox rows not dispatched yet (anyone's). */
const phaseSettled = statement<SettledRow, [phase: string]>(
  'bench.phase_settled',
  `select
     (select count(*)::int from webhook_deliveries
      where status <> 'pending' and payload #>> '{data,phase}' = $1) as settled,
     (select count(*)::int from outbox_events where dispatched_at is null) as undispatched`,
);

/** Every delivery row settled and the outbox drained: no tail leaks into the next phase. */
async function waitForSettled(orm: MikroORM, phase: string, n: number): Promise<void> {
  await waitUntil(`${phase}: deliveries settled`, async () => {
    const row = await sqlOf(orm.em.fork()).row(phaseSettled, [phase]);
    return row!.settled >= n && row!.undispatched === 0;
  });
}

export interface WorkflowTarget {
  client: Client;
  taskQueue: string;
  workflowType: string;
}

export async function measureWorkflows(
  target: WorkflowTarget,
  phase: string,
  n: number,
  concurrency: number,
): Promise<PhaseResult> {
  const startedAt: number[] = [];
  const ids: string[] = [];
  await runPool(n, concurrency, async (i) => {
    startedAt[i] = Date.now();
    ids[i] = `bench:${phase}:${i}`;
    await target.client.workflow.start(target.workflowType, {
      taskQueue: target.taskQueue,
      workflowId: ids[i],
    });
  });
  const doneAt: number[] = [];
  // Completion is read from the server afterwards, so waiting adds no client-side delay.
  await runPool(n, concurrency, async (i) => {
    const handle = target.client.workflow.getHandle(ids[i]!);
    await handle.result();
    const { closeTime } = await handle.describe();
    doneAt[i] = closeTime!.getTime();
  });
  return summarize(startedAt, doneAt);
}
