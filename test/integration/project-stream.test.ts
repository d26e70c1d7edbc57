import { randomBytes, randomUUID } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { EventSource } from 'eventsource';
import type { App } from '../../api/app';
import { PROJECT_EVENT_TYPES } from '../../shared/projects/events';
import { signIn, type SignedIn } from '../helpers/auth';
import {
  createTestContext,
  UNLIMITED_RATES,
  useTestApp,
  type TestContext,
} from '../helpers/context';
import { eventually, numsub, SseClient } from '../helpers/sse-client';
import {
  done,
  emit,
  insertProject,
  message,
  messages,
  type TestProject,
  type TestProjectOptions,
} from '../helpers/project-fixtures';

/**
 * GET /projects/:slug/stream (spec "Project stream (SSE)", docs/spec/contract.md §7) over real HTTP on two
 * API instances sharing PostgreSQL and Redis. Builds are simulated the way the workers write
 * them: appendProjectEvents, then publishProjectEvents (or, to lose a message on purpose, not).
 */

const HEARTBEAT_MS = 200;
const RETRY_MS = 50;

let alice: SignedIn;
let bob: SignedIn;
const clients: SseClient[] = [];
const sources: EventSource[] = [];

async function listen(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

const test = useTestApp({
  env: {
    SSE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    SSE_RETRY_MS: String(RETRY_MS),
    ...UNLIMITED_RATES,
  },
  apis: 2,
  listen: true,
});
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  for (const source of sources.splice(0)) source.close();
});

function createProject(
  options: Partial<TestProjectOptions> & { world?: TestContext } = {},
): Promise<TestProject> {
  const { world = test.ctx, ...rest } = options;
  return insertProject(world, { ownerId: alice.userId, ...rest });
}

async function finishRun(project: TestProject, runId = project.runId): Promise<void> {
  await emit(project, [done(runId)], { runId });
  await test.ctx.sql(`update projects set status = 'completed' where id = $1`, [project.id]);
}

async function open(
  base: string,
  project: TestProject,
  headers: Record<string, string> = {},
  query = '',
): Promise<SseClient> {
  const client = await SseClient.connect(
    `${base}/projects/${project.slug}/stream${query}`,
    headers,
  );
  clients.push(client);
  return client;
}

/** Once the client has its retry hint, its connection is registered and live events reach it. */
async function openLive(base: string, project: TestProject, headers: Record<string, string> = {}) {
  const client = await open(base, project, headers);
  expect(client.status).toBe(200);
  await client.waitFor((c) => c.retry !== null);
  return client;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('live stream', () => {
  it('streams events appended after connect in order, ids = seqs, and ends after done', async () => {
    const project = await createProject();
    const client = await openLive(test.url, project);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['x-request-id']).toEqual(expect.any(String));
    expect(client.retry).toBe(RETRY_MS);
    expect(client.body.startsWith(`retry: ${RETRY_MS}\n\n`)).toBe(true);

    await emit(project, messages(1, 3));
    await emit(project, [message(4)]);
    await emit(project, [done(project.runId)]);
    await client.done;

    expect(client.ids).toEqual([1, 2, 3, 4, 5]);
    expect(client.events.map((event) => event.event)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'done',
    ]);
    expect(JSON.parse(client.events[0]!.data)).toEqual({ role: 'assistant', text: 'step 1' });
    expect(JSON.parse(client.events[4]!.data)).toEqual({
      runId: project.runId,
      finalStatus: 'completed',
    });
  });

  it('writes a keep-alive comment every heartbeat', async () => {
    const project = await createProject();
    const client = await openLive(test.url, project);
    await client.waitFor((c) => c.comments.filter((line) => line === 'keep-alive').length >= 2);
    expect(client.body).toContain('\n: keep-alive\n\n');
    expect(client.events).toEqual([]);
  });

  it('keeps a never-started project open, waiting for its first run', async () => {
    const project = await createProject({ status: 'idle', runId: null });
    const client = await openLive(test.url, project, { 'last-event-id': '0' });
    await client.waitFor((c) => c.comments.includes('keep-alive'));
    expect(client.ended).toBe(false);
    const runId = randomUUID();
    await emit(project, [message(1), done(runId)], { runId });
    await client.done;
    expect(client.ids).toEqual([1, 2]);
  });
});

