import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { App } from '../../api/app';
import { createSessionTokens } from '../../api/access/session-tokens';
import {
  createKey,
  getNonce,
  newAccount,
  sessionCookieOf,
  signIn,
  siweMessage,
} from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { readTestServices } from '../helpers/services';
import { compileFixture } from '../helpers/solidity';

/** SIWE login, sessions, credential precedence and internal tokens (docs/spec/contract.md §3). */

const INTERNAL_TOKEN = 'internal-token-for-tests-0123456789abcdef';

const internalProbe: FastifyPluginAsyncZod = async (app) => {
  app.get('/__probe/internal', { config: { auth: 'internal' } }, async (request) => ({
    caller: request.internalCaller,
  }));
};

const test = useTestApp({
  plugins: [internalProbe],
  env: { ...UNLIMITED_RATES, INTERNAL_TOKENS: INTERNAL_TOKEN },
  apis: 2,
});

async function verify(target: App, message: string, signature: Hex) {
  return target.inject({ method: 'POST', url: '/auth/verify', payload: { message, signature } });
}

/** Flips one hex digit inside the signature's `s` value. */
function tamper(signature: Hex): Hex {
  const index = 80;
  const flipped = signature[index] === '0' ? '1' : '0';
  return `${signature.slice(0, index)}${flipped}${signature.slice(index + 1)}` as Hex;
}

describe('SIWE login', () => {
  it('logs in with a message signed by a wallet and sets the session cookie', async () => {
    const account = newAccount();
    const message = siweMessage(account, await getNonce(test.app));
    const response = await verify(test.app, message, await account.signMessage({ message }));

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      user: { id: expect.any(Number), address: account.address.toLowerCase(), matrixUserId: null },
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^svc_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/', 'Max-Age=2592000']) {
      expect(setCookie).toContain(attribute);
    }

    const me = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { cookie: sessionCookieOf(response.headers['set-cookie']) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: body.user.id,
      address: account.address.toLowerCase(),
      matrixUserId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    // A second login of the same wallet is the same user.
    const again = await signIn(test.app, account);
    expect(again.userId).toBe(body.user.id);
    const users = await test.ctx.sql<{ id: number }>('select id from users where address = $1', [
      account.address.toLowerCase(),
    ]);
    expect(users).toEqual([{ id: body.user.id }]);
  });

  it('issues nonces that live 10 minutes', async () => {
    const before = Date.now();
    const response = await test.app.inject({ method: 'POST', url: '/auth/nonce' });
    const after = Date.now();
    expect(response.statusCode).toBe(200);
    const { nonce, expiresAt } = response.json();
    expect(nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
    // Issued at some instant of the request, which a loaded machine may stretch.
    expect(Date.parse(expiresAt) - before).toBeGreaterThan(599_000);
    expect(Date.parse(expiresAt) - after).toBeLessThan(601_000);
  });

  it('refuses a replayed nonce, on this instance or another', async () => {
    const account = newAccount();
    const message = siweMessage(account, await getNonce(test.app));
    const signature = await account.signMessage({ message });
    expect((await verify(test.app, message, signature)).statusCode).toBe(200);
    expectError(await verify(test.app, message, signature), 401, 'nonce_invalid');
    expectError(await verify(test.other, message, signature), 401, 'nonce_invalid');
  });

  it('refuses a nonce it never issued', async () => {
    const account = newAccount();
    const message = siweMessage(account, 'neverissued12345');
    expectError(
      await verify(test.app, message, await account.signMessage({ message })),
      401,
      'nonce_invalid',
    );
  });

  it('logs in exactly once when two instances verify one nonce concurrently', async () => {
    const account = newAccount();
    const message = siweMessage(account, await getNonce(test.app));
    const signature = await account.signMessage({ message });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        verify(i % 2 ? test.other : test.app, message, signature),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectError(response, 401, 'nonce_invalid');
    }
  });

  const now = () => new Date();
  const refusals: [string, (nonce: string) => Parameters<typeof siweMessage>[2]][] = [
    ['a wrong domain', () => ({ domain: 'evil.example' })],
    ['a URI on another host', () => ({ uri: 'https://evil.example/login' })],
    ['an unconfigured chain', () => ({ chainId: 1 })],
    ['an expired message', () => ({ expirationTime: new Date(now().getTime() - 1000) })],
    ['a message not valid yet', () => ({ notBefore: new Date(now().getTime() + 3_600_000) })],
    ['a message issued in the future', () => ({ issuedAt: new Date(now().getTime() + 3_600_000) })],
    ['a message older than any nonce', () => ({ issuedAt: new Date(now().getTime() - 3_600_000) })],
  ];
  it.each(refusals)('refuses %s with 401 siwe_invalid and keeps the nonce', async (_, change) => {
    const account = newAccount();
    const nonce = await getNonce(test.app);
    const message = siweMessage(account, nonce, change(nonce));
    expectError(
      await verify(test.app, message, await account.signMessage({ message })),
      401,
      'siwe_invalid',
    );
    // A refused attempt does not burn the nonce: the honest message still logs in.
    const honest = siweMessage(account, nonce);
    expect(
      (await verify(test.app, honest, await account.signMessage({ message: honest }))).statusCode,
    ).toBe(200);
  });

  it('refuses a tampered signature and a signature of another message', async () => {
    const account = newAccount();
    const nonce = await getNonce(test.app);
    const message = siweMessage(account, nonce);
    const signature = await account.signMessage({ message });
    expectError(await verify(test.app, message, tamper(signature)), 401, 'siwe_invalid');
    const otherMessage = siweMessage(account, nonce, { statement: 'Something else' });
    expectError(await verify(test.app, otherMessage, signature), 401, 'siwe_invalid');
    // Signed by another wallet than the message names.
    const impostor = newAccount();
    expectError(
      await verify(test.app, message, await impostor.signMessage({ message })),
      401,
      'siwe_invalid',
    );
  });

  it('refuses text that is not a SIWE message, and malformed bodies, without a 500', async () => {
    expectError(await verify(test.app, 'hello', '0x1234'), 401, 'siwe_invalid');
    for (const payload of [{}, { message: 'x' }, { message: 'x', signature: 'nothex' }]) {
      const response = await test.app.inject({ method: 'POST', url: '/auth/verify', payload });
      expectError(response, 400, 'invalid_request');
    }
  });

  it('logs in an EIP-1271 contract wallet through the chain RPC', async () => {
    // Anvil's well-known development account #0 deploys the wallet.
    const deployer = privateKeyToAccount(
      '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    );
    const rpc = http(readTestServices().anvilUrl);
    const wallet = createWalletClient({ account: deployer, chain: foundry, transport: rpc });
    const chain = createPublicClient({ chain: foundry, transport: rpc });
    const owner = newAccount();
    const { abi, bytecode } = compileFixture('OwnedWallet.sol', 'OwnedWallet');
    const hash = await wallet.deployContract({ abi, bytecode, args: [owner.address] });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    const contract = receipt.contractAddress!;

    const message = siweMessage({ address: contract }, await getNonce(test.app));
    const signature = await owner.signMessage({ message });
    const response = await verify(test.app, message, signature);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.address).toBe(contract.toLowerCase());

    // Someone else's signature for the contract's address is refused.
    const stranger = siweMessage({ address: contract }, await getNonce(test.app));
    expectError(
      await verify(test.app, stranger, await newAccount().signMessage({ message: stranger })),
      401,
      'siwe_invalid',
    );
  }, 60_000);
});

