import type { ApiKeyCredential } from './api-key-store';

/**
 * What the API answers about a user (`GET /me`) besides the id. The credential caches hold it
 * beside the key or session they read it with. A user row is never deleted, but linking a
 * wallet or a Matrix account (`POST /auth/verify`, `POST /auth/matrix`) updates it: every link
 * invalidates the cached sessions and keys of that user on every instance once it commits
 * (`SessionStore.invalidateUser`, `ApiKeyStore.invalidateUser`).
 */
export interface UserProfile {
  /** Lowercase; null for an account without a wallet (no on-chain state). */
  address: string | null;
  /** The linked Matrix account (`@localpart:server`), as its homeserver names it; or null. */
  matrixUserId: string | null;
  createdAt: Date;
}

/** The authenticated user behind a request, and how they authenticated. */
export interface Actor {
  userId: number;
  user: UserProfile;
  via: 'session' | 'api_key';
  /** Set when the caller used a session (cookie or Bearer JWT). */
  sessionId: string | null;
  /** Set when the caller used an API key. */
  apiKey: ApiKeyCredential | null;
}

/** The actor of a route declared `auth: 'user'` (the auth hook has already refused anyone else). */
export function actorOf(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw new Error('actorOf used on a route without auth: user');
  return request.actor;
}