describe('replay with Last-Event-ID', () => {
  it('sends exactly k+1..N once, in order, then goes live', async () => {
    const project = await createProject();
    await emit(project, messages(1, 10));
    const client = await open(test.url, project, { 'last-event-id': '4' });
    await client.waitForEvents(6);
    await emit(project, messages(11, 12));
    await emit(project, [done(project.runId)]);
    await client.done;
    expect(client.ids).toEqual(range(5, 13));
  });

  it('accepts lastEventId in the query; the header wins when both are given', async () => {
    const project = await createProject();
    await emit(project, messages(1, 6));
    await finishRun(project);
    const byQuery = await open(test.url, project, {}, '?lastEventId=3');
    await byQuery.done;
    expect(byQuery.ids).toEqual([4, 5, 6, 7]);
    const both = await open(test.url, project, { 'last-event-id': '5' }, '?lastEventId=1');
    await both.done;
    expect(both.ids).toEqual([6, 7]);
  });

  it('replays everything kept when no id is given', async () => {
    const project = await createProject();
    await emit(project, messages(1, 3));
    await finishRun(project);
    const client = await open(test.otherUrl, project);
    await client.done;
    expect(client.ids).toEqual([1, 2, 3, 4]);
  });

  it('starts at the oldest event kept when the id is older than the 1000 kept', async () => {
    const project = await createProject();
    for (let from = 1; from <= 1005; from += 201) {
      await emit(project, messages(from, Math.min(from + 200, 1005)), { publish: false });
    }
    const client = await open(test.url, project, { 'last-event-id': '2' });
    await client.waitForEvents(1000);
    await emit(project, [done(project.runId)]);
    await client.done;
    expect(client.ids).toEqual(range(6, 1006));
  });

  it('treats an id beyond the log as its end: the events still to come arrive', async () => {
    const project = await createProject();
    await emit(project, messages(1, 3));
    const client = await openLive(test.url, project, { 'last-event-id': '99' });
    await emit(project, messages(4, 5));
    await emit(project, [done(project.runId)]);
    await client.done;
    expect(client.ids).toEqual([4, 5, 6]);
  });

  it('refuses an id that is not a non-negative integer with the envelope', async () => {
    const project = await createProject();
    const url = `/projects/${project.slug}/stream`;
    for (const bad of ['abc', '-1', '1.5', '1e3', ' ', '99999999999999999999']) {
      const byHeader = await test.app.inject({
        method: 'GET',
        url,
        headers: { 'last-event-id': bad },
      });
      expect(byHeader.statusCode).toBe(400);
      expect(byHeader.json()).toEqual({
        error: {
          code: 'invalid_request',
          message: 'last-event-id: must be a non-negative integer',
        },
      });
    }
    for (const bad of ['abc', '-1', '1.5', '1e3', ' ', '', '99999999999999999999']) {
      const byQuery = await test.app.inject({
        method: 'GET',
        url: `${url}?lastEventId=${encodeURIComponent(bad)}`,
      });
      expect(byQuery.statusCode).toBe(400);
      expect(byQuery.json()).toEqual({
        error: { code: 'invalid_request', message: 'lastEventId: must be a non-negative integer' },
      });
    }
  });
});

