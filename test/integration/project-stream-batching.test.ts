import { performance } from 'node:perf_hooks';
import type { App } from '../../api/app';
import type { Tier } from '../../shared/db/entities/subscription';
import { signIn, type SignedIn } from '../helpers/auth';
import { createTestContext, UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { eventually, SseClient } from '../helpers/sse-client';
import {
  done,
  emit,
  insertProject,
  message,
  messages,
  type TestProject,
} from '../helpers/project-fixtures';
import { grantTier, type SubscriptionStatus } from '../helpers/tiers';
import { watchEventLoop } from '../helpers/event-loop';

/**
 * Stream batching by tier (docs/spec/contract.md §11: `fasterSse` (pro+) stream events are sent as they
 * happen, others' are batched every `SSE_STANDARD_BATCH_MS`), over real HTTP and real Redis.
 * Events are emitted as a build step does (append, then publish) a few ms apart, and each
 * client notes when each event arrived. Timing claims compare spreads (how far apart events
 * arrive against how far apart they were published) and the batch length, never tight
 * absolute latencies: a loaded CI machine delays everything, but not a whole batch. Where a
 * claim bounds how soon events arrive, the bound also allows twice the longest this process
 * (server and clients alike) was held up during the test (`stalled()`, measured), which a
 * loaded machine adds to any arrival. An event was published at some instant while its
 * `emit` ran: bounds on how soon it arrives count from when `emit` returned, bounds on how
 * late from when `emit` began, so a slow database or Redis can only make a claim easier.
 */

/** Long against the publish span (3 × 50 ms), so one batch holds every event even when slow. */
const BATCH_MS = 800;
const GAP_MS = 50;
const EVENTS = 4;

let owner: SignedIn;
const clients: SseClient[] = [];

async function listen(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

const test = useTestApp({
  env: {
    SSE_STANDARD_BATCH_MS: String(BATCH_MS),
    SSE_HEARTBEAT_MS: '200',
    SSE_RETRY_MS: '50',
    ...UNLIMITED_RATES,
  },
  listen: true,
});
beforeAll(async () => {
  owner = await signIn(test.app);
});

let loop: ReturnType<typeof watchEventLoop>;
beforeEach(() => {
  loop = watchEventLoop();
});
afterEach(() => {
  loop.stop();
  for (const client of clients.splice(0)) client.close();
});
/** Twice the longest the event loop was held up during this test, in ms. */
const stalled = () => 2 * loop.maxDelayMs();

/** A signed-in user with a subscription row as the lifecycle leaves it (null: none). */
async function viewer(tier: Tier | null, status: SubscriptionStatus = 'active'): Promise<SignedIn> {
  const user = await signIn(test.app);
  if (tier) await grantTier(test.ctx, user.userId, tier, status);
  return user;
}

async function open(
  url: string,
  project: TestProject,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const client = await SseClient.connect(`${url}/projects/${project.slug}/stream`, headers);
  clients.push(client);
  return client;
}

/** Once the retry hint is in, the connection is registered and live events reach it. */
async function openLive(url: string, project: TestProject, who: SignedIn | null) {
  const client = await open(url, project, who ? { cookie: who.cookie } : {});
  expect(client.status).toBe(200);
  await client.waitFor((c) => c.retry !== null);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** When each event's `emit` began (`sent`) and returned (`published`): it was published between. */
interface Published {
  sent: number[];
  published: number[];
}

/** Emits messages first.. one at a time, `GAP_MS` apart. */
async function emitApart(project: TestProject, count: number, first = 1): Promise<Published> {
  const start = performance.now();
  const times: Published = { sent: [], published: [] };
  for (let i = 0; i < count; i++) {
    await sleep(start + i * GAP_MS - performance.now());
    times.sent.push(performance.now());
    await emit(project, [message(first + i)]);
    times.published.push(performance.now());
  }
  return times;
}

/** The server ended the stream (fails after `timeoutMs` instead of hanging the test). */
async function ended(client: SseClient, timeoutMs = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the stream did not end')), timeoutMs);
  });
  try {
    await Promise.race([client.done, late]);
  } finally {
    clearTimeout(timer);
  }
}

const spread = (times: number[]) => Math.max(...times) - Math.min(...times);

/** Batched: everything arrives together, nearly a batch after the first event was sent. */
function expectBatched(client: SseClient, times: Published) {
  const at = client.arrivedAt.slice(0, EVENTS);
  expect(client.ids.slice(0, EVENTS)).toEqual(times.sent.map((_, i) => i + 1));
  expect(spread(at)).toBeLessThan(0.3 * spread(times.published) + stalled());
  expect(at[0]! - times.sent[0]!).toBeGreaterThan(0.85 * BATCH_MS);
}

/** As it happens: each event arrives well within a batch of its own publishing. */
function expectImmediate(client: SseClient, times: Published) {
  const at = client.arrivedAt.slice(0, EVENTS);
  expect(client.ids.slice(0, EVENTS)).toEqual(times.sent.map((_, i) => i + 1));
  for (const [i, arrived] of at.entries()) {
    expect(arrived - times.published[i]!).toBeLessThan(0.5 * BATCH_MS + stalled());
  }
}

describe('batching by tier', () => {
  it('a free stream is batched and a pro stream is not; anonymous viewers are batched', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    const free = await openLive(test.url, project, await viewer(null));
    const pro = await openLive(test.url, project, await viewer('pro'));
    const anonymous = await openLive(test.url, project, null);

    const times = await emitApart(project, EVENTS);
    await Promise.all([free, pro, anonymous].map((client) => client.waitForEvents(EVENTS)));

    expectImmediate(pro, times);
    expectBatched(free, times);
    expectBatched(anonymous, times);
    // Each frame of the one write keeps its own id, event and data.
    for (const client of [free, anonymous]) {
      expect(client.events).toEqual(
        messages(1, EVENTS).map((event, i) => ({
          id: String(i + 1),
          event: 'message',
          data: JSON.stringify(event.data),
        })),
      );
    }
    // The pro stream had every event before the free one had any.
    expect(pro.arrivedAt.at(-1)!).toBeLessThan(free.arrivedAt[0]! + stalled());
    // Heartbeats go on while events wait for their batch.
    expect(free.comments).toContain('keep-alive');
  });

  it('follows the entitlement: plus and a canceled pro are batched; max and a pro in grace not', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    const batched = [
      await openLive(test.url, project, await viewer('plus')),
      await openLive(test.url, project, await viewer('pro', 'canceled')),
    ];
    const immediate = [
      await openLive(test.url, project, await viewer('max')),
      await openLive(test.url, project, await viewer('pro', 'grace')),
    ];
    const times = await emitApart(project, EVENTS);
    await Promise.all([...batched, ...immediate].map((client) => client.waitForEvents(EVENTS)));
    for (const client of batched) expectBatched(client, times);
    for (const client of immediate) expectImmediate(client, times);
  });
});

