import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { buildApp } from '../api/app';
import { closeApiDeps, connectApiDeps } from '../api/deps';
import { loadConfig } from '../shared/config';
import { initOrm, migrate, type MikroORM } from '../shared/db/orm';
import { createLogger } from '../shared/logger';
import { appendProjectEvents, publishProjectEvents } from '../shared/projects/event-log';
import { projectEventsChannel, type NewProjectEvent } from '../shared/projects/events';

/**
 * SSE fan-out of one project to 1k, 5k and 10k subscribers of ONE API instance, which runs as
 * a child process (this file with SSE_BENCH_ROLE=api) so that its memory is measured alone.
 * Subscribers are raw TCP sockets in this process. Each event is appended and published the
 * way a build step does (appendProjectEvents + publishProjectEvents) and carries its send time
 * (`performance.now()` of this process, which also receives), so append→receive latency is
 * measured at every subscriber. Also: replay of 1000 events (Last-Event-ID: 0).
 *
 * Needs real PostgreSQL and Redis (DATABASE_URL names the server; a scratch database is
 * created, migrated and dropped; a Redis key prefix of its own). Temporal is not called.
 */
const SIZES = (process.env.BENCH_SSE_SIZES ?? '1000,5000,10000').split(',').map(Number);
const EVENTS_PER_SIZE = Number(process.env.BENCH_SSE_EVENTS ?? 20);
const EVENT_INTERVAL_MS = 500;
const REPLAY_RUNS = 5;
const OPEN_BATCH = 250;
const GOAL_P99_MS = 250;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Memory {
  rss: number;
  heapUsed: number;
}

/** The API in a child process: its port, and its memory after a full GC. */
interface ApiProcess {
  pid: number;
  port: number;
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child: ChildProcess = fork(__filename, [], {
    cwd: resolve(__dirname, '..'),
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, ...env, SSE_BENCH_ROLE: 'api' },
  });
  const memory = () =>
    new Promise<Memory>((done) => {
      child.once('message', (reply) => done((reply as { memory: Memory }).memory));
      child.send('memory');
    });
  const stop = () =>
    new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`API process exited with ${code}`)));
    child.once('message', (ready) =>
      done({ pid: child.pid ?? 0, port: (ready as { port: number }).port, memory, stop }),
    );
  });
}

/** Child role: the real app, listening on a free port, reporting memory on request. */
async function serveApi(): Promise<void> {
  const config = loadConfig(process.env);
  const deps = await connectApiDeps(config, createLogger(config.logLevel, 'bench-api'));
  const app = buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', () => {
    gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ memory: { rss, heapUsed } });
  });
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => closeApiDeps(deps))
      .finally(() => process.exit(0));
  });
  process.send?.({ port: (app.server.address() as { port: number }).port });
}

/** One subscriber: a raw socket speaking just enough HTTP/1.1 to read the stream. */
interface Subscriber {
  socket: Socket;
  tail: string;
  ready: boolean;
}

let onLatency: (ms: number) => void = () => undefined;

function subscribe(port: number, path: string): Promise<Subscriber> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    const sub: Subscriber = { socket, tail: '', ready: false };
    socket.setNoDelay(true);
    socket.on('error', fail);
    socket.once('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      const now = performance.now();
      const text = sub.tail + chunk.toString('latin1');
      if (!sub.ready && !text.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        return fail(new Error(`subscribe: ${text.slice(0, 200)}`));
      }
      const cut = text.lastIndexOf('\n\n');
      sub.tail = cut === -1 ? text : text.slice(cut + 2);
      if (cut === -1) return;
      const complete = text.slice(0, cut);
      if (!sub.ready && complete.includes('retry:')) {
        sub.ready = true;
        done(sub);
      }
      for (const match of complete.matchAll(/"sentAt":([\d.]+)/g))
        onLatency(now - Number(match[1]));
    });
  });
}

