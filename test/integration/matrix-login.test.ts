import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../api/app';
import {
  createKey,
  newAccount,
  postMatrixToken,
  sessionCookieOf,
  signIn,
  signInWithMatrix,
  verifyWallet,
} from '../helpers/auth';
import { waitFor } from '../helpers/build-fixtures';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { openIdToken, registerMatrixUser, type MatrixUser } from '../helpers/matrix';
import { freePort, readTestServices } from '../helpers/services';

/**
 * Matrix login and account linking (docs/decisions.md, "Matrix login and account linking"),
 * against the run's real Synapse; the failure modes of a homeserver against loopback servers
 * this file controls.
 */

const { synapse } = readTestServices();
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const USERINFO = '/_matrix/federation/v1/openid/userinfo';

/** A homeserver stand-in on loopback: records each request, answers what `answer` says. */
const fake = {
  server: undefined as Server | undefined,
  port: 0,
  requests: [] as { method: string; url: string }[],
  answer: { status: 200, body: '{}' },
};
let closedPort = 0;

// Read by useTestApp's beforeAll, which runs after this one: the loopback ports are known then.
const env: Record<string, string> = { ...UNLIMITED_RATES, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
beforeAll(async () => {
  const server = createServer((request, response) => {
    fake.requests.push({ method: request.method ?? '', url: request.url ?? '' });
    response.writeHead(fake.answer.status, { 'content-type': 'application/json' });
    response.end(fake.answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.server = server;
  fake.port = (server.address() as AddressInfo).port;
  closedPort = await freePort();
  env.MATRIX_LOGIN_HOMESERVERS = [
    `localhost=${synapse.url}`,
    `fake.test=http://127.0.0.1:${fake.port}`,
    `closed.test=http://127.0.0.1:${closedPort}`,
  ].join(',');
});
afterAll(async () => {
  await new Promise((resolve) => fake.server?.close(resolve));
});

const test = useTestApp({ env });
let app: App;
let other: App;
beforeAll(async () => {
  app = test.app;
  other = await test.ctx.newApi();
  await other.ready();
});
beforeEach(() => {
  fake.requests = [];
  fake.answer = { status: 200, body: '{}' };
});

function postMatrix(target: App, body: unknown, headers: Record<string, string> = {}) {
  return target.inject({ method: 'POST', url: '/auth/matrix', headers, payload: body as object });
}

async function me(target: App, headers: Record<string, string>) {
  const response = await target.inject({ method: 'GET', url: '/me', headers });
  expect(response.statusCode).toBe(200);
  return response.json<Record<string, unknown>>();
}

/** The user's wallet and Matrix account, as the database has them. */
async function usersRow(id: number) {
  const [row] = await test.ctx.sql<{ address: string | null; matrix_user_id: string | null }>(
    'select address, matrix_user_id from users where id = $1',
    [id],
  );
  return row;
}

/**
 * `GET /me` on the second instance shows `expected` well within the credential cache's 30 s TTL:
 * only the invalidation published after the link can have dropped its cached entry.
 */
async function seenOnOtherInstance(
  headers: Record<string, string>,
  expected: Record<string, unknown>,
) {
  const shows = (value: Record<string, unknown>) =>
    Object.entries(expected).every(([field, wanted]) => value[field] === wanted);
  await waitFor(
    async () => shows(await me(other, headers)),
    2_000,
    'the link seen by the second instance',
  );
  expect(await me(other, headers)).toEqual(expect.objectContaining(expected));
}

describe('Matrix login', () => {
  it('signs a Matrix user in end to end and finds the same user on the next login', async () => {
    const alice = await registerMatrixUser();
    const token = await openIdToken(alice);
    expect(token.matrix_server_name).toBe('localhost');

    const response = await postMatrix(app, {
      openidToken: token.access_token,
      homeserver: token.matrix_server_name,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ user: { id: number } }>();
    expect(body).toEqual({
      user: { id: expect.any(Number), address: null, matrixUserId: alice.userId },
    });
    expect(response.headers['cache-control']).toBe('no-store');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^svc_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/', 'Max-Age=2592000']) {
      expect(setCookie).toContain(attribute);
    }

    const cookie = sessionCookieOf(response.headers['set-cookie']);
    expect(await me(app, { cookie })).toEqual({
      id: body.user.id,
      address: null,
      matrixUserId: alice.userId,
      createdAt: expect.stringMatching(ISO_TIME),
    });

    // Another token of the same account, its server name in another case: the same user.
    const again = await openIdToken(alice);
    const second = await postMatrix(app, {
      openidToken: again.access_token,
      homeserver: 'LocalHost',
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(body);
    expect(
      await test.ctx.sql('select id from users where matrix_user_id = $1', [alice.userId]),
    ).toEqual([{ id: body.user.id }]);
  });

  it('verifies each token with the homeserver: a forged one is 401', async () => {
    const [before] = await test.ctx.sql<{ count: string }>('select count(*) from users');
    const response = await postMatrix(app, {
      openidToken: 'forgedTokenThatSynapseNeverIssued',
      homeserver: 'localhost',
    });
    expectError(response, 401, 'matrix_token_invalid', /^openidToken: /);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await test.ctx.sql('select count(*) from users')).toEqual([before]);
  });

  it('asks no homeserver that is not allow-listed, not even one it could reach', async () => {
    // The same loopback server, by its address: not on the list, so never called.
    for (const homeserver of [`127.0.0.1:${fake.port}`, 'constructor', '__proto__', 'matrix.org']) {
      expectError(
        await postMatrix(app, { openidToken: 'token', homeserver }),
        400,
        'homeserver_not_allowed',
        /^homeserver: /,
      );
    }
    expect(fake.requests).toEqual([]);

    // By the name it is listed under, it is called: the refusal above was the list's doing.
    fake.answer = { status: 401, body: '{"errcode":"M_UNKNOWN_TOKEN","error":"Unknown token"}' };
    expectError(
      await postMatrix(app, { openidToken: 'tok en/&=?', homeserver: 'fake.test' }),
      401,
      'matrix_token_invalid',
    );
    expect(fake.requests).toEqual([
      { method: 'GET', url: `${USERINFO}?access_token=tok%20en%2F%26%3D%3F` },
    ]);
  });

  it('answers 502 when an allow-listed homeserver is unreachable or answers badly', async () => {
    const unreachable = await postMatrix(app, {
      openidToken: 'secret-token-value',
      homeserver: 'closed.test',
    });
    expectError(unreachable, 502, 'matrix_homeserver_failed', /^homeserver: /);
    // Nothing of the cause reaches the caller; the log has it.
    expect(unreachable.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|refused|secret-token-value/);
    expect(test.ctx.logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        homeserver: 'closed.test',
        kind: 'network',
        msg: 'matrix login: homeserver unreachable',
      }),
    );
    expect(JSON.stringify(test.ctx.logs)).not.toContain('secret-token-value');

    for (const answer of [
      { status: 500, body: '{"errcode":"M_UNKNOWN","error":"Internal server error"}' },
      { status: 404, body: '{"errcode":"M_UNRECOGNIZED"}' },
      { status: 200, body: '<html>not json</html>' },
    ]) {
      fake.answer = answer;
      expectError(
        await postMatrix(app, { openidToken: 'token', homeserver: 'fake.test' }),
        502,
        'matrix_homeserver_failed',
      );
    }
    expect(fake.requests).toHaveLength(3);
  });

  it('refuses a userinfo answer that names no user of the asked homeserver', async () => {
    for (const body of [
      { sub: '@mallory:elsewhere' },
      { sub: '@mallory:fake.test.elsewhere' },
      { sub: 'mallory' },
      { sub: '@:fake.test' },
      { sub: 42 },
      {},
    ]) {
      fake.answer = { status: 200, body: JSON.stringify(body) };
      const response = await postMatrix(app, { openidToken: 'token', homeserver: 'fake.test' });
      expectError(response, 401, 'matrix_token_invalid');
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(fake.requests).toHaveLength(6);
    expect(
      await test.ctx.sql("select id from users where matrix_user_id like '%mallory%'"),
    ).toEqual([]);

    // The same answer for a user of that server is a login: the server part made the refusal.
    fake.answer = { status: 200, body: JSON.stringify({ sub: '@mallory:Fake.Test' }) };
    const accepted = await postMatrix(app, { openidToken: 'token', homeserver: 'fake.test' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      user: { id: expect.any(Number), address: null, matrixUserId: '@mallory:Fake.Test' },
    });
  });

  it('validates the body before asking anyone', async () => {
    const cases: [unknown, RegExp][] = [
      [{ openidToken: 't', homeserver: 'localhost', extra: 1 }, /^extra: is not a known field$/],
      [{ openidToken: 't' }, /^homeserver: is required$/],
      [{ homeserver: 'fake.test' }, /^openidToken: is required$/],
      [{ openidToken: '', homeserver: 'fake.test' }, /^openidToken: must not be empty$/],
      [{ openidToken: 5, homeserver: 'fake.test' }, /^openidToken: /],
    ];
    for (const [body, message] of cases) {
      expectError(await postMatrix(app, body), 400, 'invalid_request', message);
    }
    expect(fake.requests).toEqual([]);
  });
});

describe('linking a Matrix account', () => {
  it('links it to a wallet user, at once on every instance, and signs in to that user', async () => {
    const wallet = await signIn(app);
    const key = await createKey(app, wallet);
    const address = wallet.account.address.toLowerCase();
    const credentials: Record<string, string>[] = [
      { cookie: wallet.cookie },
      { 'x-api-key': key.key },
    ];
    // The second instance caches the session and the key, each with the user as it was.
    for (const headers of credentials) {
      expect(await me(other, headers)).toEqual(
        expect.objectContaining({ id: wallet.userId, address, matrixUserId: null }),
      );
    }

    const bob = await registerMatrixUser();
    const linked = await postMatrixToken(app, bob, { cookie: wallet.cookie });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual({
      user: { id: wallet.userId, address, matrixUserId: bob.userId },
    });
    expect(linked.headers['set-cookie']).toBeUndefined();
    expect(await usersRow(wallet.userId)).toEqual({ address, matrix_user_id: bob.userId });

    expect(await me(app, { cookie: wallet.cookie })).toEqual({
      id: wallet.userId,
      address,
      matrixUserId: bob.userId,
      createdAt: expect.stringMatching(ISO_TIME),
    });
    for (const headers of credentials) {
      await seenOnOtherInstance(headers, { id: wallet.userId, address, matrixUserId: bob.userId });
    }

    // Linking it again changes nothing; a Matrix login now reaches the wallet's user.
    const relinked = await postMatrixToken(app, bob, { cookie: wallet.cookie });
    expect(relinked.statusCode).toBe(200);
    expect(relinked.json()).toEqual(linked.json());
    const login = await signInWithMatrix(app, bob);
    expect(login.userId).toBe(wallet.userId);
    expect(await me(app, { cookie: login.cookie })).toEqual(
      expect.objectContaining({ id: wallet.userId, address, matrixUserId: bob.userId }),
    );
  });

  it('links with an API key too', async () => {
    const wallet = await signIn(app);
    const key = await createKey(app, wallet);
    const carol = await registerMatrixUser();
    const linked = await postMatrixToken(app, carol, { 'x-api-key': key.key });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().user).toEqual({
      id: wallet.userId,
      address: wallet.account.address.toLowerCase(),
      matrixUserId: carol.userId,
    });
    expect(linked.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a Matrix account another user has', async () => {
    const dave = await registerMatrixUser();
    const holder = await signInWithMatrix(app, dave);
    const wallet = await signIn(app);
    const response = await postMatrixToken(app, dave, { cookie: wallet.cookie });
    expectError(response, 409, 'matrix_account_linked', /^openidToken: /);
    expect(await usersRow(wallet.userId)).toEqual({
      address: wallet.account.address.toLowerCase(),
      matrix_user_id: null,
    });
    expect(await usersRow(holder.userId)).toEqual({ address: null, matrix_user_id: dave.userId });
  });

  it('replaces the linked Matrix account with a newly proven one', async () => {
    const [erin, frank] = await Promise.all([registerMatrixUser(), registerMatrixUser()]);
    const wallet = await signIn(app);
    expect((await postMatrixToken(app, erin, { cookie: wallet.cookie })).statusCode).toBe(200);
    const replaced = await postMatrixToken(app, frank, { cookie: wallet.cookie });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().user).toEqual(
      expect.objectContaining({ id: wallet.userId, matrixUserId: frank.userId }),
    );
    expect((await usersRow(wallet.userId))?.matrix_user_id).toBe(frank.userId);
    // The account given up is free: its next login is a new user of its own.
    const erinLogin = await signInWithMatrix(app, erin);
    expect(erinLogin.userId).not.toBe(wallet.userId);
    expect(await usersRow(erinLogin.userId)).toEqual({
      address: null,
      matrix_user_id: erin.userId,
    });
  });

  it('lets exactly one of two concurrent links of one Matrix account win', async () => {
    const grace = await registerMatrixUser();
    const [first, second] = await Promise.all([signIn(app), signIn(app)]);
    const [tokenA, tokenB] = await Promise.all([openIdToken(grace), openIdToken(grace)]);
    const responses = await Promise.all([
      postMatrix(
        app,
        { openidToken: tokenA.access_token, homeserver: 'localhost' },
        { cookie: first.cookie },
      ),
      postMatrix(
        other,
        { openidToken: tokenB.access_token, homeserver: 'localhost' },
        { cookie: second.cookie },
      ),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const holders = await test.ctx.sql<{ id: number }>(
      'select id from users where matrix_user_id = $1',
      [grace.userId],
    );
    const winner = responses.findIndex((response) => response.statusCode === 200);
    expect(holders).toEqual([{ id: [first, second][winner]!.userId }]);
  });
});

describe('linking a wallet through SIWE', () => {
  let heidi: MatrixUser;
  beforeAll(async () => {
    heidi = await registerMatrixUser();
  });

  it('links the wallet to a Matrix-only user, at once on every instance', async () => {
    const session = await signInWithMatrix(app, heidi);
    const headers = { cookie: session.cookie };
    expect(await me(other, headers)).toEqual(
      expect.objectContaining({ id: session.userId, address: null }),
    );

    const account = newAccount();
    const address = account.address.toLowerCase();
    const linked = await verifyWallet(app, account, headers);
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual({
      user: { id: session.userId, address, matrixUserId: heidi.userId },
    });
    expect(linked.headers['set-cookie']).toBeUndefined();
    expect(await usersRow(session.userId)).toEqual({ address, matrix_user_id: heidi.userId });
    expect(await me(app, headers)).toEqual({
      id: session.userId,
      address,
      matrixUserId: heidi.userId,
      createdAt: expect.stringMatching(ISO_TIME),
    });
    await seenOnOtherInstance(headers, {
      id: session.userId,
      address,
      matrixUserId: heidi.userId,
    });

    // The wallet now signs in to that same user.
    expect((await signIn(app, account)).userId).toBe(session.userId);
  });

  it('refuses a wallet another user has', async () => {
    const owner = await signIn(app);
    const ivan = await registerMatrixUser();
    const session = await signInWithMatrix(app, ivan);
    const response = await verifyWallet(app, owner.account, { cookie: session.cookie });
    expectError(response, 409, 'wallet_linked', /^message: /);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await usersRow(session.userId)).toEqual({ address: null, matrix_user_id: ivan.userId });
    expect(await usersRow(owner.userId)).toEqual({
      address: owner.account.address.toLowerCase(),
      matrix_user_id: null,
    });
  });

  it('signs in as the wallet’s user when the session’s user already has a wallet', async () => {
    const current = await signIn(app);
    const account = newAccount();
    const response = await verifyWallet(app, account, { cookie: current.cookie });
    expect(response.statusCode).toBe(200);
    const { user } = response.json<{ user: { id: number } }>();
    expect(user).toEqual({
      id: expect.any(Number),
      address: account.address.toLowerCase(),
      matrixUserId: null,
    });
    expect(user.id).not.toBe(current.userId);
    const cookie = sessionCookieOf(response.headers['set-cookie']);
    expect((await me(app, { cookie })).id).toBe(user.id);
    expect((await usersRow(current.userId))?.address).toBe(current.account.address.toLowerCase());
  });
});