describe('what is never held for a batch', () => {
  it('sends the final done at once, with what waited before it, then ends', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    const free = await openLive(test.url, project, await viewer(null));
    const {
      published: [firstPublished],
    } = await emitApart(project, 1);
    await sleep(GAP_MS);
    await emit(project, [done(project.runId)]);
    await free.waitForEvents(2, 5_000);
    await ended(free);
    expect(free.ids).toEqual([1, 2]);
    expect(free.events.map((event) => event.event)).toEqual(['message', 'done']);
    // Without the early flush, both would wait for the batch started by message 1.
    expect(free.arrivedAt[1]! - firstPublished!).toBeLessThan(0.6 * BATCH_MS + stalled());
    expect(free.arrivedAt[0]).toBe(free.arrivedAt[1]);
  });

  it('replays the log at once on connect (Last-Event-ID), then batches live events', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    await emit(project, messages(1, 5));
    const connectedAt = performance.now();
    const client = await open(test.url, project, { 'last-event-id': '2' });
    await client.waitForEvents(3);
    expect(client.ids).toEqual([3, 4, 5]);
    expect(client.arrivedAt[2]! - connectedAt).toBeLessThan(0.5 * BATCH_MS + stalled());

    const times = await emitApart(project, 2, 6);
    await client.waitForEvents(5);
    expect(spread(client.arrivedAt.slice(3))).toBeLessThan(
      0.3 * spread(times.published) + stalled(),
    );
    expect(client.arrivedAt[3]! - times.sent[0]!).toBeGreaterThan(0.85 * BATCH_MS);
    expect(client.ids).toEqual([3, 4, 5, 6, 7]);
  });
});

