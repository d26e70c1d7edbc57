import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { buildApp } from '../api/app';
import { closeApiDeps, connectApiDeps } from '../api/deps';
import { eventText } from '../api/sse/frames';
import { loadConfig } from '../shared/config';
import { initOrm, migrate } from '../shared/db/orm';
import { createLogger } from '../shared/logger';
import { appendProjectEvents, publishProjectEvents } from '../shared/projects/event-log';
import { projectEventsChannel, type NewProjectEvent } from '../shared/projects/events';
import { BASELINE_PATH } from './sse-baseline';
import { measureBursts } from './sse-bursts';
import { admin, createProject, createProViewer, withDatabase, type Fixture } from './sse-fixture';
import { printBursts, printResults, type PhaseResult, type SizeResult } from './sse-report';
import {
  reportToParent,
  settle,
  startServerProcess,
  stopServerProcesses,
  Teardown,
  type ServerMemory,
  type ServerProcess,
} from './sse-processes';
import { closeSockets, Deliveries, percentile, replayOnce, subscribeMany } from './sse-subscribers';
import { deleteKeysWithPrefix } from '../scripts/redis-keys';

/**
 * SSE fan-out of one project to 1k, 5k and 10k subscribers of ONE API instance, side by side
 * with a bare `node:http` baseline (bench/sse-baseline.ts) fed the same way over Redis pub/sub.
 * Each server is a child process (the API: this file with SSE_BENCH_ROLE=api), so its memory
 * is measured alone; subscribers are raw TCP sockets in this process, the same client code for
 * both. Per size, our API is measured and then, right after, the baseline, each with fresh
 * subscribers and the same number of events; every event carries its send time, so latency is
 * measured at every subscriber. Ours: append + publish → receive (the way a build step emits);
 * baseline: publish → receive. Our subscribers are a pro viewer's streams (its API key), which
 * get each event as it happens; anonymous ones would wait for their batch. Then bursts of
 * events back to back to pro and to batched (anonymous) streams (bench/sse-bursts.ts): what
 * coalescing a batch into one write per stream saves. Also: replay of 1000 events
 * (Last-Event-ID: 0) from our API.
 *
 * Needs real PostgreSQL and Redis (DATABASE_URL names the server; a scratch database is
 * created, migrated and dropped; a Redis key prefix of its own). Temporal is not called.
 */
const benchEnv = z.object({
  BENCH_SSE_SIZES: z
    .string()
    .default('1000,5000,10000')
    .transform((sizes) => sizes.split(',').map(Number))
    .pipe(z.array(z.number().int().positive()).min(1)),
  BENCH_SSE_EVENTS: z.coerce.number().int().positive().default(20),
  BENCH_SSE_BURSTS: z.coerce.number().int().positive().default(5),
  BENCH_SSE_BURST_EVENTS: z.coerce.number().int().positive().default(10),
});
const EVENT_INTERVAL_MS = 500;
/** An event's deliveries are awaited before the next, so one fan-out never overlaps another. */
const DELIVERY_TIMEOUT_MS = 5_000;
const WARM_UP_SUBSCRIBERS = 50;
const WARM_UP_EVENTS = 3;
const REPLAY_RUNS = 5;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Child role: the real app, listening on a free port, reporting memory on request. */
async function serveApi(): Promise<void> {
  const config = loadConfig(process.env);
  const deps = await connectApiDeps(config, createLogger(config.logLevel, 'bench-api'));
  const app = buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  reportToParent({
    port: (app.server.address() as { port: number }).port,
    connections: () => app.projectStreams.connectionCount,
    close: async () => {
      await app.close();
      await closeApiDeps(deps);
    },
  });
}

async function measureReplay(fixture: Fixture, port: number): Promise<number[]> {
  const project = await createProject(fixture.orm, 'running');
  const events: NewProjectEvent[] = Array.from({ length: 1000 }, (_, i) => ({
    key: `replay-${i}`,
    type: 'message',
    data: { role: 'assistant', text: `Replayed step ${i}: ${'lorem ipsum '.repeat(4)}` },
  }));
  await appendProjectEvents(fixture.orm.em.fork(), project.id, project.runId, events);
  const times: number[] = [];
  for (let run = 0; run < REPLAY_RUNS; run++) {
    times.push(await replayOnce(port, `/projects/${project.slug}/stream`));
  }
  return times;
}

