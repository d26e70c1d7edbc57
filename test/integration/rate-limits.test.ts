import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../api/app';
import { useTestApp } from '../helpers/context';
import { createKey, signIn, type CreatedKey, type SignedIn } from '../helpers/auth';
import { awaitFreshUtcMinute } from '../helpers/clock';

/**
 * Rate limits (docs/spec/contract.md §5, spec Limits): one bucket per IP, user, internal token or API
 * key, a fixed window aligned to the UTC minute, counted in Redis so that any number of API
 * instances share one exact count.
 *
 * Windows are per UTC minute, so every burst first makes sure enough of the current minute
 * is left (`awaitFreshWindow`) for all its requests to land in one window.
 */

const ANONYMOUS_RPM = 15;
const USER_RPM = 20;
const INTERNAL_RPM = 12;
const INTERNAL_ALPHA = 'internal-alpha-token-for-rate-limit-tests';
const INTERNAL_BETA = 'internal-beta-token-for-rate-limit-tests';
const MINUTE_MS = 60_000;

type Response = LightMyRequestResponse;
type Headers = Record<string, string>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextBoundary = (at = Date.now()) => (Math.floor(at / MINUTE_MS) + 1) * MINUTE_MS;

/** Sleeps into the next UTC minute when less than 8 s of the current one is left. */
const awaitFreshWindow = () => awaitFreshUtcMinute(8_000);

/** Test-only routes: one for internal tokens, one public. */
const rateProbe: FastifyPluginAsyncZod = async (app) => {
  app.get('/__probe/internal', { config: { auth: 'internal' } }, async () => ({ ok: true }));
  app.get('/__probe/public', { config: { auth: 'public' } }, async () => ({ ok: true }));
};

// Two API instances with their own pools and connections on one Redis, like two processes.
const test = useTestApp({
  plugins: [rateProbe],
  env: {
    RATE_LIMIT_ANONYMOUS_RPM: String(ANONYMOUS_RPM),
    RATE_LIMIT_USER_RPM: String(USER_RPM),
    RATE_LIMIT_INTERNAL_RPM: String(INTERNAL_RPM),
    INTERNAL_TOKENS: `${INTERNAL_ALPHA},${INTERNAL_BETA}`,
  },
  apis: 2,
});
/** Owner of the keys of the burst, countdown, Retry-After and invalid-key tests. */
let owner: SignedIn;
let burstKey: CreatedKey;
let countdownKey: CreatedKey;
let retryKey: CreatedKey;
let plainKey: CreatedKey;
let revokedKey: CreatedKey;

const me = (app: App, headers: Headers, remoteAddress?: string) =>
  app.inject({ method: 'GET', url: '/me', headers, remoteAddress });
