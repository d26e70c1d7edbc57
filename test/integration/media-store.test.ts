import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryObjectStore, S3ObjectStore, type ObjectStore } from '../../shared/media/store';
import { readTestServices } from '../helpers/services';

/**
 * The media object stores (shared/media/store.ts): the S3 driver against the run's real
 * S3-compatible server (SeaweedFS on loopback, started by the test setup) and the directory
 * driver, held to one contract: an object once stored is never replaced, a missing one is
 * null, a key that is not a safe path is refused before anything is written.
 */

const services = readTestServices();
const s3 = new S3ObjectStore(services.objectStore);
let dir = '';
let directory: DirectoryObjectStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-media-store-'));
  directory = new DirectoryObjectStore(dir);
});

afterAll(async () => {
  s3.close();
  await rm(dir, { recursive: true, force: true });
});

/** A key of this file's own (the bucket is the run's). */
const keyOf = (name: string) => `test/${randomBytes(8).toString('hex')}/${name}.webp`;

describe.each([
  ['S3 (SeaweedFS)', () => s3 as ObjectStore],
  ['directory', () => directory as ObjectStore],
])('%s store', (_name, store) => {
  it('stores an object once and reads it back with its type', async () => {
    const key = keyOf('first');
    const body = randomBytes(2048);
    expect(await store().putIfAbsent(key, body, 'image/webp')).toBe(true);
    expect(await store().get(key)).toEqual({ body, contentType: 'image/webp' });
  });

  it('never replaces an object: a second put stores nothing and says so', async () => {
    const key = keyOf('kept');
    const first = randomBytes(512);
    expect(await store().putIfAbsent(key, first, 'image/webp')).toBe(true);
    expect(await store().putIfAbsent(key, randomBytes(512), 'image/webp')).toBe(false);
    expect((await store().get(key))!.body.equals(first)).toBe(true);
  });

  it('answers null for a missing object', async () => {
    expect(await store().get(keyOf('missing'))).toBeNull();
  });

  it('keeps one object when the same key is put five times at once', async () => {
    const key = keyOf('raced');
    const body = randomBytes(4096);
    const stored = await Promise.all(
      Array.from({ length: 5 }, () => store().putIfAbsent(key, body, 'image/webp')),
    );
    expect(stored.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect((await store().get(key))!.body.equals(body)).toBe(true);
  });

  it.each(['../escape.webp', 'a//b.webp', 'Upper/case.webp', '/rooted.webp', 'dot/../x.webp', ''])(
    'refuses the key %j before writing anything',
    async (key) => {
      await expect(store().putIfAbsent(key, Buffer.from('x'), 'image/webp')).rejects.toThrow(
        /invalid key/,
      );
      await expect(store().get(key)).rejects.toThrow(/invalid key/);
    },
  );
});

describe('directory store', () => {
  it('leaves no temporary file behind, whether it stored or found the object', async () => {
    const key = 'tidy/object.webp';
    await directory.putIfAbsent(key, Buffer.from('one'));
    await directory.putIfAbsent(key, Buffer.from('two'));
    expect(await readdir(join(dir, 'tidy'))).toEqual(['object.webp']);
  });

  it('stores exactly once when raced', async () => {
    const stored = await Promise.all(
      Array.from({ length: 5 }, () => directory.putIfAbsent('raced/once.webp', Buffer.from('x'))),
    );
    expect(stored.filter(Boolean)).toHaveLength(1);
  });
});

describe('S3 store credentials', () => {
  it('answers the readiness check with the right credentials', async () => {
    await expect(s3.check()).resolves.toBeUndefined();
  });

  it('fails, and stores nothing, with a wrong secret', async () => {
    const wrong = new S3ObjectStore({ ...services.objectStore, secretAccessKey: 'wrong' });
    const key = keyOf('refused');
    try {
      await expect(wrong.check()).rejects.toThrow();
      await expect(wrong.putIfAbsent(key, Buffer.from('x'), 'image/webp')).rejects.toThrow();
    } finally {
      wrong.close();
    }
    expect(await s3.get(key)).toBeNull();
  });
});
