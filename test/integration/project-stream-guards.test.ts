import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect as netConnect } from 'node:net';
import { signIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { eventually, numsub, SseClient } from '../helpers/sse-client';
import {
  done,
  emit,
  insertProject,
  message,
  messages,
  type TestProject,
} from '../helpers/project-fixtures';

/**
 * The project stream's guards (docs/spec/contract.md §7 "Project stream (SSE)"), over real HTTP: clients
 * that hang up before their stream is set up, pub/sub messages the log does not back, and
 * archived projects, which can never run again.
 */

const HEARTBEAT_MS = 200;

let ownerId: number;
const clients: SseClient[] = [];

const test = useTestApp({
  env: { SSE_HEARTBEAT_MS: String(HEARTBEAT_MS), SSE_RETRY_MS: '50', ...UNLIMITED_RATES },
  listen: true,
});
beforeAll(async () => {
  ownerId = (await signIn(test.app)).userId;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

const createProject = (status = 'running') => insertProject(test.ctx, { ownerId, status });

async function open(project: TestProject, headers: Record<string, string> = {}) {
  const client = await SseClient.connect(`${test.url}/projects/${project.slug}/stream`, headers);
  clients.push(client);
  return client;
}

/** Once the retry hint is in, the connection is registered and live events reach it. */
async function openLive(project: TestProject) {
  const client = await open(project);
  expect(client.status).toBe(200);
  await client.waitFor((c) => c.retry !== null);
  return client;
}

describe('clients that hang up early', () => {
  it('keeps nothing of clients gone before their stream was set up', async () => {
    const project = await createProject();
    const hub = test.app.projectStreams;
    // Observes the route reaching the hub (the real join runs): only then is the outcome known.
    const joins = jest.spyOn(hub, 'join');
    try {
      const port = (test.app.server.address() as { port: number }).port;
      for (let i = 0; i < 10; i++) {
        const socket = netConnect(port, '127.0.0.1');
        await once(socket, 'connect');
        const request = `GET /projects/${project.slug}/stream HTTP/1.1\r\nHost: x\r\n\r\n`;
        await new Promise((resolve) => socket.write(request, resolve));
        socket.destroy();
      }
      await eventually(() => joins.mock.results.length === 10);
      await Promise.allSettled(joins.mock.results.map((result) => result.value as Promise<void>));
    } finally {
      joins.mockRestore();
    }
    await eventually(() => hub.connectionCount === 0);
    await eventually(async () => (await numsub(test.ctx.deps.redis, project.channel)) === 0);
    // Nothing comes back later, and a new client still gets the stream.
    await new Promise((resolve) => setTimeout(resolve, 2 * HEARTBEAT_MS));
    expect(hub.connectionCount).toBe(0);
    const client = await openLive(project);
    await emit(project, [message(1), done(project.runId)]);
    await client.done;
    expect(client.ids).toEqual([1, 2]);
    await eventually(() => hub.connectionCount === 0);
  });
});

describe('replay in pages', () => {
  it('replays a log of exactly a few pages, then goes live without gap or duplicate', async () => {
    const project = await createProject();
    // 300 = 3 full pages of REPLAY_PAGE_SIZE: the 4th read finds nothing and the stream goes live.
    for (let from = 1; from <= 300; from += 100) await emit(project, messages(from, from + 99));
    const client = await open(project);
    const live = (async () => {
      for (let n = 301; n <= 320; n++) await emit(project, [message(n)]);
      await emit(project, [done(project.runId)]);
    })();
    await client.done;
    await live;
    expect(client.ids).toEqual(Array.from({ length: 321 }, (_, i) => i + 1));
  });
});

describe('pub/sub messages the log does not back', () => {
  const publish = (project: TestProject, payload: unknown) =>
    test.ctx.deps.redis.publish(
      project.channel,
      typeof payload === 'string' ? payload : JSON.stringify(payload),
    );

  it('drops a forged event far ahead of the log: real events still come, in order', async () => {
    const project = await createProject();
    const client = await openLive(project);
    await emit(project, [message(1)]);
    await client.waitForEvents(1);
    const forgedData = { runId: project.runId, finalStatus: 'completed' };
    await publish(project, { seq: 1e9, type: 'done', data: forgedData });
    await publish(project, { seq: 1e9 + 1, type: 'message', data: message(9).data });
    await emit(project, messages(2, 4));
    await emit(project, [done(project.runId)]);
    await client.done;
    expect(client.ids).toEqual([1, 2, 3, 4, 5]);
    expect(client.events.map((event) => JSON.parse(event.data) as unknown)).toEqual([
      ...[1, 2, 3, 4].map((n) => message(n).data),
      { runId: project.runId, finalStatus: 'completed' },
    ]);
  });

  it('ignores malformed messages, wrong shapes and a done the log does not have', async () => {
    const project = await createProject();
    const client = await openLive(project);
    await emit(project, [message(1)]);
    await client.waitForEvents(1);
    await publish(project, 'not json');
    await publish(project, { seq: 'two', type: 'message', data: message(2).data });
    await publish(project, { seq: 2, type: 'shout', data: {} });
    await publish(project, { seq: 2, type: 'message', data: { role: 'user', text: 5 } });
    // The next seq, but a `done` is only ever taken from the log.
    await publish(project, { seq: 2, type: 'done', data: { runId: project.runId } });
    await publish(project, {
      seq: 2,
      type: 'done',
      data: { runId: project.runId, finalStatus: 'completed' },
    });
    await emit(project, messages(2, 3));
    await client.waitForEvents(3);
    expect(client.ended).toBe(false);
    await emit(project, [done(project.runId)]);
    await client.done;
    expect(client.ids).toEqual([1, 2, 3, 4]);
    expect(client.events.map((event) => event.event)).toEqual([
      'message',
      'message',
      'message',
      'done',
    ]);
    expect(JSON.parse(client.events[1]!.data)).toEqual(message(2).data);
    expect(
      test.ctx.logs.some((l) => l.msg === 'sse: ignoring a malformed project event message'),
    ).toBe(true);
  });
});

describe('an archived project', () => {
  async function archive(project: TestProject) {
    await test.ctx.sql(
      `update projects set status = 'archived', archived_at = now() where id = $1`,
      [project.id],
    );
  }

  const stream = (project: TestProject, headers: Record<string, string> = {}) =>
    test.app.inject({ method: 'GET', url: `/projects/${project.slug}/stream`, headers });

  it('answers 204 when it has no events, with or without Last-Event-ID', async () => {
    const project = await createProject('idle');
    await archive(project);
    const cases: Record<string, string>[] = [
      {},
      { 'last-event-id': '0' },
      { 'last-event-id': '7' },
    ];
    for (const headers of cases) {
      const response = await stream(project, headers);
      expect({ status: response.statusCode, body: response.body }).toEqual({
        status: 204,
        body: '',
      });
    }
  });

  it('answers 204 to a caught-up client, and replays then ends for one behind', async () => {
    const project = await createProject();
    await emit(project, messages(1, 2));
    await emit(project, [done(project.runId)]);
    await test.ctx.sql(`update projects set status = 'completed' where id = $1`, [project.id]);
    await archive(project);
    for (const id of ['3', '10']) {
      expect((await stream(project, { 'last-event-id': id })).statusCode).toBe(204);
    }
    const behind = await open(project, { 'last-event-id': '1' });
    await behind.done;
    expect(behind.ids).toEqual([2, 3]);
    const everything = await open(project);
    await everything.done;
    expect(everything.ids).toEqual([1, 2, 3]);
  });

  it('ends at the last event even when its last run logged no done', async () => {
    // A run canceled without its workflow (it never started) leaves no done in the log.
    const project = await createProject();
    await emit(project, messages(1, 2));
    await test.ctx.sql(
      `update projects set status = 'canceled', current_run_id = $2 where id = $1`,
      [project.id, randomUUID()],
    );
    await archive(project);
    const replay = await open(project);
    await replay.done;
    expect(replay.ids).toEqual([1, 2]);
    expect((await stream(project, { 'last-event-id': '2' })).statusCode).toBe(204);
  });
});
