import { AppError } from '../../shared/errors';
import type { AuthRequirement } from './requirement';
import type { TokenMatcher } from './service-tokens';

/**
 * Which credential a request carries, and which one decides when it carries several
 * (docs/decisions.md, "Identity and access"). Synchronous: nothing here reads a store.
 */
export type Credential =
  | { kind: 'none' }
  | { kind: 'api_key'; rawKey: string }
  | { kind: 'session'; token: string; via: 'bearer' | 'cookie' }
  | { kind: 'internal'; label: string }
  | { kind: 'bot'; label: string };

/** What a request presents, as Fastify parsed it. */
export interface Presented {
  headers: {
    'x-api-key'?: string | string[] | undefined;
    authorization?: string | undefined;
    'x-service-bot-token'?: string | string[] | undefined;
  };
  /** The value of the session cookie, if the request has one. */
  sessionCookie: string | undefined;
}

export interface ServiceTokenMatchers {
  internal: TokenMatcher;
  bot: TokenMatcher;
}

/** Raw keys are `svc_live_` + hex (docs/decisions.md, "Raw key length"). */
const API_KEY_PREFIX = 'svc_live_';
const BEARER = /^Bearer ([\x21-\x7e]{1,4096})$/i;

/**
 * The credential that decides, in order: on a `bot` route the `X-Service-Bot-Token` and
 * nothing else; elsewhere an `x-api-key` alone, whatever else the request carries; then a
 * Bearer token (an API key, an internal token or a session JWT); then the session cookie.
 * A malformed `Authorization` header is 401 (unless an `x-api-key` decided first).
 */
export function credentialOf(
  requirement: AuthRequirement,
  presented: Presented,
  matchers: ServiceTokenMatchers,
): Credential {
  const { headers } = presented;
  if (requirement === 'bot') {
    // The bot gateway reads its own header only: a session or key there means nothing.
    const token = headers['x-service-bot-token'];
    const label = typeof token === 'string' ? matchers.bot(token) : null;
    return label ? { kind: 'bot', label } : { kind: 'none' };
  }
  const headerKey = headers['x-api-key'];
  if (headerKey !== undefined) return { kind: 'api_key', rawKey: String(headerKey) };
  const bearer = bearerOf(headers.authorization);
  if (bearer !== null) {
    if (bearer.startsWith(API_KEY_PREFIX)) return { kind: 'api_key', rawKey: bearer };
    const label = matchers.internal(bearer);
    if (label) return { kind: 'internal', label };
    return { kind: 'session', token: bearer, via: 'bearer' };
  }
  // An empty cookie is no cookie.
  if (presented.sessionCookie) {
    return { kind: 'session', token: presented.sessionCookie, via: 'cookie' };
  }
  return { kind: 'none' };
}

/** The token of an `Authorization: Bearer <token>` header; null without the header. */
function bearerOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  if (!match?.[1]) {
    throw new AppError('unauthenticated', 'Authorization: must be "Bearer <token>"');
  }
  return match[1];
}