describe('sessions', () => {
  it('accept the JWT as a Bearer token too', async () => {
    const session = await signIn(test.app);
    const me = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(session.userId);
  });

  it('logout revokes the session on every instance and clears the cookie', async () => {
    const session = await signIn(test.app);
    // The other instance has the session cached before the logout.
    expect(
      (await test.other.inject({ method: 'GET', url: '/me', headers: { cookie: session.cookie } }))
        .statusCode,
    ).toBe(200);

    const logout = await test.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { cookie: session.cookie },
    });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    expect(String(logout.headers['set-cookie'])).toMatch(
      /^svc_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/,
    );

    await waitFor(async () => {
      const response = await test.other.inject({
        method: 'GET',
        url: '/me',
        headers: { cookie: session.cookie },
      });
      return response.statusCode === 401;
    });
    for (const target of [test.app, test.other]) {
      for (const headers of [
        { cookie: session.cookie },
        { authorization: `Bearer ${session.token}` },
      ]) {
        expectError(
          await target.inject({ method: 'GET', url: '/me', headers }),
          401,
          'unauthenticated',
        );
      }
    }
  });

  it('rotate the cookie of a session older than 24 h, and only then', async () => {
    const session = await signIn(test.app);
    const sessionId = await sessionIdOf(session.userId);
    const tokens = createSessionTokens(test.ctx.config.jwtSecret);
    const nowSeconds = Math.floor(Date.now() / 1000);

    const fresh = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { cookie: session.cookie },
    });
    expect(fresh.headers['set-cookie']).toBeUndefined();
    expect(fresh.headers['cache-control']).toBeUndefined();

    const old = tokens.sign(session.userId, sessionId, nowSeconds - 25 * 3600).token;
    const rotated = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { cookie: `svc_session=${old}` },
    });
    expect(rotated.statusCode).toBe(200);
    const next = sessionCookieOf(rotated.headers['set-cookie']).slice('svc_session='.length);
    expect(next).not.toBe(old);
    expect(tokens.verify(next)).toMatchObject({ userId: session.userId, sessionId });
    expect(tokens.verify(next)!.issuedAt).toBeGreaterThanOrEqual(nowSeconds);
    expect(String(rotated.headers['set-cookie'])).toContain('Max-Age=2592000');
    // A response carrying a session token is never cached.
    expect(rotated.headers['cache-control']).toBe('no-store');
    const [row] = await test.ctx.sql<{ expires_at: Date }>(
      'select expires_at from sessions where id = $1',
      [sessionId],
    );
    expect(row!.expires_at.getTime()).toBeGreaterThanOrEqual((nowSeconds + 30 * 86400) * 1000);
  });

  it('refuse expired, foreign and malformed tokens with 401, never 500', async () => {
    const session = await signIn(test.app);
    const sessionId = await sessionIdOf(session.userId);
    const ours = createSessionTokens(test.ctx.config.jwtSecret);
    const foreign = createSessionTokens('another-secret-that-is-long-enough-0123456789');
    const longAgo = Math.floor(Date.now() / 1000) - 31 * 86400;
    const bad = [
      ours.sign(session.userId, sessionId, longAgo).token, // expired
      foreign.sign(session.userId, sessionId, Math.floor(Date.now() / 1000)).token,
      ours.sign(session.userId + 1000, sessionId, Math.floor(Date.now() / 1000)).token, // wrong user
      'not-a-jwt',
      'a.b.c',
      `${session.token}x`,
      '%%%',
    ];
    for (const token of bad) {
      for (const headers of [
        { cookie: `svc_session=${token}` },
        { authorization: `Bearer ${token}` },
      ]) {
        expectError(
          await test.app.inject({ method: 'GET', url: '/me', headers }),
          401,
          'unauthenticated',
        );
      }
    }
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', `bearer   `]) {
      const response = await test.app.inject({
        method: 'GET',
        url: '/me',
        headers: { authorization },
      });
      expectError(response, 401, 'unauthenticated');
    }
    // Without any credential.
    expectError(await test.app.inject({ method: 'GET', url: '/me' }), 401, 'unauthenticated');
  });

  it('ignore a stale cookie on public routes', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/auth/nonce',
      headers: { cookie: 'svc_session=stale.token.value' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('credential precedence', () => {
  it('an invalid x-api-key is 401 whatever else the request carries', async () => {
    const session = await signIn(test.app);
    const headers = [
      { 'x-api-key': `svc_live_${'0'.repeat(64)}`, cookie: session.cookie },
      { 'x-api-key': 'garbage', authorization: `Bearer ${session.token}` },
      { 'x-api-key': '' },
    ];
    for (const header of headers) {
      expectError(
        await test.app.inject({ method: 'GET', url: '/me', headers: header }),
        401,
        'invalid_api_key',
      );
      // Public routes too: a broken key is never silently ignored.
      expectError(
        await test.app.inject({ method: 'POST', url: '/auth/nonce', headers: header }),
        401,
        'invalid_api_key',
      );
    }
  });

  it('a valid x-api-key decides even beside a malformed Authorization header', async () => {
    const session = await signIn(test.app);
    const { key } = await createKey(test.app, session);
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'garbage']) {
      const response = await test.app.inject({
        method: 'GET',
        url: '/me',
        headers: { 'x-api-key': key, authorization },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ id: number }>().id).toBe(session.userId);
    }
    // Without the key, the same header is refused.
    expectError(
      await test.app.inject({
        method: 'GET',
        url: '/me',
        headers: { authorization: 'Bearer a b' },
      }),
      401,
      'unauthenticated',
    );
  });

  it('a Bearer value starting with svc_live_ is an API key', async () => {
    const session = await signIn(test.app);
    const { key } = await createKey(test.app, session);
    const ok = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().id).toBe(session.userId);
    const wrong = `svc_live_${'f'.repeat(64)}`;
    const refused = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: `Bearer ${wrong}` },
    });
    expectError(refused, 401, 'invalid_api_key');
  });
});

