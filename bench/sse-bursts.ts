import { performance } from 'node:perf_hooks';
import { appendProjectEvents, publishProjectEvents } from '../shared/projects/event-log';
import { projectEventsChannel, type NewProjectEvent } from '../shared/projects/events';
import { createProject, type Fixture } from './sse-fixture';
import { settle, type ServerProcess } from './sse-processes';
import { closeSockets, Deliveries, percentile, subscribeMany } from './sse-subscribers';

/**
 * What batching does to the cost of a fan-out (docs/spec/contract.md §11: `fasterSse` streams get each
 * event as it happens, the others a batch every `SSE_STANDARD_BATCH_MS`). A build step often
 * emits several events back to back (a tool call, its result, a message). Here `events` of
 * them at a time, each appended and published as a worker does, go to `size` subscribers of
 * one project on our API, once as a pro viewer's streams (each event one write per stream),
 * once as anonymous viewers' (batched: one write per stream per flush, cut from one buffer).
 * Measured on the API process: CPU time per delivered event, from the first publish until
 * every subscriber has every event; and on the subscribers: socket reads per burst and how
 * long after the burst's last publish its last delivery came (a batched burst waits for its
 * flush: that is the tier's contract, not a cost).
 */

export interface BurstResult {
  /** µs of API CPU (user + system) per event delivered to one subscriber. */
  cpuPerDelivery: number;
  /** Socket reads carrying events, per subscriber per burst (1 when a burst is one write). */
  readsPerBurst: number;
  /** ms from a burst's last publish until every subscriber had all of it, median of bursts. */
  completeP50: number;
  delivered: number;
  expected: number;
}

export interface BurstOptions {
  size: number;
  bursts: number;
  events: number;
  /** A pro viewer's request headers (`x-api-key`); anonymous viewers send none. */
  headers: Record<string, string>;
}

/** Every burst is awaited in full before the next: longer than any batch, never forever. */
const BURST_TIMEOUT_MS = 15_000;
const PAUSE_MS = 200;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function measureBursts(
  fixture: Fixture,
  server: ServerProcess,
  options: BurstOptions,
): Promise<BurstResult> {
  const { size, bursts, events, headers } = options;
  const project = await createProject(fixture.orm, 'running');
  const channel = projectEventsChannel(fixture.prefix, project.id);
  const path = `/projects/${project.slug}/stream`;
  const deliveries = new Deliveries();
  const sockets = await subscribeMany(server.port, path, size, deliveries, headers);
  let result: BurstResult;
  try {
    await sleep(1000);
    const completes: number[] = [];
    let sent = 0;
    const cpuBefore = await server.cpu();
    for (let burst = 0; burst < bursts; burst++) {
      for (let i = 0; i < events; i++, sent++) {
        const event: NewProjectEvent = {
          key: `burst-${sent}`,
          type: 'tool_call',
          data: { tool: 'bench', args: { sentAt: performance.now() }, callId: `b${sent}` },
        };
        const em = fixture.orm.em.fork();
        const appended = await appendProjectEvents(em, project.id, project.runId, [event]);
        await publishProjectEvents(fixture.redis, channel, appended);
      }
      const lastPublished = performance.now();
      await deliveries.waitFor(sent * size, BURST_TIMEOUT_MS);
      completes.push(performance.now() - lastPublished);
      if (burst < bursts - 1) await sleep(PAUSE_MS);
    }
    const cpu = (await server.cpu()) - cpuBefore;
    result = {
      cpuPerDelivery: cpu / deliveries.samples.length,
      readsPerBurst: deliveries.reads / (size * bursts),
      completeP50: percentile(Float64Array.from(completes).sort(), 50),
      delivered: deliveries.samples.length,
      expected: size * bursts * events,
    };
  } finally {
    closeSockets(sockets);
  }
  await settle(server);
  return result;
}
