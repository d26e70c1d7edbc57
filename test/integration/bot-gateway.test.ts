import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerSynapseUser, startSynapse, synapsePython } from '../../scripts/synapse';
import type { App } from '../../api/app';
import { buildApp } from '../../api/app';
import { createKey, signIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp, type TestContext } from '../helpers/context';
import { expectBotError } from '../helpers/errors';
import { createRoom, registerMatrixUser, roomMessages, type MatrixUser } from '../helpers/matrix';
import { overrideRateLimit } from '../helpers/matrix-admin';
import { freePort, readTestServices } from '../helpers/services';

/**
 * The bot gateway (`/api/v1`, docs/bot-gateway.md) against the run's real Synapse: what it
 * sends is read back by another Matrix user through the client-server API.
 */

const BOT_TOKEN = 'bot-token-primary-0123456789';
const OTHER_BOT_TOKEN = 'bot-token-secondary-9876543210';

let bot: MatrixUser;
let alice: MatrixUser;

beforeAll(async () => {
  [bot, alice] = await Promise.all([registerMatrixUser(), registerMatrixUser()]);
});
const test = useTestApp({
  env: () => ({
    ...UNLIMITED_RATES,
    BOT_TOKENS: `${BOT_TOKEN},${OTHER_BOT_TOKEN}`,
    MATRIX_HOMESERVER_URL: readTestServices().synapse.url,
    MATRIX_ACCESS_TOKEN: bot.accessToken,
  }),
});

function post(
  target: App,
  path: 'sendMessage' | 'joinRoom',
  payload: unknown,
  headers: Record<string, string> = { 'x-service-bot-token': BOT_TOKEN },
) {
  return target.inject({
    method: 'POST',
    url: `/api/v1/${path}`,
    headers,
    payload: payload as object,
  });
}

/** A room of alice's that the bot has joined (by alias, as a public room). */
async function joinedRoom(): Promise<string> {
  const room = await createRoom(alice, {
    public: true,
    aliasLocalpart: `gw-${randomBytes(5).toString('hex')}`,
  });
  const joined = await post(test.app, 'joinRoom', { room_alias: room.alias });
  expect({ status: joined.statusCode, body: joined.json() }).toEqual({
    status: 200,
    body: { room_id: room.roomId },
  });
  return room.roomId;
}