describe('hand-over between replay and live', () => {
  it('reconnecting to either instance while events keep coming: no gap, no duplicate', async () => {
    const project = await createProject();
    const total = 400;
    let appending = true;
    const appender = (async () => {
      for (let n = 1; n <= total; n++) await emit(project, [message(n)]);
      await emit(project, [done(project.runId)]);
      appending = false;
    })();

    const received: number[] = [];
    let lastId: number | null = null;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> =
        lastId === null ? {} : { 'last-event-id': String(lastId) };
      const client = await open(hop % 2 === 0 ? test.url : test.otherUrl, project, headers);
      // Leave at a different point each time, mid-stream, while the appender keeps going.
      const take = 15 + ((hop * 7) % 30);
      await client.waitFor((c) => c.events.length >= take || c.ended, 20_000);
      client.close();
      received.push(...client.ids);
      lastId = received.at(-1) ?? lastId;
      if (client.events.at(-1)?.event === 'done') break;
    }
    await appender;
    expect(appending).toBe(false);
    expect(received).toEqual(range(1, total + 1));
  });

  it('fills a lost publish from the log at once, before the next event', async () => {
    // A heartbeat far away: only the hole detection can deliver the lost event in time.
    // Settings of this test alone: its own world, opened and closed here rather than by useTestApp.
    const slow = await createTestContext({ SSE_HEARTBEAT_MS: '60000', ...UNLIMITED_RATES });
    try {
      const base = await listen(await slow.newApi());
      const [owner] = await slow.sql<{ id: number }>(
        `insert into users (address, created_at) values ($1, now()) returning id`,
        [`0x${randomBytes(20).toString('hex')}`],
      );
      const project = await createProject({ world: slow, ownerId: owner!.id });
      const client = await openLive(base, project);
      await emit(project, [message(1)]);
      await emit(project, [message(2)], { publish: false });
      await emit(project, [message(3)]);
      await client.waitForEvents(3);
      expect(client.ids).toEqual([1, 2, 3]);
      client.close();
    } finally {
      await slow.close();
    }
  });

  it('delivers a lost final done through the heartbeat check of the log', async () => {
    const project = await createProject();
    const client = await openLive(test.url, project);
    await emit(project, messages(1, 2));
    await client.waitForEvents(2);
    await emit(project, [done(project.runId)], { publish: false });
    await client.done;
    expect(client.ids).toEqual([1, 2, 3]);
    expect(client.events[2]!.event).toBe('done');
  });

  it('ends at the current run’s done, not at an older run’s done met in replay', async () => {
    const project = await createProject();
    const oldRun = project.runId;
    await emit(project, [message(1), done(oldRun)], { runId: oldRun });
    const current = { ...project, runId: randomUUID() };
    await test.ctx.sql(
      `update projects set current_run_id = $1, status = 'running' where id = $2`,
      [current.runId, project.id],
    );
    await emit(current, [message(2)]);
    const client = await open(test.url, project);
    await client.waitForEvents(3);
    expect(client.ended).toBe(false);
    await emit(current, [done(current.runId)]);
    await client.done;
    expect(client.ids).toEqual([1, 2, 3, 4]);
  });
});

describe('the eventsource client', () => {
  function follow(url: string) {
    const source = new EventSource(url);
    sources.push(source);
    const seen: { id: string; type: string }[] = [];
    let opens = 0;
    source.addEventListener('open', () => void opens++);
    const finished = new Promise<void>((resolve) => {
      for (const type of PROJECT_EVENT_TYPES) {
        source.addEventListener(type, (event) => {
          // EventSource also fires `error` for connection failures: those carry no data.
          if (typeof (event as { data?: unknown }).data !== 'string') return;
          seen.push({ id: event.lastEventId, type });
          if (type === 'done') {
            source.close();
            resolve();
          }
        });
      }
    });
    return { source, seen, finished, opens: () => opens };
  }

  it('consumes a whole stream to done and closes', async () => {
    const project = await createProject();
    await emit(project, messages(1, 3));
    const follower = follow(`${test.url}/projects/${project.slug}/stream`);
    await eventually(() => follower.seen.length === 3);
    await emit(project, messages(4, 5));
    await emit(project, [done(project.runId)]);
    await follower.finished;
    expect(follower.seen.map((event) => Number(event.id))).toEqual(range(1, 6));
    expect(follower.source.readyState).toBe(EventSource.CLOSED);
  });

  it('reconnects by itself with Last-Event-ID after a server-side disconnect', async () => {
    const project = await createProject();
    const serverSockets: Socket[] = [];
    const track = (socket: Socket) => serverSockets.push(socket);
    test.other.server.on('connection', track);
    try {
      const follower = follow(`${test.otherUrl}/projects/${project.slug}/stream`);
      await eventually(() => follower.opens() === 1);
      await emit(project, messages(1, 5));
      await eventually(() => follower.seen.length === 5);
      for (const socket of serverSockets) socket.destroy();
      await emit(project, messages(6, 10));
      await eventually(() => follower.opens() === 2);
      await emit(project, messages(11, 12));
      await emit(project, [done(project.runId)]);
      await follower.finished;
      expect(follower.seen.map((event) => Number(event.id))).toEqual(range(1, 13));
    } finally {
      test.other.server.off('connection', track);
    }
  });
});