/** A server under test: where its streams are, and how an event reaches them. */
interface Target {
  server: ServerProcess;
  /** Sent by every subscriber (ours: the pro viewer's API key). */
  headers: Record<string, string>;
  /** A fresh stream for one phase, so no subscriber is sent an earlier phase's events. */
  nextStream(): Promise<Stream>;
}

export interface Stream {
  path: string;
  /** Sends the next event stamped with its send time; resolves with the ms spent before publishing. */
  send(): Promise<number>;
}

/** The same payload for both: a tool_call whose `data` carries the send time. */
function benchEventData(n: number) {
  return { tool: 'bench', args: { sentAt: performance.now() }, callId: `c${n}` };
}

/** Each phase streams a new project: an empty log, so a new subscriber has nothing to replay. */
function ourTarget(fixture: Fixture, server: ServerProcess, proKey: string): Target {
  const nextStream = async (): Promise<Stream> => {
    const project = await createProject(fixture.orm, 'running');
    const channel = projectEventsChannel(fixture.prefix, project.id);
    let sent = 0;
    return {
      path: `/projects/${project.slug}/stream`,
      async send() {
        const n = sent++;
        const data = benchEventData(n);
        const event: NewProjectEvent = { key: `fanout-${n}`, type: 'tool_call', data };
        const em = fixture.orm.em.fork();
        const appended = await appendProjectEvents(em, project.id, project.runId, [event]);
        const appendMs = performance.now() - data.args.sentAt;
        await publishProjectEvents(fixture.redis, channel, appended);
        return appendMs;
      },
    };
  };
  return { server, headers: { 'x-api-key': proKey }, nextStream };
}

function baselineTarget(fixture: Fixture, server: ServerProcess, channel: string): Target {
  const nextStream = async (): Promise<Stream> => {
    let sent = 0;
    return {
      path: BASELINE_PATH,
      async send() {
        const seq = ++sent;
        const frame = eventText({ seq, type: 'tool_call', data: benchEventData(seq) });
        await fixture.redis.publish(channel, frame);
        return 0;
      },
    };
  };
  return { server, headers: {}, nextStream };
}

/** Fresh subscribers, their memory, then `events` events, each fully delivered before the next. */
async function measurePhase(
  target: Target,
  size: number,
  events: number,
  idle: ServerMemory,
): Promise<PhaseResult> {
  const stream = await target.nextStream();
  const deliveries = new Deliveries();
  const sockets = await subscribeMany(
    target.server.port,
    stream.path,
    size,
    deliveries,
    target.headers,
  );
  let result: PhaseResult;
  try {
    await sleep(1000);
    const memory = await target.server.memory();
    const beforePublish = await sendEvents(stream, deliveries, size, events);
    const sorted = Float64Array.from(deliveries.samples).sort();
    result = {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      delivered: sorted.length,
      expected: size * events,
      connections: memory.connections,
      rssPerConnection: (memory.rss - idle.rss) / size,
      heapPerConnection: (memory.heapUsed - idle.heapUsed) / size,
      beforePublishP50: percentile(Float64Array.from(beforePublish).sort(), 50),
    };
  } finally {
    closeSockets(sockets);
  }
  // Only on success: after a failure, teardown stops the servers and the first error is kept.
  await settle(target.server);
  return result;
}

/** Returns, per event, the ms spent before publishing (ours: the append). */
export async function sendEvents(
  stream: Stream,
  deliveries: Deliveries,
  size: number,
  events: number,
): Promise<number[]> {
  const beforePublish: number[] = [];
  for (let i = 0; i < events; i++) {
    const started = performance.now();
    beforePublish.push(await stream.send());
    await deliveries.waitFor((i + 1) * size, DELIVERY_TIMEOUT_MS);
    await sleep(EVENT_INTERVAL_MS - (performance.now() - started));
  }
  await deliveries.waitFor(events * size, DELIVERY_TIMEOUT_MS);
  return beforePublish;
}