describe('POST /api/v1/sendMessage', () => {
  it('delivers the text to the room as the bot, with markdown as escaped HTML and a reply', async () => {
    const roomId = await joinedRoom();
    const text = '**Build done** for _Atlas_: `npm test` passed\n<script>alert(1)</script>';
    const sent = await post(test.app, 'sendMessage', { room_id: roomId, text, markdown: true });
    expect(sent.statusCode).toBe(200);
    const { event_id } = sent.json<{ event_id: string }>();
    expect(event_id).toMatch(/^\$/);

    const reply = await post(test.app, 'sendMessage', {
      room_id: roomId,
      text: 'plain follow-up',
      reply_to: event_id,
    });
    expect(reply.statusCode).toBe(200);

    const seen = await roomMessages(alice, roomId);
    expect(seen).toEqual([
      expect.objectContaining({
        event_id,
        sender: bot.userId,
        content: {
          msgtype: 'm.text',
          body: text,
          format: 'org.matrix.custom.html',
          formatted_body:
            '<p><strong>Build done</strong> for <em>Atlas</em>: <code>npm test</code> passed<br>\n' +
            '&lt;script&gt;alert(1)&lt;/script&gt;</p>',
        },
      }),
      expect.objectContaining({
        event_id: reply.json<{ event_id: string }>().event_id,
        sender: bot.userId,
        content: {
          msgtype: 'm.text',
          body: 'plain follow-up',
          'm.relates_to': { 'm.in_reply_to': { event_id } },
        },
      }),
    ]);
  });

  it('accepts every configured bot token and refuses anything else with exactly {"error":"unauthorized"}', async () => {
    const roomId = await joinedRoom();
    const other = await post(
      test.app,
      'sendMessage',
      { room_id: roomId, text: 'from the second token' },
      { 'x-service-bot-token': OTHER_BOT_TOKEN },
    );
    expect(other.statusCode).toBe(200);

    const session = await signIn(test.app);
    const { key } = await createKey(test.app, session);
    const refusals: Record<string, string>[] = [
      {},
      { 'x-service-bot-token': '' },
      { 'x-service-bot-token': `${BOT_TOKEN}x` },
      { 'x-service-bot-token': BOT_TOKEN.slice(0, -1) },
      { cookie: session.cookie },
      { 'x-api-key': key },
      { authorization: `Bearer ${BOT_TOKEN}` },
    ];
    for (const headers of refusals) {
      const response = await post(test.app, 'sendMessage', { room_id: roomId, text: 'x' }, headers);
      expect({ status: response.statusCode, body: response.json() }).toEqual({
        status: 401,
        body: { error: 'unauthorized' },
      });
    }
    expect(await roomMessages(alice, roomId)).toHaveLength(1);
  });

  it('is 403 forbidden in a room the bot has not joined, and 404 for a room nobody knows', async () => {
    const closed = await createRoom(alice);
    expectBotError(
      await post(test.app, 'sendMessage', { room_id: closed.roomId, text: 'hi' }),
      403,
      'forbidden',
      /not in the room\. Call joinRoom first/,
    );
    expectBotError(
      await post(test.app, 'sendMessage', { room_id: '!doesNotExist:localhost', text: 'hi' }),
      404,
      'room_not_found',
      /does not know the room !doesNotExist:localhost/,
    );
    // Caller text is one encoded path segment: it cannot walk to another endpoint.
    expectBotError(
      await post(test.app, 'sendMessage', {
        room_id: '!x/../../../../_synapse/admin/v1/users?a=:localhost',
        text: 'hi',
      }),
      404,
      'room_not_found',
      /does not know the room/,
    );
  });

  it('refuses a bad body with 400 invalid_body and a detail naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ room_id: 'abc:localhost', text: 'x' }, /^room_id: must be a Matrix room id/],
      [{ text: 'x' }, /^room_id: is required/],
      [{ room_id: '!a:localhost' }, /^text: is required/],
      [{ room_id: '!a:localhost', text: '' }, /^text: must not be empty/],
      [{ room_id: '!a:localhost', text: 'x'.repeat(40_001) }, /^text: must be at most 40000/],
      [{ room_id: '!a:localhost', text: 'x', markdown: 'yes' }, /^markdown: /],
      [{ room_id: '!a:localhost', text: 'x', reply_to: 'nope' }, /^reply_to: must be a Matrix/],
      [{ room_id: '!a:localhost', text: 'x', html: '<b>' }, /^html: is not a known field/],
    ];
    for (const [payload, detail] of cases) {
      expectBotError(await post(test.app, 'sendMessage', payload), 400, 'invalid_body', detail);
    }
    const broken = await test.app.inject({
      method: 'POST',
      url: '/api/v1/sendMessage',
      headers: { 'x-service-bot-token': BOT_TOKEN, 'content-type': 'application/json' },
      payload: '{"room_id":',
    });
    expectBotError(broken, 400, 'invalid_body', /not valid JSON/);
  });

  it('sends 40,000 characters, the most the spec allows', async () => {
    const roomId = await joinedRoom();
    const text = 'a'.repeat(40_000);
    expect((await post(test.app, 'sendMessage', { room_id: roomId, text })).statusCode).toBe(200);
    const [message] = await roomMessages(alice, roomId);
    expect(message?.content.body).toBe(text);
  });

  it('turns one Idempotency-Key into one event, also sent concurrently to two API instances', async () => {
    const roomId = await joinedRoom();
    const headers = { 'x-service-bot-token': BOT_TOKEN, 'idempotency-key': 'order-42-shipped' };
    const payload = { room_id: roomId, text: 'Order 42 shipped' };
    const first = await post(test.app, 'sendMessage', payload, headers);
    const again = await post(test.app, 'sendMessage', payload, headers);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await roomMessages(alice, roomId)).toHaveLength(1);

    const second = await test.ctx.newApi();
    const raceHeaders = { ...headers, 'idempotency-key': 'order-43-shipped' };
    const race = { room_id: roomId, text: 'Order 43 shipped' };
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => post(test.app, 'sendMessage', race, raceHeaders)),
      ...Array.from({ length: 4 }, () => post(second, 'sendMessage', race, raceHeaders)),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(
      new Set(answers.map((answer) => answer.json<{ event_id: string }>().event_id)).size,
    ).toBe(1);
    const texts = (await roomMessages(alice, roomId)).map((message) => message.content.body);
    expect(texts).toEqual(['Order 42 shipped', 'Order 43 shipped']);

    // Without a key every request is its own message.
    await post(test.app, 'sendMessage', { room_id: roomId, text: 'no key' });
    await post(test.app, 'sendMessage', { room_id: roomId, text: 'no key' });
    expect(await roomMessages(alice, roomId)).toHaveLength(4);
  });

  it('waits out the homeserver rate limit, then answers 429 rate_limited with Retry-After', async () => {
    // A bot limited to one message a second (Synapse's per-user override, set by an admin).
    const slowBot = await registerMatrixUser();
    await overrideRateLimit(slowBot.userId, { messagesPerSecond: 1, burstCount: 1 });
    const slowApp = buildApp({
      ...test.ctx.deps,
      config: {
        ...test.ctx.config,
        matrix: { ...test.ctx.config.matrix, accessToken: slowBot.accessToken },
      },
    });
    try {
      const room = await createRoom(alice, {
        public: true,
        aliasLocalpart: `slow-${randomBytes(5).toString('hex')}`,
      });
      expect((await post(slowApp, 'sendMessage', {}, {})).statusCode).toBe(401);
      expect((await post(slowApp, 'joinRoom', { room_id: room.roomId })).statusCode).toBe(200);

      // Two in a row: the second meets M_LIMIT_EXCEEDED, waits about a second, then succeeds.
      const started = Date.now();
      const first = await post(slowApp, 'sendMessage', { room_id: room.roomId, text: 'one' });
      const second = await post(slowApp, 'sendMessage', { room_id: room.roomId, text: 'two' });
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);

      // Fifteen at once: one a second gets through; what is still waiting after the 10 s
      // budget is refused, and nothing refused reaches the room.
      const burst = await Promise.all(
        Array.from({ length: 15 }, (_, index) =>
          post(slowApp, 'sendMessage', { room_id: room.roomId, text: `burst ${index}` }),
        ),
      );
      const accepted = burst.filter((response) => response.statusCode === 200);
      const refused = burst.filter((response) => response.statusCode !== 200);
      expect(accepted.length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const response of refused) {
        expectBotError(response, 429, 'rate_limited', /retry after \d+ s/);
        expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      const bodies = (await roomMessages(alice, room.roomId)).map(
        (message) => message.content.body,
      );
      expect(bodies.filter((body) => String(body).startsWith('burst'))).toHaveLength(
        accepted.length,
      );
    } finally {
      await slowApp.close();
    }
  }, 60_000);
});

