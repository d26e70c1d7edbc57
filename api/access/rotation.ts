import type { ResolvedSession } from './principal';
import {
  SESSION_COOKIE,
  SESSION_COOKIE_OPTIONS,
  SESSION_LIFETIME_SECONDS,
  SESSION_ROTATE_AFTER_SECONDS,
  type SessionTokens,
} from './session-tokens';

/** A fresh session cookie, and the expiry the server-side session moves to with it. */
export interface Rotation {
  sessionId: string;
  sessionExpiresAt: Date;
  cookie: {
    name: string;
    value: string;
    options: typeof SESSION_COOKIE_OPTIONS & { maxAge: number };
  };
}

/**
 * Whether a session is rotated on this request, and how (docs/decisions.md, "Sessions"):
 * rotation is sliding, so a cookie-borne session whose token is 24 h old or more gets a fresh
 * 30-day cookie. Bearer clients are never rotated: they do not read cookies.
 */
export function rotationOf(
  session: ResolvedSession | null,
  nowSeconds: number,
  tokens: Pick<SessionTokens, 'sign'>,
): Rotation | null {
  if (!session || session.via !== 'cookie') return null;
  const { claims } = session;
  if (nowSeconds - claims.issuedAt < SESSION_ROTATE_AFTER_SECONDS) return null;
  const fresh = tokens.sign(claims.userId, claims.sessionId, nowSeconds);
  return {
    sessionId: claims.sessionId,
    sessionExpiresAt: new Date(fresh.claims.expiresAt * 1000),
    cookie: {
      name: SESSION_COOKIE,
      value: fresh.token,
      options: { ...SESSION_COOKIE_OPTIONS, maxAge: SESSION_LIFETIME_SECONDS },
    },
  };
}