const nonce = (app: App, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/auth/nonce', remoteAddress });
const internal = (app: App, token: string, remoteAddress?: string) =>
  app.inject({
    method: 'GET',
    url: '/__probe/internal',
    headers: { authorization: `Bearer ${token}` },
    remoteAddress,
  });
const keyHeaders = (key: CreatedKey): Headers => ({ 'x-api-key': key.key });
/** Alternates between the two instances, like a load balancer. */
const instance = (i: number) => (i % 2 === 0 ? test.app : test.other);

function expectAccepted(response: Response, limit: number, remaining?: number): void {
  expect(response.statusCode).toBe(200);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  if (remaining !== undefined) {
    expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  }
}

function expectRateLimited(response: Response, limit: number): void {
  expect(response.statusCode).toBe(429);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as { error: { code: unknown; message: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  expect(body.error.code).toBe('rate_limited');
  expect(typeof body.error.message).toBe('string');
  expect((body.error.message as string).length).toBeGreaterThan(0);
  expect(response.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
}

/**
 * Retry-After is the whole seconds left until X-RateLimit-Reset, rounded up (at least 1), as
 * seen at some instant between sending the request and receiving its response.
 */
function expectRetryAfterUntilReset(response: Response, sentAt: number, receivedAt: number) {
  const reset = Date.parse(response.headers['x-ratelimit-reset'] as string);
  const secondsLeft = (at: number) => Math.max(1, Math.ceil((reset - at) / 1000));
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(secondsLeft(receivedAt));
  expect(retryAfter).toBeLessThanOrEqual(secondsLeft(sentAt));
}

/** The accepted requests of a burst are exactly `limit`, each with its own remaining slot. */
function expectExactBurst(responses: Response[], limit: number): void {
  const accepted = responses.filter((response) => response.statusCode !== 429);
  const rejected = responses.filter((response) => response.statusCode === 429);
  // Counts, not arrays: a failure then reads "Expected: 10, Received: 22".
  expect(accepted.length).toBe(limit);
  expect(rejected.length).toBe(responses.length - limit);
  for (const response of accepted) expectAccepted(response, limit);
  const remaining = accepted.map((r) => Number(r.headers['x-ratelimit-remaining']));
  expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i));
  for (const response of rejected) expectRateLimited(response, limit);
}

beforeAll(async () => {
  // Sign-ins are anonymous requests from 127.0.0.1: this file signs in 3 users (6 requests),
  // well under the anonymous limit; the anonymous tests use other addresses.
  owner = await signIn(test.app);
  burstKey = await createKey(test.app, owner, { name: 'burst', rate_limit_rpm: 10 });
  countdownKey = await createKey(test.app, owner, { name: 'countdown', rate_limit_rpm: 5 });
  retryKey = await createKey(test.app, owner, { name: 'retry', rate_limit_rpm: 2 });
  plainKey = await createKey(test.app, owner, { name: 'plain', rate_limit_rpm: 4 });
  revokedKey = await createKey(test.app, owner, { name: 'revoked', rate_limit_rpm: 4 });
  const revoke = await test.app.inject({
    method: 'DELETE',
    url: `/me/api-keys/${revokedKey.id}`,
    headers: { cookie: owner.cookie },
  });
  expect(revoke.statusCode).toBe(204);
}, 60_000);

describe('rate limits are exact across two API instances', () => {
  it('accepts exactly rate_limit_rpm requests of an API key in a concurrent burst', async () => {
    const limit = 10;
    await awaitFreshWindow();
    const burst = await Promise.all(
      Array.from({ length: 3 * limit }, (_, i) => me(instance(i), keyHeaders(burstKey))),
    );
    expectExactBurst(burst, limit);
  }, 30_000);

  it('accepts exactly the user limit for one session, by cookie and by Bearer', async () => {
    const user = await signIn(test.other);
    await awaitFreshWindow();
    const burst = await Promise.all(
      Array.from({ length: 3 * USER_RPM }, (_, i) =>
        me(
          instance(i),
          // Cookie and Bearer are the same user, so the same bucket.
          i % 3 === 0 ? { authorization: `Bearer ${user.token}` } : { cookie: user.cookie },
        ),
      ),
    );
    expectExactBurst(burst, USER_RPM);
  }, 30_000);

  it('accepts exactly the anonymous limit per IP, and another IP is unaffected', async () => {
    await awaitFreshWindow();
    const burst = await Promise.all(
      Array.from({ length: 3 * ANONYMOUS_RPM }, (_, i) => nonce(instance(i), '203.0.113.7')),
    );
    expectExactBurst(burst, ANONYMOUS_RPM);

    const otherIp = await test.other.inject({
      method: 'GET',
      url: '/__probe/public',
      remoteAddress: '203.0.113.8',
    });
    expectAccepted(otherIp, ANONYMOUS_RPM, ANONYMOUS_RPM - 1);
  }, 30_000);
});

describe('rate-limit headers', () => {
  it('count down to 0 with the limit and the next UTC minute as reset', async () => {
    const limit = 5;
    await awaitFreshWindow();
    const before = Date.now();
    const boundary = nextBoundary(before);
    for (let i = 0; i < limit; i++) {
      const response = await me(instance(i), keyHeaders(countdownKey));
      expectAccepted(response, limit, limit - 1 - i);
      const reset = response.headers['x-ratelimit-reset'] as string;
      expect(reset).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
      expect(new Date(reset).toISOString()).toBe(reset);
      expect(Date.parse(reset)).toBe(boundary);
      const ahead = Date.parse(reset) - Date.now();
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(MINUTE_MS);
    }
    const sentAt = Date.now();
    const over = await me(test.other, keyHeaders(countdownKey));
    expectRateLimited(over, limit);
    expect(over.headers['x-ratelimit-reset']).toBe(new Date(boundary).toISOString());
    expectRetryAfterUntilReset(over, sentAt, Date.now());
  }, 30_000);
});

describe('buckets', () => {
  it('keeps a key with its own rpm apart from its owner, and shares the owner bucket at rpm 0', async () => {
    const user = await signIn(test.app);
    // Creating keys is itself a session request; the checks below are relative to that.
    const ownKey = await createKey(test.app, user, { name: 'own', rate_limit_rpm: 3 });
    const otherKey = await createKey(test.app, user, { name: 'other', rate_limit_rpm: 5 });
    const sharedKey = await createKey(test.app, user, { name: 'shared', rate_limit_rpm: 0 });
    const session = { cookie: user.cookie };
    await awaitFreshWindow();

    const first = await me(test.app, session);
    expectAccepted(first, USER_RPM);
    const left = Number(first.headers['x-ratelimit-remaining']);
    expect(left).toBeGreaterThanOrEqual(USER_RPM - 4);

    // The key's own bucket runs out; the session bucket does not move.
    for (let i = 0; i < 3; i++) expectAccepted(await me(instance(i), keyHeaders(ownKey)), 3, 2 - i);
    expectRateLimited(await me(test.other, keyHeaders(ownKey)), 3);
    expectAccepted(await me(test.other, session), USER_RPM, left - 1);

    // A key with rpm 0 counts in the owner's bucket (both ways).
    expectAccepted(await me(test.app, keyHeaders(sharedKey)), USER_RPM, left - 2);
    expectAccepted(
      await me(test.other, { authorization: `Bearer ${user.token}` }),
      USER_RPM,
      left - 3,
    );

    // Exhaust the user bucket through the session: exactly the remaining slots pass.
    let passed = 0;
    let last: Response | undefined;
    for (let i = 0; i < USER_RPM + 2; i++) {
      last = await me(instance(i), session);
      if (last.statusCode === 429) break;
      expectAccepted(last, USER_RPM, left - 4 - passed);
      passed++;
    }
    expect(passed).toBe(left - 3);
    expectRateLimited(last!, USER_RPM);

    // Now the rpm-0 key is limited too, while a key with its own rpm still passes.
    expectRateLimited(await me(test.app, keyHeaders(sharedKey)), USER_RPM);
    expectRateLimited(await me(test.other, keyHeaders(sharedKey)), USER_RPM);
    expectAccepted(await me(test.other, keyHeaders(otherKey)), 5, 4);
  }, 30_000);

  it('gives each internal token its own RATE_LIMIT_INTERNAL_RPM bucket, apart from its IP', async () => {
    const ip = '198.51.100.5';
    await awaitFreshWindow();
    for (let i = 0; i < INTERNAL_RPM; i++) {
      const response = await internal(instance(i), INTERNAL_ALPHA, ip);
      expectAccepted(response, INTERNAL_RPM, INTERNAL_RPM - 1 - i);
      expect(response.json()).toEqual({ ok: true });
    }
    expectRateLimited(await internal(test.app, INTERNAL_ALPHA, ip), INTERNAL_RPM);
    expectRateLimited(await internal(test.other, INTERNAL_ALPHA, ip), INTERNAL_RPM);

    // The other token has its own bucket, and the IP's anonymous bucket was not touched.
    expectAccepted(await internal(test.other, INTERNAL_BETA, ip), INTERNAL_RPM, INTERNAL_RPM - 1);
    expectAccepted(await nonce(test.app, ip), ANONYMOUS_RPM, ANONYMOUS_RPM - 1);
  }, 30_000);
});

describe('invalid API keys', () => {
  it('get 401 invalid_api_key, never 429, and consume no bucket', async () => {
    const ip = '192.0.2.50';
    const lastChar = plainKey.key.slice(-1);
    const invalid = [
      `svc_live_${randomBytes(32).toString('hex')}`,
      // The prefix of a real key with another secret.
      `${plainKey.key.slice(0, -1)}${lastChar === '0' ? '1' : '0'}`,
      revokedKey.key,
      'not-a-key',
    ];
    await awaitFreshWindow();
    const requests: Promise<Response>[] = [];
    for (let round = 0; round < 6; round++) {
      invalid.forEach((key, i) => {
        const app = instance(round + i);
        requests.push(me(app, { 'x-api-key': key }, ip));
        // Even alongside a valid session, an invalid x-api-key alone decides.
        if (round === 0) requests.push(me(app, { 'x-api-key': key, cookie: owner.cookie }, ip));
        if (key.startsWith('svc_live_')) {
          requests.push(me(app, { authorization: `Bearer ${key}` }, ip));
        }
      });
    }
    const responses = await Promise.all(requests);
    // More than the anonymous limit of the address, and still no 429.
    expect(responses.length).toBeGreaterThan(ANONYMOUS_RPM);
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: 'invalid_api_key', message: expect.any(String) },
      });
    }

    // Nothing was counted: not the address, not the real key whose prefix was used.
    expectAccepted(await nonce(test.app, ip), ANONYMOUS_RPM, ANONYMOUS_RPM - 1);
    expectAccepted(await me(test.other, keyHeaders(plainKey)), 4, 3);
  }, 30_000);
});