describe('POST /api/v1/joinRoom', () => {
  it('joins an invited private room by id and a public room by alias', async () => {
    const invited = await createRoom(alice, { invite: [bot.userId], direct: true });
    const joined = await post(test.app, 'joinRoom', { room_id: invited.roomId });
    expect({ status: joined.statusCode, body: joined.json() }).toEqual({
      status: 200,
      body: { room_id: invited.roomId },
    });
    // Now a member: sending works, and joining again is still 200.
    const sent = await post(test.app, 'sendMessage', { room_id: invited.roomId, text: 'hello' });
    expect(sent.statusCode).toBe(200);
    expect((await post(test.app, 'joinRoom', { room_id: invited.roomId })).statusCode).toBe(200);
    await joinedRoom();
  });

  it('is 403 for a private room without an invitation, 404 for an unknown alias or room', async () => {
    const closed = await createRoom(alice);
    expectBotError(
      await post(test.app, 'joinRoom', { room_id: closed.roomId }),
      403,
      'forbidden',
      /not invited and the room is not public/,
    );
    expectBotError(
      await post(test.app, 'joinRoom', { room_alias: '#no-such-room:localhost' }),
      404,
      'room_not_found',
      /#no-such-room:localhost/,
    );
    expectBotError(
      await post(test.app, 'joinRoom', { room_id: '!noSuchRoom:localhost' }),
      404,
      'room_not_found',
      /!noSuchRoom:localhost/,
    );
  });

  it('needs exactly one of room_id and room_alias', async () => {
    for (const payload of [{}, { room_id: '!a:localhost', room_alias: '#a:localhost' }]) {
      expectBotError(await post(test.app, 'joinRoom', payload), 400, 'invalid_body', /exactly one/);
    }
    expectBotError(
      await post(test.app, 'joinRoom', { room_alias: 'news' }),
      400,
      'invalid_body',
      /^room_alias: must be a Matrix room alias/,
    );
  });
});