/** JIT and pools on both paths, then each server's idle memory with no stream open. */
async function warmUp(target: Target): Promise<ServerMemory> {
  await measurePhase(target, WARM_UP_SUBSCRIBERS, WARM_UP_EVENTS, await target.server.memory());
  return target.server.memory();
}

async function measureFanout(ours: Target, baseline: Target, sizes: number[], events: number) {
  const idle = { ours: await warmUp(ours), baseline: await warmUp(baseline) };
  const results: SizeResult[] = [];
  for (const size of sizes) {
    const oursResult = await measurePhase(ours, size, events, idle.ours);
    const baselineResult = await measurePhase(baseline, size, events, idle.baseline);
    results.push({ size, ours: oursResult, baseline: baselineResult });
    console.log(`  ${size} subscribers measured`);
  }
  return { idle, results };
}

export async function benchSseFanout(): Promise<void> {
  const env = benchEnv.parse(process.env);
  const { BENCH_SSE_SIZES: sizes, BENCH_SSE_EVENTS: events } = env;
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const adminUrl =
    process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const database = `svc_bench_${runId}`;
  const prefix = `svc-bench:${runId}:`;
  const apiKeyPepper = randomBytes(32).toString('hex');
  const databaseUrl = withDatabase(adminUrl, database);
  const teardown = new Teardown('sse-fanout');
  try {
    await admin(adminUrl, `create database "${database}"`);
    teardown.add('drop database', () =>
      admin(adminUrl, `drop database if exists "${database}" with (force)`),
    );
    const orm = await initOrm(databaseUrl, 4);
    teardown.add('close orm', () => orm.close());
    const redis = new Redis(redisUrl);
    teardown.add('delete redis keys', async () => {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    });
    // Before the keys go: a server still running could write one more (a rate-limit counter).
    teardown.add('stop server processes', stopServerProcesses);
    teardown.add('close subscribers', async () => closeSockets());
    await migrate(orm);
    const [api, bare] = await Promise.all([
      startServerProcess('api', __filename, {
        SSE_BENCH_ROLE: 'api',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        API_KEY_PEPPER: apiKeyPepper,
        // 10k subscribers connect from one address (and with one key) within a minute.
        RATE_LIMIT_ANONYMOUS_RPM: '100000000',
        RATE_LIMIT_USER_RPM: '100000000',
      }),
      startServerProcess('baseline', resolve(__dirname, 'sse-baseline.ts'), {
        REDIS_URL: redisUrl,
        SSE_BASELINE_CHANNEL: `${prefix}sse-baseline`,
      }),
    ]);
    console.log(
      `sse-fanout: ${sizes.join('/')} subscribers of one project on one API process ` +
        `(pid ${api.pid}) vs a bare node:http baseline (pid ${bare.pid}); subscribers and ` +
        `publisher in pid ${process.pid}; per size ours (a pro viewer's streams) then baseline, ` +
        `${events} events each, >= ${EVENT_INTERVAL_MS} ms apart; then bursts, pro vs batched`,
    );
    const fixture = { orm, redis, prefix };
    const replay = await measureReplay(fixture, api.port);
    const proKey = await createProViewer(orm, apiKeyPepper);
    const ours = ourTarget(fixture, api, proKey);
    const baseline = baselineTarget(fixture, bare, `${prefix}sse-baseline`);
    const { idle, results } = await measureFanout(ours, baseline, sizes, events);
    const bursts = [];
    for (const size of sizes) {
      const options = { size, bursts: env.BENCH_SSE_BURSTS, events: env.BENCH_SSE_BURST_EVENTS };
      const pro = await measureBursts(fixture, api, { ...options, headers: ours.headers });
      const free = await measureBursts(fixture, api, { ...options, headers: {} });
      bursts.push({ size, pro, free });
      console.log(`  ${size} subscribers: bursts measured`);
    }
    printResults(results, replay, idle);
    printBursts(bursts, env.BENCH_SSE_BURSTS, env.BENCH_SSE_BURST_EVENTS);
  } finally {
    await teardown.run();
  }
}

if (require.main === module) {
  const role = process.env.SSE_BENCH_ROLE === 'api' ? serveApi() : benchSseFanout();
  role.catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