describe('ids across reconnects', () => {
  it('a batched client that reconnects with Last-Event-ID gets every event once, in order', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    const total = 60;
    let emitted = 0;
    let connections = 0;
    const appender = (async () => {
      // At least `total` events, and on until the client has connected three times: on a slow
      // machine the first connect may come after `total`, and its replay would hold them all.
      // Bounded, so a broken client loop fails the test instead of hanging it.
      while ((emitted < total || connections < 3) && emitted < 50 * total) {
        emitted += 1;
        await emit(project, [message(emitted)]);
        await sleep(20);
      }
      await emit(project, [done(project.runId)]);
    })();

    const received: number[] = [];
    let hops = 0;
    for (let lastId: number | null = null; ; hops++) {
      const headers: Record<string, string> =
        lastId === null ? {} : { 'last-event-id': String(lastId) };
      const client = await open(test.url, project, headers);
      connections += 1;
      // Leave after the first arrival (a replay or a batch): batched events still waiting
      // for their flush are never sent to this connection and must come after reconnecting.
      await client.waitFor((c) => c.events.length > 0 || c.ended, 20_000);
      client.close();
      received.push(...client.ids);
      lastId = received.at(-1) ?? lastId;
      if (client.events.at(-1)?.event === 'done') break;
    }
    await appender;
    expect(emitted).toBeGreaterThanOrEqual(total);
    expect(received).toEqual(Array.from({ length: emitted + 1 }, (_, i) => i + 1));
    expect(hops).toBeGreaterThan(1);
  });
});

describe('resources', () => {
  it('closing a batched stream before its flush clears the flush timer', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    const client = await openLive(test.url, project, null);
    const timers = jest.spyOn(global, 'setTimeout');
    const clears = jest.spyOn(global, 'clearTimeout');
    try {
      await emit(project, [message(1)]);
      // The feed's flush timer is the one of a batch's length.
      const flushTimer = () =>
        timers.mock.results[timers.mock.calls.findIndex(([, delay]) => delay === BATCH_MS)];
      await eventually(() => flushTimer() !== undefined);
      client.close();
      await eventually(() => test.app.projectStreams.connectionCount === 0);
      // (Compared by identity: a failed matcher would print the whole timer object graph.)
      const timer = flushTimer()!.value as unknown;
      expect(clears.mock.calls.some(([cleared]) => cleared === timer)).toBe(true);
      expect(client.events).toEqual([]);
    } finally {
      timers.mockRestore();
      clears.mockRestore();
    }
  });

  it('a batched stream that stops reading is still dropped once 1 MB waits for it', async () => {
    const project = await insertProject(test.ctx, { ownerId: owner.userId });
    const hub = test.app.projectStreams;
    const client = await openLive(test.url, project, null);
    client.response.pause();
    const big = 'x'.repeat(64 * 1024);
    for (let n = 1; hub.connectionCount > 0; n++) {
      if (n > 1000) throw new Error('the slow client was never dropped');
      await emit(project, [
        { key: `big-${n}`, type: 'message', data: { role: 'assistant', text: big } },
      ]);
    }
    expect(
      test.ctx.logs.some((line) => line.msg === 'sse: client too slow, dropping the connection'),
    ).toBe(true);
  });
});

describe('SSE_STANDARD_BATCH_MS=0', () => {
  it('turns batching off: a free stream then gets each event as it happens', async () => {
    // Settings of this test alone: its own world, opened and closed here rather than by useTestApp.
    const unbatched = await createTestContext({
      SSE_STANDARD_BATCH_MS: '0',
      SSE_RETRY_MS: '50',
      ...UNLIMITED_RATES,
    });
    try {
      const app = await unbatched.newApi();
      const url = await listen(app);
      const user = await signIn(app);
      const project = await insertProject(unbatched, { ownerId: user.userId });
      const free = await openLive(url, project, user);
      const anonymous = await openLive(url, project, null);
      const times = await emitApart(project, EVENTS);
      await Promise.all([free, anonymous].map((client) => client.waitForEvents(EVENTS)));
      expectImmediate(free, times);
      expectImmediate(anonymous, times);
    } finally {
      for (const client of clients.splice(0)) client.close();
      await unbatched.close();
    }
  });
});
