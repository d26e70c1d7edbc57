import type { App } from '../../api/app';
import { buildApp } from '../../api/app';
import { closeApiDeps, connectApiDeps } from '../../api/deps';
import { SCRUB_PLAINTEXT_SECRET_RESPONSES } from '../../shared/db/migrations/Migration20261127000000_idempotency_scrub_secrets';
import { getNonce, newAccount, signIn, siweMessage, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * Idempotent replay of responses that show a secret once (decisions, "Idempotency"): the
 * stored body is sealed, never plaintext; the replay gives the client the same secret; a sealed
 * body that does not open for its record is refused, never sent; every response of those
 * routes is `Cache-Control: no-store`.
 */

type Reply = Awaited<ReturnType<App['inject']>>;
type Headers = Record<string, string>;

const ENDPOINT = 'http://127.0.0.1:9/agent';
const HOOK_URL = 'http://127.0.0.1:9/hooks';
const SEALED = /^v1\.[A-Za-z0-9_-]+$/;

let alice: SignedIn;
let bob: SignedIn;
/** Every secret this file was shown, with the part after its prefix. */
const secrets: string[] = [];

const test = useTestApp({ env: UNLIMITED_RATES });
beforeAll(async () => {
  alice = await signIn(test.app);
  bob = await signIn(test.app);
});

const as = (session: SignedIn): Headers => ({ cookie: session.cookie });

function post(url: string, headers: Headers, payload: object, key?: string) {
  return test.app.inject({
    method: 'POST',
    url,
    headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
    payload,
  });
}

function remember(secret: string, prefix: string): string {
  expect(secret.startsWith(prefix)).toBe(true);
  secrets.push(secret, secret.slice(prefix.length));
  return secret;
}

async function storedBody(key: string): Promise<string> {
  const rows = await test.ctx.sql<{ response_body: string }>(
    'select response_body from idempotency_keys where key = $1',
    [key],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.response_body;
}

async function activeKeys(session: SignedIn): Promise<number> {
  const rows = await test.ctx.sql<{ count: string }>(
    'select count(*) from api_keys where user_id = $1 and revoked_at is null',
    [session.userId],
  );
  return Number(rows[0]!.count);
}

function expectReplayOf(replay: Reply, first: Reply) {
  expect(replay.statusCode).toBe(first.statusCode);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body).toBe(first.body);
  expect(replay.headers['cache-control']).toBe('no-store');
}

function expectUnavailable(response: Reply) {
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status: 409,
    body: {
      error: {
        code: 'idempotency_replay_unavailable',
        message:
          'Idempotency-Key: a request with this key was already processed, but its stored ' +
          'response can no longer be replayed',
      },
    },
  });
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['idempotent-replayed']).toBeUndefined();
}

/** Flips one byte inside the sealed bytes (not a base64 padding bit, which may not count). */
function flipByte(sealed: string): string {
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  bytes[20] = bytes[20]! ^ 0x01;
  return `v1.${bytes.toString('base64url')}`;
}

