import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ensureNotificationDelivery } from '../../api/maintenance';
import type { Config } from '../../shared/config';
import { enqueueNotification } from '../../shared/notifications/queue';
import { requestApproval } from '../../shared/projects/approval-store';
import { workflowIds } from '../../shared/temporal';
import { signIn, type SignedIn } from '../helpers/auth';
import { insertBuildFixture, startBuild, waitFor } from '../helpers/build-fixtures';
import { UNLIMITED_RATES, useTestApp, type TestApp, type TestContext } from '../helpers/context';
import { joinRoom, registerMatrixUser, roomMessages, type MatrixUser } from '../helpers/matrix';
import { backedOffSleep, howSleepEnded } from '../helpers/idle';
import { readTestServices } from '../helpers/services';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

/**
 * Milestone notifications (docs/decisions.md "Milestone notifications"): queued rows are
 * delivered by the `notifications:deliver:<taskQueue>` workflow to a direct room of the bot
 * with the user's linked Matrix account, on the run's real Synapse, at least once and never
 * twice (the Matrix transaction id is derived from the notification id).
 */

jest.setTimeout(180_000);

const POLL = { pollIntervalMs: 200, pollsPerRun: 500 };

const synapseUrl = () => readTestServices().synapse.url;

/** Ends a context's delivery workflow, so it does not linger on the shared server. */
const endDelivery = ({ ctx }: TestApp) =>
  ctx.deps.temporal.workflow
    .getHandle(workflowIds.notificationDelivery(ctx.config.temporal.taskQueue))
    .terminate('test over')
    .catch(() => undefined);

let bot: MatrixUser;

beforeAll(async () => {
  bot = await registerMatrixUser();
});
const test = useTestApp({
  env: () => ({
    ...UNLIMITED_RATES,
    MATRIX_HOMESERVER_URL: synapseUrl(),
    MATRIX_ACCESS_TOKEN: bot.accessToken,
  }),
  worker: true,
  beforeClose: endDelivery,
});
beforeAll(async () => {
  await ensureNotificationDelivery(
    test.ctx.deps.temporal,
    test.ctx.config.temporal.taskQueue,
    POLL,
  );
});

// ---------------------------------------------------------------------------------------------
// Helpers

interface NotificationRow {
  id: string;
  kind: string;
  text: string;
  sent_at: Date | null;
  event_id: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
}

async function notificationsOf(of: TestContext, userId: number): Promise<NotificationRow[]> {
  return of.sql<NotificationRow & Record<string, unknown>>(
    `select id, kind, text, sent_at, event_id, attempts, next_attempt_at, last_error, created_at
       from notifications where user_id = $1 order by created_at, id`,
    [userId],
  );
}

async function insertUser(of: TestContext): Promise<number> {
  const [user] = await of.sql<{ id: number }>(
    'insert into users (address, created_at) values ($1, now()) returning id',
    [`0x${randomBytes(20).toString('hex')}`],
  );
  return user!.id;
}

async function link(of: TestContext, userId: number, matrix: MatrixUser): Promise<void> {
  await of.sql('update users set matrix_user_id = $1 where id = $2', [matrix.userId, userId]);
}

let seq = 0;
/** Queues a notification the way the workers do; returns its row. */
async function notify(of: TestContext, userId: number, text: string): Promise<NotificationRow> {
  const dedupeKey = `test.note:${userId}:${++seq}:${randomBytes(4).toString('hex')}`;
  await enqueueNotification(of.deps.orm.em.fork(), {
    userId,
    kind: 'test.note',
    text,
    data: { seq },
    dedupeKey,
  });
  const [row] = await of.sql<NotificationRow & Record<string, unknown>>(
    `select id, kind, text, sent_at, event_id, attempts, next_attempt_at, last_error, created_at
       from notifications where dedupe_key = $1`,
    [dedupeKey],
  );
  return row!;
}

async function rowOf(of: TestContext, id: string): Promise<NotificationRow> {
  const [row] = await of.sql<NotificationRow & Record<string, unknown>>(
    `select id, kind, text, sent_at, event_id, attempts, next_attempt_at, last_error, created_at
       from notifications where id = $1`,
    [id],
  );
  return row!;
}

