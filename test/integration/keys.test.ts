import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../api/app';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';

/** API keys: the six spec endpoints, roll, secrecy of raw keys, usage (docs/spec/contract.md §4). */

const KEY_FORMAT = /^svc_live_[0-9a-f]{64}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A handler that reports the model it used, as agent calls will. */
const modelProbe: FastifyPluginAsyncZod = async (app) => {
  app.post('/__probe/model', { config: { auth: 'user' } }, async (request) => {
    request.usageReport = { model: 'llama-3-70b', inputTokens: 120, outputTokens: 30 };
    return { ok: true };
  });
};

let alice: SignedIn;
let bob: SignedIn;
/** Every raw key this file creates, to prove none leaks anywhere later. */
const rawKeys: string[] = [];

const test = useTestApp({ plugins: [modelProbe], env: UNLIMITED_RATES });
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

async function newKey(owner: SignedIn, body: Record<string, unknown> = { name: 'ci' }) {
  const created = await createKey(test.app, owner, body);
  rawKeys.push(created.key);
  return created;
}

const withKey = (key: string) => ({ 'x-api-key': key });

interface ListedKey {
  id: string;
  revoked: boolean;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}
type Reply = Awaited<ReturnType<App['inject']>>;
const itemsOf = <Item = ListedKey>(response: Reply) => response.json<{ items: Item[] }>().items;
const idsOf = (response: Reply) => itemsOf(response).map((item) => item.id);

describe('POST /me/api-keys', () => {
  it('creates a key shown once, in the decided shape, with the spec defaults', async () => {
    const created = await newKey(alice, { name: 'deploy bot' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key: expect.stringMatching(KEY_FORMAT),
      prefix: created.key.slice(0, 12),
      name: 'deploy bot',
      rate_limit_rpm: 60,
      spend_limit_flow: null,
      spend_period: 'month',
      spend_period_used: 0,
      spend_period_resets_at: expect.stringMatching(ISO),
      last_used_at: null,
      created_at: expect.stringMatching(ISO),
      revoked: false,
      expires_at: null,
    });
    // svc_live_ (9) + 64 hex = 73 characters; the spec's "72" miscounts (docs/decisions.md).
    expect(created.key).toHaveLength(73);
    expect(created.prefix).toMatch(/^svc_live_[0-9a-f]{3}$/);
  });

  it('accepts every limit field, keeping at most 6 decimals of the cap', async () => {
    const created = await newKey(alice, {
      name: 'capped',
      rate_limit_rpm: 0,
      spend_limit_flow: 12.3456789,
      spend_period: 'forever',
    });
    expect(created).toMatchObject({
      rate_limit_rpm: 0,
      spend_limit_flow: '12.345678',
      spend_period: 'forever',
      spend_period_resets_at: null,
    });
    const asString = await newKey(alice, { name: 'string cap', spend_limit_flow: '0.5' });
    expect(asString.spend_limit_flow).toBe('0.5');
  });

  it('accepts a cookie, a Bearer session and an x-api-key', async () => {
    const { key } = await newKey(alice);
    for (const headers of [
      { cookie: alice.cookie },
      { authorization: `Bearer ${alice.token}` },
      withKey(key),
    ]) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/me/api-keys',
        headers,
        payload: { name: 'via any credential' },
      });
      expect(response.statusCode).toBe(201);
      rawKeys.push(response.json().key);
    }
    const anonymous = await test.app.inject({
      method: 'POST',
      url: '/me/api-keys',
      payload: { name: 'nobody' },
    });
    expectError(anonymous, 401, 'unauthenticated');
  });

  it.each([
    [{ name: '' }, 'name: must be 1 to 64 characters'],
    [{ name: 'x'.repeat(65) }, 'name: must be 1 to 64 characters'],
    [{}, 'name: is required'],
    [{ name: 'ok', rate_limit_rpm: -1 }, 'rate_limit_rpm: must be 0 to 100000'],
    [{ name: 'ok', rate_limit_rpm: 1.5 }, 'rate_limit_rpm: must be an integer'],
    [
      { name: 'ok', spend_limit_flow: '-3' },
      'spend_limit_flow: must be a non-negative FLOW amount',
    ],
    [
      { name: 'ok', spend_limit_flow: '1e5' },
      'spend_limit_flow: must be a non-negative FLOW amount',
    ],
    [{ name: 'ok', spend_period: 'year' }, 'spend_period:'],
    [{ name: 'ok', user_id: 7 }, 'user_id: is not a known field'],
  ])('refuses %j with 400 naming the field', async (payload, message) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/me/api-keys',
      headers: { cookie: alice.cookie },
      payload,
    });
    expectError(response, 400, 'invalid_request');
    expect(response.json().error.message).toContain(message);
  });

  it('accepts names of exactly 1 and 64 characters', async () => {
    for (const name of ['x', 'y'.repeat(64)]) {
      expect((await newKey(alice, { name })).name).toBe(name);
    }
  });
});