describe('Retry-After', () => {
  it('is truthful: still limited just before it, accepted just after it', async () => {
    const limit = 2;
    await awaitFreshWindow();
    for (let i = 0; i < limit; i++) {
      expectAccepted(await me(instance(i), keyHeaders(retryKey)), limit, limit - 1 - i);
    }
    const sentAt = Date.now();
    const over = await me(test.app, keyHeaders(retryKey));
    const at = Date.now();
    expectRateLimited(over, limit);
    expectRetryAfterUntilReset(over, sentAt, at);
    const retryAfter = Number(over.headers['retry-after']);
    const reset = Date.parse(over.headers['x-ratelimit-reset'] as string);

    /** Requests counted in the next window before the one after Retry-After. */
    let countedInNext = 0;
    if (retryAfter >= 3) {
      // 2.5 s before Retry-After runs out (it is rounded up, so at least 1.5 s before the
      // window rolls), it has not rolled yet: a request answered before the reset was
      // counted in the full window. One that a loaded machine stalled past the reset was
      // counted in one window or the other, and says so in its reset.
      await sleep(at + (retryAfter - 2.5) * 1000 - Date.now());
      const early = await me(test.other, keyHeaders(retryKey));
      const window = Date.parse(early.headers['x-ratelimit-reset'] as string);
      if (Date.now() < reset || window === reset) {
        expectRateLimited(early, limit);
        expect(window).toBe(reset);
      } else {
        expectAccepted(early, limit, limit - 1);
        countedInNext = 1;
      }
    }
    await sleep(at + retryAfter * 1000 + 250 - Date.now());
    const after = await me(test.other, keyHeaders(retryKey));
    expectAccepted(after, limit, limit - 1 - countedInNext);
    expect(Date.parse(after.headers['x-ratelimit-reset'] as string)).toBe(reset + MINUTE_MS);
  }, 90_000);
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  const proxied = useTestApp({ env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_ANONYMOUS_RPM: '2' } });

  it('counts anonymous requests per forwarded client address', async () => {
    await awaitFreshWindow();
    const from = (client: string) =>
      proxied.app.inject({
        method: 'POST',
        url: '/auth/nonce',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      });
    const first = [await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7')];
    expect(first.map((response) => response.statusCode)).toEqual([200, 200, 429]);
    expect((await from('198.51.100.9')).statusCode).toBe(200);
  });
});
