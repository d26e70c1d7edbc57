import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import type { App } from '../../api/app';
import type { TestContext } from './context';
import { openIdToken, type MatrixUser } from './matrix';

/** Signing in the way a wallet does: a real SIWE message signed by a viem local account. */

export const SIWE_DOMAIN = 'localhost:3000';

export function newAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export async function getNonce(app: App): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/nonce' });
  if (response.statusCode !== 200) throw new Error(`nonce: ${response.statusCode}`);
  return response.json<{ nonce: string }>().nonce;
}

export function siweMessage(
  account: { address: `0x${string}` },
  nonce: string,
  overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
): string {
  return createSiweMessage({
    domain: SIWE_DOMAIN,
    address: account.address,
    uri: `http://${SIWE_DOMAIN}/login`,
    version: '1',
    chainId: 31337,
    nonce,
    issuedAt: new Date(),
    statement: 'Sign in to the agent platform',
    ...overrides,
  });
}

/** The `svc_session=...` pair from a response's Set-Cookie, ready for a Cookie header. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const pair = all
    .map((line) => line.split(';')[0] ?? '')
    .find((p) => p.startsWith('svc_session='));
  if (!pair) throw new Error('no svc_session cookie set');
  return pair;
}

export interface SignedIn {
  account: PrivateKeyAccount;
  userId: number;
  cookie: string;
  /** The session JWT, for `Authorization: Bearer`. */
  token: string;
}

export async function signIn(app: App, account = newAccount()): Promise<SignedIn> {
  const message = siweMessage(account, await getNonce(app));
  const signature = await account.signMessage({ message });
  const response = await app.inject({
    method: 'POST',
    url: '/auth/verify',
    payload: { message, signature },
  });
  if (response.statusCode !== 200)
    throw new Error(`verify: ${response.statusCode} ${response.body}`);
  const cookie = sessionCookieOf(response.headers['set-cookie']);
  return {
    account,
    userId: response.json<{ user: { id: number } }>().user.id,
    cookie,
    token: cookie.slice('svc_session='.length),
  };
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  [field: string]: unknown;
}

export async function createKey(
  app: App,
  session: SignedIn,
  body: Record<string, unknown> = { name: 'test key' },
): Promise<CreatedKey> {
  const response = await app.inject({
    method: 'POST',
    url: '/me/api-keys',
    headers: { cookie: session.cookie },
    payload: body,
  });
  if (response.statusCode !== 201)
    throw new Error(`create key: ${response.statusCode} ${response.body}`);
  return response.json<CreatedKey>();
}

/**
 * A session for an account with no wallet (a messaging-app login has none): its user row is
 * written directly, and the session minted the way `/auth/verify` mints one.
 */
export async function signInWithoutWallet(
  app: App,
  ctx: Pick<TestContext, 'sql'>,
): Promise<{ userId: number; cookie: string }> {
  const [user] = await ctx.sql<{ id: number }>(
    'insert into users (address) values (null) returning id',
  );
  const now = Math.floor(Date.now() / 1000);
  const sessionId = await app.access.sessions.create(user!.id, new Date((now + 3600) * 1000));
  const { token } = app.access.tokens.sign(user!.id, sessionId, now);
  return { userId: user!.id, cookie: `svc_session=${token}` };
}

/** `POST /auth/verify` for `account` with a fresh nonce, sent with `headers` (e.g. a session). */
export async function verifyWallet(
  app: App,
  account: PrivateKeyAccount,
  headers: Record<string, string> = {},
) {
  const message = siweMessage(account, await getNonce(app));
  const signature = await account.signMessage({ message });
  return app.inject({
    method: 'POST',
    url: '/auth/verify',
    headers,
    payload: { message, signature },
  });
}

/**
 * `POST /auth/matrix` with a fresh OpenID token of `user` from the run's Synapse, sent with
 * `headers` (none: a login; a session or key: a link).
 */
export async function postMatrixToken(
  app: App,
  user: MatrixUser,
  headers: Record<string, string> = {},
) {
  const token = await openIdToken(user);
  return app.inject({
    method: 'POST',
    url: '/auth/matrix',
    headers,
    payload: { openidToken: token.access_token, homeserver: token.matrix_server_name },
  });
}

/** Signs a Matrix account in (`POST /auth/matrix` without a session). */
export async function signInWithMatrix(
  app: App,
  user: MatrixUser,
): Promise<{ userId: number; cookie: string }> {
  const response = await postMatrixToken(app, user);
  if (response.statusCode !== 200)
    throw new Error(`matrix login: ${response.statusCode} ${response.body}`);
  return {
    userId: response.json<{ user: { id: number } }>().user.id,
    cookie: sessionCookieOf(response.headers['set-cookie']),
  };
}
