import { AppError } from '../../shared/errors';
import type { Actor } from './actor';
import type { ApiKeyStore } from './api-key-store';
import type { Credential } from './credentials';
import type { SessionStore } from './session-store';
import type { SessionClaims, SessionTokens } from './session-tokens';

/** Who is calling: nobody known, a user, an internal service or the bot gateway. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; actor: Actor }
  | { kind: 'internal'; label: string }
  | { kind: 'bot'; label: string };

/** The stores a credential is checked against (only what resolution reads). */
export interface PrincipalStores {
  apiKeys: Pick<ApiKeyStore, 'authenticate'>;
  sessions: Pick<SessionStore, 'findLive'>;
  tokens: Pick<SessionTokens, 'verify'>;
}

/** The session a user principal came with, for cookie rotation (`rotation.ts`). */
export interface ResolvedSession {
  claims: SessionClaims;
  via: 'bearer' | 'cookie';
}

export interface Resolution {
  principal: Principal;
  /** Set when the principal is a user who came with a live session. */
  session: ResolvedSession | null;
}

/**
 * The principal behind a credential (docs/decisions.md, "Identity and access"). An invalid
 * API key or Bearer JWT is refused with 401 whatever the route; a stale cookie makes the
 * caller anonymous, since browsers keep sending old cookies (routes that need a user then
 * say 401).
 */
export async function resolvePrincipal(
  credential: Credential,
  stores: PrincipalStores,
): Promise<Resolution> {
  switch (credential.kind) {
    case 'none':
      return { principal: { kind: 'anonymous' }, session: null };
    case 'internal':
    case 'bot':
      return { principal: { kind: credential.kind, label: credential.label }, session: null };
    case 'api_key': {
      const key = await stores.apiKeys.authenticate(credential.rawKey);
      if (!key) throw new AppError('invalid_api_key', 'API key: is invalid or revoked');
      const actor: Actor = {
        userId: key.userId,
        user: key.user,
        via: 'api_key',
        sessionId: null,
        apiKey: key,
      };
      return { principal: { kind: 'user', actor }, session: null };
    }
    case 'session':
      return resolveSession(credential.token, credential.via, stores);
  }
}

async function resolveSession(
  token: string,
  via: ResolvedSession['via'],
  stores: PrincipalStores,
): Promise<Resolution> {
  const claims = stores.tokens.verify(token);
  const record = claims && (await stores.sessions.findLive(claims.sessionId));
  // A token names its user too: a session id under another user's token counts as stale.
  if (!claims || !record || record.userId !== claims.userId) {
    if (via === 'bearer') {
      throw new AppError('unauthenticated', 'Bearer token: is invalid or expired');
    }
    return { principal: { kind: 'anonymous' }, session: null };
  }
  const actor: Actor = {
    userId: claims.userId,
    user: record.user,
    via: 'session',
    sessionId: claims.sessionId,
    apiKey: null,
  };
  return { principal: { kind: 'user', actor }, session: { claims, via } };
}
