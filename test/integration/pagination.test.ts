import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { probeRoutes } from '../helpers/probe-routes';

const test = useTestApp({ plugins: [probeRoutes], env: UNLIMITED_RATES });

interface Page {
  items: { id: number; address: string; createdAt: string }[];
  nextCursor: string | null;
}

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

async function insertUsers(from: number, count: number, createdAt?: string) {
  for (let n = from; n < from + count; n++) {
    await test.ctx.sql('insert into users (address, created_at) values ($1, coalesce($2, now()))', [
      address(n),
      createdAt ?? null,
    ]);
  }
}

async function page(query: string): Promise<Page> {
  const response = await test.app.inject({ method: 'GET', url: `/__probe/users?${query}` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

beforeAll(async () => {
  // 15 rows share one timestamp, so the id tie-breaker decides their order.
  await insertUsers(1, 15, '2026-01-01T00:00:00.000Z');
  await insertUsers(16, 10);
});

describe('keyset pagination', () => {
  it('walks every row exactly once while new rows are inserted between pages', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let inserted = 1000;
    do {
      const result: Page = await page(`limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...result.items.map((item) => item.id));
      cursor = result.nextCursor;
      // Newer rows land before the current position and must not shift the walk.
      await insertUsers(inserted, 2);
      inserted += 2;
    } while (cursor);

    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const original = await test.ctx.sql<{ id: number }>(
      'select id from users where address <= $1 order by created_at desc, id desc',
      [address(25)],
    );
    expect(seen).toEqual(original.map((row) => row.id));
  });

  it('walks ascending order too, and ends with nextCursor null', async () => {
    const first = await page('order=old&limit=10');
    expect(first.items).toHaveLength(10);
    expect(first.items[0]!.address).toBe(address(1));
    let last = first;
    while (last.nextCursor) last = await page(`order=old&limit=100&cursor=${last.nextCursor}`);
    expect(last.nextCursor).toBeNull();
  });

  it('defaults the page size to 20 and clamps above 100', async () => {
    expect((await page('')).items).toHaveLength(20);
    await insertUsers(2000, 90);
    expect((await page('limit=500')).items).toHaveLength(100);
  });

  it('refuses a limit below 1 or not an integer', async () => {
    for (const limit of ['0', '-3', '2.5', 'ten']) {
      const response = await test.app.inject({
        method: 'GET',
        url: `/__probe/users?limit=${limit}`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.json().error.message).toMatch(/^limit: /);
    }
  });

  it('refuses a tampered, truncated or garbage cursor with 400 invalid_cursor', async () => {
    const { nextCursor } = await page('limit=2');
    const cursor = nextCursor!;
    const [payload, signature] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...decoded, p: 'WyIyMDI2Il0' })).toString(
      'base64url',
    );
    // Change the second-to-last character: the last one may only carry padding bits.
    const target = cursor.at(-2)!;
    const flipped = cursor.slice(0, -2) + (target === 'A' ? 'B' : 'A') + cursor.slice(-1);
    expect(flipped).not.toBe(cursor);
    for (const bad of [
      `${forged}.${signature}`,
      flipped,
      cursor.slice(0, 10),
      'abc',
      `${cursor}.x`,
    ]) {
      const response = await test.app.inject({
        method: 'GET',
        url: `/__probe/users?limit=2&cursor=${encodeURIComponent(bad)}`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'invalid_cursor', message: 'cursor: malformed, tampered or foreign' },
      });
    }
  });

  it('refuses a cursor issued for another listing (foreign scope)', async () => {
    const { nextCursor } = await page('order=new&limit=2');
    const response = await test.app.inject({
      method: 'GET',
      url: `/__probe/users?order=old&cursor=${nextCursor}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_cursor');
  });
});