/** The database's clock now (`clock_timestamp()`, not the statement's start). */
async function dbClock(of: TestContext): Promise<Date> {
  const [{ now }] = (await of.sql<{ now: Date }>('select clock_timestamp() as now')) as [
    { now: Date },
  ];
  return now;
}

async function waitSent(of: TestContext, id: string, timeoutMs = 30_000): Promise<NotificationRow> {
  await waitFor(async () => (await rowOf(of, id)).sent_at !== null, timeoutMs, `${id} sent`);
  return rowOf(of, id);
}

async function directRoomOf(of: TestContext, matrix: MatrixUser): Promise<string | null> {
  const [row] = await of.sql<{ room_id: string }>(
    'select room_id from matrix_direct_rooms where matrix_user_id = $1',
    [matrix.userId],
  );
  return row?.room_id ?? null;
}

interface InviteEvent {
  type: string;
  sender: string;
  state_key?: string;
  content: Record<string, unknown>;
}

/** The rooms `user` is invited to, as a Matrix client's `/sync` shows them. */
async function invites(user: MatrixUser): Promise<Record<string, InviteEvent[]>> {
  const response = await fetch(`${synapseUrl()}/_matrix/client/v3/sync?timeout=0`, {
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  const body = (await response.json()) as {
    rooms?: { invite?: Record<string, { invite_state: { events: InviteEvent[] } }> };
  };
  return Object.fromEntries(
    Object.entries(body.rooms?.invite ?? {}).map(([roomId, room]) => [
      roomId,
      room.invite_state.events,
    ]),
  );
}

/** Waits for the bot's direct-room invite, checks it is one, and joins the room. */
async function acceptDirectInvite(user: MatrixUser, from: MatrixUser): Promise<string> {
  let roomId: string | undefined;
  await waitFor(
    async () => {
      roomId = Object.keys(await invites(user))[0];
      return roomId !== undefined;
    },
    30_000,
    `an invite for ${user.userId}`,
  );
  const events = (await invites(user))[roomId!]!;
  expect(events).toContainEqual(
    expect.objectContaining({
      type: 'm.room.member',
      sender: from.userId,
      state_key: user.userId,
      content: expect.objectContaining({ membership: 'invite', is_direct: true }),
    }),
  );
  const joined = await joinRoom(user, roomId!);
  expect(joined.status).toBe(200);
  return roomId!;
}

async function botMessages(user: MatrixUser, roomId: string, from: MatrixUser) {
  return (await roomMessages(user, roomId))
    .filter((message) => message.sender === from.userId)
    .map((message) => ({ eventId: message.event_id, body: message.content.body }));
}

function listNotifications(session: SignedIn, query = '') {
  return test.app.inject({
    method: 'GET',
    url: `/me/notifications${query}`,
    headers: { cookie: session.cookie },
  });
}

// ---------------------------------------------------------------------------------------------

describe('delivery to a linked Matrix account', () => {
  it('a subscriber gets project.completed of a real build in a direct room with the bot', async () => {
    const fixture = await insertBuildFixture(test.ctx, { title: 'Atlas notifications' });
    const subscriber = await registerMatrixUser();
    await link(test.ctx, fixture.subscriberId, subscriber);

    const build = await startBuild(test.ctx, fixture);
    expect(await build.result()).toEqual({ finalStatus: 'completed', reason: null });

    await waitFor(
      async () => {
        const rows = await notificationsOf(test.ctx, fixture.subscriberId);
        return rows.length === 2 && rows.every((row) => row.sent_at !== null);
      },
      30_000,
      'both build notifications sent',
    );
    const rows = await notificationsOf(test.ctx, fixture.subscriberId);
    expect(rows.map((row) => row.kind)).toEqual(['project.started', 'project.completed']);
    const completed = rows[1]!;
    expect(completed.text).toMatch(/^Build of "Atlas notifications" completed/);

    // The subscriber, as a Matrix client: an invite to a direct room from the bot.
    const roomId = await acceptDirectInvite(subscriber, bot);
    expect(await directRoomOf(test.ctx, subscriber)).toBe(roomId);
    const messages = await botMessages(subscriber, roomId, bot);
    // One message per notification, in order: exactly one is the completion.
    expect(messages).toEqual(rows.map((row) => ({ eventId: row.event_id, body: row.text })));
    expect(messages.filter((message) => message.body === completed.text)).toEqual([
      { eventId: completed.event_id, body: completed.text },
    ]);
    expect(completed).toMatchObject({ attempts: 0, last_error: null });

    // A later notification of the same user goes to the same room.
    const second = await notify(test.ctx, fixture.subscriberId, 'Your second notification');
    const sent = await waitSent(test.ctx, second.id);
    expect(await directRoomOf(test.ctx, subscriber)).toBe(roomId);
    expect(await botMessages(subscriber, roomId, bot)).toEqual([
      ...messages,
      { eventId: sent.event_id, body: 'Your second notification' },
    ]);
  });

  it('a project owner gets one message per approval request, however often the step retries', async () => {
    const fixture = await insertBuildFixture(test.ctx, { title: 'Atlas approvals' });
    const owner = await registerMatrixUser();
    await link(test.ctx, fixture.ownerId, owner);
    const request = {
      projectId: fixture.projectId,
      runId: fixture.runId,
      stepKey: `${fixture.runId}:t1:call:0`,
      kind: 'tool_call' as const,
      tool: 'fetch_url',
      argsPreview: { url: 'https://example.com/paper' },
      argsDigest: 'a'.repeat(64),
      timeoutSeconds: 3600,
      callId: 'call_test_t1_0',
    };
    // The build's step stores the request; a retried step finds it and tells nobody twice.
    const { row: stored } = await requestApproval(
      test.ctx.deps.orm.em.fork(),
      request,
      test.ctx.config.publicBaseUrl,
    );
    await requestApproval(test.ctx.deps.orm.em.fork(), request, test.ctx.config.publicBaseUrl);
    const [row, ...more] = await notificationsOf(test.ctx, fixture.ownerId);
    expect(more).toEqual([]);
    expect(row!.kind).toBe('project.approval_requested');
    const sent = await waitSent(test.ctx, row!.id);

    const roomId = await acceptDirectInvite(owner, bot);
    expect(await botMessages(owner, roomId, bot)).toEqual([
      { eventId: sent.event_id, body: sent.text },
    ]);
    expect(sent.text).toBe(
      `Build of "Atlas approvals" waits for your approval of a fetch_url call ` +
        `(until ${stored.expiresAt}): ${test.ctx.config.publicBaseUrl}/p/${fixture.slug}`,
    );
  });

  it('a user without a linked account: queued and listed as such; delivered in order once linked', async () => {
    const session = await signIn(test.app);
    const first = await notify(test.ctx, session.userId, 'Queued one');
    const second = await notify(test.ctx, session.userId, 'Queued two');
    // A linked user's notification queued after them: once it is sent, the workflow has
    // passed the unlinked user's rows at least once.
    const other = await insertUser(test.ctx);
    await link(test.ctx, other, await registerMatrixUser());
    const marker = await notify(test.ctx, other, 'After the unlinked ones');
    await waitSent(test.ctx, marker.id);

    expect(await notificationsOf(test.ctx, session.userId)).toEqual([
      expect.objectContaining({ id: first.id, sent_at: null, attempts: 0, last_error: null }),
      expect.objectContaining({ id: second.id, sent_at: null, attempts: 0, last_error: null }),
    ]);
    const queued = await listNotifications(session);
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toEqual({
      items: [
        {
          id: second.id,
          kind: 'test.note',
          text: 'Queued two',
          data: expect.any(Object),
          createdAt: second.created_at.toISOString(),
          sentAt: null,
        },
        {
          id: first.id,
          kind: 'test.note',
          text: 'Queued one',
          data: expect.any(Object),
          createdAt: first.created_at.toISOString(),
          sentAt: null,
        },
      ],
      nextCursor: null,
      matrixLinked: false,
    });

    // Linked now: the backlog drains, oldest first, into one direct room.
    const matrix = await registerMatrixUser();
    await link(test.ctx, session.userId, matrix);
    const sentFirst = await waitSent(test.ctx, first.id);
    const sentSecond = await waitSent(test.ctx, second.id);
    const roomId = await acceptDirectInvite(matrix, bot);
    expect(await botMessages(matrix, roomId, bot)).toEqual([
      { eventId: sentFirst.event_id, body: 'Queued one' },
      { eventId: sentSecond.event_id, body: 'Queued two' },
    ]);

    const delivered = await listNotifications(session);
    expect(delivered.json()).toMatchObject({
      items: [
        { id: second.id, sentAt: sentSecond.sent_at!.toISOString() },
        { id: first.id, sentAt: sentFirst.sent_at!.toISOString() },
      ],
      matrixLinked: true,
    });
  });
});

describe('an idle delivery loop', () => {
  it('sleeps longer and longer, and a queued notification wakes it at once', async () => {
    const matrix = await registerMatrixUser();
    const userId = await insertUser(test.ctx);
    await link(test.ctx, userId, matrix);
    const handle = test.ctx.deps.temporal.workflow.getHandle(
      workflowIds.notificationDelivery(test.ctx.config.temporal.taskQueue),
    );
    // Five empty looks in a row: a sleep of 32 × the 200 ms interval.
    const backedOffMs = POLL.pollIntervalMs * 32;
    const timerId = await backedOffSleep(handle, backedOffMs, 60_000);
    const note = await notify(test.ctx, userId, 'Woken');
    await waitSent(test.ctx, note.id);
    // The NOTIFY of the insert reached the worker's waker, whose nudge ended the sleep.
    expect(await howSleepEnded(handle, timerId)).toBe('nudge');
  });
});

describe('GET /me/notifications', () => {
  let owner: SignedIn;
  let stranger: SignedIn;
  const COUNT = 105;

  beforeAll(async () => {
    [owner, stranger] = await Promise.all([signIn(test.app), signIn(test.app)]);
    // Neither has a Matrix account: these stay queued.
    await test.ctx.sql(
      `insert into notifications (id, user_id, kind, text, data, dedupe_key, created_at)
       select gen_random_uuid(), $1::int, 'test.page', 'Page item ' || i,
              jsonb_build_object('i', i), 'page:' || $1::int || ':' || i,
              now() - make_interval(secs => $2::int - i)
         from generate_series(1, $2::int) as i`,
      [owner.userId, COUNT],
    );
    await notify(test.ctx, stranger.userId, 'Not the owner’s');
  });

  it('lists only the caller’s notifications, newest first, 50 by default', async () => {
    const response = await listNotifications(owner);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ items: { text: string; createdAt: string }[] }>();
    expect(body.items).toHaveLength(50);
    expect(body.items.map((item) => item.text)).toEqual(
      Array.from({ length: 50 }, (_, i) => `Page item ${COUNT - i}`),
    );
    const strangers = await listNotifications(stranger);
    expect(strangers.json()).toEqual({
      items: [expect.objectContaining({ text: 'Not the owner’s', sentAt: null })],
      nextCursor: null,
      matrixLinked: false,
    });
  });

  it('pages with a cursor bound to the caller; a limit above 100 is clamped', async () => {
    const first = await listNotifications(owner, '?limit=500');
    const page = first.json<{ items: { text: string }[]; nextCursor: string }>();
    expect(page.items).toHaveLength(100);
    expect(page.nextCursor).toEqual(expect.any(String));
    const rest = await listNotifications(owner, `?limit=100&cursor=${page.nextCursor}`);
    expect(rest.json()).toMatchObject({
      items: Array.from({ length: 5 }, (_, i) => ({ text: `Page item ${5 - i}` })),
      nextCursor: null,
    });
    // Another user's cursor is no key to the owner's list.
    const foreign = await listNotifications(stranger, `?cursor=${page.nextCursor}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ error: { code: 'invalid_cursor' } });
  });

  it.each(['0', '-1', 'abc', '1.5'])('refuses limit=%s', async (limit) => {
    const response = await listNotifications(owner, `?limit=${limit}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'invalid_request', message: expect.stringMatching(/^limit: /) },
    });
  });

  it('needs a signed-in user', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/me/notifications' });
    expect(response.statusCode).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------
// A homeserver in between: a loopback proxy in front of Synapse this file controls.

type ProxyMode = 'forward' | 'withhold-send' | 'refuse';

interface Proxy {
  url: string;
  mode: ProxyMode;
  /** Synapse's answers to `/send/` PUTs that were withheld from the worker. */
  withheld: { eventId: string }[];
  close(): Promise<void>;
}

/**
 * Forwards every request to Synapse. `withhold-send`: a `/send/` PUT is forwarded and Synapse
 * processes it, but its answer never reaches the caller (the connection stays open). `refuse`:
 * every connection is dropped, as from a homeserver that is down.
 */
async function startProxy(): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const proxy: Proxy = {
    url: '',
    mode: 'forward',
    withheld: [],
    close: async () => undefined,
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      if (proxy.mode === 'refuse') {
        request.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const upstream = await fetch(`${synapseUrl()}${request.url}`, {
        method: request.method,
        headers: {
          ...(request.headers.authorization
            ? { authorization: request.headers.authorization }
            : {}),
          ...(request.headers['content-type']
            ? { 'content-type': request.headers['content-type'] }
            : {}),
        },
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await upstream.text();
      const isSend = request.method === 'PUT' && request.url!.includes('/send/');
      if (isSend && proxy.mode === 'withhold-send') {
        proxy.withheld.push({ eventId: (JSON.parse(text) as { event_id: string }).event_id });
        return; // the caller never hears back
      }
      response.writeHead(upstream.status, { 'content-type': 'application/json' });
      response.end(text);
    })().catch(() => request.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((done) => server.close(() => done()));
  };
  return proxy;
}

/** A worker process whose bot talks to `homeserverUrl` (Synapse itself, or the proxy). */
function startMatrixWorker(config: Config, homeserverUrl: string, accessToken: string) {
  return startWorkerProcess({
    ...config,
    matrix: { ...config.matrix, homeserverUrl, accessToken },
  });
}

describe('a worker killed while the homeserver holds its send', () => {
  let proxy: Proxy;
  let crashBot: MatrixUser;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    proxy = await startProxy();
    crashBot = await registerMatrixUser();
  });
  // Its workers are processes of their own (startMatrixWorker), killed mid-send.
  const crash = useTestApp({
    env: () => ({ MATRIX_HOMESERVER_URL: proxy.url, MATRIX_ACCESS_TOKEN: crashBot.accessToken }),
    apis: 0,
    beforeClose: async (world) => {
      for (const worker of workers) await worker.crash();
      await endDelivery(world);
    },
  });
  afterAll(async () => proxy?.close());

  it('delivers exactly one message: the retry re-sends the same transaction', async () => {
    const matrix = await registerMatrixUser();
    const userId = await insertUser(crash.ctx);
    await link(crash.ctx, userId, matrix);
    const note = await notify(crash.ctx, userId, 'Delivered once, whatever happens');

    proxy.mode = 'withhold-send';
    const first = await startMatrixWorker(crash.ctx.config, proxy.url, crashBot.accessToken);
    workers.push(first);
    await ensureNotificationDelivery(
      crash.ctx.deps.temporal,
      crash.ctx.config.temporal.taskQueue,
      POLL,
    );
    await waitFor(async () => proxy.withheld.length === 1, 60_000, 'the send to reach Synapse');
    await first.crash();
    const [{ eventId }] = proxy.withheld as [{ eventId: string }];
    // The message is in the room; the worker that sent it never learned so.
    expect(await rowOf(crash.ctx, note.id)).toMatchObject({ sent_at: null, event_id: null });

    const second = await startMatrixWorker(crash.ctx.config, synapseUrl(), crashBot.accessToken);
    workers.push(second);
    const sent = await waitSent(crash.ctx, note.id, 60_000);

    // One message in the room, the one the first worker sent, and the row names it.
    const roomId = await acceptDirectInvite(matrix, crashBot);
    expect(await directRoomOf(crash.ctx, matrix)).toBe(roomId);
    expect(await botMessages(matrix, roomId, crashBot)).toEqual([
      { eventId, body: 'Delivered once, whatever happens' },
    ]);
    expect(sent).toMatchObject({ event_id: eventId, attempts: 0, last_error: null });
    expect(proxy.withheld).toHaveLength(1);
    await second.stop();
  });
});

describe('a homeserver that is down', () => {
  let proxy: Proxy;
  let downBot: MatrixUser;

  beforeAll(async () => {
    proxy = await startProxy();
    downBot = await registerMatrixUser();
  });
  const down = useTestApp({
    env: () => ({ MATRIX_HOMESERVER_URL: proxy.url, MATRIX_ACCESS_TOKEN: downBot.accessToken }),
    apis: 0,
    worker: true,
    beforeClose: endDelivery,
  });
  afterAll(async () => proxy?.close());

  it('records the failure with a backoff, never spins, and delivers once it is back', async () => {
    const matrix = await registerMatrixUser();
    const userId = await insertUser(down.ctx);
    await link(down.ctx, userId, matrix);
    proxy.mode = 'refuse';
    const note = await notify(down.ctx, userId, 'Sent after the outage');
    // Times are the database's, as the worker's are. Nothing is tried before the delivery
    // workflow starts, so the failure comes after `startedAt`.
    const startedAt = await dbClock(down.ctx);
    await ensureNotificationDelivery(
      down.ctx.deps.temporal,
      down.ctx.config.temporal.taskQueue,
      POLL,
    );

    await waitFor(
      async () => (await rowOf(down.ctx, note.id)).attempts >= 1,
      30_000,
      'a failed attempt recorded',
    );
    // …and before this read of the row that shows it (clock_timestamp() is read after it).
    type Read = NotificationRow & { read_at: Date } & Record<string, unknown>;
    const [{ read_at: seenAt, ...failed }] = (await down.ctx.sql<Read>(
      `select id, kind, text, sent_at, event_id, attempts, next_attempt_at, last_error,
              created_at, clock_timestamp() as read_at
         from notifications where id = $1`,
      [note.id],
    )) as [Read];
    expect(failed).toMatchObject({
      sent_at: null,
      event_id: null,
      attempts: 1,
      last_error: expect.stringMatching(/unreachable/),
    });
    // The first retry waits 2.5 to 5 s (5 s with equal jitter) from the failure, which lies
    // between startedAt and seenAt: bounds that hold however long the machine took to get
    // there, and are tight on a quiet one.
    const due = failed.next_attempt_at!;
    expect(due.getTime() - startedAt.getTime()).toBeGreaterThanOrEqual(2_500);
    expect(due.getTime() - seenAt.getTime()).toBeLessThanOrEqual(5_000);

    // The workflow polls every 200 ms meanwhile, but the row is not tried before its time:
    // every read made before the first retry was due (by the database's clock, read after the
    // row) finds the one attempt. Compared with that first due time, not the row's current
    // one: a second failure just after it sets a later next_attempt_at of its own.
    let readsBeforeDue = seenAt.getTime() < due.getTime() ? 1 : 0;
    for (;;) {
      const [row] = await down.ctx.sql<{ attempts: number; before_due: boolean }>(
        `select attempts, clock_timestamp() < $2::timestamptz as before_due
           from notifications where id = $1`,
        [note.id, due],
      );
      if (!row!.before_due) break;
      expect(row!.attempts).toBe(1);
      readsBeforeDue++;
      await new Promise((wait) => setTimeout(wait, 100));
    }
    expect(readsBeforeDue).toBeGreaterThan(0);

    proxy.mode = 'forward';
    const sent = await waitSent(down.ctx, note.id, 60_000);
    expect(sent.attempts).toBeGreaterThanOrEqual(1);
    expect(sent.attempts).toBeLessThanOrEqual(3);
    const roomId = await acceptDirectInvite(matrix, downBot);
    expect(await botMessages(matrix, roomId, downBot)).toEqual([
      { eventId: sent.event_id, body: 'Sent after the outage' },
    ]);
  });
});
