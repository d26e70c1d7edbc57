import { AppError } from '../../shared/errors';
import type { ApiKeyCredential } from '../../api/access/api-key-store';
import type { Credential } from '../../api/access/credentials';
import { resolvePrincipal, type PrincipalStores } from '../../api/access/principal';
import type { SessionRecord } from '../../api/access/session-store';
import type { SessionClaims } from '../../api/access/session-tokens';

const USER = { address: '0xabc', matrixUserId: null, createdAt: new Date('2026-01-01T00:00:00Z') };
const SESSION_ID = '11111111-2222-3333-4444-555555555555';
const KEY: ApiKeyCredential = {
  id: 'key-1',
  userId: 7,
  keyHash: 'hash',
  rateLimitRpm: 0,
  spendLimit: null,
  spendPeriod: 'month',
  spendUsed: 0n,
  spendPeriodStart: new Date('2026-01-01T00:00:00Z'),
  revokedAt: null,
  expiresAt: null,
  user: USER,
};
const CLAIMS: SessionClaims = { userId: 7, sessionId: SESSION_ID, issuedAt: 1000, expiresAt: 9000 };
const RECORD: SessionRecord = {
  userId: 7,
  expiresAt: new Date('2030-01-01T00:00:00Z'),
  revokedAt: null,
  user: USER,
};

/** Stores that know one key (`good-key`) and one session (token `good-jwt`). */
function stores(overrides: { record?: SessionRecord | null; claims?: SessionClaims } = {}) {
  const calls: string[] = [];
  const fake: PrincipalStores = {
    apiKeys: {
      authenticate: async (raw: string) => {
        calls.push(`key:${raw}`);
        return raw === 'good-key' ? KEY : null;
      },
    },
    sessions: {
      findLive: async (id: string) => {
        calls.push(`session:${id}`);
        return id === SESSION_ID
          ? overrides.record === undefined
            ? RECORD
            : overrides.record
          : null;
      },
    },
    tokens: {
      verify: (token: string) => (token === 'good-jwt' ? (overrides.claims ?? CLAIMS) : null),
    },
  };
  return { fake, calls };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (err: unknown) => err,
  );
  if (error instanceof AppError) return error;
  throw error;
}

describe('resolvePrincipal', () => {
  it('makes no credential anonymous without reading a store', async () => {
    const { fake, calls } = stores();
    expect(await resolvePrincipal({ kind: 'none' }, fake)).toEqual({
      principal: { kind: 'anonymous' },
      session: null,
    });
    expect(calls).toEqual([]);
  });

  it('passes internal and bot tokens through by label', async () => {
    const { fake, calls } = stores();
    expect(await resolvePrincipal({ kind: 'internal', label: 'abc' }, fake)).toEqual({
      principal: { kind: 'internal', label: 'abc' },
      session: null,
    });
    expect(await resolvePrincipal({ kind: 'bot', label: 'def' }, fake)).toEqual({
      principal: { kind: 'bot', label: 'def' },
      session: null,
    });
    expect(calls).toEqual([]);
  });

  it('resolves a live API key to its owner, with the key and no session', async () => {
    const { fake } = stores();
    const { principal, session } = await resolvePrincipal(
      { kind: 'api_key', rawKey: 'good-key' },
      fake,
    );
    expect(principal).toEqual({
      kind: 'user',
      actor: { userId: 7, user: USER, via: 'api_key', sessionId: null, apiKey: KEY },
    });
    expect(session).toBeNull();
  });

  it('refuses an unknown, revoked or malformed API key with 401 invalid_api_key', async () => {
    const { fake } = stores();
    const error = await refusal(resolvePrincipal({ kind: 'api_key', rawKey: 'bad-key' }, fake));
    expect(error).toMatchObject({
      code: 'invalid_api_key',
      status: 401,
      message: 'API key: is invalid or revoked',
    });
  });

  it.each(['bearer', 'cookie'] as const)('resolves a live session by %s', async (via) => {
    const { fake } = stores();
    const credential: Credential = { kind: 'session', token: 'good-jwt', via };
    expect(await resolvePrincipal(credential, fake)).toEqual({
      principal: {
        kind: 'user',
        actor: { userId: 7, user: USER, via: 'session', sessionId: SESSION_ID, apiKey: null },
      },
      session: { claims: CLAIMS, via },
    });
  });

  const stale: [string, string, Parameters<typeof stores>[0]][] = [
    ['a token that does not verify', 'bad-jwt', {}],
    ['a session that is not live', 'good-jwt', { record: null }],
    ['a session of another user', 'good-jwt', { record: { ...RECORD, userId: 8 } }],
  ];

  it.each(stale)('refuses %s by Bearer with 401', async (_, token, overrides) => {
    const { fake } = stores(overrides);
    const credential: Credential = { kind: 'session', token, via: 'bearer' };
    expect(await refusal(resolvePrincipal(credential, fake))).toMatchObject({
      code: 'unauthenticated',
      status: 401,
      message: 'Bearer token: is invalid or expired',
    });
  });

  it.each(stale)('makes %s by cookie anonymous', async (_, token, overrides) => {
    const { fake } = stores(overrides);
    const credential: Credential = { kind: 'session', token, via: 'cookie' };
    expect(await resolvePrincipal(credential, fake)).toEqual({
      principal: { kind: 'anonymous' },
      session: null,
    });
  });

  it('does not look the session up when the token does not verify', async () => {
    const { fake, calls } = stores();
    await resolvePrincipal({ kind: 'session', token: 'bad-jwt', via: 'cookie' }, fake);
    expect(calls).toEqual([]);
  });
});
