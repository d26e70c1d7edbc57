import type { ApiKeyCredential } from './api-key-store';

/** The authenticated user behind a request, and how they authenticated. */
export interface Actor {
  userId: number;
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