describe('secret-bearing responses with an Idempotency-Key', () => {
  it('POST /me/api-keys stores the answer sealed and replays the same raw key', async () => {
    const before = await activeKeys(alice);
    const first = await post('/me/api-keys', as(alice), { name: 'sealed' }, 'create-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const raw = remember(first.json<{ key: string }>().key, 'svc_live_');

    const stored = await storedBody('create-1');
    expect(stored).toMatch(SEALED);
    expect(stored).not.toContain(raw);
    expect(stored).not.toContain(raw.slice(9));

    expectReplayOf(await post('/me/api-keys', as(alice), { name: 'sealed' }, 'create-1'), first);
    expect(await activeKeys(alice)).toBe(before + 1);
  });

  it('POST /me/api-keys/:id/roll stores the successor sealed and replays it', async () => {
    const created = await post('/me/api-keys', as(alice), { name: 'to roll' });
    remember(created.json<{ key: string }>().key, 'svc_live_');
    const url = `/me/api-keys/${created.json<{ id: string }>().id}/roll`;

    const first = await post(url, as(alice), { grace_seconds: 60 }, 'roll-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const raw = remember(first.json<{ key: string }>().key, 'svc_live_');
    const stored = await storedBody('roll-1');
    expect(stored).toMatch(SEALED);
    expect(stored).not.toContain(raw.slice(9));

    // Without the replay, a second roll of the same key would be 409 api_key_rolled.
    expectReplayOf(await post(url, as(alice), { grace_seconds: 60 }, 'roll-1'), first);
  });

  it("POST /agents stores the answer sealed and replays the agent's endpointSecret", async () => {
    const body = { name: 'Sealed agent', endpointUrl: ENDPOINT };
    const first = await post('/agents', as(alice), body, 'agent-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const secret = remember(first.json<{ endpointSecret: string }>().endpointSecret, 'whsec_');
    const stored = await storedBody('agent-1');
    expect(stored).toMatch(SEALED);
    expect(stored).not.toContain(secret.slice(6));

    expectReplayOf(await post('/agents', as(alice), body, 'agent-1'), first);
    const agents = await test.ctx.sql('select 1 from agents where name = $1', [body.name]);
    expect(agents).toHaveLength(1);
  });

  it("POST /me/webhooks stores the answer sealed and replays the webhook's secret", async () => {
    const first = await post('/me/webhooks', as(alice), { url: HOOK_URL }, 'hook-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const webhook = first.json<{ webhook: { secret: string } }>().webhook;
    const secret = remember(webhook.secret, 'whsec_');
    const stored = await storedBody('hook-1');
    expect(stored).toMatch(SEALED);
    expect(stored).not.toContain(secret.slice(6));

    expectReplayOf(await post('/me/webhooks', as(alice), { url: HOOK_URL }, 'hook-1'), first);
  });

  it('an error answer of a secret route is sealed too and replays as it was', async () => {
    const url = '/me/api-keys/00000000-0000-4000-8000-000000000000/roll';
    const first = await post(url, as(alice), {}, 'roll-404');
    expect(first.statusCode).toBe(404);
    expect(await storedBody('roll-404')).toMatch(SEALED);
    expectReplayOf(await post(url, as(alice), {}, 'roll-404'), first);
  });
});

describe('a stored secret response that does not open is refused, never sent', () => {
  async function sealedCreate(session: SignedIn, key: string, name = key) {
    const first = await post('/me/api-keys', as(session), { name }, key);
    expect(first.statusCode).toBe(201);
    return remember(first.json<{ key: string }>().key, 'svc_live_');
  }

  it('an edited byte: 409 idempotency_replay_unavailable, the handler does not run', async () => {
    const raw = await sealedCreate(alice, 'tamper-1');
    const stored = await storedBody('tamper-1');
    await test.ctx.sql('update idempotency_keys set response_body = $1 where key = $2', [
      flipByte(stored),
      'tamper-1',
    ]);
    const before = await activeKeys(alice);
    const replay = await post('/me/api-keys', as(alice), { name: 'tamper-1' }, 'tamper-1');
    expectUnavailable(replay);
    expect(replay.body).not.toContain(raw.slice(9));
    expect(await activeKeys(alice)).toBe(before);
    // The record stays: a retry is refused again rather than creating a second key.
    expectUnavailable(await post('/me/api-keys', as(alice), { name: 'tamper-1' }, 'tamper-1'));
    expect(await activeKeys(alice)).toBe(before);
  });

  it('a plaintext body in a secret record is not replayed', async () => {
    await sealedCreate(alice, 'plain-1');
    const forged = JSON.stringify({ key: 'svc_live_' + 'f'.repeat(64) });
    await test.ctx.sql('update idempotency_keys set response_body = $1 where key = $2', [
      forged,
      'plain-1',
    ]);
    const replay = await post('/me/api-keys', as(alice), { name: 'plain-1' }, 'plain-1');
    expectUnavailable(replay);
    expect(replay.body).not.toContain('f'.repeat(64));
  });

  it("a record moved to another principal does not give away the first owner's key", async () => {
    const raw = await sealedCreate(alice, 'move-1');
    await test.ctx.sql('update idempotency_keys set principal = $1 where key = $2', [
      `user:${bob.userId}`,
      'move-1',
    ]);
    const before = await activeKeys(bob);
    const replay = await post('/me/api-keys', as(bob), { name: 'move-1' }, 'move-1');
    expectUnavailable(replay);
    expect(replay.body).not.toContain(raw.slice(9));
    expect(await activeKeys(bob)).toBe(before);
  });

  it('a body copied into another record of the same owner does not open there', async () => {
    const rawA = await sealedCreate(alice, 'copy-a', 'copied');
    await sealedCreate(alice, 'copy-b', 'copied');
    await test.ctx.sql(
      `update idempotency_keys set response_body =
         (select response_body from idempotency_keys where key = 'copy-a')
       where key = 'copy-b'`,
    );
    const replay = await post('/me/api-keys', as(alice), { name: 'copied' }, 'copy-b');
    expectUnavailable(replay);
    expect(replay.body).not.toContain(rawA.slice(9));
  });

  it('after JWT_SECRET changes, a record sealed before is refused, not run again', async () => {
    // An API key authenticates on both instances (sessions are signed with JWT_SECRET).
    const created = await post('/me/api-keys', as(alice), { name: 'for rotation' });
    const apiKey = remember(created.json<{ key: string }>().key, 'svc_live_');
    const first = await post('/me/api-keys', { 'x-api-key': apiKey }, { name: 'r' }, 'rotate-1');
    expect(first.statusCode).toBe(201);
    remember(first.json<{ key: string }>().key, 'svc_live_');

    const rotatedDeps = await connectApiDeps(
      { ...test.ctx.config, jwtSecret: 'a-rotated-server-secret-of-at-least-32-chars' },
      test.ctx.logger,
    );
    const rotated = buildApp(rotatedDeps);
    try {
      await rotated.ready();
      const before = await activeKeys(alice);
      const replay = await rotated.inject({
        method: 'POST',
        url: '/me/api-keys',
        headers: { 'x-api-key': apiKey, 'idempotency-key': 'rotate-1' },
        payload: { name: 'r' },
      });
      expectUnavailable(replay);
      expect(await activeKeys(alice)).toBe(before);
    } finally {
      await rotated.close();
      await closeApiDeps(rotatedDeps);
    }
  });
});

describe('records stored in plaintext before responses were sealed', () => {
  it('lose their body to the migration and are refused; other records stay', async () => {
    const sealed = await storedBody('create-1');
    const legacy = await post('/me/api-keys', as(alice), { name: 'legacy' }, 'legacy-1');
    remember(legacy.json<{ key: string }>().key, 'svc_live_');
    // What the plugin stored before this change.
    await test.ctx.sql('update idempotency_keys set response_body = $1 where key = $2', [
      legacy.body,
      'legacy-1',
    ]);
    const id = legacy.json<{ id: string }>().id;
    const ordinary = await test.app.inject({
      method: 'PATCH',
      url: `/me/api-keys/${id}`,
      headers: { ...as(alice), 'idempotency-key': 'legacy-patch' },
      payload: { name: 'still plain' },
    });
    expect(ordinary.statusCode).toBe(200);

    await test.ctx.sql(SCRUB_PLAINTEXT_SECRET_RESPONSES);
    expect(await storedBody('legacy-1')).toBe('');
    expect(await storedBody('create-1')).toBe(sealed);
    expect(await storedBody('legacy-patch')).toBe(ordinary.body);
    expectUnavailable(await post('/me/api-keys', as(alice), { name: 'legacy' }, 'legacy-1'));
  });
});

describe('Cache-Control: no-store', () => {
  it('is on every answer of a secret route, errors included', async () => {
    const anonymous = await post('/me/api-keys', {}, { name: 'x' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const invalid = await post('/agents', as(alice), { name: 42 });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers['cache-control']).toBe('no-store');
  });

  it('is on the login answer, whose Set-Cookie carries the session token', async () => {
    const account = newAccount();
    const message = siweMessage(account, await getNonce(test.app));
    const signature = await account.signMessage({ message });
    const response = await post('/auth/verify', {}, { message, signature });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeDefined();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is absent from ordinary routes, reads and writes', async () => {
    const created = await post('/me/api-keys', as(alice), { name: 'ordinary' });
    remember(created.json<{ key: string }>().key, 'svc_live_');
    const id = created.json<{ id: string }>().id;
    const responses = [
      await test.app.inject({ method: 'GET', url: '/me/api-keys', headers: as(alice) }),
      await test.app.inject({
        method: 'PATCH',
        url: `/me/api-keys/${id}`,
        headers: { ...as(alice), 'idempotency-key': 'patch-1' },
        payload: { name: 'renamed' },
      }),
      await post('/auth/nonce', {}, {}),
      await test.app.inject({ method: 'GET', url: '/me/webhooks', headers: as(alice) }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBeUndefined();
    }
  });

  it('is documented on the responses of secret routes in the OpenAPI document', async () => {
    type Operation = { responses: Record<string, { headers?: unknown }> };
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const headersOf = (path: string, method: string, status: string) =>
      document.paths[path]![method]!.responses[status]!.headers;
    const noStore = { 'Cache-Control': expect.objectContaining({ schema: expect.anything() }) };
    expect(headersOf('/me/api-keys', 'post', '201')).toEqual(noStore);
    expect(headersOf('/me/api-keys/{id}/roll', 'post', '201')).toEqual(noStore);
    expect(headersOf('/agents', 'post', '201')).toEqual(noStore);
    expect(headersOf('/me/webhooks', 'post', '201')).toEqual(noStore);
    expect(headersOf('/me/api-keys', 'get', '200')).toBeUndefined();
    expect(headersOf('/me/api-keys/{id}', 'patch', '200')).toBeUndefined();
  });
});

describe('at rest', () => {
  it('no secret shown by this file is anywhere in idempotency_keys', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(20);
    const rows = await test.ctx.sql('select * from idempotency_keys');
    expect(rows.length).toBeGreaterThanOrEqual(10);
    const table = JSON.stringify(rows);
    for (const secret of secrets) expect(table.includes(secret)).toBe(false);
  });
});
