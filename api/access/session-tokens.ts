import { createSigner, createVerifier } from 'fast-jwt';

/**
 * Session JWTs (docs/spec/contract.md §3): HS256 with `sub` (user id as a string, as RFC 7519 wants),
 * `sid` (the server-side session), `iat` and `exp`, 30 days. The cookie carries the same JWT.
 */

export const SESSION_COOKIE = 'svc_session';
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 3600;
/** A session older than this gets a fresh cookie on its next response. */
export const SESSION_ROTATE_AFTER_SECONDS = 24 * 3600;

export const SESSION_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  path: '/',
} as const;

export interface SessionClaims {
  userId: number;
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

const SESSION_ID = /^[0-9a-f-]{36}$/;

export function createSessionTokens(secret: string) {
  const signer = createSigner({ key: secret, algorithm: 'HS256' });
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'] });

  return {
    sign(
      userId: number,
      sessionId: string,
      nowSeconds: number,
    ): { token: string; claims: SessionClaims } {
      const claims = {
        userId,
        sessionId,
        issuedAt: nowSeconds,
        expiresAt: nowSeconds + SESSION_LIFETIME_SECONDS,
      };
      const token = signer({
        sub: String(userId),
        sid: sessionId,
        iat: claims.issuedAt,
        exp: claims.expiresAt,
      });
      return { token, claims };
    },

    /** The claims of a well-signed, unexpired token; null for anything else (never throws). */
    verify(token: string): SessionClaims | null {
      let payload: Record<string, unknown>;
      try {
        payload = verifier(token) as Record<string, unknown>;
      } catch {
        return null;
      }
      const { sub, sid, iat, exp } = payload;
      const userId = typeof sub === 'string' && /^[1-9]\d{0,9}$/.test(sub) ? Number(sub) : NaN;
      if (!Number.isSafeInteger(userId) || typeof sid !== 'string' || !SESSION_ID.test(sid)) {
        return null;
      }
      if (typeof iat !== 'number' || typeof exp !== 'number') return null;
      return { userId, sessionId: sid, issuedAt: iat, expiresAt: exp };
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