async function subscribeMany(port: number, path: string, count: number): Promise<Subscriber[]> {
  const subs: Subscriber[] = [];
  while (subs.length < count) {
    const batch = Math.min(OPEN_BATCH, count - subs.length);
    subs.push(...(await Promise.all(Array.from({ length: batch }, () => subscribe(port, path)))));
  }
  return subs;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Fixture {
  orm: MikroORM;
  redis: Redis;
  prefix: string;
}

async function createProject(
  orm: MikroORM,
  status: string,
): Promise<{ id: string; slug: string; runId: string }> {
  const em = orm.em.fork();
  const suffix = randomBytes(4).toString('hex');
  const [user] = await em.execute<{ id: number }[]>(
    `insert into users (address, created_at) values (?, now()) returning id`,
    [`0x${randomBytes(20).toString('hex')}`],
  );
  const [token] = await em.execute<{ id: string }[]>(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, 'virtuals', 31337, '{}', 'live', now()) returning id`,
    [user!.id, `bench-${suffix}`, `Bench ${suffix}`, suffix.slice(0, 6).toUpperCase()],
  );
  const runId = randomUUID();
  const slug = `bench-${suffix}`;
  const [project] = await em.execute<{ id: string }[]>(
    `insert into projects (id, owner_id, token_id, slug, title, brief, agent_template, private,
                           status, current_run_id, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, 'Bench', 'Bench', 'fullstack-builder', false, ?, ?, now(), now())
     returning id`,
    [user!.id, token!.id, slug, status, runId],
  );
  return { id: project!.id, slug, runId };
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

/** From connecting to having event 1000, on a fresh socket. */
function replayOnce(port: number, path: string): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let body = '';
    socket.on('error', fail);
    socket.once('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\nLast-Event-ID: 0\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      body += chunk.toString('latin1');
      if (!body.includes('\nid: 1000\n')) return;
      const elapsed = performance.now() - started;
      const count = body.match(/\nid: \d+\n/g)?.length ?? 0;
      socket.destroy();
      if (count !== 1000) fail(new Error(`replay: ${count} events instead of 1000`));
      else done(elapsed);
    });
  });
}

interface SizeResult {
  size: number;
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
  bytesPerConnection: number;
  heapPerConnection: number;
}

async function measureFanout(
  fixture: Fixture,
  api: ApiProcess,
): Promise<{ idle: Memory; results: SizeResult[] }> {
  const project = await createProject(fixture.orm, 'running');
  const channel = projectEventsChannel(fixture.prefix, project.id);
  const path = `/projects/${project.slug}/stream`;
  // Warm-up (JIT, pools, the project's subscription), then the idle baseline.
  (await subscribeMany(api.port, path, 50)).forEach((sub) => sub.socket.destroy());
  await sleep(1000);
  const idle = await api.memory();
  const subs: Subscriber[] = [];
  const results: SizeResult[] = [];
  let sent = 0;
  for (const size of SIZES) {
    subs.push(...(await subscribeMany(api.port, path, size - subs.length)));
    await sleep(1000);
    const memory = await api.memory();
    const samples: number[] = [];
    onLatency = (ms) => samples.push(ms);
    for (let i = 0; i < EVENTS_PER_SIZE; i++) {
      const data = { tool: 'bench', args: { sentAt: performance.now() }, callId: `c${sent}` };
      const event: NewProjectEvent = { key: `fanout-${sent++}`, type: 'tool_call', data };
      const appended = await appendProjectEvents(fixture.orm.em.fork(), project.id, project.runId, [
        event,
      ]);
      await publishProjectEvents(fixture.redis, channel, appended);
      await sleep(EVENT_INTERVAL_MS);
    }
    const expected = size * EVENTS_PER_SIZE;
    for (let waited = 0; samples.length < expected && waited < 10_000; waited += 100)
      await sleep(100);
    const sorted = Float64Array.from(samples).sort();
    results.push({
      size,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      delivered: samples.length,
      expected,
      bytesPerConnection: (memory.rss - idle.rss) / size,
      heapPerConnection: (memory.heapUsed - idle.heapUsed) / size,
    });
    console.log(`  ${size} subscribers measured`);
  }
  for (const sub of subs) sub.socket.destroy();
  return { idle, results };
}

function printResults(results: SizeResult[], replay: number[], idle: Memory): void {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`  API idle after warm-up: RSS ${kb(idle.rss)} KiB, heap ${kb(idle.heapUsed)} KiB`);
  console.log(
    '  subscribers | p50 ms | p99 ms | max ms | delivered       | RSS/conn KiB | heap/conn KiB',
  );
  for (const r of results) {
    console.log(
      `  ${String(r.size).padStart(11)} | ${r.p50.toFixed(1).padStart(6)} | ${r.p99.toFixed(1).padStart(6)} | ` +
        `${r.max.toFixed(1).padStart(6)} | ${`${r.delivered}/${r.expected}`.padEnd(15)} | ` +
        `${kb(r.bytesPerConnection).padStart(12)} | ${kb(r.heapPerConnection).padStart(13)}`,
    );
  }
  const largest = results.at(-1);
  if (largest) {
    const met = largest.p99 <= GOAL_P99_MS ? 'met' : 'NOT met';
    console.log(`  goal p99 <= ${GOAL_P99_MS} ms at ${largest.size}: ${met}`);
  }
  const sorted = [...replay].sort((a, b) => a - b);
  console.log(
    `  replay of 1000 events (Last-Event-ID: 0), ${replay.length} runs: ` +
      `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, ` +
      `min ${sorted[0]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const pg = new PgClient({ connectionString: adminUrl });
  await pg.connect();
  try {
    await pg.query(sql);
  } finally {
    await pg.end();
  }
}

export async function benchSseFanout(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const adminUrl =
    process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const database = `svc_bench_${runId}`;
  const prefix = `svc-bench:${runId}:`;
  const databaseUrl = withDatabase(adminUrl, database);

  await admin(adminUrl, `create database "${database}"`);
  const orm = await initOrm(databaseUrl, 4);
  const redis = new Redis(redisUrl);
  let api: ApiProcess | null = null;
  try {
    await migrate(orm);
    api = await startApiProcess({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      // 10k subscribers connect from one address within a minute.
      RATE_LIMIT_ANONYMOUS_RPM: '100000000',
    });
    console.log(
      `sse-fanout: ${SIZES.join('/')} subscribers of one project on one API process ` +
        `(pid ${api.pid}; subscribers and publisher in pid ${process.pid}), ` +
        `${EVENTS_PER_SIZE} events per size, ${EVENT_INTERVAL_MS} ms apart`,
    );
    const fixture = { orm, redis, prefix };
    const replay = await measureReplay(fixture, api.port);
    const { idle, results } = await measureFanout(fixture, api);
    printResults(results, replay, idle);
  } finally {
    await api?.stop();
    await orm.close();
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
      const stale = batch as string[];
      if (stale.length > 0) await redis.del(...stale);
    }
    redis.disconnect();
    await admin(adminUrl, `drop database if exists "${database}" with (force)`);
  }
}

if (require.main === module) {
  const role = process.env.SSE_BENCH_ROLE === 'api' ? serveApi() : benchSseFanout();
  role.catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
