import { createKey, signIn, signInWithoutWallet, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * `POST /dev/faucet` (api/routes/dev/routes.ts): test FLOW for the signed-in caller, through
 * the ledger, idempotent per Idempotency-Key; absent when NODE_ENV=production. And `GET /`.
 */

const MICRO = 1_000_000n;
let user: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
beforeAll(async () => {
  user = await signIn(test.app);
});

async function balanceOf(userId: number): Promise<bigint> {
  const [row] = await test.ctx.sql<{ balance: string }>(
    'select balance from flow_accounts where user_id = $1',
    [userId],
  );
  return BigInt(row?.balance ?? 0);
}

function faucet(headers: Record<string, string>, payload?: unknown) {
  return test.app.inject({
    method: 'POST',
    url: '/dev/faucet',
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

describe('POST /dev/faucet (development and test)', () => {
  it('credits exactly the amount asked, as a grant in the ledger', async () => {
    const before = await balanceOf(user.userId);
    const response = await faucet({ cookie: user.cookie }, { amountFlow: 250.5 });
    expect(response.statusCode).toBe(201);
    const body = response.json<{
      balance: number;
      entry: { delta: number; reason: string; refType: string; balanceAfter: number };
    }>();
    expect(body.entry).toMatchObject({ delta: 250.5, reason: 'grant', refType: 'dev_faucet' });
    const after = await balanceOf(user.userId);
    expect(after - before).toBe(250n * MICRO + MICRO / 2n);
    expect(body.balance).toBe(Number(after) / 1e6);
    expect(body.entry.balanceAfter).toBe(Number(after) / 1e6);

    const ledger = await test.app.inject({
      method: 'GET',
      url: '/ledger?reason=grant',
      headers: { cookie: user.cookie },
    });
    expect(ledger.json<{ items: { delta: number }[] }>().items[0]?.delta).toBe(250.5);
  });

  it('credits 1000 FLOW without a body, or with an empty one', async () => {
    for (const payload of [undefined, {}]) {
      const before = await balanceOf(user.userId);
      const response = await faucet({ authorization: `Bearer ${user.token}` }, payload);
      expect(response.statusCode).toBe(201);
      expect((await balanceOf(user.userId)) - before).toBe(1000n * MICRO);
    }
  });

  it('works with an API key, for the key’s owner', async () => {
    const key = await createKey(test.app, user);
    const before = await balanceOf(user.userId);
    const response = await faucet({ 'x-api-key': key.key }, { amountFlow: 7 });
    expect(response.statusCode).toBe(201);
    expect((await balanceOf(user.userId)) - before).toBe(7n * MICRO);
  });

  it('credits once per Idempotency-Key', async () => {
    const other = await signInWithoutWallet(test.app, test.ctx);
    const headers = { cookie: other.cookie, 'idempotency-key': 'faucet-once' };
    const first = await faucet(headers, { amountFlow: 42 });
    const again = await faucet(headers, { amountFlow: 42 });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(other.userId)).toBe(42n * MICRO);
    const different = await faucet(headers, { amountFlow: 43 });
    expect(different.statusCode).toBe(422);
    expect(await balanceOf(other.userId)).toBe(42n * MICRO);
  });

  it('needs a signed-in caller, and an amount within (0, 100000]', async () => {
    expect((await faucet({}, { amountFlow: 1 })).statusCode).toBe(401);
    for (const amountFlow of [0, -1, 100_000.5, 'lots']) {
      const response = await faucet({ cookie: user.cookie }, { amountFlow });
      expect({ amountFlow, status: response.statusCode }).toEqual({ amountFlow, status: 400 });
      expect(response.json().error.code).toBe('invalid_request');
    }
    expect((await faucet({ cookie: user.cookie }, { amountFlow: 100_000 })).statusCode).toBe(201);
    expect((await faucet({ cookie: user.cookie }, { amountFlow: 1, extra: 1 })).statusCode).toBe(
      400,
    );
  });

  it('is in the OpenAPI document outside production', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).toContain('/dev/faucet');
  });
});

describe('GET /', () => {
  it('answers JSON pointing to the docs, the OpenAPI document and the guides', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    const body = response.json<{ guides: { path: string }[] }>();
    expect(body).toMatchObject({
      docs: 'http://localhost:3000/docs',
      openapi: 'http://localhost:3000/openapi.json',
      faucet: expect.stringContaining('/dev/faucet'),
    });
    expect(body.guides.map((guide) => guide.path)).toContain('README.md');
  });

  it('answers a small HTML page to a browser', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<a href="http://localhost:3000/docs">');
    expect(response.body).toContain('docs/payments.md');
  });
});

describe('in production', () => {
  const production = useTestApp({
    env: {
      ...UNLIMITED_RATES,
      NODE_ENV: 'production',
      JWT_SECRET: 'production-jwt-secret-for-the-faucet-test-0123',
      API_KEY_PEPPER: 'production-pepper-for-the-faucet-test-456789',
    },
  });

  it('has no faucet: 404, nothing credited, not in the OpenAPI document', async () => {
    const signedIn = await signInWithoutWallet(production.app, production.ctx);
    const response = await production.app.inject({
      method: 'POST',
      url: '/dev/faucet',
      headers: { cookie: signedIn.cookie },
      payload: { amountFlow: 10 },
    });
    expect(response.statusCode).toBe(404);
    const [row] = await production.ctx.sql('select count(*)::int as n from ledger_entries');
    expect(row).toEqual({ n: 0 });
    const document = (await production.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).not.toContain('/dev/faucet');
    const home = (await production.app.inject({ method: 'GET', url: '/' })).json();

    expect(home.faucet).toBeUndefined();
  });
});
