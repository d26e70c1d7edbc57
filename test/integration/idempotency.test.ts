import type { App } from '../../api/app';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { probeRoutes } from '../helpers/probe-routes';

// Two API instances with their own pools and connections, like two processes.
const test = useTestApp({ plugins: [probeRoutes], env: UNLIMITED_RATES, apis: 2 });
let n = 0;

const address = () => `0x${(++n).toString(16).padStart(40, 'a')}`;

async function countUsers(addr: string): Promise<number> {
  const rows = await test.ctx.sql<{ count: string }>(
    'select count(*) from users where address = $1',
    [addr],
  );
  return Number(rows[0]!.count);
}

function createUser(app: App, key: string | undefined, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/__probe/users',
    headers: key === undefined ? {} : { 'idempotency-key': key },
    payload: body,
  });
}

describe('Idempotency-Key', () => {
  it('replays the stored response without running the handler again', async () => {
    const body = { address: address() };
    const first = await createUser(test.app, 'replay-1', body);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const second = await createUser(test.app, 'replay-1', body);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(await countUsers(body.address)).toBe(1);
    // An ordinary route's answer is stored as sent (only secret routes seal theirs).
    const [stored] = await test.ctx.sql<{ response_body: string }>(
      "select response_body from idempotency_keys where key = 'replay-1'",
    );
    expect(stored!.response_body).toBe(first.body);
    expect(first.headers['cache-control']).toBeUndefined();
    expect(second.headers['cache-control']).toBeUndefined();
  });

  it('replays on another API instance', async () => {
    const body = { address: address() };
    const first = await createUser(test.app, 'cross-1', body);
    const second = await createUser(test.other, 'cross-1', body);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await countUsers(body.address)).toBe(1);
  });

  it('answers 422 when the key is reused with another body, on any instance', async () => {
    const body = { address: address() };
    await createUser(test.app, 'reuse-1', body);
    for (const app of [test.app, test.other]) {
      const other = await createUser(app, 'reuse-1', { address: address() });
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({
        error: {
          code: 'idempotency_key_reused',
          message: 'Idempotency-Key: was already used with a different request body',
        },
      });
    }
    expect(await countUsers(body.address)).toBe(1);
  });

  it('answers 409 while the first request is still running, on any instance', async () => {
    const body = { address: address(), delayMs: 3000 };
    const slow = createUser(test.app, 'inflight-1', body);
    // Wait until the slow request holds its claim, rather than guessing how long that takes.
    for (;;) {
      const rows = await test.ctx.sql(
        `select 1 from idempotency_keys where key = 'inflight-1' and status = 'in_progress'`,
      );
      if (rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const app of [test.app, test.other]) {
      const concurrent = await createUser(app, 'inflight-1', body);
      expect(concurrent.statusCode).toBe(409);
      expect(concurrent.json().error.code).toBe('idempotency_in_progress');
      expect(concurrent.headers['retry-after']).toBe('1');
    }
    expect((await slow).statusCode).toBe(201);
    const after = await createUser(test.other, 'inflight-1', body);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(await countUsers(body.address)).toBe(1);
  });

  it('runs the handler exactly once under a concurrent burst across two instances', async () => {
    const body = { address: address(), delayMs: 200 };
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createUser(i % 2 ? test.app : test.other, 'burst-1', body),
      ),
    );
    const created = burst.filter(
      (response) => response.statusCode === 201 && !response.headers['idempotent-replayed'],
    );
    expect(created).toHaveLength(1);
    for (const response of burst) expect([201, 409]).toContain(response.statusCode);
    expect(await countUsers(body.address)).toBe(1);
  });

  it('does not store 5xx responses, so the client may retry', async () => {
    const send = () =>
      test.app.inject({
        method: 'DELETE',
        url: '/__probe/fail',
        headers: { 'idempotency-key': 'k5' },
      });
    expect((await send()).statusCode).toBe(503);
    const retry = await send();
    expect(retry.statusCode).toBe(503);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await test.ctx.sql("select * from idempotency_keys where key = 'k5'")).toHaveLength(0);
  });

  it('does not claim the key for a request that fails validation', async () => {
    const invalid = await createUser(test.app, 'invalid-1', { address: 42 });
    expect(invalid.statusCode).toBe(400);
    const body = { address: address() };
    const valid = await createUser(test.app, 'invalid-1', body);
    expect(valid.statusCode).toBe(201);
    expect(valid.headers['idempotent-replayed']).toBeUndefined();
  });

  it('scopes keys by method and path', async () => {
    await createUser(test.app, 'scope-1', { address: address() });
    const other = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      headers: { 'idempotency-key': 'scope-1' },
      payload: { name: 'x' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
  });

  it('treats a record past its 24 h retention as absent', async () => {
    const body = { address: address() };
    await createUser(test.app, 'expired-1', body);
    await test.ctx.sql(
      "update idempotency_keys set expires_at = now() - interval '1 second' where key = 'expired-1'",
    );
    const again = await createUser(test.app, 'expired-1', { address: address() });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('takes over a key whose first request died holding it', async () => {
    const body = { address: address() };
    await test.ctx.sql(
      `insert into idempotency_keys (id, principal, method, path, key, fingerprint, status,
         locked_at, created_at, expires_at)
       values (gen_random_uuid(), 'ip:127.0.0.1', 'POST', '/__probe/users', 'orphan-1', 'x',
         'in_progress', now() - interval '10 minutes', now(), now() + interval '1 day')`,
    );
    const response = await createUser(test.app, 'orphan-1', body);
    expect(response.statusCode).toBe(201);
    expect(await countUsers(body.address)).toBe(1);
  });

  it('refuses malformed keys with 400 invalid_request', async () => {
    for (const key of ['', 'x'.repeat(256), 'caf\u00e9']) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/__probe/echo',
        headers: { 'idempotency-key': Buffer.from(key, 'latin1').toString('latin1') },
        payload: { name: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: {
          code: 'invalid_request',
          message: 'Idempotency-Key: must be 1 to 255 printable ASCII characters',
        },
      });
    }
  });

  it('ignores the header on reads and writes without it', async () => {
    const body = { address: address() };
    const noKey = await createUser(test.app, undefined, body);
    expect(noKey.statusCode).toBe(201);
    const read = await test.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'idempotency-key': 'get-1' },
    });
    expect(read.statusCode).toBe(200);
    expect(await test.ctx.sql("select * from idempotency_keys where key = 'get-1'")).toHaveLength(
      0,
    );
  });
});