describe('who may watch', () => {
  it('refuses a private project to anonymous callers and other users; its owner streams', async () => {
    const project = await createProject({ private: true });
    const url = `/projects/${project.slug}/stream`;
    const forbidden = {
      error: {
        code: 'private_forbidden',
        message: 'The stream of a private project is for its owner only',
      },
    };
    const anonymous = await test.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json()).toEqual(forbidden);
    const other = await test.app.inject({ method: 'GET', url, headers: { cookie: bob.cookie } });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(forbidden);

    await emit(project, [message(1)]);
    const owner = await open(test.url, project, { cookie: alice.cookie });
    expect(owner.status).toBe(200);
    await owner.waitForEvents(1);
    expect(owner.ids).toEqual([1]);
  });

  it('answers 404 for an unknown slug', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/projects/no-such-project/stream',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'project_not_found', message: 'project no-such-project does not exist' },
    });
  });

  it('refuses HEAD, which would open a stream without a body', async () => {
    const project = await createProject();
    const response = await test.app.inject({
      method: 'HEAD',
      url: `/projects/${project.slug}/stream`,
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET');
  });

  it('documents the route with a text/event-stream response', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = document.paths['/projects/{slug}/stream'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '204', '4XX', '5XX']),
    );
  });
});

describe('204: nothing left to stream', () => {
  it('answers 204 to a caught-up client of a finished run', async () => {
    const project = await createProject();
    await emit(project, messages(1, 2));
    await finishRun(project);
    const response = await test.app.inject({
      method: 'GET',
      url: `/projects/${project.slug}/stream`,
      headers: { 'last-event-id': '3' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    // One event behind: the done is still to come, then the stream ends.
    const behind = await open(test.url, project, { 'last-event-id': '2' });
    await behind.done;
    expect(behind.ids).toEqual([3]);
  });

  it('stays open for a caught-up client when a new run is queued', async () => {
    const project = await createProject();
    await finishRun(project);
    const next = { ...project, runId: randomUUID() };
    await test.ctx.sql(`update projects set current_run_id = $1, status = 'queued' where id = $2`, [
      next.runId,
      project.id,
    ]);
    const client = await openLive(test.url, project, { 'last-event-id': '1' });
    await emit(next, [message(1), done(next.runId)]);
    await client.done;
    expect(client.ids).toEqual([2, 3]);
  });
});

describe('resources', () => {
  it('one subscription per project per process, released when the last client leaves', async () => {
    const first = await createProject();
    const second = await createProject();
    const watchers = [
      await openLive(test.url, first),
      await openLive(test.url, first),
      await openLive(test.url, first),
      await openLive(test.url, second),
    ];
    expect(test.app.projectStreams.connectionCount).toBe(4);
    expect(await numsub(test.ctx.deps.redis, first.channel)).toBe(1);
    expect(await numsub(test.ctx.deps.redis, second.channel)).toBe(1);
    watchers[0]!.close();
    await eventually(() => test.app.projectStreams.connectionCount === 3);
    expect(await numsub(test.ctx.deps.redis, first.channel)).toBe(1);
    for (const watcher of watchers) watcher.close();
    await eventually(() => test.app.projectStreams.connectionCount === 0);
    await eventually(async () => (await numsub(test.ctx.deps.redis, first.channel)) === 0);
    await eventually(async () => (await numsub(test.ctx.deps.redis, second.channel)) === 0);
  });

  it('drops a client that stops reading once its buffer passes the limit', async () => {
    const project = await createProject();
    const port = (test.app.server.address() as { port: number }).port;
    const socket = netConnect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /projects/${project.slug}/stream HTTP/1.1\r\nHost: x\r\n\r\n`);
    await eventually(() => test.app.projectStreams.connectionCount === 1);
    socket.pause();
    const big = 'x'.repeat(64 * 1024);
    for (let n = 1; test.app.projectStreams.connectionCount > 0; n++) {
      if (n > 1000) throw new Error('the slow client was never dropped');
      await emit(project, [
        { key: `big-${n}`, type: 'message', data: { role: 'assistant', text: big } },
      ]);
    }
    expect(
      test.ctx.logs.some((line) => line.msg === 'sse: client too slow, dropping the connection'),
    ).toBe(true);
    socket.destroy();
  });

  it('app.close() ends open streams instead of hanging, and drops the subscription', async () => {
    const project = await createProject();
    const app = await test.ctx.newApi();
    const base = await listen(app);
    const live = await openLive(base, project);
    const other = await openLive(base, project);
    expect(await numsub(test.ctx.deps.redis, project.channel)).toBe(1);
    await app.close();
    await Promise.all([live.done, other.done]);
    expect(live.ended && other.ended).toBe(true);
    await eventually(async () => (await numsub(test.ctx.deps.redis, project.channel)) === 0);
  });
});
