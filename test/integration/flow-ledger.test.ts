import { createKey, signIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  INTERNAL_TOKEN,
  idsOf,
  type Entry,
  type Page,
  flowFixtures,
} from '../helpers/flow-fixtures';

/** The FLOW ledger over HTTP: GET /ledger, its pages, filters and cursors. */

const test = useTestApp({ env: { ...UNLIMITED_RATES, INTERNAL_TOKENS: INTERNAL_TOKEN } });
const { credited, ledger, insertRows } = flowFixtures(test);

describe('GET /ledger', () => {
  it('needs a user: 401 unauthenticated without one or with a bad session', async () => {
    expectError(await test.app.inject({ method: 'GET', url: '/ledger' }), 401, 'unauthenticated');
    const stale = await test.app.inject({
      method: 'GET',
      url: '/ledger',
      headers: { authorization: 'Bearer not-a-session' },
    });
    expectError(stale, 401, 'unauthenticated');
  });

  it('pages newest first over 250 rows, each exactly once while rows are added', async () => {
    const alice = await signIn(test.app);
    const base = Date.now() - 86_400_000;
    // Three rows per millisecond, so the id breaks ties in the order.
    const originals = await insertRows(
      alice.userId,
      Array.from({ length: 250 }, (_, i) => ({ at: new Date(base + Math.floor(i / 3)) })),
    );
    const seen: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await ledger(alice, { limit: 20, ...(cursor && { cursor }) });
      expect(response.statusCode).toBe(200);
      const page = response.json<Page>();
      expect(page.items.length).toBeLessThanOrEqual(20);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
      await credited(alice.userId, 1); // newer than anything paged so far
    } while (cursor !== null && pages < 40);

    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => originals.includes(id)).sort()).toEqual([...originals].sort());
    for (let i = 1; i < seen.length; i += 1) {
      const [before, after] = [seen[i - 1]!, seen[i]!];
      const ordered =
        before.createdAt > after.createdAt ||
        (before.createdAt === after.createdAt && before.id > after.id);
      expect(ordered).toBe(true);
    }
  });

  it('filters by reason, and refuses an unknown reason', async () => {
    const alice = await signIn(test.app);
    const topup = (await credited(alice.userId, 1, 'topup')).entry.id;
    const quest = (await credited(alice.userId, 2, 'quest')).entry.id;
    const grant = (await credited(alice.userId, 3, 'grant')).entry.id;
    expect(idsOf(await ledger(alice, { reason: 'quest' }))).toEqual([quest]);
    expect(idsOf(await ledger(alice, { reason: 'grant' }))).toEqual([grant]);
    expect(idsOf(await ledger(alice, { reason: 'topup' }))).toEqual([topup]);
    expect(idsOf(await ledger(alice, { reason: 'payout' }))).toEqual([]);
    expectError(await ledger(alice, { reason: 'bonus' }), 400, 'invalid_request', /^reason: /);
  });

  it('filters by time: from inclusive, to exclusive, offsets understood', async () => {
    const alice = await signIn(test.app);
    const t = (ms: number) => new Date(Date.UTC(2026, 0, 10, 12, 0, 0, ms));
    const [a, b, c] = await insertRows(alice.userId, [{ at: t(0) }, { at: t(1) }, { at: t(2) }]);
    const iso = (ms: number) => t(ms).toISOString();
    expect(idsOf(await ledger(alice, { from: iso(1) }))).toEqual([c, b]);
    expect(idsOf(await ledger(alice, { to: iso(2) }))).toEqual([b, a]);
    expect(idsOf(await ledger(alice, { from: iso(1), to: iso(2) }))).toEqual([b]);
    expect(idsOf(await ledger(alice, { from: iso(1), to: iso(1) }))).toEqual([]);
    // The same instant as 14:00:00.001 at +02:00.
    expect(idsOf(await ledger(alice, { from: '2026-01-10T14:00:00.001+02:00' }))).toEqual([c, b]);
    // An unencoded "+" in the query string decodes to a space; it still means the offset.
    const raw = await test.app.inject({
      method: 'GET',
      url: '/ledger?from=2026-01-10T14:00:00.001+02:00',
      headers: { cookie: alice.cookie },
    });
    expect(idsOf(raw)).toEqual([c, b]);
    // Finer than a millisecond: 12:00:00.0015 is after row b and before row c.
    expect(idsOf(await ledger(alice, { from: '2026-01-10T12:00:00.0015Z' }))).toEqual([c]);
    expect(idsOf(await ledger(alice, { to: '2026-01-10T12:00:00.0015Z' }))).toEqual([b, a]);
    // Extreme but valid bounds.
    expect(
      idsOf(await ledger(alice, { from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59Z' })),
    ).toEqual([c, b, a]);
  });

  it('refuses unparsable bounds and from after to, naming the field', async () => {
    const alice = await signIn(test.app);
    for (const from of ['yesterday', '2026-01-10', '2026-02-30T00:00:00Z', '2026-01-10T12:00']) {
      expectError(await ledger(alice, { from }), 400, 'invalid_request', /^from: /);
    }
    expectError(await ledger(alice, { to: '1700000000' }), 400, 'invalid_request', /^to: /);
    expectError(
      await ledger(alice, { from: '2026-01-11T00:00:00Z', to: '2026-01-10T00:00:00Z' }),
      400,
      'invalid_request',
      /^from: /,
    );
  });

  it('refuses tampered, foreign and other-filter cursors with 400 invalid_cursor', async () => {
    const [alice, bob] = [await signIn(test.app), await signIn(test.app)];
    await insertRows(alice.userId, [{ at: new Date(1e12) }, { at: new Date(1e12 + 1) }]);
    await insertRows(bob.userId, [{ at: new Date(1e12) }, { at: new Date(1e12 + 1) }]);
    const cursor = (await ledger(alice, { limit: 1 })).json<Page>().nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    const [payload, mac] = cursor.split('.');
    const flipped = `${payload}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
    for (const bad of [flipped, 'garbage', `${payload}`]) {
      expectError(await ledger(alice, { cursor: bad }), 400, 'invalid_cursor');
    }
    expectError(await ledger(alice, { cursor, reason: 'topup' }), 400, 'invalid_cursor');
    expectError(await ledger(bob, { cursor, limit: 1 }), 400, 'invalid_cursor');
    expect((await ledger(alice, { cursor, limit: 1 })).statusCode).toBe(200);
  });

  it('shows only the caller’s own rows, by session or API key', async () => {
    const [alice, bob] = [await signIn(test.app), await signIn(test.app)];
    const mine = (await credited(alice.userId, 1)).entry.id;
    const theirs = (await credited(bob.userId, 1)).entry.id;
    expect(idsOf(await ledger(alice))).toEqual([mine]);
    expect(idsOf(await ledger(bob))).toEqual([theirs]);
    const key = await createKey(test.app, bob);
    const byKey = await test.app.inject({
      method: 'GET',
      url: '/ledger',
      headers: { 'x-api-key': key.key },
    });
    expect(byKey.statusCode).toBe(200);
    expect(idsOf(byKey)).toEqual([theirs]);
  });

  it('validates limit', async () => {
    const alice = await signIn(test.app);
    expectError(await ledger(alice, { limit: 0 }), 400, 'invalid_request', /^limit: /);
    expect((await ledger(alice, { limit: 1000 })).statusCode).toBe(200);
  });
});