describe('the rest of /api/v1', () => {
  it("answers in the gateway's body: 404 for an unknown endpoint, 405 for another method", async () => {
    const unknown = await post(test.app, 'sendSticker' as 'sendMessage', { room_id: '!a:b' });
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({
      status: 404,
      body: { error: 'not_found', detail: 'route: POST /api/v1/sendSticker does not exist' },
    });
    const wrongMethod = await test.app.inject({ method: 'GET', url: '/api/v1/sendMessage' });
    expect({
      status: wrongMethod.statusCode,
      allow: wrongMethod.headers.allow,
      body: wrongMethod.json(),
    }).toEqual({
      status: 405,
      allow: 'POST',
      body: { error: 'method_not_allowed', detail: 'method: use POST on /api/v1/sendMessage' },
    });
  });

  it('is in the OpenAPI document with the bot token scheme and its own error body', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, any>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(document.components.securitySchemes.botToken).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Service-Bot-Token' }),
    );
    for (const path of ['/api/v1/sendMessage', '/api/v1/joinRoom']) {
      const operation = document.paths[path]?.post;
      expect(operation.security).toEqual([{ botToken: [] }]);
      expect(JSON.stringify(operation.responses['4XX'] ?? operation.responses['4xx'])).toContain(
        'BotError',
      );
    }
  });
});

describe('the gateway when the homeserver cannot serve', () => {
  async function appWith(matrix: Partial<TestContext['config']['matrix']>) {
    const logs = test.ctx.logs.length;
    const target = buildApp({
      ...test.ctx.deps,
      config: { ...test.ctx.config, matrix: { ...test.ctx.config.matrix, ...matrix } },
    });
    await target.ready();
    return { target, newLogs: () => test.ctx.logs.slice(logs) };
  }

  it('answers 502 send_failed while its homeserver is stopped, and works again once it is back', async () => {
    // A homeserver of this test's own, so stopping it stops nobody else's.
    const dir = join(tmpdir(), `svc-synapse-stop-${randomBytes(4).toString('hex')}`);
    const port = await freePort();
    const python = await synapsePython();
    let own = await startSynapse({ dir, port, python });
    const ownBot = await registerSynapseUser(own, 'bot');
    const { target } = await appWith({ homeserverUrl: own.url, accessToken: ownBot.accessToken });
    try {
      const created = await fetch(`${own.url}/_matrix/client/v3/createRoom`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ownBot.accessToken}` },
        body: '{}',
      });
      const { room_id: roomId } = (await created.json()) as { room_id: string };
      const payload = { room_id: roomId, text: 'while up' };
      expect((await post(target, 'sendMessage', payload)).statusCode).toBe(200);

      await own.stop();
      expectBotError(
        await post(target, 'sendMessage', { ...payload, text: 'while down' }),
        502,
        'send_failed',
        /^The homeserver is unreachable: connection refused\. Retry is safe\.$/,
      );

      own = await startSynapse({ dir, port, python });
      expect((await post(target, 'sendMessage', { ...payload, text: 'back' })).statusCode).toBe(
        200,
      );
    } finally {
      await target.close();
      await own.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('answers 502 send_failed when no homeserver is configured, and says so at start', async () => {
    const { target, newLogs } = await appWith({ homeserverUrl: undefined, accessToken: undefined });
    try {
      expect(newLogs()).toContainEqual(
        expect.objectContaining({ msg: expect.stringMatching(/no Matrix homeserver configured/) }),
      );
      expectBotError(
        await post(target, 'sendMessage', { room_id: '!a:localhost', text: 'x' }),
        502,
        'send_failed',
        /^No Matrix homeserver is configured \(MATRIX_HOMESERVER_URL/,
      );
    } finally {
      await target.close();
    }
  });

  it('answers 502 send_failed and logs an error when the homeserver rejects the bot token', async () => {
    const { target, newLogs } = await appWith({ accessToken: 'syt_not_a_real_token' });
    try {
      expectBotError(
        await post(target, 'joinRoom', { room_alias: '#anything:localhost' }),
        502,
        'send_failed',
        /rejected the bot\. Retry is safe/,
      );
      expect(newLogs()).toContainEqual(
        expect.objectContaining({
          level: 50,
          errcode: 'M_UNKNOWN_TOKEN',
          msg: expect.stringMatching(/MATRIX_ACCESS_TOKEN/),
        }),
      );
      expect(JSON.stringify(newLogs())).not.toContain('syt_not_a_real_token');
    } finally {
      await target.close();
    }
  });
});
