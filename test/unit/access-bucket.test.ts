import type { Actor } from '../../api/access/actor';
import type { ApiKeyCredential } from '../../api/access/api-key-store';
import { bucketOf, rateLimitHeaders, rateLimitRefusal } from '../../api/access/bucket';
import type { RateDecision } from '../../api/access/rate-limiter';

const LIMITS = { anonymous: 30, user: 120, internal: 6000 };
const IP = '203.0.113.9';

function keyed(rateLimitRpm: number): Actor {
  const key = { id: 'key-1', userId: 7, rateLimitRpm } as ApiKeyCredential;
  return { userId: 7, user: key.user, via: 'api_key', sessionId: null, apiKey: key };
}

const session: Actor = {
  userId: 7,
  user: { address: null, matrixUserId: null, createdAt: new Date(0) },
  via: 'session',
  sessionId: '11111111-2222-3333-4444-555555555555',
  apiKey: null,
};

describe('bucketOf', () => {
  it('counts an anonymous caller by IP on the anonymous limit', () => {
    expect(bucketOf({ kind: 'anonymous' }, IP, LIMITS)).toEqual({ name: `ip:${IP}`, limit: 30 });
    expect(bucketOf({ kind: 'anonymous' }, '::1', LIMITS)).toEqual({ name: 'ip:::1', limit: 30 });
  });

  it('counts a session by its user on the user limit, whatever the IP', () => {
    const principal = { kind: 'user', actor: session } as const;
    expect(bucketOf(principal, IP, LIMITS)).toEqual({ name: 'user:7', limit: 120 });
    expect(bucketOf(principal, '198.51.100.1', LIMITS)).toEqual({ name: 'user:7', limit: 120 });
  });

  it('counts a key with its own rpm in its own bucket, on its own limit', () => {
    const principal = { kind: 'user', actor: keyed(5) } as const;
    expect(bucketOf(principal, IP, LIMITS)).toEqual({ name: 'key:key-1', limit: 5 });
    // Even a key allowed more than its owner.
    const generous = { kind: 'user', actor: keyed(100_000) } as const;
    expect(bucketOf(generous, IP, LIMITS)).toEqual({ name: 'key:key-1', limit: 100_000 });
  });

  it("counts a key with 0 rpm in its owner's bucket", () => {
    const principal = { kind: 'user', actor: keyed(0) } as const;
    expect(bucketOf(principal, IP, LIMITS)).toEqual({ name: 'user:7', limit: 120 });
  });

  it('gives internal and bot tokens a bucket per label on the internal limit, apart from the IP', () => {
    expect(bucketOf({ kind: 'internal', label: 'abc' }, IP, LIMITS)).toEqual({
      name: 'internal:abc',
      limit: 6000,
    });
    expect(bucketOf({ kind: 'bot', label: 'abc' }, IP, LIMITS)).toEqual({
      name: 'bot:abc',
      limit: 6000,
    });
  });
});

function decision(overrides: Partial<RateDecision>): RateDecision {
  return {
    allowed: true,
    limit: 120,
    remaining: 119,
    resetAt: new Date('2026-03-01T12:01:00.000Z'),
    retryAfterSeconds: 37,
    ...overrides,
  };
}

describe('rate-limit answers', () => {
  it('writes X-RateLimit-* from the decision', () => {
    expect(rateLimitHeaders(decision({ remaining: 0, limit: 5 }))).toEqual({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '2026-03-01T12:01:00.000Z',
    });
  });

  it('lets an allowed request through', () => {
    expect(rateLimitRefusal(decision({ remaining: 0 }))).toBeNull();
  });

  it('refuses the rest with 429, the limit and Retry-After', () => {
    const refusal = rateLimitRefusal(decision({ allowed: false, limit: 5, remaining: 0 }));
    expect(refusal).toMatchObject({
      code: 'rate_limited',
      status: 429,
      message: 'Rate limit of 5 requests per minute exceeded; retry after 37 s',
      headers: {
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '2026-03-01T12:01:00.000Z',
        'retry-after': '37',
      },
    });
  });
});
