import type { Hex } from 'viem';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import type { ApiKeyStore } from '../../access/api-key-store';
import type { SessionStore } from '../../access/session-store';
import { SESSION_LIFETIME_SECONDS, type SessionTokens } from '../../access/session-tokens';
import { linkMatrixAccount, linkWallet, matrixUser, verifyOpenIdToken } from './matrix';
import type { MatrixLoginContext } from './matrix';
import type { MatrixLoginInput, VerifyInput } from './schemas';
import { issueNonce, verifySiwe, type SiweContext } from './siwe';

/**
 * Sign-in (SIWE and Matrix), account linking, logout and the current user (docs/spec/contract.md
 * §3 and docs/decisions.md "Matrix login and account linking"). A login answers the session
 * token beside the response body; the route puts it in the svc_session cookie.
 */

export interface AuthDeps {
  em: EntityManager;
  siwe: SiweContext;
  matrix: MatrixLoginContext;
  sessions: SessionStore;
  tokens: SessionTokens;
  apiKeys: ApiKeyStore;
}

/** A response body, and the token of the session it started (null: no new session). */
export interface SignedIn<Body> {
  body: Body;
  sessionToken: string | null;
}

/** A new session for `userId`; its token goes in the svc_session cookie. */
async function startSession(deps: AuthDeps, userId: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = new Date((now + SESSION_LIFETIME_SECONDS) * 1000);
  const sessionId = await deps.sessions.create(userId, expiresAt);
  return deps.tokens.sign(userId, sessionId, now).token;
}

/** After a link committed: every instance reads the user's sessions and keys again. */
async function invalidateUser(deps: AuthDeps, userId: number): Promise<void> {
  await Promise.all([deps.sessions.invalidateUser(userId), deps.apiKeys.invalidateUser(userId)]);
}

/**
 * The user who signs in with this wallet: its first login creates it; the no-op update makes
 * RETURNING answer both ways.
 */
const upsertWalletUser = statement<
  { id: number; address: string; matrixUserId: string | null },
  [address: string]
>(
  'auth.wallet_user',
  `insert into users (address) values ($1)
   on conflict (address) do update set address = excluded.address
   returning id, address, matrix_user_id as "matrixUserId"`,
);

/** Step 1 of SIWE: a single-use nonce. Anyone may ask (the actor changes nothing). */
export async function nonce(deps: Pick<AuthDeps, 'siwe'>, _actor: Actor | null) {
  const { nonce: value, expiresAt } = await issueNonce(deps.siwe);
  return { nonce: value, expiresAt: expiresAt.toISOString() };
}

/**
 * Logs in with a signed SIWE message, or links its wallet to the caller when the caller's
 * user has none yet (then no new session).
 */
export async function verifyWallet(
  deps: AuthDeps,
  actor: Actor | null,
  input: VerifyInput,
): Promise<SignedIn<{ user: { id: number; address: string; matrixUserId: string | null } }>> {
  const address = await verifySiwe(deps.siwe, {
    message: input.message,
    signature: input.signature as Hex,
  });
  // A signed-in user without a wallet links this one. The cached profile can only be
  // behind by a wallet linked meanwhile: the conditional update sees it and answers null.
  if (actor && actor.user.address === null) {
    const linked = await linkWallet(deps.em, actor.userId, address);
    if (linked) {
      await invalidateUser(deps, linked.id);
      return { body: { user: { ...linked, address } }, sessionToken: null };
    }
  }
  const user = await sqlOf(deps.em).row(upsertWalletUser, [address]);
  if (!user) throw new Error('user upsert returned nothing');
  return {
    body: { user },
    sessionToken: await startSession(deps, user.id),
  };
}

/**
 * Logs in with a Matrix OpenID token, or (with a caller) links its Matrix account to the
 * caller's user, with no new session.
 */
export async function matrixLogin(
  deps: AuthDeps,
  actor: Actor | null,
  input: MatrixLoginInput,
): Promise<SignedIn<{ user: { id: number; address: string | null; matrixUserId: string } }>> {
  const matrixUserId = await verifyOpenIdToken(deps.matrix, input);
  if (actor) {
    const { user, changed } = await linkMatrixAccount(deps.em, actor.userId, matrixUserId);
    if (changed) await invalidateUser(deps, user.id);
    return { body: { user: { ...user, matrixUserId } }, sessionToken: null };
  }
  const user = await matrixUser(deps.em, matrixUserId);
  return {
    body: { user: { ...user, matrixUserId } },
    sessionToken: await startSession(deps, user.id),
  };
}

/** Revokes the caller's session, if they used one; API keys are not affected. */
export async function logout(deps: Pick<AuthDeps, 'sessions'>, actor: Actor | null) {
  const sessionId = actor?.sessionId;
  if (sessionId) await deps.sessions.revoke(sessionId);
}

/** From the credential cache: authentication read the user with the key or session. */
export function currentUser(_deps: AuthDeps, actor: Actor) {
  const { userId, user } = actor;
  return {
    id: userId,
    address: user.address,
    matrixUserId: user.matrixUserId,
    createdAt: user.createdAt.toISOString(),
  };
}
