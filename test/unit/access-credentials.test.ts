import { AppError } from '../../shared/errors';
import { credentialOf, type Presented } from '../../api/access/credentials';
import type { AuthRequirement } from '../../api/access/requirement';
import { tokenMatcher } from '../../api/access/service-tokens';

const INTERNAL = 'internal-token-of-the-indexer';
const BOT = 'bot-token-of-the-gateway';
const KEY = `svc_live_${'ab'.repeat(32)}`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const matchers = { internal: tokenMatcher([INTERNAL]), bot: tokenMatcher([BOT]) };
const internalLabel = matchers.internal(INTERNAL);
const botLabel = matchers.bot(BOT);

function presented(headers: Presented['headers'], sessionCookie?: string): Presented {
  return { headers, sessionCookie };
}

function credential(headers: Presented['headers'], cookie?: string, req: AuthRequirement = 'user') {
  return credentialOf(req, presented(headers, cookie), matchers);
}

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('tokenMatcher', () => {
  it('answers a 12-hex-digit label for a configured token, never the token', () => {
    const match = tokenMatcher(['first-token', 'second-token']);
    const first = match('first-token');
    const second = match('second-token');
    expect(first).toMatch(/^[0-9a-f]{12}$/);
    expect(second).toMatch(/^[0-9a-f]{12}$/);
    expect(first).not.toBe(second);
    expect(match('first-token')).toBe(first);
  });

  it('answers null for anything else, and for every value when none is configured', () => {
    const match = tokenMatcher(['first-token']);
    expect(match('first-toke')).toBeNull();
    expect(match('first-token ')).toBeNull();
    expect(match('')).toBeNull();
    expect(tokenMatcher([])('first-token')).toBeNull();
  });
});

describe('credentialOf: precedence', () => {
  it('lets an x-api-key alone decide, beside a malformed Authorization or a cookie', () => {
    expect(credential({ 'x-api-key': KEY, authorization: 'Basic Zm9vOmJhcg==' }, JWT)).toEqual({
      kind: 'api_key',
      rawKey: KEY,
    });
    expect(credential({ 'x-api-key': KEY, authorization: `Bearer ${INTERNAL}` })).toEqual({
      kind: 'api_key',
      rawKey: KEY,
    });
  });

  it('passes an x-api-key on as presented, even a malformed or empty one (the store refuses it)', () => {
    expect(credential({ 'x-api-key': 'nonsense' })).toEqual({
      kind: 'api_key',
      rawKey: 'nonsense',
    });
    expect(credential({ 'x-api-key': '' })).toEqual({ kind: 'api_key', rawKey: '' });
    expect(credential({ 'x-api-key': [KEY, 'other'] })).toEqual({
      kind: 'api_key',
      rawKey: `${KEY},other`,
    });
  });

  it('takes a Bearer token before the cookie', () => {
    expect(credential({ authorization: `Bearer ${JWT}` }, 'cookie-jwt')).toEqual({
      kind: 'session',
      token: JWT,
      via: 'bearer',
    });
  });

  it('reads the cookie when there is no header, and nothing when the cookie is empty', () => {
    expect(credential({}, JWT)).toEqual({ kind: 'session', token: JWT, via: 'cookie' });
    expect(credential({}, '')).toEqual({ kind: 'none' });
    expect(credential({})).toEqual({ kind: 'none' });
  });
});

describe('credentialOf: Bearer tokens', () => {
  it('reads an API key, an internal token or a session JWT, in that order', () => {
    expect(credential({ authorization: `Bearer ${KEY}` })).toEqual({
      kind: 'api_key',
      rawKey: KEY,
    });
    expect(credential({ authorization: `Bearer ${INTERNAL}` })).toEqual({
      kind: 'internal',
      label: internalLabel,
    });
    expect(credential({ authorization: `Bearer ${BOT}` })).toEqual({
      kind: 'session',
      token: BOT,
      via: 'bearer',
    });
  });

  it('treats anything with the key prefix as a key, even a malformed one', () => {
    expect(credential({ authorization: 'Bearer svc_live_short' })).toEqual({
      kind: 'api_key',
      rawKey: 'svc_live_short',
    });
  });

  it('accepts the scheme in any case', () => {
    expect(credential({ authorization: `bearer ${JWT}` })).toMatchObject({ token: JWT });
    expect(credential({ authorization: `BEARER ${JWT}` })).toMatchObject({ token: JWT });
  });

  it.each([
    ['another scheme', 'Basic Zm9vOmJhcg=='],
    ['no token', 'Bearer '],
    ['no space', `Bearer${JWT}`],
    ['two spaces', `Bearer  ${JWT}`],
    ['a space inside', 'Bearer abc def'],
    ['a control character', 'Bearer abc\tdef'],
    ['a token over 4,096 characters', `Bearer ${'a'.repeat(4097)}`],
    ['an empty header', ''],
  ])('refuses a malformed Authorization (%s) with 401, even on a public route', (_, header) => {
    for (const requirement of ['public', 'user', 'internal'] as const) {
      const error = refusal(() => credential({ authorization: header }, JWT, requirement));
      expect(error).toMatchObject({
        code: 'unauthenticated',
        status: 401,
        message: 'Authorization: must be "Bearer <token>"',
      });
    }
  });

  it('accepts a token of exactly 4,096 characters', () => {
    const token = 'a'.repeat(4096);
    expect(credential({ authorization: `Bearer ${token}` })).toMatchObject({ token });
  });
});

describe('credentialOf: the bot gateway', () => {
  it('reads X-Service-Bot-Token on a bot route', () => {
    expect(credential({ 'x-service-bot-token': BOT }, undefined, 'bot')).toEqual({
      kind: 'bot',
      label: botLabel,
    });
  });

  it('reads nothing else there: a key, a session, an internal token mean nothing', () => {
    const others = { 'x-api-key': KEY, authorization: `Bearer ${INTERNAL}` };
    expect(credential(others, JWT, 'bot')).toEqual({ kind: 'none' });
    // Not even a malformed Authorization is looked at.
    expect(credential({ authorization: 'Basic x' }, undefined, 'bot')).toEqual({ kind: 'none' });
    expect(credential({ 'x-service-bot-token': INTERNAL }, undefined, 'bot')).toEqual({
      kind: 'none',
    });
    expect(credential({ 'x-service-bot-token': [BOT, BOT] }, undefined, 'bot')).toEqual({
      kind: 'none',
    });
  });

  it('ignores the bot header everywhere else', () => {
    expect(credential({ 'x-service-bot-token': BOT })).toEqual({ kind: 'none' });
    expect(credential({ authorization: `Bearer ${BOT}` }, undefined, 'public')).toMatchObject({
      kind: 'session',
    });
  });
});
