import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectBotError } from '../helpers/errors';
import { claimedPng } from '../helpers/images';
import { createRoom, registerMatrixUser, roomMessages, type MatrixUser } from '../helpers/matrix';
import { multipart, postOverHttp, type Part } from '../helpers/multipart';
import { readTestServices } from '../helpers/services';

/**
 * sendPhoto and sendDocument (docs/spec/contract.md §17) on the run's real Synapse: what the
 * bot posts is read back as another Matrix user, and the file downloaded through the
 * authenticated media API; loopback servers stand for the web a URL is fetched from, and count
 * every connection made to them.
 */

const BOT_TOKEN = 'bot-token-files-0123456789abcdef';
const OTHER_BOT_TOKEN = 'bot-token-files-other-0123456789';
const { synapse } = readTestServices();
const MIB = 1024 * 1024;

let bot: MatrixUser;
let alice: MatrixUser;
beforeAll(async () => {
  // alice is a homeserver admin: she can list what the bot's account has uploaded.
  [bot, alice] = await Promise.all([registerMatrixUser(), registerMatrixUser(undefined, true)]);
});
const test = useTestApp({
  env: () => ({
    ...UNLIMITED_RATES,
    BOT_TOKENS: `${BOT_TOKEN},${OTHER_BOT_TOKEN}`,
    MATRIX_HOMESERVER_URL: synapse.url,
    MATRIX_ACCESS_TOKEN: bot.accessToken,
    // 127.0.0.1 stands for the public web; every other loopback address is private.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  }),
  listen: true,
});

interface FileAnswer {
  event_id: string;
  media: { media_id: string; mimetype: string; size: number; w?: number; h?: number };
}

async function send(
  path: 'sendPhoto' | 'sendDocument',
  parts: Part[] | Record<string, unknown>,
  headers: Record<string, string> = {},
  token = BOT_TOKEN,
) {
  const auth = { 'x-service-bot-token': token, ...headers };
  if (!Array.isArray(parts)) {
    return test.app.inject({
      method: 'POST',
      url: `/api/v1/${path}`,
      headers: auth,
      payload: parts,
    });
  }
  const { body, contentType } = await multipart(parts);
  return test.app.inject({
    method: 'POST',
    url: `/api/v1/${path}`,
    headers: { ...auth, 'content-type': contentType },
    payload: body,
  });
}

const field = (name: string, value: string): Part => ({ name, bytes: value });
const filePart = (bytes: Buffer, filename: string, type = 'application/octet-stream'): Part => ({
  name: 'file',
  bytes,
  filename,
  type,
});

/** A public room of alice's that the bot has joined. */
async function joinedRoom(): Promise<string> {
  const room = await createRoom(alice, {
    public: true,
    aliasLocalpart: `files-${randomBytes(5).toString('hex')}`,
  });
  const joined = await test.app.inject({
    method: 'POST',
    url: '/api/v1/joinRoom',
    headers: { 'x-service-bot-token': BOT_TOKEN },
    payload: { room_alias: room.alias },
  });
  expect(joined.statusCode).toBe(200);
  return room.roomId;
}

/** A picture of its own: different bytes every call, so no test finds another's upload. */
async function png(width = 320, height = 200): Promise<Buffer> {
  const [r, g, b] = [...randomBytes(3)];
  return sharp({ create: { width, height, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .png()
    .toBuffer();
}

const pdf = () =>
  Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n1 0 obj << >> endobj\n%%EOF\n`);

async function mediaRows(): Promise<number> {
  const [row] = await test.ctx.sql<{ n: number }>('select count(*)::int as n from bot_media');
  return row!.n;
}

/** What the homeserver holds of the bot's account (Synapse's admin API, as alice). */
async function uploadsOnHomeserver(): Promise<number> {
  const response = await fetch(
    `${synapse.url}/_synapse/admin/v1/users/${encodeURIComponent(bot.userId)}/media?limit=500`,
    { headers: { authorization: `Bearer ${alice.accessToken}` } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { total: number }).total;
}

/** Downloads an `mxc://` URI through the authenticated media API, as alice. */
async function download(mxc: string): Promise<{ status: number; bytes: Buffer }> {
  const [server, id] = mxc.replace('mxc://', '').split('/');
  const response = await fetch(`${synapse.url}/_matrix/client/v1/media/download/${server}/${id}`, {
    headers: { authorization: `Bearer ${alice.accessToken}` },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

const fileMessages = async (roomId: string) =>
  (await roomMessages(alice, roomId)).filter((message) =>
    ['m.image', 'm.file'].includes(String(message.content.msgtype)),
  );

/** A loopback HTTP server with fixed answers by path; it counts the connections made to it. */
async function webServer(
  host: string,
  routes: Record<string, { status: number; headers?: Record<string, string>; body?: Buffer }>,
): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((request, response) => {
    const route = routes[request.url ?? ''] ?? { status: 404 };
    response.writeHead(route.status, route.headers ?? {});
    response.end(route.body);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('POST /api/v1/sendPhoto', () => {
  it('posts an m.image with mimetype, size, width and height, downloadable with a token', async () => {
    const roomId = await joinedRoom();
    const image = await png(320, 200);
    const sent = await send('sendPhoto', [
      field('room_id', roomId),
      field('caption', 'Atlas, **week 48**'),
      field('markdown', 'true'),
      filePart(image, 'week-48.png', 'image/png'),
    ]);
    expect(sent.statusCode).toBe(200);
    const answer = sent.json<FileAnswer>();
    expect(answer.media).toEqual({
      media_id: expect.stringMatching(/^bm_[A-Za-z0-9_-]{22}$/),
      mimetype: 'image/png',
      size: image.length,
      w: 320,
      h: 200,
    });
    const [message] = await fileMessages(roomId);
    expect(message).toEqual(
      expect.objectContaining({
        event_id: answer.event_id,
        sender: bot.userId,
        content: {
          msgtype: 'm.image',
          body: 'Atlas, **week 48**',
          format: 'org.matrix.custom.html',
          formatted_body: '<p>Atlas, <strong>week 48</strong></p>',
          filename: 'week-48.png',
          url: expect.stringMatching(/^mxc:\/\/localhost\//),
          info: { mimetype: 'image/png', size: image.length, w: 320, h: 200 },
        },
      }),
    );
    const mxc = String(message!.content.url);
    const fetched = await download(mxc);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.equals(image)).toBe(true);
    // The legacy, unauthenticated path serves nothing new (Synapse ≥ 1.120).
    const [server, id] = mxc.replace('mxc://', '').split('/');
    const legacy = await fetch(`${synapse.url}/_matrix/media/v3/download/${server}/${id}`);
    expect(legacy.status).toBe(404);
  });

  it('takes the photo from an https URL (an allow-listed host here), named by its path', async () => {
    const roomId = await joinedRoom();
    const image = await png(96, 64);
    const web = await webServer('127.0.0.1', {
      '/charts/week-49.png': { status: 200, headers: { 'content-type': 'image/png' }, body: image },
    });
    try {
      const sent = await send('sendPhoto', {
        room_id: roomId,
        photo_url: `${web.url}/charts/week-49.png`,
      });
      expect(sent.statusCode).toBe(200);
      expect(sent.json<FileAnswer>().media).toMatchObject({ size: image.length, w: 96, h: 64 });
      const [message] = await fileMessages(roomId);
      expect(message!.content).toMatchObject({ msgtype: 'm.image', body: 'week-49.png' });
      expect((await download(String(message!.content.url))).bytes.equals(image)).toBe(true);
    } finally {
      await web.close();
    }
  });

  it('the same upload with the same Idempotency-Key twice: one media item, one event', async () => {
    const roomId = await joinedRoom();
    const image = await png();
    const parts = [field('room_id', roomId), filePart(image, 'once.png', 'image/png')];
    const [rowsBefore, storedBefore] = [await mediaRows(), await uploadsOnHomeserver()];
    const first = await send('sendPhoto', parts, { 'idempotency-key': 'photo-once' });
    const second = await send('sendPhoto', parts, { 'idempotency-key': 'photo-once' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await mediaRows()).toBe(rowsBefore + 1);
    expect(await uploadsOnHomeserver()).toBe(storedBefore + 1);
    expect(await fileMessages(roomId)).toHaveLength(1);
    // The key with another file is a mistake, not a retry.
    const other = await send(
      'sendPhoto',
      [field('room_id', roomId), filePart(await png(), 'other.png', 'image/png')],
      { 'idempotency-key': 'photo-once' },
    );
    expectBotError(other, 422, 'idempotency_key_reused');
    expect(await fileMessages(roomId)).toHaveLength(1);
  });

  it('the same file sent twice at once, without a key, is uploaded once', async () => {
    const roomId = await joinedRoom();
    const image = await png();
    const parts = [field('room_id', roomId), filePart(image, 'twice.png', 'image/png')];
    const [rowsBefore, storedBefore] = [await mediaRows(), await uploadsOnHomeserver()];
    const answers = await Promise.all([send('sendPhoto', parts), send('sendPhoto', parts)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [a, b] = answers.map((answer) => answer.json<FileAnswer>());
    expect(a!.media.media_id).toBe(b!.media.media_id);
    expect(a!.event_id).not.toBe(b!.event_id);
    expect(await mediaRows()).toBe(rowsBefore + 1);
    expect(await uploadsOnHomeserver()).toBe(storedBefore + 1);
    const urls = (await fileMessages(roomId)).map((message) => message.content.url);
    expect(urls).toHaveLength(2);
    expect(urls[0]).toBe(urls[1]);
  });

  it('re-sends by media_id without uploading again; media_id is the token’s own', async () => {
    const roomId = await joinedRoom();
    const image = await png();
    const first = await send('sendPhoto', [
      field('room_id', roomId),
      filePart(image, 'again.png', 'image/png'),
    ]);
    const { media } = first.json<FileAnswer>();
    const [rowsBefore, storedBefore] = [await mediaRows(), await uploadsOnHomeserver()];
    const again = await send('sendPhoto', {
      room_id: roomId,
      media_id: media.media_id,
      caption: 'Once more',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<FileAnswer>().media).toEqual(media);
    expect(await mediaRows()).toBe(rowsBefore);
    expect(await uploadsOnHomeserver()).toBe(storedBefore);
    const messages = await fileMessages(roomId);
    expect(messages.map((message) => message.content.body)).toEqual(['again.png', 'Once more']);
    expect(messages[1]!.content.url).toBe(messages[0]!.content.url);
    // Another bot token does not know it.
    expectBotError(
      await send('sendPhoto', { room_id: roomId, media_id: media.media_id }, {}, OTHER_BOT_TOKEN),
      400,
      'media_not_found',
      `media_id: ${media.media_id} is not a file this bot uploaded`,
    );
  });
});

describe('a document re-sent as a photo', () => {
  it('follows the photo rules: an image of at most 32 megapixels only', async () => {
    const roomId = await joinedRoom();
    const sendAsDocument = async (bytes: Buffer, filename: string) => {
      const sent = await send('sendDocument', [
        field('room_id', roomId),
        filePart(bytes, filename),
      ]);
      expect(sent.statusCode).toBe(200);
      return sent.json<FileAnswer>().media;
    };
    const poster = await sendAsDocument(claimedPng(8000, 5000), 'poster.png');
    expect(poster).toMatchObject({ mimetype: 'image/png', w: 8000, h: 5000 });
    const report = await sendAsDocument(pdf(), 'report.pdf');
    const before = (await fileMessages(roomId)).length;
    expectBotError(
      await send('sendPhoto', { room_id: roomId, media_id: poster.media_id }),
      413,
      'file_too_large',
      'media_id: the photo is 8000 × 5000 pixels (40 megapixels); at most 32 megapixels, send ' +
        'it with sendDocument',
    );
    expectBotError(
      await send('sendPhoto', { room_id: roomId, media_id: report.media_id }),
      415,
      'unsupported_media_type',
      'media_id: is not a photo (it is application/pdf); send it with sendDocument',
    );
    expect(await fileMessages(roomId)).toHaveLength(before);
  });
});

describe('POST /api/v1/sendDocument', () => {
  it('posts an m.file with its filename and the type read from the bytes', async () => {
    const roomId = await joinedRoom();
    const bytes = pdf();
    const sent = await send('sendDocument', [
      field('room_id', roomId),
      field('caption', 'The November report'),
      filePart(bytes, 'atlas-2026-11.pdf', 'text/html'),
    ]);
    expect(sent.statusCode).toBe(200);
    expect(sent.json<FileAnswer>().media).toEqual({
      media_id: expect.stringMatching(/^bm_/),
      mimetype: 'application/pdf',
      size: bytes.length,
    });
    const [message] = await fileMessages(roomId);
    expect(message!.content).toEqual({
      msgtype: 'm.file',
      body: 'The November report',
      filename: 'atlas-2026-11.pdf',
      url: expect.stringMatching(/^mxc:\/\//),
      info: { mimetype: 'application/pdf', size: bytes.length },
    });
    expect((await download(String(message!.content.url))).bytes.equals(bytes)).toBe(true);
  });

  it('a document over the homeserver’s own limit (40 MiB in this run) is 413', async () => {
    const roomId = await joinedRoom();
    const rows = await mediaRows();
    expectBotError(
      await send('sendDocument', [
        field('room_id', roomId),
        filePart(Buffer.alloc(41 * MIB, 1), 'big.bin'),
      ]),
      413,
      'file_too_large',
      'file: is larger than 40 MiB (the homeserver’s upload limit)',
    );
    expect(await mediaRows()).toBe(rows);
    expect(await fileMessages(roomId)).toHaveLength(0);
  });
});

describe('refusals: each its exact error, nothing stored or posted', () => {
  let roomId: string;
  let rows: number;
  beforeAll(async () => {
    roomId = await joinedRoom();
  });
  beforeEach(async () => {
    rows = await mediaRows();
  });
  afterEach(async () => {
    expect(await mediaRows()).toBe(rows);
    expect(await fileMessages(roomId)).toHaveLength(0);
  });

  it('an SVG as a photo is 415', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64"/></svg>',
    );
    expectBotError(
      await send('sendPhoto', [field('room_id', roomId), filePart(svg, 'logo.png', 'image/png')]),
      415,
      'unsupported_media_type',
      'file: is not a PNG, JPEG, GIF or WebP image (read from its bytes); send it with sendDocument',
    );
  });

  it('a photo over 32 megapixels is 413', async () => {
    expectBotError(
      await send('sendPhoto', [
        field('room_id', roomId),
        filePart(claimedPng(8000, 5000), 'huge.png', 'image/png'),
      ]),
      413,
      'file_too_large',
      'file: the photo is 8000 × 5000 pixels (40 megapixels); at most 32 megapixels, send it ' +
        'with sendDocument',
    );
  });

  it('a 12 MiB photo is 413, read by a node:http client', async () => {
    const { body, contentType } = await multipart([
      field('room_id', roomId),
      filePart(Buffer.concat([await png(), Buffer.alloc(12 * MIB, 3)]), 'big.png', 'image/png'),
    ]);
    const answer = await postOverHttp(new URL('/api/v1/sendPhoto', test.url), body, {
      'x-service-bot-token': BOT_TOKEN,
      'content-type': contentType,
    });
    expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
      status: 413,
      body: { error: 'file_too_large', detail: 'file: is larger than 10 MiB (photos)' },
    });
  });

  it('a room the bot is not in is 403 before the file is read', async () => {
    const closed = await createRoom(alice, { public: false });
    const { body, contentType } = await multipart([
      field('room_id', closed.roomId),
      filePart(Buffer.alloc(12 * MIB, 3), 'big.png', 'image/png'),
    ]);
    const answer = await postOverHttp(new URL('/api/v1/sendPhoto', test.url), body, {
      'x-service-bot-token': BOT_TOKEN,
      'content-type': contentType,
    });
    expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
      status: 403,
      body: { error: 'forbidden', detail: 'The bot is not in the room. Call joinRoom first.' },
    });
  });

  it('a URL to a private address is refused with no request made', async () => {
    const hidden = await webServer('127.0.0.2', {
      '/x.png': { status: 200, body: await png() },
    });
    try {
      expectBotError(
        await send('sendPhoto', { room_id: roomId, photo_url: `${hidden.url}/x.png` }),
        400,
        'invalid_body',
        'photo_url: must use https',
      );
      expectBotError(
        await send('sendPhoto', {
          room_id: roomId,
          photo_url: `https://127.0.0.2:${new URL(hidden.url).port}/x.png`,
        }),
        400,
        'invalid_body',
        'photo_url: host is not a public address',
      );
      expect(hidden.connections()).toBe(0);
    } finally {
      await hidden.close();
    }
  });

  it('a URL that redirects to a private address is refused, the private host never reached', async () => {
    const hidden = await webServer('127.0.0.2', {
      '/x.png': { status: 200, body: await png() },
    });
    const web = await webServer('127.0.0.1', {
      '/x.png': { status: 302, headers: { location: `${hidden.url}/x.png` } },
      '/https.png': {
        status: 302,
        headers: { location: `https://127.0.0.2:${new URL(hidden.url).port}/x.png` },
      },
    });
    try {
      expectBotError(
        await send('sendPhoto', { room_id: roomId, photo_url: `${web.url}/https.png` }),
        502,
        'fetch_failed',
        'photo_url: the URL (or a redirect) leads to a host that is not a public address',
      );
      expectBotError(
        await send('sendPhoto', { room_id: roomId, photo_url: `${web.url}/x.png` }),
        502,
        'fetch_failed',
        'photo_url: a redirect leads to a URL that may not be fetched (url: must use https)',
      );
      expect(web.connections()).toBeGreaterThan(0);
      expect(hidden.connections()).toBe(0);
    } finally {
      await Promise.all([web.close(), hidden.close()]);
    }
  });

  it('two sources at once is 400, before the file is read', async () => {
    expectBotError(
      await send('sendPhoto', {
        room_id: roomId,
        photo_url: 'https://example.org/a.png',
        media_id: 'bm_Xq3v9LrT2pWkZbN8sYcA1d',
      }),
      400,
      'invalid_body',
      'body: give exactly one of file (a multipart part), photo_url and media_id (2 were given)',
    );
    expectBotError(
      await send('sendPhoto', [
        field('room_id', roomId),
        field('media_id', 'bm_Xq3v9LrT2pWkZbN8sYcA1d'),
        filePart(await png(), 'a.png', 'image/png'),
      ]),
      400,
      'invalid_body',
      'body: give exactly one of file (a multipart part), photo_url and media_id (2 were given)',
    );
    expectBotError(
      await send('sendDocument', { room_id: roomId }),
      400,
      'invalid_body',
      'body: give exactly one of file (a multipart part), document_url and media_id',
    );
  });

  it('an unknown media_id is 400 media_not_found', async () => {
    expectBotError(
      await send('sendDocument', { room_id: roomId, media_id: 'bm_AAAAAAAAAAAAAAAAAAAAAA' }),
      400,
      'media_not_found',
      'media_id: bm_AAAAAAAAAAAAAAAAAAAAAA is not a file this bot uploaded',
    );
  });

  it('fields after the file, and unknown fields, are 400', async () => {
    expectBotError(
      await send('sendPhoto', [
        field('room_id', roomId),
        filePart(await png(), 'a.png', 'image/png'),
        field('caption', 'late'),
      ]),
      400,
      'invalid_body',
      'caption: send every field before the file part',
    );
    expectBotError(
      await send('sendPhoto', [
        field('room_id', roomId),
        field('colour', 'blue'),
        filePart(await png(), 'a.png', 'image/png'),
      ]),
      400,
      'invalid_body',
      'colour: is not a known field',
    );
  });
});
