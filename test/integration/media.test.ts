import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { S3ObjectStore } from '../../shared/media/store';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { claimedPng } from '../helpers/images';
import { marketplaceFixtures } from '../helpers/marketplace-fixtures';
import { multipart, postOverHttp, type Part } from '../helpers/multipart';
import { dpnmTokenBody } from '../helpers/token-bodies';
import { objectStoreEnv, readTestServices } from '../helpers/services';

/**
 * `POST /media` and `GET /media/:id` (docs/spec/contract.md §14) through the API, with the
 * run's real S3-compatible store (SeaweedFS on loopback) behind them: what is stored is read
 * back from the bucket itself; every refusal has its exact envelope and stores nothing.
 */

const { objectStore } = readTestServices();
const UPLOADS_PER_HOUR = 12;
const test = useTestApp({
  env: {
    ...UNLIMITED_RATES,
    ...objectStoreEnv(),
    MEDIA_UPLOADS_PER_HOUR: String(UPLOADS_PER_HOUR),
  },
  listen: true,
});
const bucket = new S3ObjectStore(objectStore);
afterAll(() => bucket.close());

let uploader: SignedIn;
let refused: SignedIn;
beforeAll(async () => {
  uploader = await signIn(test.app);
  refused = await signIn(test.app);
});

async function upload(who: SignedIn, parts: Part[]) {
  const { body, contentType } = await multipart(parts);
  return test.app.inject({
    method: 'POST',
    url: '/media',
    headers: { cookie: who.cookie, 'content-type': contentType },
    payload: body,
  });
}

const file = (bytes: Buffer | string, filename = 'picture.png', type = 'image/png'): Part => ({
  name: 'file',
  bytes,
  filename,
  type,
});

async function mediaRows(): Promise<number> {
  const [row] = await test.ctx.sql<{ n: number }>('select count(*)::int as n from media');
  return row!.n;
}

interface MediaBody {
  id: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
  mimeType: string;
}