describe('internal tokens', () => {
  it('open /internal routes to configured tokens only', async () => {
    const ok = await test.app.inject({
      method: 'GET',
      url: '/__probe/internal',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().caller).toMatch(/^[0-9a-f]{12}$/);
    expect(ok.body).not.toContain(INTERNAL_TOKEN);

    const session = await signIn(test.app);
    const asUser = await test.app.inject({
      method: 'GET',
      url: '/__probe/internal',
      headers: { cookie: session.cookie },
    });
    expectError(asUser, 403, 'forbidden');
    expectError(
      await test.app.inject({ method: 'GET', url: '/__probe/internal' }),
      401,
      'unauthenticated',
    );
    const wrong = await test.app.inject({
      method: 'GET',
      url: '/__probe/internal',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN.slice(0, -1)}x` },
    });
    expectError(wrong, 401, 'unauthenticated');
    // An internal token is not a user.
    const asInternal = await test.app.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
    });
    expectError(asInternal, 401, 'unauthenticated');
  });
});

async function sessionIdOf(userId: number): Promise<string> {
  const [row] = await test.ctx.sql<{ id: string }>(
    'select id from sessions where user_id = $1 order by created_at desc limit 1',
    [userId],
  );
  if (!row) throw new Error(`user ${userId} has no session`);
  return row.id;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
