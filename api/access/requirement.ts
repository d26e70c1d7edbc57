import { AppError } from '../../shared/errors';
import type { Principal } from './principal';

/**
 * What a route demands of its caller (`config.auth`; docs/decisions.md, "Identity and
 * access"): `none` (health and docs: no credential read, no rate limit), `public`
 * (credentials optional), `user` (a session or an API key), `internal` (an internal service
 * token) or `bot` (the bot gateway's `X-Service-Bot-Token`, and nothing else).
 */
export type AuthRequirement = 'none' | 'public' | 'user' | 'internal' | 'bot';

const USER_ONLY = 'This endpoint needs a session (cookie or Bearer token) or an API key';

/**
 * The interactive reference (`/docs` and everything under it: its page, scripts, styles and
 * whatever a renderer adds) and the OpenAPI document: open to everyone, no credential read and
 * no rate limit, so a browser loading the page and its assets never meets a 429.
 */
export function isDocsPath(path: string): boolean {
  return path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');
}

/**
 * The requirement a route is registered with. Secure by default: a route that declares
 * nothing needs a user, so forgetting cannot open an endpoint. Docs are open.
 */
export function routeRequirement(
  url: string,
  declared: AuthRequirement | undefined,
): AuthRequirement {
  return declared ?? (isDocsPath(url) ? 'none' : 'user');
}

/**
 * The requirement of a request whose route carries no `config.auth`: a route registered before
 * the auth plugin (its onRoute hook never saw it; the OpenAPI plugin's are) or no route at all
 * (a 404). Documentation paths are open whatever the registration order; anything else counts
 * as `public` (credentials optional, rate-limited), so a scan of unknown paths is limited too.
 */
export function unmarkedRequirement(path: string): AuthRequirement {
  return isDocsPath(path) ? 'none' : 'public';
}

/**
 * Why `principal` may not call a route with `requirement`, or null when it may. An internal
 * token on a user route is 401; a user on an internal route is 403 `forbidden`.
 */
export function refusalOf(requirement: AuthRequirement, principal: Principal): AppError | null {
  switch (requirement) {
    case 'none':
    case 'public':
      return null;
    case 'bot':
      return principal.kind === 'bot'
        ? null
        : new AppError('unauthenticated', 'X-Service-Bot-Token: is missing or wrong');
    case 'user':
      return principal.kind === 'user' ? null : new AppError('unauthenticated', USER_ONLY);
    case 'internal':
      if (principal.kind === 'internal') return null;
      if (principal.kind === 'user') {
        return new AppError('forbidden', 'This endpoint is for internal service tokens only');
      }
      return new AppError('unauthenticated', 'This endpoint needs an internal service token');
  }
}

/** OpenAPI security requirements per route requirement (schemes defined by the openapi plugin). */
export const SECURITY: Record<AuthRequirement, Record<string, string[]>[] | undefined> = {
  none: undefined,
  public: [{}, { session: [] }, { bearer: [] }, { apiKey: [] }],
  user: [{ session: [] }, { bearer: [] }, { apiKey: [] }],
  internal: [{ internalToken: [] }],
  bot: [{ botToken: [] }],
};