describe('uploads', () => {
  it('stores a PNG as WebP in the bucket, named by its SHA-256, and serves it', async () => {
    const png = await sharp({
      create: { width: 320, height: 200, channels: 3, background: 'orange' },
    })
      .png()
      .toBuffer();
    const response = await upload(uploader, [file(png)]);
    expect(response.statusCode).toBe(201);
    const body = response.json<MediaBody>();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
      url: `${test.ctx.config.publicBaseUrl}/media/${body.id}`,
      width: 320,
      height: 200,
      bytes: expect.any(Number),
      mimeType: 'image/webp',
    });
    const stored = await bucket.get(`media/${body.id}.webp`);
    expect(stored!.contentType).toBe('image/webp');
    expect(stored!.body.length).toBe(body.bytes);
    expect(createHash('sha256').update(stored!.body).digest('hex')).toBe(body.id);
    expect((await sharp(stored!.body).metadata()).format).toBe('webp');

    const served = await test.app.inject({ method: 'GET', url: `/media/${body.id}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(stored!.body)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${body.id}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': expect.stringMatching(/^default-src 'none'(;|$)/),
    });
    const again = await test.app.inject({
      method: 'GET',
      url: `/media/${body.id}`,
      headers: { 'if-none-match': `"${body.id}"` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 200 with the same body for the same bytes, and keeps one row', async () => {
    const png = await sharp({
      create: { width: 100, height: 100, channels: 3, background: 'navy' },
    })
      .png()
      .toBuffer();
    const first = await upload(uploader, [file(png, 'a.png')]);
    const rows = await mediaRows();
    const second = await upload(uploader, [file(png, 'other-name.jpg', 'image/jpeg')]);
    expect([first.statusCode, second.statusCode]).toEqual([201, 200]);
    expect(second.json()).toEqual(first.json());
    expect(await mediaRows()).toBe(rows);
  });

  it('stores a JPEG upright and without its EXIF and GPS', async () => {
    const jpeg = await sharp({
      create: { width: 300, height: 200, channels: 3, background: 'green' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const response = await upload(uploader, [file(jpeg, 'photo.jpg', 'image/jpeg')]);
    expect(response.statusCode).toBe(201);
    const { id } = response.json<MediaBody>();
    const stored = await sharp((await bucket.get(`media/${id}.webp`))!.body).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 200, height: 300 });
    expect(stored.exif).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
  });
});

describe('refusals store nothing', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="99" height="99"></svg>';

  it.each([
    ['an SVG', [file(svg, 'logo.svg', 'image/svg+xml')], 415, 'unsupported_media_type'],
    ['an SVG renamed .png', [file(svg, 'logo.png', 'image/png')], 415, 'unsupported_media_type'],
    [
      'an HTML file sent as image/png',
      [file('<!doctype html><p>hi</p>', 'x.png', 'image/png')],
      415,
      'unsupported_media_type',
    ],
    ['no file, a text field only', [{ name: 'file', bytes: 'not a file' }], 400, 'invalid_request'],
    ['another field beside the file', [{ name: 'name', bytes: 'x' }], 400, 'invalid_request'],
    ['a file part not named file', [{ ...file('x'), name: 'image' }], 400, 'invalid_request'],
  ])('%s', async (_what, parts, status, code) => {
    const rows = await mediaRows();
    expectError(await upload(refused, parts), status, code);
    expect(await mediaRows()).toBe(rows);
  });

  it('two files', async () => {
    const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: 'red' } })
      .png()
      .toBuffer();
    const rows = await mediaRows();
    expectError(
      await upload(refused, [file(png, 'one.png'), file(png, 'two.png')]),
      400,
      'invalid_request',
      'file: send exactly one file',
    );
    expect(await mediaRows()).toBe(rows);
  });

  it('no parts at all, and a JSON body', async () => {
    expectError(
      await upload(refused, []),
      400,
      'invalid_request',
      'file: is required (multipart/form-data with one part named file)',
    );
    const json = await test.app.inject({
      method: 'POST',
      url: '/media',
      headers: { cookie: refused.cookie },
      payload: { file: 'x' },
    });
    expectError(json, 415, 'unsupported_media_type', 'Content-Type: must be multipart/form-data');
  });

  it('over 5 MiB', async () => {
    const rows = await mediaRows();
    expectError(
      await upload(refused, [file(Buffer.alloc(6 * 1024 * 1024, 1))]),
      413,
      'payload_too_large',
      'file: is larger than 5 MiB',
    );
    expect(await mediaRows()).toBe(rows);
  });

  it('without a session or key', async () => {
    const { body, contentType } = await multipart([file('x')]);
    const response = await test.app.inject({
      method: 'POST',
      url: '/media',
      headers: { 'content-type': contentType },
      payload: body,
    });
    expectError(response, 401, 'unauthenticated');
  });
});

describe('over 5 MiB on a real connection', () => {
  it('answers 413 that a node:http client reads, every time', async () => {
    const { body, contentType } = await multipart([file(Buffer.alloc(6 * 1024 * 1024, 7))]);
    const sender = await signIn(test.app);
    const rows = await mediaRows();
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await postOverHttp(new URL('/media', test.url), body, {
        cookie: sender.cookie,
        'content-type': contentType,
      });
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
        status: 413,
        body: { error: { code: 'payload_too_large', message: 'file: is larger than 5 MiB' } },
      });
    }
    expect(await mediaRows()).toBe(rows);
  });

  it('answers a 20,000 × 20,000 PNG of a few KB with 400, the API’s memory barely moving', async () => {
    const png = claimedPng(20_000, 20_000);
    expect(png.length).toBeLessThan(4096);
    const sender = await signIn(test.app);
    // The API runs in this process: its RSS is ours.
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        expectError(
          await upload(sender, [file(png)]),
          400,
          'image_too_large',
          'file: the image is 20000 × 20000 pixels; at most 4096 × 4096',
        );
      }
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline).toBeLessThan(100 * 1024 * 1024);
  });
});

describe('imageMediaId on tokens and agents', () => {
  const agents = marketplaceFixtures(test);
  let media: MediaBody;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: 'plum' } })
      .png()
      .toBuffer();
    media = (await upload(uploader, [file(png)])).json<MediaBody>();
  });

  const createToken = (body: Record<string, unknown>) =>
    test.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { cookie: uploader.cookie },
      payload: body,
    });

  it('a token created with imageMediaId shows the upload’s url', async () => {
    const response = await createToken({
      ...dpnmTokenBody('Pictured', 'PICT'),
      imageMediaId: media.id,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ imageUrl: media.url });
    const detail = await test.app.inject({
      method: 'GET',
      url: `/tokens/${response.json<{ slug: string }>().slug}`,
    });
    expect(detail.json()).toMatchObject({ imageUrl: media.url });
  });

  it.each([
    [
      'both imageUrl and imageMediaId',
      () => ({ imageUrl: 'https://cdn.example.com/a.png', imageMediaId: media.id }),
      'imageMediaId: send imageUrl or imageMediaId, not both',
    ],
    [
      'an id nobody uploaded',
      () => ({ imageMediaId: 'b'.repeat(64) }),
      `imageMediaId: no image was uploaded with id ${'b'.repeat(64)} (POST /media)`,
    ],
    [
      'a malformed id',
      () => ({ imageMediaId: 'not-a-hash' }),
      'imageMediaId: must be a media id (64 lowercase hex digits, from POST /media)',
    ],
  ])('a token with %s is 400, and no token is created', async (_what, image, message) => {
    const [before] = await test.ctx.sql<{ n: number }>('select count(*)::int as n from tokens');
    expectError(
      await createToken({ ...dpnmTokenBody('Refused', 'RFSD'), ...image() }),
      400,
      'invalid_request',
      message,
    );
    const [after] = await test.ctx.sql<{ n: number }>('select count(*)::int as n from tokens');
    expect(after!.n).toBe(before!.n);
  });

  it('an agent takes imageMediaId on create and on update', async () => {
    const created = await agents.createAgent(uploader, { imageMediaId: media.id });
    expect(created).toMatchObject({ imageUrl: media.url });
    const cleared = await test.app.inject({
      method: 'PATCH',
      url: `/agents/${created.slug}`,
      headers: { cookie: uploader.cookie },
      payload: { imageUrl: null },
    });
    expect(cleared.json()).toMatchObject({ imageUrl: null });
    const updated = await test.app.inject({
      method: 'PATCH',
      url: `/agents/${created.slug}`,
      headers: { cookie: uploader.cookie },
      payload: { imageMediaId: media.id },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ imageUrl: media.url });
    expectError(
      await test.app.inject({
        method: 'PATCH',
        url: `/agents/${created.slug}`,
        headers: { cookie: uploader.cookie },
        payload: { imageMediaId: 'c'.repeat(64) },
      }),
      400,
      'invalid_request',
      /^imageMediaId: no image was uploaded/,
    );
  });
});

describe('reads', () => {
  it.each([
    ['an unknown id', 'a'.repeat(64)],
    ['a malformed id', 'not-a-hash'],
  ])('%s is 404 media_not_found, not cached', async (_what, id) => {
    const response = await test.app.inject({ method: 'GET', url: `/media/${id}` });
    expectError(response, 404, 'media_not_found');
    expect(response.headers['cache-control'] ?? '').not.toMatch(/immutable/);
  });
});

describe('limits', () => {
  it(`allows ${UPLOADS_PER_HOUR} uploads an hour per user, then 429 with Retry-After`, async () => {
    const busy = await signIn(test.app);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'gray' } })
      .png()
      .toBuffer();
    for (let i = 0; i < UPLOADS_PER_HOUR; i++) {
      expect((await upload(busy, [file(png)])).statusCode).toBeLessThan(300);
    }
    const over = await upload(busy, [file(png)]);
    expectError(
      over,
      429,
      'rate_limited',
      /^Upload limit of 12 an hour reached; retry after \d+ s$/,
    );
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // Another user is not affected.
    expect((await upload(uploader, [file(png)])).statusCode).toBeLessThan(300);
  });
});
