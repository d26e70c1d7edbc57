import { rotationOf } from '../../api/access/rotation';
import { createSessionTokens, type SessionClaims } from '../../api/access/session-tokens';

const tokens = createSessionTokens('a-server-secret-of-at-least-32-characters');
const DAY = 24 * 3600;
const ISSUED = 1_800_000_000;
const claims: SessionClaims = {
  userId: 7,
  sessionId: '11111111-2222-3333-4444-555555555555',
  issuedAt: ISSUED,
  expiresAt: ISSUED + 30 * DAY,
};

describe('rotationOf', () => {
  it('leaves a cookie session younger than 24 h alone', () => {
    expect(rotationOf({ claims, via: 'cookie' }, ISSUED, tokens)).toBeNull();
    expect(rotationOf({ claims, via: 'cookie' }, ISSUED + DAY - 1, tokens)).toBeNull();
  });

  it('rotates a cookie session at 24 h: a fresh 30-day token for the same session', () => {
    const now = ISSUED + DAY;
    const rotation = rotationOf({ claims, via: 'cookie' }, now, tokens);
    expect(rotation).toEqual({
      sessionId: claims.sessionId,
      sessionExpiresAt: new Date((now + 30 * DAY) * 1000),
      cookie: {
        name: 'svc_session',
        value: expect.any(String),
        options: { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: 30 * DAY },
      },
    });
    // The verifier checks `exp` against the real clock: the new token is judged by its claims.
    const payload = JSON.parse(
      Buffer.from(rotation!.cookie.value.split('.')[1]!, 'base64url').toString(),
    );
    expect(payload).toEqual({
      sub: '7',
      sid: claims.sessionId,
      iat: now,
      exp: now + 30 * DAY,
    });
  });

  it('rotates a cookie session older still, from now', () => {
    const now = ISSUED + 20 * DAY;
    const rotation = rotationOf({ claims, via: 'cookie' }, now, tokens);
    expect(rotation?.sessionExpiresAt).toEqual(new Date((now + 30 * DAY) * 1000));
  });

  it('never rotates a Bearer session, however old', () => {
    expect(rotationOf({ claims, via: 'bearer' }, ISSUED + DAY, tokens)).toBeNull();
    expect(rotationOf({ claims, via: 'bearer' }, ISSUED + 29 * DAY, tokens)).toBeNull();
  });

  it('has nothing to rotate without a session (keys, tokens, anonymous)', () => {
    expect(rotationOf(null, ISSUED + DAY, tokens)).toBeNull();
  });
});