describe('using and managing keys', () => {
  it('a key authenticates as its owner; list shows active keys without secrets', async () => {
    const created = await newKey(bob, { name: 'bob key' });
    const me = await test.app.inject({ method: 'GET', url: '/me', headers: withKey(created.key) });
    expect(me.json().id).toBe(bob.userId);

    const list = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: bob.cookie },
    });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as Record<string, unknown>[];
    expect(items.map((item) => item.id)).toContain(created.id);
    for (const item of items) expect(item).not.toHaveProperty('key');
    // Alice's keys are not Bob's.
    const alices = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: alice.cookie },
    });
    expect(idsOf(alices)).not.toContain(created.id);
  });

  it('PATCH changes settings; a new spend_period restarts the count', async () => {
    const created = await newKey(alice, { name: 'to patch', spend_limit_flow: '50' });
    await test.ctx.sql('update api_keys set spend_used = 7000000 where id = $1', [created.id]);
    const patch = (payload: Record<string, unknown>) =>
      test.app.inject({
        method: 'PATCH',
        url: `/me/api-keys/${created.id}`,
        headers: { cookie: alice.cookie },
        payload,
      });

    const renamed = await patch({ name: 'renamed', rate_limit_rpm: 5, spend_period: 'month' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'renamed',
      rate_limit_rpm: 5,
      spend_period: 'month',
      spend_period_used: 7,
    });
    const reset = await patch({ spend_period: 'week' });
    expect(reset.json()).toMatchObject({ spend_period: 'week', spend_period_used: 0 });
    const uncapped = await patch({ spend_limit_flow: null });
    expect(uncapped.json().spend_limit_flow).toBeNull();
    expectError(await patch({ name: '' }), 400, 'invalid_request');
    expectError(await patch({ prefix: 'svc_live_abc' }), 400, 'invalid_request');
  });

  it('a PATCHed rate limit applies to the key at once', async () => {
    const created = await newKey(alice, { name: 'rpm', rate_limit_rpm: 100 });
    const before = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: withKey(created.key),
    });
    expect(before.headers['x-ratelimit-limit']).toBe('100');
    await test.app.inject({
      method: 'PATCH',
      url: `/me/api-keys/${created.id}`,
      headers: { cookie: alice.cookie },
      payload: { rate_limit_rpm: 7 },
    });
    const after = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: withKey(created.key),
    });
    expect(after.headers['x-ratelimit-limit']).toBe('7');
  });

  it('DELETE revokes softly: 204, then the key is 401 and gone from the list', async () => {
    const created = await newKey(alice, { name: 'to revoke' });
    expect(
      (await test.app.inject({ method: 'GET', url: '/me', headers: withKey(created.key) }))
        .statusCode,
    ).toBe(200);
    const revoked = await test.app.inject({
      method: 'DELETE',
      url: `/me/api-keys/${created.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expectError(
      await test.app.inject({ method: 'GET', url: '/me', headers: withKey(created.key) }),
      401,
      'invalid_api_key',
    );
    const list = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: alice.cookie },
    });
    expect(idsOf(list)).not.toContain(created.id);
    const [row] = await test.ctx.sql('select revoked_at from api_keys where id = $1', [created.id]);
    expect(row?.revoked_at).toBeInstanceOf(Date);
    expectError(
      await test.app.inject({
        method: 'DELETE',
        url: `/me/api-keys/${created.id}`,
        headers: { cookie: alice.cookie },
      }),
      404,
      'api_key_not_found',
    );
  });

  it('a revoked key is refused by another API instance too', async () => {
    const second = await test.ctx.newApi();
    await second.ready();
    const created = await newKey(alice, { name: 'two instances' });
    const use = () => second.inject({ method: 'GET', url: '/me', headers: withKey(created.key) });
    expect((await use()).statusCode).toBe(200); // now cached by the second instance
    await test.app.inject({
      method: 'DELETE',
      url: `/me/api-keys/${created.id}`,
      headers: { cookie: alice.cookie },
    });
    const deadline = Date.now() + 5000;
    while ((await use()).statusCode !== 401) {
      if (Date.now() > deadline) throw new Error('revocation did not reach the other instance');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it("every key route with another user's key id is 404 api_key_not_found", async () => {
    const bobs = await newKey(bob, { name: 'private to bob' });
    const routes = [
      { method: 'PATCH' as const, url: `/me/api-keys/${bobs.id}`, payload: { name: 'x' } },
      { method: 'DELETE' as const, url: `/me/api-keys/${bobs.id}` },
      { method: 'POST' as const, url: `/me/api-keys/${bobs.id}/roll`, payload: {} },
      { method: 'GET' as const, url: `/me/api-keys/${bobs.id}/usage` },
      { method: 'GET' as const, url: `/me/api-keys/${bobs.id}/recent` },
    ];
    for (const route of routes) {
      for (const id of [bobs.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
        const response = await test.app.inject({
          ...route,
          url: route.url.replace(bobs.id, id),
          headers: { cookie: alice.cookie },
        });
        expectError(response, 404, 'api_key_not_found');
      }
    }
    // Bob's key is untouched.
    const [row] = await test.ctx.sql(
      'select name, revoked_at, rolled_to_id from api_keys where id = $1',
      [bobs.id],
    );
    expect(row).toEqual({ name: 'private to bob', revoked_at: null, rolled_to_id: null });
  });
});

describe('POST /me/api-keys/:id/roll', () => {
  it('creates a successor with the same settings; the old key works through its grace', async () => {
    const old = await newKey(alice, {
      name: 'rolling',
      rate_limit_rpm: 9,
      spend_limit_flow: '20',
      spend_period: 'day',
    });
    const response = await test.app.inject({
      method: 'POST',
      url: `/me/api-keys/${old.id}/roll`,
      headers: { cookie: alice.cookie },
      payload: { grace_seconds: 4 },
    });
    expect(response.statusCode).toBe(201);
    const rolled = response.json();
    rawKeys.push(rolled.key);
    expect(rolled).toMatchObject({
      name: 'rolling',
      rate_limit_rpm: 9,
      spend_limit_flow: '20',
      spend_period: 'day',
      revoked: false,
      key: expect.stringMatching(KEY_FORMAT),
      rolled_from: { id: old.id, prefix: old.prefix, expires_at: expect.stringMatching(ISO) },
    });
    expect(rolled.id).not.toBe(old.id);
    const graceEnd = Date.parse(rolled.rolled_from.expires_at);

    const me = (key: string) =>
      test.app.inject({ method: 'GET', url: '/me', headers: withKey(key) });
    expect((await me(rolled.key)).statusCode).toBe(200);
    expect((await me(old.key)).statusCode).toBe(200); // grace honoured
    const list = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: alice.cookie },
    });
    const listed = itemsOf(list).find((item) => item.id === old.id);
    expect(listed).toMatchObject({ revoked: false, expires_at: rolled.rolled_from.expires_at });

    // Rolling a key already rolled is refused: roll its successor instead.
    const again = await test.app.inject({
      method: 'POST',
      url: `/me/api-keys/${old.id}/roll`,
      headers: { cookie: alice.cookie },
      payload: {},
    });
    expectError(again, 409, 'api_key_rolled');

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, graceEnd - Date.now()) + 50));
    expectError(await me(old.key), 401, 'invalid_api_key'); // grace expired
    expect((await me(rolled.key)).statusCode).toBe(200);
  });

  it('defaults to a 24 h grace, takes no body, and bounds grace_seconds to 7 days', async () => {
    const old = await newKey(alice, { name: 'default grace' });
    const before = Date.now();
    const response = await test.app.inject({
      method: 'POST',
      url: `/me/api-keys/${old.id}/roll`,
      headers: { cookie: alice.cookie },
    });
    const after = Date.now();
    expect(response.statusCode).toBe(201);
    rawKeys.push(response.json().key);
    // Rolled at some instant of the request, which a loaded machine may stretch.
    const expiresAt = Date.parse(response.json().rolled_from.expires_at);
    expect(expiresAt - before).toBeGreaterThan(86_399_000);
    expect(expiresAt - after).toBeLessThan(86_401_000);

    const other = await newKey(alice, { name: 'long grace' });
    for (const grace_seconds of [604_801, -1, 1.5]) {
      const refused = await test.app.inject({
        method: 'POST',
        url: `/me/api-keys/${other.id}/roll`,
        headers: { cookie: alice.cookie },
        payload: { grace_seconds },
      });
      expectError(refused, 400, 'invalid_request');
      expect(refused.json().error.message).toMatch(/^grace_seconds: /);
    }
  });

  it('a zero grace retires the old key at once', async () => {
    const old = await newKey(alice, { name: 'no grace' });
    const rolled = await test.app.inject({
      method: 'POST',
      url: `/me/api-keys/${old.id}/roll`,
      headers: { cookie: alice.cookie },
      payload: { grace_seconds: 0 },
    });
    rawKeys.push(rolled.json().key);
    expectError(
      await test.app.inject({ method: 'GET', url: '/me', headers: withKey(old.key) }),
      401,
      'invalid_api_key',
    );
  });
});

describe('usage', () => {
  /** Records a successful GET as the usage hook would, straight through the batch path. */
  const recordCall = (apiKeyId: string, route: string, createdAt: Date) =>
    test.app.usage.record({
      apiKeyId,
      method: 'GET',
      route,
      status: 200,
      latencyMs: 1,
      flowCost: 0n,
      model: null,
      inputTokens: 0,
      outputTokens: 0,
      createdAt,
    });

  it('records every key request: usage totals, by_model, by_endpoint, recent, last_used_at', async () => {
    const created = await newKey(alice, { name: 'metered' });
    const headers = withKey(created.key);
    for (let i = 0; i < 5; i++) await test.app.inject({ method: 'GET', url: '/me', headers });
    for (let i = 0; i < 3; i++) {
      await test.app.inject({ method: 'POST', url: '/__probe/model', headers, payload: {} });
    }
    await test.app.inject({ method: 'GET', url: '/no/such/route', headers }); // 404 counts as an error
    const badBody = await test.app.inject({
      method: 'POST',
      url: '/me/api-keys',
      headers,
      payload: { name: '' },
    });
    expect(badBody.statusCode).toBe(400);
    // Session requests are not key usage.
    await test.app.inject({ method: 'GET', url: '/me', headers: { cookie: alice.cookie } });

    const usage = await test.app.inject({
      method: 'GET',
      url: `/me/api-keys/${created.id}/usage?since=day`,
      headers: { cookie: alice.cookie },
    });
    expect(usage.statusCode).toBe(200);
    const body = usage.json();
    expect(body).toMatchObject({ since: 'day', requests: 10, errors: 2, flow_spent: 0 });
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(86_400_000);
    expect(body.by_model).toEqual([
      { model: 'llama-3-70b', requests: 3, flow_spent: 0, input_tokens: 360, output_tokens: 90 },
    ]);
    expect(body.by_endpoint).toEqual([
      { method: 'GET', route: '/me', requests: 5 },
      { method: 'POST', route: '/__probe/model', requests: 3 },
      { method: 'GET', route: '(unmatched)', requests: 1 },
      { method: 'POST', route: '/me/api-keys', requests: 1 },
    ]);

    const recent = await test.app.inject({
      method: 'GET',
      url: `/me/api-keys/${created.id}/recent?limit=4`,
      headers: { cookie: alice.cookie },
    });
    const items = itemsOf<{ route: string; created_at: string }>(recent);
    expect(items).toHaveLength(4);
    expect(items[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'POST',
      route: '/me/api-keys',
      status: 400,
      flow_cost: 0,
      model: null,
      latency_ms: expect.any(Number),
      created_at: expect.stringMatching(ISO),
    });
    expect(items.map((item) => item.route)).toEqual([
      '/me/api-keys',
      '(unmatched)',
      '/__probe/model',
      '/__probe/model',
    ]);
    const times = items.map((item) => Date.parse(item.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const list = await test.app.inject({
      method: 'GET',
      url: '/me/api-keys',
      headers: { cookie: alice.cookie },
    });
    const listed = itemsOf(list).find((item) => item.id === created.id);
    expect(Date.parse(listed?.last_used_at ?? '')).toBeGreaterThan(
      Date.parse(listed?.created_at ?? ''),
    );
  });

  it('recent defaults to 50 and clamps at 200; since defaults to month', async () => {
    const created = await newKey(alice, { name: 'busy' });
    // 210 requests, written straight through the recorder's batch path.
    for (let i = 0; i < 210; i++) {
      recordCall(created.id, '/me', new Date(Date.now() - i));
    }
    const recent = (query: string) =>
      test.app.inject({
        method: 'GET',
        url: `/me/api-keys/${created.id}/recent${query}`,
        headers: { cookie: alice.cookie },
      });
    expect((await recent('')).json().items).toHaveLength(50);
    expect((await recent('?limit=1000')).json().items).toHaveLength(200);
    expectError(await recent('?limit=0'), 400, 'invalid_request');
    const usage = await test.app.inject({
      method: 'GET',
      url: `/me/api-keys/${created.id}/usage`,
      headers: { cookie: alice.cookie },
    });
    expect(usage.json()).toMatchObject({ since: 'month', requests: 210 });
    const bad = await test.app.inject({
      method: 'GET',
      url: `/me/api-keys/${created.id}/usage?since=year`,
      headers: { cookie: alice.cookie },
    });
    expectError(bad, 400, 'invalid_request');
  });

  it('recent lists calls answered in the same millisecond in the order they were answered', async () => {
    const created = await newKey(alice, { name: 'same-ms' });
    const at = new Date();
    const routes = Array.from({ length: 12 }, (_, i) => `/call-${i}`);
    for (const route of routes) {
      recordCall(created.id, route, at);
    }
    const recent = await test.app.inject({
      method: 'GET',
      url: `/me/api-keys/${created.id}/recent`,
      headers: { cookie: alice.cookie },
    });
    const items = itemsOf<{ route: string }>(recent);
    expect(items.map((item) => item.route)).toEqual([...routes].reverse());
  });
});

describe('secrecy of raw keys', () => {
  it('no raw key appears in any later response, log line or database column', async () => {
    expect(rawKeys.length).toBeGreaterThan(5);
    // Every read endpoint, with every credential.
    const responses: string[] = [];
    for (const owner of [alice, bob]) {
      const list = await test.app.inject({
        method: 'GET',
        url: '/me/api-keys',
        headers: { cookie: owner.cookie },
      });
      responses.push(list.body);
      for (const item of list.json().items as { id: string }[]) {
        for (const path of ['usage?since=all', 'recent']) {
          const read = await test.app.inject({
            method: 'GET',
            url: `/me/api-keys/${item.id}/${path}`,
            headers: { cookie: owner.cookie },
          });
          responses.push(read.body);
        }
      }
    }
    responses.push((await test.app.inject({ method: 'GET', url: '/openapi.json' })).body);
    await test.app.usage.flush();

    // Every row of every table of the database, as text: what pg_dump --data-only holds,
    // without a pg_dump of the server's version on the machine.
    const tables = await test.ctx.sql<{ name: string }>(
      `select quote_ident(table_name) as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const dumped: string[] = [];
    for (const { name } of tables) {
      const rows = await test.ctx.sql<{ row: string }>(`select t::text as row from ${name} t`);
      dumped.push(`-- ${name}`, ...rows.map((row) => row.row));
    }
    const dump = dumped.join('\n');
    expect(dump).toContain('-- api_keys'); // the dump did include the table
    expect(dump.length).toBeGreaterThan(1000);
    const logs = JSON.stringify(test.ctx.logs);
    expect(logs.length).toBeGreaterThan(1000);
    for (const raw of rawKeys) {
      for (const haystack of [...responses, dump, logs]) {
        expect(haystack.includes(raw)).toBe(false);
        // Not even the secret part without its prefix.
        expect(haystack.includes(raw.slice(9))).toBe(false);
      }
    }
  });
});
